// expect: fabric: this routing policy does not fit this topology
// Dimension-order routing is written for the k-ary n-cube, not for PERCS.
#include <fabric/routing/dimension_order.hpp>
#include <fabric/systems/percs.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::PercsFabric<fabric::DorTieSplit<>>;
#else
using Net = fabric::PercsFabric<fabric::Direct>;
#endif
static_assert(sizeof(Net) > 0);
