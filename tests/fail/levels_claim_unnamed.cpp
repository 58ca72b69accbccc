// expect: fabric: this routing policy claims vc_levels_increase but gives no static level
// A policy that claims increasing VC levels must say what the levels are.
#include <fabric/composition.hpp>
#include <fabric/routing/nearest_neighbour.hpp>
#include <fabric/topology/torus.hpp>

namespace {
struct Claims : fabric::NearestNeighbour {
#ifdef FABRIC_MUST_NOT_COMPILE
    static int level(std::size_t, std::uint8_t) = delete;
#endif
};
using Net = fabric::Fabric<fabric::Torus<2>, Claims>;
static_assert(sizeof(Net) > 0);
}  // namespace
