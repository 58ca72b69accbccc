// expect: fabric: Speedup<A, In, Out> takes speedups from 1 to 16
// A speedup of 0 would give a port no crossbar input (or output) at all.
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using A = fabric::Speedup<fabric::SeparableSwitch, 0, 1>;
#else
using A = fabric::Speedup<fabric::SeparableSwitch, 1, 1>;
#endif
static_assert(sizeof(A) > 0);
}  // namespace
