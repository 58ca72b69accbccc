// expect: fabric: the channel-dependency graph of this routing on this topology has a cycle
// One virtual channel and no dateline on a static 4x4 torus: the rings can deadlock.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<2, fabric::BasicLink<1>, fabric::StaticExtents<4, 4>>,
                           fabric::DorTieSplit<fabric::NoDateline>>;
#else
using Net = fabric::Fabric<fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<4, 4>>,
                           fabric::DorTieSplit<fabric::Dateline>>;
#endif
static_assert(sizeof(Net) > 0);
