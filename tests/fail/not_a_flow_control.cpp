// expect: fabric: the third parameter of Fabric must model fabric::FlowControl
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>, int>;
#else
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>, fabric::Credit>;
#endif
static_assert(sizeof(Net) > 0);
