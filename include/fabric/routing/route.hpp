// Helpers on routes: following a route hop by hop and checking it.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>

namespace fabric {

/// The node a route ends at (its source if it has no hop), following each hop's
/// port on `topo`; no_node if some hop leaves through a port with no link or a
/// hop does not start where the previous one ended.
template <Topology T>
constexpr NodeId route_end(const T& topo, NodeId src, std::span<const Hop> hops) {
    NodeId at = src;
    for (const Hop& hop : hops) {
        if (hop.node != at) return no_node;
        at = topo.neighbour(hop.node, hop.port);
        if (!at.valid()) return no_node;
    }
    return at;
}

/// for_each_route of a policy with one route per pair: select_route into room
/// for Room hops, handed on with weight 1.
template <std::size_t Room, class R, class T, class F>
constexpr void the_one_route(const R& routing, const T& topo, NodeId src, NodeId dst, F&& f) {
    std::array<Hop, Room> hops{};
    f(std::span<const Hop>(hops.data(), routing.select_route(topo, src, dst, 0, hops.data())), 1.0);
}

/// for_each_hop answered from for_each_route: f(node, port, fraction) for every
/// hop of every route of the pair, with its route's fraction. For policies whose
/// routes are cheap to build; a policy that splits traffic over many routes can
/// give for_each_hop directly instead.
template <class R, class T, class F>
constexpr void hops_of_routes(const R& routing, const T& topo, NodeId src, NodeId dst, F&& f) {
    routing.for_each_route(topo, src, dst, [&](std::span<const Hop> hops, double w) {
        for (const Hop& h : hops) f(h.node, h.port, w);
    });
}

/// The base of a policy with one route a pair (CRTP): its for_each_route and
/// for_each_hop, from its select_route with room for Derived::route_room<T> hops.
template <class Derived>
struct OneRouteEach {
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        the_one_route<Derived::template route_room<T>>(static_cast<const Derived&>(*this), t, src, dst, f);
    }
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(static_cast<const Derived&>(*this), t, src, dst, f);
    }
};

}  // namespace fabric
