// expect: fabric: this routing policy does not fit this topology
// PERCS indirect routing needs supernodes and D links; a torus has neither.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<3>, fabric::Indirect>;
#else
using Net = fabric::Fabric<fabric::Torus<3>, fabric::DorTieSplit<>>;
#endif
static_assert(sizeof(Net) > 0);
