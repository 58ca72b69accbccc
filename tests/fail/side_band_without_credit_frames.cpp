// expect: fabric: post_side_band needs a flow control that sends periodic Credits
// Words ride in the spare bits of periodic Credits (LO|FA|MO's LiFaMa messages in
// APEnet+'s): a torus whose credits go back one per flit freed has no such
// Credits, and posting one fails to compile. On APEnet+'s links it compiles.
#include <fabric/composition.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Flow = fabric::Credit;
#else
using Flow = fabric::ApenetCredit;
#endif
using Net = fabric::Fabric<fabric::Torus<3, fabric::ApenetLinkT<2>, fabric::StaticExtents<4, 2, 2>>,
                           fabric::DorTieSplit<fabric::Dateline>, Flow>;

inline void post(fabric::CycleSimulator<Net>& sim) { sim.post_side_band(fabric::NodeId{5}, 1, 100); }
