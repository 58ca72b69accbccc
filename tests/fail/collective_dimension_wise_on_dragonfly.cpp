// expect: fabric: DimensionWise<...> runs along the dimensions of a torus, mesh or HyperX
// A dimension-wise allreduce asked of a dragonfly, which has groups, not dimensions;
// its twin asks it of a torus.
#include <fabric/collective/policies.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
[[maybe_unused]] auto g = fabric::Allreduce<fabric::DimensionWise<>>{}.graph(fabric::Dragonfly<>(2, 1), {.bytes = 64});
#else
[[maybe_unused]] auto g = fabric::Allreduce<fabric::DimensionWise<>>{}.graph(fabric::Torus<2>({2, 2}), {.bytes = 64});
#endif
}  // namespace
