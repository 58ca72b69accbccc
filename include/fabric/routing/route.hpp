// Helpers on routes: following a route hop by hop and checking it.
#pragma once

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

}  // namespace fabric
