// expect: fabric: the flow-control protocol cannot drive one of the topology's link types
// GF11's synchronous SIMD timing schedules a conflict-free network; it drives no
// link of a packet network (flow/synchronous.hpp). Credits do.
#include <fabric/composition.hpp>
#include <fabric/flow/synchronous.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>, fabric::Synchronous>;
#else
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>, fabric::Credit>;
#endif
static_assert(sizeof(Net) > 0);
