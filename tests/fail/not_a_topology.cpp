// expect: fabric: the first parameter of Fabric must model fabric::Topology
// An int is no topology; a torus is.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<int, fabric::DorTieSplit<>>;
#else
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>>;
#endif
static_assert(sizeof(Net) > 0);
