// expect: fabric: Islip<I> needs at least one iteration
// iSLIP with no iteration would never match an input to an output.
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using A = fabric::Islip<0>;
#else
using A = fabric::Islip<1>;
#endif
static_assert(sizeof(A) > 0);
}  // namespace
