// The kernels' requirements as concepts, each with types that model it and
// types that do not.
#include <string_view>

#include <fabric/composition.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/flow/ack_window.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/flow/synchronous.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>

#include "../../examples/own/chord_ring.hpp"

namespace {
using namespace fabric;

struct NoReverse : own::ChordRing<8> {
    void reverse_port() const = delete;
};
struct Named {
    static constexpr std::string_view name = "named";
    template <class L>
    static constexpr bool drives = true;
    constexpr void validate() const {}
};

// CycleTopology: a Topology with reverse_port.
static_assert(CycleTopology<Torus<3>> && CycleTopology<PercsTopology> && CycleTopology<own::ChordRing<8>>);
static_assert(Topology<NoReverse> && !CycleTopology<NoReverse>);
static_assert(!CycleTopology<int>);

// SourceRoutable: select_route and max_hops.
static_assert(SourceRoutable<DorTieSplit<>, Torus<2>> && SourceRoutable<Direct, PercsTopology>);
static_assert(SourceRoutable<own::ChordRouting<>, own::ChordRing<8>>);
static_assert(!SourceRoutable<int, Torus<2>>);

// CycleFlowControl: the hooks; traits give the optional ones their defaults.
static_assert(CycleFlowControl<Credit> && CycleFlowControl<AckWindow> && CycleFlowControl<ApenetCredit>);
static_assert(FlowControl<Named> && !CycleFlowControl<Named>);
static_assert(!CycleFlowControl<Synchronous>);
// DrainReportingFlow: wait_for_tail_credit needs to know when every credit is back.
static_assert(DrainReportingFlow<Credit> && !DrainReportingFlow<AckWindow> && !DrainReportingFlow<ApenetCredit>);
static_assert(flow_traits<Credit>::protocol_flits == 0 && !flow_traits<Credit>::needs_packet_size);
static_assert(!flow_traits<Credit>::framed && !flow_traits<Credit>::ticks);
static_assert(flow_traits<ApenetCredit>::protocol_flits == 2 && flow_traits<ApenetCredit>::framed);
static_assert(flow_traits<ApenetCredit>::ticks);

// FabricType, FlowKernelFabric, CycleKernelFabric.
using Net = Fabric<Torus<2>, DorTieSplit<>>;
static_assert(FabricType<Net> && FlowKernelFabric<Net> && CycleKernelFabric<Net>);
static_assert(CycleKernelFabric<PercsFabric<Direct>>);
static_assert(!FabricType<int> && !FabricType<Torus<2>>);
static_assert(!FlowKernelFabric<int> && !FlowKernelFabric<Torus<2>>);
using Unreversed = Fabric<NoReverse, own::ChordRouting<true>>;
static_assert(FlowKernelFabric<Unreversed> && !CycleKernelFabric<Unreversed>);
using Unhooked = Fabric<Torus<2>, DorTieSplit<>, Named>;
static_assert(FlowKernelFabric<Unhooked> && !CycleKernelFabric<Unhooked>);

// MetricTopology: distance and diameter, which no kernel needs.
struct NoMetric : own::ChordRing<8> {
    void distance() const = delete;
};
static_assert(MetricTopology<Torus<2>> && MetricTopology<PercsTopology>);
static_assert(Topology<NoMetric> && CycleTopology<NoMetric> && !MetricTopology<NoMetric>);
static_assert(CycleKernelFabric<Fabric<NoMetric, own::ChordRouting<true>>>);

// SwitchAllocator: the two policies; a type without a stage is not one.
static_assert(SwitchAllocator<SeparableSwitch> && SwitchAllocator<Islip<1>> && SwitchAllocator<Islip<3>>);
static_assert(!SwitchAllocator<int> && !SwitchAllocator<Named>);

// ClaimsVcLevels: the PERCS policies claim and name their levels; dimension order does not claim.
static_assert(ClaimsVcLevels<Direct> && !ClaimsVcLevels<DorTieSplit<>>);

// SeparableRings: the torus says so; the chord ring does not.
static_assert(SeparableRings<Torus<3>> && SeparableRings<Mesh<2>>);
static_assert(!SeparableRings<own::ChordRing<8>> && !SeparableRings<PercsTopology>);
}  // namespace
