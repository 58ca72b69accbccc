// expect: fabric: the second parameter of Fabric must be a routing policy for this topology
// An int in the routing slot is refused with a sentence, not a compiler error
// about a missing member.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<2>, int>;
#else
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>>;
#endif
static_assert(sizeof(Net) > 0);
