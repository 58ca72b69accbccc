// Shortest-path routing on a graph read from a file (topology/graph.hpp), with
// virtual channels chosen so that the channel dependencies have no cycle.
//
// Route: from each node, the lowest-numbered port whose neighbour is one hop nearer
// the destination. One route a pair, as BookSim's anynet routing has; and on a torus
// written as a graph with the torus's port numbers (2d the + way, 2d + 1 the - way)
// it is dimension order with ties sent the + way, hop for hop.
//
// Virtual channels: layered shortest-path routing (LASH; Skeie, Lysne and Theiss,
// IPDPS 2002). A route keeps one virtual channel, its layer, on every hop; the
// routes are placed pair by pair (source-major) in the lowest layer whose channel
// dependencies they leave acyclic (core/incremental_dag.hpp). So no dependency leads
// from one layer to another and each layer is acyclic: the graph is deadlock free,
// which the channel-dependency check (routing/channel_dependency.hpp) then proves
// independently when a Fabric is formed. A general graph has no dateline to break
// its rings at, and layering needs only as many VCs as the routes' overlaps demand,
// not one per hop. When a route fits no layer, the policy refuses with the cycle it
// would close in the last one.
//
// The layers are computed once, when the policy is built from its graph
// (GraphShortestPath(graph)): O(N^2) routes, a byte a pair.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/incremental_dag.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/topology/graph.hpp>

namespace fabric {

class GraphShortestPath {
public:
    template <class T>
    static constexpr bool fits = detail::is_graph_v<router_network_t<T>>;
    /// The layers use what the links have; one is the least a route needs.
    template <class T>
    static constexpr std::size_t vcs_required = 1;

    /// A policy with no routes: refused when asked for one. Build it from its graph.
    GraphShortestPath() = default;

    /// The routes of `graph` in at most `layers` virtual channels (by default every
    /// VC its links have). Throws config_error when they need more, naming the cycle.
    template <class T>
        requires fits<T>
    explicit GraphShortestPath(const T& graph, std::size_t layers = min_virtual_channels_v<T>)
        : nodes_(static_cast<std::uint32_t>(graph.node_count())) {
        detail::require(layers >= 1 && layers <= min_virtual_channels_v<T> && layers <= 255, "GraphShortestPath: "
                        "1 to ", min_virtual_channels_v<T>, " layers (the virtual channels of the graph's links); got ",
                        layers);
        assign_layers(graph, layers);
    }

    /// The virtual channels the routes use (the layers filled).
    [[nodiscard]] std::size_t layers_used() const { return used_; }
    /// The layer (virtual channel) of the route from s to d.
    [[nodiscard]] std::uint8_t layer(NodeId s, NodeId d) const {
        detail::require(layers_ != nullptr && s.value < nodes_ && d.value < nodes_, "GraphShortestPath: no route from ",
                        s.value, " to ", d.value, " (a policy built from a graph of ", nodes_, " nodes)");
        return (*layers_)[static_cast<std::size_t>(s.value) * nodes_ + d.value];
    }

    template <class T>
    static std::size_t max_hops(const T& t) {
        return t.diameter();
    }

    /// The port `here` leaves by toward `dst` (here != dst): the lowest one whose
    /// neighbour is a hop nearer.
    template <class T>
    static PortId next_port(const T& t, NodeId here, NodeId dst) {
        const std::size_t left = t.distance(here, dst);
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p) {
            const NodeId next = t.neighbour(here, PortId{p});
            if (next.valid() && t.distance(next, dst) + 1 == left) return PortId{p};
        }
        throw config_error(detail::message("GraphShortestPath: node ", here.value, " has no port toward node ",
                                           dst.value, " (the graph's distances are not its own)"));
    }

    /// The one route from src to dst into `out` (room for max_hops); its length.
    template <class T>
    std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        check(t);
        const std::uint8_t vc = layer(src, dst);
        std::size_t len = 0;
        for (NodeId at = src; at != dst; at = t.neighbour(at, out[len - 1].port))
            out[len++] = Hop{at, next_port(t, at, dst), vc};
        return len;
    }

    template <class T, class F>
    void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::vector<Hop> hops(t.distance(src, dst));
        select_route(t, src, dst, 0, hops.data());
        f(std::span<const Hop>(hops), 1.0);
    }

    /// The channels of the route, without building it (the flow kernel's walk).
    template <class T, class F>
    void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        check(t);
        for (NodeId at = src; at != dst;) {
            const PortId p = next_port(t, at, dst);
            f(at, p, 1.0);
            at = t.neighbour(at, p);
        }
    }

private:
    template <class T>
    void check(const T& t) const {
        detail::require(layers_ != nullptr && nodes_ == t.node_count(), "GraphShortestPath was built for ",
                        nodes_, " nodes and asked to route a graph of ", t.node_count(), ": build it from its graph, "
                        "GraphShortestPath(graph), and give it to the Fabric with the graph");
    }

    /// LASH: each pair's route goes to the lowest layer that stays acyclic with it.
    template <class T>
    void assign_layers(const T& t, std::size_t layers) {
        const std::size_t n = nodes_;
        auto table = std::make_shared<std::vector<std::uint8_t>>(n * n, 0);
        std::vector<detail::IncrementalDag> dags;
        std::vector<std::uint32_t> route;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> added;
        for (std::uint32_t s = 0; s < n; ++s) {
            for (std::uint32_t d = 0; d < n; ++d) {
                route.clear();
                for (NodeId at{s}; at.value != d;) {
                    const PortId p = next_port(t, at, NodeId{d});
                    route.push_back(static_cast<std::uint32_t>(channel_index<T>(at, p)));
                    at = t.neighbour(at, p);
                }
                if (route.size() < 2) continue;  // no dependency: layer 0
                for (std::size_t l = 0;; ++l) {
                    if (l == dags.size()) dags.emplace_back(channel_slots(t));
                    added.clear();
                    std::vector<std::uint32_t> cycle;
                    for (std::size_t i = 0; i + 1 < route.size() && cycle.empty(); ++i) {
                        if (dags[l].has_edge(route[i], route[i + 1])) continue;
                        cycle = dags[l].add(route[i], route[i + 1]);
                        if (cycle.empty()) added.emplace_back(route[i], route[i + 1]);
                    }
                    if (cycle.empty()) {
                        (*table)[s * n + d] = static_cast<std::uint8_t>(l);
                        break;
                    }
                    for (const auto& [u, v] : added) dags[l].remove(u, v);
                    if (l + 1 == layers) refuse<T>(t, s, d, l, cycle);
                }
            }
        }
        used_ = dags.empty() ? 1 : dags.size();
        layers_ = std::move(table);
    }

    template <class T>
    [[noreturn]] static void refuse(const T& t, std::uint32_t s, std::uint32_t d, std::size_t layer,
                                    const std::vector<std::uint32_t>& cycle) {
        DependencyReport r;
        r.acyclic = false;
        for (const std::uint32_t c : cycle)
            r.cycle.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(c / T::ports_per_node)},
                                             PortId{static_cast<std::uint32_t>(c % T::ports_per_node)},
                                             static_cast<std::uint8_t>(layer)});
        throw config_error(detail::message(
            t.source().empty() ? std::string("this graph") : t.source(), ": shortest-path routing needs more than ",
            layer + 1, " virtual channel", layer ? "s" : "", ": the route from node ", s, " to node ", d,
            " would close the cycle ", r.describe_cycle(), " in every one of them; give the links more virtual "
            "channels (a Link with ", layer + 2, " or more)"));
    }

    std::shared_ptr<const std::vector<std::uint8_t>> layers_;  // layers_[s * nodes + d]
    std::uint32_t nodes_ = 0;
    std::size_t used_ = 0;
};

}  // namespace fabric
