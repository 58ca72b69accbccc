// What the cycle kernel asks of a fabric type and of its switch allocator, and the
// one `fabric:` sentence a type that breaks a rule gets: CycleSimulator's primary
// template is formed only for such a type (the simulator is its specialisation
// for a CycleKernelFabric and a SwitchAllocator, simulator.hpp).
#pragma once

#include <cstdint>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/sim/cycle/config.hpp>

namespace fabric {

struct SeparableSwitch;
namespace cycle {
struct Alone;
}

namespace detail {
enum class cycle_rule : std::uint8_t {
    ok,
    not_a_fabric,
    no_reverse_port,
    not_source_routable,
    no_flow_hooks,
    adaptive_without_occupancy,
    no_allocator
};

template <class Fab, class A>
consteval cycle_rule first_broken_cycle_rule() {
    if constexpr (!FabricType<Fab>) return cycle_rule::not_a_fabric;
    else if constexpr (!CycleTopology<typename Fab::topology_type>) return cycle_rule::no_reverse_port;
    else if constexpr (!SourceRoutable<typename Fab::routing_type, typename Fab::topology_type>)
        return cycle_rule::not_source_routable;
    else if constexpr (!CycleFlowControl<typename Fab::flow_type>) return cycle_rule::no_flow_hooks;
    else if constexpr (AdaptiveRouting<typename Fab::routing_type, typename Fab::topology_type> &&
                       !OccupancyReportingFlow<typename Fab::flow_type>)
        return cycle_rule::adaptive_without_occupancy;
    else if constexpr (!SwitchAllocator<A>) return cycle_rule::no_allocator;
    else return cycle_rule::ok;
}
}  // namespace detail

/// The flit-level cycle kernel for fabric type Fab, its routers matching inputs
/// to outputs with switch allocator A, its routers run where the transport Tx
/// puts them (simulator.hpp; all here by default).
template <class Fab, class A = SeparableSwitch, class Tx = cycle::Alone>
class CycleSimulator {
    static constexpr detail::cycle_rule broken = detail::first_broken_cycle_rule<Fab, A>();
    static_assert(broken != detail::cycle_rule::not_a_fabric,
                  "fabric: CycleSimulator<F> needs a fabric type (fabric::Fabric<Topology, Routing, Flow>, or one "
                  "with topology_type, routing_type, flow_type and topology(), routing(), flow())");
    static_assert(broken != detail::cycle_rule::no_reverse_port,
                  "fabric: the cycle kernel needs a CycleTopology: give the topology reverse_port(node, port), the "
                  "port at the far end of a link that leads back, so flow-control feedback can travel");
    static_assert(broken != detail::cycle_rule::not_source_routable,
                  "fabric: the cycle kernel routes packets at the source; the routing policy must provide "
                  "select_route(topology, src, dst, choice, out) and max_hops(topology) (fabric::SourceRoutable)");
    static_assert(broken != detail::cycle_rule::no_flow_hooks,
                  "fabric: the cycle kernel drives flow control through hooks the protocol lacks; see "
                  "fabric::CycleFlowControl and flow/credit.hpp");
    static_assert(broken != detail::cycle_rule::adaptive_without_occupancy,
                  "fabric: an adaptive routing policy reads how full the routers' output buffers are, and this flow "
                  "control does not say: give it occupied(sender_vc) as fabric::Credit has "
                  "(fabric::OccupancyReportingFlow), or route without adaptivity");
    static_assert(broken != detail::cycle_rule::no_allocator,
                  "fabric: CycleSimulator<F, A> needs a switch allocator as A (fabric::SeparableSwitch, "
                  "fabric::Islip<1>, or a type meeting fabric::SwitchAllocator)");

public:
    template <class... Args>
    explicit CycleSimulator(const Fab&, Args&&...) {}
};

template <class Fab>
CycleSimulator(const Fab&, CycleConfig) -> CycleSimulator<Fab>;
template <class Fab>
CycleSimulator(const Fab&) -> CycleSimulator<Fab>;

}  // namespace fabric
