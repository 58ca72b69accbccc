// A topology given as a graph rather than by a formula: nodes (routers) joined by
// links, each link naming the port it leaves by at both of its ends, read from a
// file (topology/graph_file.hpp: an edge list, or BookSim's anynet file) or built
// in code as a GraphDescription.
//
// Graph<Ports, MaxTerminals, Link, Classes> is a Topology and a CycleTopology like
// the built-in families: Ports is the most port slots a node may use (per-channel
// state is sized by it, so it is best exact, as Dragonfly<Ports>); MaxTerminals the
// most terminals a router serves (the cycle kernel sizes its terminal ports by it);
// Classes the link classes a description may name, each with a value of Link. Its
// terminals follow the library's rule (topology/concentrated.hpp): p on each of the
// first nodes, terminal t on node t / p, the nodes past them serving none (the
// switches of an indirect network).
//
// The graph keeps every pair's hop distance (breadth-first from each node, 2 bytes
// a pair), which makes it a MetricTopology and is what shortest-path routing
// (routing/graph_shortest_path.hpp) walks; hence the bound on its size.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/hana/tuple.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/link/basic.hpp>

namespace fabric {

/// One link of a graph: port `port` of `node` and port `neighbour_port` of
/// `neighbour` joined, both directions of link class `link_class`. `line`: where it
/// was read (0 when built in code).
struct GraphLink {
    std::uint32_t node = 0, port = 0, neighbour = 0, neighbour_port = 0, link_class = 0;
    std::size_t line = 0;
};

/// A graph as read, before it is checked against a Graph type's bounds.
struct GraphDescription {
    std::string source;  // the file it was read from, for messages ("" when built in code)
    std::uint32_t nodes = 0;
    std::vector<GraphLink> links;
    /// Terminals: `terminals_per_node` on each of the first `terminal_nodes` nodes
    /// (0: on every node).
    std::uint32_t terminals_per_node = 1;
    std::uint32_t terminal_nodes = 0;
    std::size_t terminals_line = 0;  // where they were given (0: nowhere)
    std::size_t nodes_line = 0;      // where the node count was given (0: nowhere)

    /// The port slots the graph uses: its highest port number + 1.
    [[nodiscard]] std::uint32_t ports_used() const {
        std::uint32_t most = 0;
        for (const GraphLink& l : links) most = std::max({most, l.port + 1, l.neighbour_port + 1});
        return most;
    }
    /// The link classes the graph names: its highest class + 1.
    [[nodiscard]] std::uint32_t classes_used() const {
        std::uint32_t most = 1;
        for (const GraphLink& l : links) most = std::max(most, l.link_class + 1);
        return most;
    }
    /// "file:line: ", how a message names a line read; "" for a description built in
    /// code (the Graph then names the link by its index).
    [[nodiscard]] std::string where(std::size_t line) const {
        if (source.empty()) return "";
        return line ? source + ":" + std::to_string(line) + ": " : source + ": ";
    }
};

/// The largest graph a Graph holds: every pair's distance takes 2 bytes
/// (8,192 nodes: 128 MB).
inline constexpr std::size_t max_graph_nodes = 8192;

namespace detail {
template <class L, std::size_t>
using same_link = L;
template <class L, std::size_t... I>
auto repeated_links(std::index_sequence<I...>) -> boost::hana::tuple<same_link<L, I>...>;
}  // namespace detail

template <std::size_t Ports, std::size_t MaxTerminals = 1, class Link = BasicLink<2>, std::size_t Classes = 1>
class Graph {
    static_assert(Ports >= 1 && Ports <= 255 && MaxTerminals >= 1 && MaxTerminals <= 64 && Classes >= 1 &&
                      Classes <= 16,
                  "fabric: Graph<Ports, MaxTerminals, Link, Classes> takes 1 to 255 port slots a node (a port back "
                  "is a byte), 1 to 64 terminals a node and 1 to 16 link classes");

public:
    using link_types = decltype(detail::repeated_links<Link>(std::make_index_sequence<Classes>{}));
    static constexpr std::size_t ports_per_node = Ports;
    static constexpr std::size_t max_terminals_per_node = MaxTerminals;
    static constexpr bool is_graph = true;

    /// The graph of `d`, every link of class c a copy of links[c]. Refuses (config_error,
    /// naming the file and line) what the type cannot hold or the description gets wrong:
    /// a node or port past the bounds, a class past Classes, a port wired twice, a link
    /// from a node to itself, a node with no link, a graph in pieces.
    explicit Graph(const GraphDescription& d, std::array<Link, Classes> links = {})
        : source_(d.source), nodes_(d.nodes), links_(make_links(links, std::make_index_sequence<Classes>{})) {
        detail::require(nodes_ >= 1 && nodes_ <= max_graph_nodes, d.where(0), "a graph has 1 to ", max_graph_nodes,
                        " nodes; got ", nodes_);
        std::vector<Slot> slots(static_cast<std::size_t>(nodes_) * Ports, Slot{});
        std::vector<std::size_t> wired_at(slots.size(), 0);  // the link (index + 1) that wired each end
        for (std::size_t i = 0; i < d.links.size(); ++i) {
            const GraphLink& l = d.links[i];
            const std::string at = d.where(l.line) + (d.source.empty() ? "link " + std::to_string(i) + ": " : "");
            detail::require(l.node < nodes_ && l.neighbour < nodes_, at, "node ", std::max(l.node, l.neighbour),
                            " is past the graph's nodes 0 to ", nodes_ - 1);
            detail::require(l.node != l.neighbour, at, "a link from node ", l.node, " to itself");
            detail::require(l.port < Ports && l.neighbour_port < Ports, at, "port ", std::max(l.port, l.neighbour_port),
                            " is past Graph<", Ports, ">'s port slots 0 to ", Ports - 1, "; use Graph<",
                            d.ports_used(), "> or more");
            detail::require(l.link_class < Classes, at, "link class ", l.link_class, " is past the ", Classes,
                            " class", Classes > 1 ? "es" : "", " of this Graph type");
            for (const auto& [n, p] : {std::pair{l.node, l.port}, std::pair{l.neighbour, l.neighbour_port}}) {
                const std::size_t s = static_cast<std::size_t>(n) * Ports + p;
                if (wired_at[s]) {
                    const GraphLink& before = d.links[wired_at[s] - 1];
                    const bool same = (before.node == l.node && before.neighbour == l.neighbour) ||
                                      (before.node == l.neighbour && before.neighbour == l.node);
                    throw config_error(detail::message(
                        at, same ? "duplicate link: " : "port wired twice: ", "port ", p, " of node ", n,
                        " is already wired by ", d.source.empty() ? "link " + std::to_string(wired_at[s] - 1)
                                                                  : "line " + std::to_string(before.line),
                        same ? " (a link is listed once, for both directions)" : ""));
                }
                wired_at[s] = i + 1;
            }
            slots[channel(l.node, l.port)] = Slot{l.neighbour, static_cast<std::uint8_t>(l.neighbour_port),
                                                  static_cast<std::uint8_t>(l.link_class)};
            slots[channel(l.neighbour, l.neighbour_port)] =
                Slot{l.node, static_cast<std::uint8_t>(l.port), static_cast<std::uint8_t>(l.link_class)};
        }
        const std::uint32_t serving = d.terminal_nodes ? d.terminal_nodes : nodes_;
        detail::require(d.terminals_per_node >= 1 && d.terminals_per_node <= MaxTerminals, d.where(d.terminals_line),
                        "Graph<", Ports, ", ", MaxTerminals, "> serves 1 to ", MaxTerminals, " terminals a node; got ",
                        d.terminals_per_node, d.terminals_per_node > MaxTerminals ? "; use a larger MaxTerminals" : "");
        detail::require(serving <= nodes_, d.where(d.terminals_line), "terminals on ", serving,
                        " nodes, but the graph has ", nodes_);
        terminals_ = d.terminals_per_node;
        terminal_nodes_ = serving;
        distance_ = measure_distances(d, slots);
        slots_ = std::make_shared<const std::vector<Slot>>(std::move(slots));
    }

    [[nodiscard]] const link_types& links() const { return links_; }
    [[nodiscard]] std::size_t node_count() const { return nodes_; }
    [[nodiscard]] const std::string& source() const { return source_; }

    [[nodiscard]] NodeId neighbour(NodeId n, PortId p) const {
        if (n.value >= nodes_ || p.value >= Ports) return no_node;
        const Slot& s = (*slots_)[channel(n.value, p.value)];
        return s.to == Slot::none ? no_node : NodeId{s.to};
    }
    [[nodiscard]] PortId reverse_port(NodeId n, PortId p) const { return PortId{(*slots_)[channel(n.value, p.value)].back}; }
    [[nodiscard]] std::size_t link_class(NodeId n, PortId p) const { return (*slots_)[channel(n.value, p.value)].cls; }

    /// Hops on a shortest path from a to b.
    [[nodiscard]] std::size_t distance(NodeId a, NodeId b) const {
        return (*distance_)[static_cast<std::size_t>(a.value) * nodes_ + b.value];
    }
    [[nodiscard]] std::size_t diameter() const { return diameter_; }

    [[nodiscard]] std::uint32_t terminals_per_node() const { return terminals_; }
    [[nodiscard]] std::size_t terminal_count() const { return static_cast<std::size_t>(terminal_nodes_) * terminals_; }

private:
    struct Slot {
        static constexpr std::uint32_t none = ~std::uint32_t{0};
        std::uint32_t to = none;
        std::uint8_t back = 0, cls = 0;
    };

    template <std::size_t... I>
    static link_types make_links(const std::array<Link, Classes>& links, std::index_sequence<I...>) {
        return link_types(links[I]...);
    }
    [[nodiscard]] static std::size_t channel(std::uint32_t n, std::uint32_t p) {
        return static_cast<std::size_t>(n) * Ports + p;
    }

    /// Breadth-first from every node: the distance table (and the diameter), or the
    /// refusal of a node with no link or a graph in pieces.
    std::shared_ptr<const std::vector<std::uint16_t>> measure_distances(const GraphDescription& d,
                                                                         const std::vector<Slot>& slots) {
        const std::size_t n = nodes_;
        for (std::uint32_t v = 0; v < nodes_ && n > 1; ++v) {
            bool linked = false;
            for (std::uint32_t p = 0; p < Ports; ++p) linked = linked || slots[channel(v, p)].to != Slot::none;
            detail::require(linked, d.where(d.nodes_line), "node ", v, " has no link (every node of a graph of more "
                            "than one is joined to another)");
        }
        constexpr std::uint16_t unreached = 0xFFFF;
        std::vector<std::uint16_t> distance(n * n, unreached);
        std::vector<std::uint32_t> queue(n);
        for (std::uint32_t src = 0; src < nodes_; ++src) {
            std::uint16_t* row = distance.data() + static_cast<std::size_t>(src) * n;
            std::size_t head = 0, tail = 0;
            row[src] = 0;
            queue[tail++] = src;
            while (head < tail) {
                const std::uint32_t v = queue[head++];
                for (std::uint32_t p = 0; p < Ports; ++p) {
                    const std::uint32_t w = slots[channel(v, p)].to;
                    if (w == Slot::none || row[w] != unreached) continue;
                    row[w] = static_cast<std::uint16_t>(row[v] + 1);
                    queue[tail++] = w;
                }
            }
            for (std::uint32_t dst = 0; dst < nodes_; ++dst) {
                detail::require(row[dst] != unreached, d.where(0), "node ", dst, " cannot be reached from node ", src,
                                ": the graph is in pieces; join them, or describe each as a graph of its own");
                diameter_ = std::max<std::size_t>(diameter_, row[dst]);
            }
        }
        return std::make_shared<const std::vector<std::uint16_t>>(std::move(distance));
    }

    std::string source_;
    std::uint32_t nodes_ = 0;
    link_types links_;
    // Shared, never changed after construction: a Fabric's copy of the graph costs no table.
    std::shared_ptr<const std::vector<Slot>> slots_;  // per channel slot: where it leads, the port back, its class
    std::shared_ptr<const std::vector<std::uint16_t>> distance_;  // [a * nodes + b]
    std::size_t diameter_ = 0;
    std::uint32_t terminals_ = 1, terminal_nodes_ = 0;
};

namespace detail {
template <class T>
inline constexpr bool is_graph_v = requires { requires T::is_graph; };
}  // namespace detail

}  // namespace fabric
