// expect: fabric: link_load needs a fabric type
#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

inline auto loads() {
#ifdef FABRIC_MUST_NOT_COMPILE
    const fabric::Torus<2> net{{4, 4}};  // a topology, not a fabric
#else
    const fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>> net{fabric::Torus<2>{{4, 4}}};
#endif
    return fabric::link_load(net, fabric::UniformTraffic(16));
}
