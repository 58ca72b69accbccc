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
// (GraphShortestPath(graph)): O(N^2) routes, a byte a pair, placed without walking
// them hop by hop (assign_layers); on the way it takes 1 + 2 L bytes a pair for L
// layers. The deadlock check reads the layers' dependencies (for_each_turn).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
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

    /// Every dependency of the routes, each once: channel c1 held, then c2 asked for, on
    /// the route's layer (the deadlock check's graph: no walk of every pair's route).
    template <class T, class F>
    void for_each_turn(const T& t, F&& f) const {
        check(t);
        constexpr std::uint32_t P = T::ports_per_node;
        for (const Turn& k : *turns_)
            f(Hop{NodeId{k.from / P}, PortId{k.from % P}, k.layer}, Hop{NodeId{k.to / P}, PortId{k.to % P}, k.layer});
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

    /// LASH: each pair's route goes to the lowest layer that stays acyclic with it,
    /// pairs source-major. Only a route's dependencies that its layer lacks are added
    /// (each with add(), which refuses one that would close a cycle), so a route is
    /// not walked hop by hop: the routes toward one destination form a tree (each
    /// node's route is its next hop's and one dependency more), and for each layer
    /// and destination every node keeps a pointer along its route past dependencies
    /// the layer already holds (a union-find path, compressed as it is followed).
    /// The add() calls are those of a walk of every route, in the same order, so the
    /// layers, and a refusal's cycle, are the same; the cost is the dependencies
    /// added, not the routes' lengths (a ring of N nodes: O(N^2 log N), not O(N^3)).
    template <class T>
    void assign_layers(const T& t, std::size_t layers) {
        const std::uint32_t n = nodes_;
        const std::size_t nn = static_cast<std::size_t>(n) * n;
        auto table = std::make_shared<std::vector<std::uint8_t>>(nn, 0);
        // next_[d * n + x]: the port x leaves by toward d (the lowest port a hop nearer, as next_port),
        // from d's row of distances (a graph's links join both ways, so distance is symmetric).
        std::vector<std::uint8_t> next(nn, 0);
        for (std::uint32_t d = 0; d < n; ++d)
            for (std::uint32_t x = 0; x < n; ++x) {
                if (x == d) continue;
                const std::size_t left = t.distance(NodeId{d}, NodeId{x});
                std::uint32_t p = 0;
                for (; p < T::ports_per_node; ++p) {
                    const NodeId nb = t.neighbour(NodeId{x}, PortId{p});
                    if (nb.valid() && t.distance(NodeId{d}, nb) + 1 == left) break;
                }
                detail::require(p < T::ports_per_node, "GraphShortestPath: node ", x, " has no port toward node ", d,
                                " (the graph's distances are not its own)");
                next[static_cast<std::size_t>(d) * n + x] = static_cast<std::uint8_t>(p);
            }
        auto hop = [&](std::uint32_t x, std::uint32_t d) {  // the node after x on its route to d
            return t.neighbour(NodeId{x}, PortId{next[static_cast<std::size_t>(d) * n + x]}).value;
        };
        auto channel = [&](std::uint32_t x, std::uint32_t d) {
            return static_cast<std::uint32_t>(channel_index<T>(NodeId{x}, PortId{next[static_cast<std::size_t>(d) * n + x]}));
        };
        std::vector<detail::IncrementalDag> dags;
        // along[l][d * n + x]: a node of x's route to d such that the layer holds every dependency of the route
        // before that node's (x itself: none known); d: every one.
        std::vector<std::vector<std::uint16_t>> along;
        std::vector<std::uint32_t> path;
        // The first node from x on toward d whose dependency layer l lacks, or d.
        auto first_lacking = [&](std::size_t l, std::uint32_t d, std::uint32_t x) {
            std::uint16_t* to = along[l].data() + static_cast<std::size_t>(d) * n;
            path.clear();
            std::uint32_t w = x;
            for (;;) {
                if (to[w] != w) {
                    path.push_back(w);
                    w = to[w];
                    continue;
                }
                if (w == d) break;
                const std::uint32_t y = hop(w, d);
                if (y == d) {  // w's channel is the route's last: no dependency from it
                    path.push_back(w);
                    w = d;
                    break;
                }
                if (!dags[l].has_edge(channel(w, d), channel(y, d))) break;
                path.push_back(w);  // held: past it, for good (a layer's edges are only ever added)
                to[w] = static_cast<std::uint16_t>(y);
                w = y;
            }
            for (const std::uint32_t v : path) to[v] = static_cast<std::uint16_t>(w);
            return w;
        };
        // closing[l]: dependencies that close a cycle of layer l's own edges (no route's edges on trial among them),
        // which they do for good: a route with one fails there without the search (an add() that fails changes
        // nothing of the graph, so leaving it out changes no later answer; a refusal makes it, for its cycle).
        std::vector<std::unordered_set<std::uint64_t>> closing;
        auto key = [](std::uint32_t u, std::uint32_t v) { return (std::uint64_t{u} << 32) | v; };
        std::vector<std::pair<std::uint32_t, std::uint32_t>> added;
        for (std::uint32_t s = 0; s < n; ++s) {
            for (std::uint32_t d = 0; d < n; ++d) {
                if (t.distance(NodeId{s}, NodeId{d}) < 2) continue;  // no dependency: layer 0
                for (std::size_t l = 0;; ++l) {
                    if (l == dags.size()) {
                        dags.emplace_back(channel_slots(t));
                        along.emplace_back(nn);
                        for (std::size_t i = 0; i < nn; ++i) along.back()[i] = static_cast<std::uint16_t>(i % n);
                        closing.emplace_back();
                    }
                    added.clear();
                    std::vector<std::uint32_t> cycle;
                    bool placed = true;
                    for (std::uint32_t x = s;;) {
                        const std::uint32_t w = first_lacking(l, d, x);
                        if (w == d) break;
                        const std::uint32_t y = hop(w, d);
                        const std::uint32_t u = channel(w, d), v = channel(y, d);
                        if (closing[l].contains(key(u, v)) && l + 1 < layers) {
                            placed = false;
                            break;
                        }
                        cycle = dags[l].add(u, v);
                        if (!cycle.empty()) {
                            placed = false;
                            // Its cycle of the layer's own edges (none on trial): it closes one for good.
                            bool own = true;
                            for (std::size_t i = 0; i + 1 < cycle.size() && own; ++i)
                                for (const auto& e : added) own = own && e != std::pair{cycle[i], cycle[i + 1]};
                            if (own) closing[l].insert(key(u, v));
                            break;
                        }
                        added.emplace_back(u, v);
                        x = y;
                    }
                    if (placed) {
                        (*table)[static_cast<std::size_t>(s) * n + d] = static_cast<std::uint8_t>(l);
                        break;
                    }
                    for (const auto& [u, v] : added) dags[l].remove(u, v);
                    if (l + 1 == layers) refuse<T>(t, s, d, l, cycle);
                }
            }
        }
        used_ = dags.empty() ? 1 : dags.size();
        layers_ = std::move(table);
        // Each layer's dependencies, for the deadlock check (for_each_turn): the edges of its graph.
        auto turns = std::make_shared<std::vector<Turn>>();
        for (std::size_t l = 0; l < dags.size(); ++l)
            for (std::uint32_t u = 0; u < dags[l].vertices(); ++u)
                for (const std::uint32_t v : dags[l].successors(u))
                    turns->push_back(Turn{u, v, static_cast<std::uint8_t>(l)});
        turns_ = std::move(turns);
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

    /// A dependency of a layer's routes: channel `from`, then `to`, on virtual channel `layer`.
    struct Turn {
        std::uint32_t from, to;
        std::uint8_t layer;
    };

    std::shared_ptr<const std::vector<std::uint8_t>> layers_;  // layers_[s * nodes + d]
    std::shared_ptr<const std::vector<Turn>> turns_;           // every layer's dependencies
    std::uint32_t nodes_ = 0;
    std::size_t used_ = 0;
};

}  // namespace fabric
