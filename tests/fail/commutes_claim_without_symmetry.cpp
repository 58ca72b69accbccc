// expect: fabric: this routing policy claims commutes_with_translations for a topology that states no symmetry
// A policy may claim to commute with a topology's translations only where the
// topology states them: dimension order on a mesh (which has none) claiming it is
// refused by link_load. The twin makes no claim.
#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

namespace {
struct Claims : fabric::DorTieSplit<> {
#ifdef FABRIC_MUST_NOT_COMPILE
    template <class T>
    static constexpr bool commutes_with_translations = true;
#endif
};
[[maybe_unused]] double peak() {
    const fabric::Fabric<fabric::Mesh<2>, Claims> net{fabric::Mesh<2>{4, 4}};
    return fabric::link_load(net, fabric::UniformTraffic(16)).max_load();
}
}  // namespace
