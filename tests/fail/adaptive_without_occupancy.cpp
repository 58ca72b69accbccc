// expect: fabric: an adaptive routing policy reads how full the routers' output buffers are
// UGAL reads the routers' queues; a flow control that cannot say how full the far
// end's buffers are forms a fabric, but not a cycle simulator.
#include <cstdint>

#include <fabric/composition.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>

struct SilentCredit : fabric::Credit {
#ifdef FABRIC_MUST_NOT_COMPILE
    void occupied() const = delete;  // hides the inherited one
#endif
};

using Df = fabric::Dragonfly<5, fabric::BasicLink<3>, fabric::BasicLink<2>>;
using Net = fabric::Fabric<Df, fabric::DragonflyUgalL, SilentCredit>;
static_assert(sizeof(fabric::CycleSimulator<Net>) > 0);
