// expect: fabric: an adaptive routing policy reads how full the routers' output buffers are
// A policy that decides at every router (HopAdaptive: the fat tree's adaptive up
// ports) reads each router's queues; a flow control that cannot say how full the
// far end's buffers are forms a fabric, but not a cycle simulator.
#include <cstdint>

#include <fabric/composition.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/fat_tree.hpp>

struct SilentCredit : fabric::Credit {
#ifdef FABRIC_MUST_NOT_COMPILE
    void occupied() const = delete;  // hides the inherited one
#endif
};

using Net = fabric::Fabric<fabric::FatTree<4>, fabric::FatTreeAdaptiveUp, SilentCredit>;
static_assert(fabric::HopAdaptive<fabric::FatTreeAdaptiveUp, fabric::FatTree<4>>);
static_assert(sizeof(fabric::CycleSimulator<Net>) > 0);
