// expect: fabric: Hypercube<MaxDims> takes 1 to 30 dimensions
// A 0-cube has no link, and past 30 dimensions node ids overflow 32 bits.
#include <fabric/topology/hypercube.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using C = fabric::Hypercube<31>;
#else
using C = fabric::Hypercube<30>;
#endif
static_assert(sizeof(C) > 0);
}  // namespace
