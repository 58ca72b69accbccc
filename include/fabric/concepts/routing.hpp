// RoutingPolicyFor<R, T>: a routing policy R that can route on topology T.
//
// A policy answers two questions about a (source, destination) pair:
//  - for_each_route: every distinct path it may use, with the fraction of the
//    pair's traffic that path carries (the fractions sum to 1), each hop naming the
//    virtual channel it holds. Used by the deadlock check and by route laws.
//  - for_each_hop: every channel the pair's traffic crosses, with the fraction of
//    the traffic crossing it. This is what the flow-level kernel needs, and a
//    policy can answer it without building paths (striping, tie splits).
// A policy declares which topologies it fits (R::fits<T>) and how many virtual
// channels it needs (R::vcs_required<T>: one number for every link class, or a
// std::array with one number per class), so that a fabric is checked when formed.
// Optional: for_each_turn(topo, f(from_hop, to_hop)) names each distinct
// dependency its routes create, once; the deadlock check then builds its graph
// from it (linear in the dependencies) instead of walking every pair's routes.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// One hop of a route: leave `node` through `port`, holding virtual channel `vc`.
struct Hop {
    NodeId node;
    PortId port;
    std::uint8_t vc = 0;
    friend constexpr bool operator==(const Hop&, const Hop&) = default;
};

namespace detail {
struct route_sink {
    constexpr void operator()(std::span<const Hop>, double) const {}
};
struct hop_sink {
    constexpr void operator()(NodeId, PortId, double) const {}
};
}  // namespace detail

template <class R, class T>
concept RoutingPolicyFor =
    Topology<T> && requires { requires R::template fits<T>; } &&
    requires(const R& routing, const T& topo, NodeId src, NodeId dst) {
        R::template vcs_required<T>;  // a count for every link class, or one count per class
        routing.for_each_route(topo, src, dst, detail::route_sink{});
        routing.for_each_hop(topo, src, dst, detail::hop_sink{});
    };

namespace detail {
/// The network state an adaptive policy may read, as the cycle kernel offers it:
/// occupancy(node, port), the flits waiting in or bound for the buffers at the far
/// end of that router's output port (all its VCs). This one is an idle network.
struct idle_network {
    [[nodiscard]] constexpr std::uint32_t occupancy(NodeId, PortId) const { return 0; }
};
}  // namespace detail

/// A routing policy that chooses a packet's route at its source from the state of
/// the network: select_route(topology, src, dst, choice, out, network), where
/// network.occupancy(node, port) answers as detail::idle_network does. A policy
/// that reads only node src is local (UGAL-L); one that reads any node assumes a
/// global view no router has (UGAL-G), as the literature's idealised variants do.
/// The kernel calls it when the packet reaches the head of its source queue.
template <class R, class T>
concept SourceAdaptive = requires(const R& routing, const T& topo, NodeId n, Hop* out) {
    { routing.select_route(topo, n, n, std::uint64_t{}, out, detail::idle_network{}) } -> std::convertible_to<std::size_t>;
};

/// Whether a SourceAdaptive policy reads only the source's own router: it says so
/// with `static constexpr bool global_view = false` (UGAL-L). A partitioned cycle
/// run routes such a packet on the source's rank, which holds that router's
/// queues; a policy that says nothing is taken to read any router.
template <class R>
[[nodiscard]] constexpr bool reads_source_router_only() {
    if constexpr (requires { R::global_view; }) return !R::global_view;
    else return false;
}

namespace detail {
/// What a policy routing hop by hop reads at the router it is at, as the cycle
/// kernel offers it: occupancy(port), as idle_network's for that router. Idle here.
struct idle_router {
    [[nodiscard]] constexpr std::uint32_t occupancy(PortId) const { return 0; }
};
}  // namespace detail

/// A routing policy that decides at every router a packet's head reaches, from that
/// router's state alone: reroute(topology, here, dst, hop, choice, out, router)
/// writes the rest of the route from router `here` to `dst` (its first hop is the
/// route's hop number `hop`, so VC classes can climb along the route) and returns
/// its length, where router.occupancy(port) answers as detail::idle_router does.
/// The kernel still asks select_route(topology, src, dst, choice, out) for the
/// route at the source (its length says when the packet has arrived) and then lets
/// every router, the source's included, rewrite what is left of it. Every route
/// reroute can produce must be one of for_each_route's, so that the deadlock check
/// covers it.
template <class R, class T>
concept HopAdaptive = requires(const R& routing, const T& topo, NodeId n, Hop* out) {
    { routing.reroute(topo, n, n, std::size_t{}, std::uint64_t{}, out, detail::idle_router{}) } -> std::convertible_to<std::size_t>;
};

/// A routing policy whose routes depend on the state of the network: at the
/// source (SourceAdaptive) or at every router (HopAdaptive).
template <class R, class T>
concept AdaptiveRouting = SourceAdaptive<R, T> || HopAdaptive<R, T>;

/// A routing policy the cycle kernel can use: it routes each packet at its
/// source, writing one route (select_route, `choice` picking among the policy's
/// routes) into room for max_hops(topology) hops, and returns its length.
template <class R, class T>
concept SourceRoutable = requires(const R& routing, const T& topo, NodeId n, Hop* out) {
    { routing.select_route(topo, n, n, std::uint64_t{}, out) } -> std::convertible_to<std::size_t>;
    { R::max_hops(topo) } -> std::convertible_to<std::size_t>;
};

}  // namespace fabric
