// What the kernels ask of a fabric type (fabric::Fabric<Topology, Routing, Flow>
// or a type of one's own with the same members):
//  - FabricType: names its parts (topology_type, routing_type, flow_type) and
//    gives them (topology(), routing(), flow()); its topology is a Topology.
//  - FlowKernelFabric (fabric::link_load): its routing policy is a
//    RoutingPolicyFor its topology (for_each_hop gives the channels a pair's
//    traffic crosses, with fractions).
//  - CycleKernelFabric (fabric::CycleSimulator): a CycleTopology (reverse_port),
//    a SourceRoutable policy, and a CycleFlowControl protocol; when the policy is
//    AdaptiveRouting, a protocol that reports occupancy (OccupancyReportingFlow).
// The kernels check these where they are instantiated, one fabric: sentence per
// requirement broken.
#pragma once

#include <concepts>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>

namespace fabric {

template <class Fab>
concept FabricType = requires(const Fab& fab) {
    typename Fab::topology_type;
    typename Fab::routing_type;
    typename Fab::flow_type;
    { fab.topology() } -> std::same_as<const typename Fab::topology_type&>;
    { fab.routing() } -> std::same_as<const typename Fab::routing_type&>;
    { fab.flow() } -> std::same_as<const typename Fab::flow_type&>;
} && Topology<typename Fab::topology_type>;

template <class Fab>
concept FlowKernelFabric =
    FabricType<Fab> && RoutingPolicyFor<typename Fab::routing_type, typename Fab::topology_type>;

template <class Fab>
concept CycleKernelFabric = FabricType<Fab> && CycleTopology<typename Fab::topology_type> &&
                            SourceRoutable<typename Fab::routing_type, typename Fab::topology_type> &&
                            CycleFlowControl<typename Fab::flow_type> &&
                            (!AdaptiveRouting<typename Fab::routing_type, typename Fab::topology_type> ||
                             OccupancyReportingFlow<typename Fab::flow_type>);

}  // namespace fabric
