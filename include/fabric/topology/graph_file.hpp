// Graphs read from files, as GraphDescriptions for fabric::Graph (topology/graph.hpp).
// Two formats (docs/graph_topology.md describes both):
//
//   Edge list (fabric's own): one link a line, "A PA B PB [CLASS]": port PA of node
//   A and port PB of node B joined, both ways, of link class CLASS (default 0);
//   "nodes N" and "terminals P [K]" (P terminals on each of the first K nodes,
//   default every node) may be given once each; '#' starts a comment.
//
//   BookSim's anynet file: "router R router S ... node T ..." lists what router R
//   is joined to (routers, both ways; nodes, its terminals), "node T router R"
//   the same from a terminal's side. Routers and nodes are numbered from 0. A
//   router's ports are its neighbouring routers in increasing order (BookSim's
//   numbering, without its terminal ports, which the kernels keep apart).
//
// Every refusal is a config_error whose message names the file and line.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/input_file.hpp>
#include <fabric/topology/graph.hpp>

namespace fabric {

namespace detail {

/// The whitespace-separated words of a line, up to a comment that starts with `comment`.
inline std::vector<std::string_view> words_of(std::string_view line, std::string_view comment) {
    if (!comment.empty()) line = line.substr(0, line.find(comment));
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (true) {
        at = line.find_first_not_of(" \t\r", at);
        if (at == std::string_view::npos) break;
        const std::size_t end = std::min(line.find_first_of(" \t\r", at), line.size());
        words.push_back(line.substr(at, end - at));
        at = end;
    }
    return words;
}

/// A whole word as a number from 0 to `most`, or config_error naming the file and line.
/// Every count and number a graph file gives is bounded here, where it is read, by what a
/// Graph can hold (max_graph_nodes nodes, 255 port slots, 64 terminals a node, 16 link
/// classes), so that nothing computed from it can wrap before the Graph's own checks.
inline std::uint32_t number_of(std::string_view word, const std::string& at, std::string_view what,
                               std::uint32_t most) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    require(ec == std::errc{} && end == word.data() + word.size() && v <= most, at, what,
            " must be a whole number from 0 to ", most, "; got '", shown(word), "'");
    return static_cast<std::uint32_t>(v);
}
inline constexpr std::uint32_t most_node = max_graph_nodes - 1, most_port = 254, most_class = 15;

}  // namespace detail

/// An edge-list graph from `in`; `source` names it in messages.
inline GraphDescription parse_edge_list(std::istream& in, const std::string& source) {
    GraphDescription d;
    d.source = source;
    std::size_t& nodes_line = d.nodes_line;
    std::uint32_t highest = 0;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const auto w = detail::words_of(line, "#");
        if (w.empty()) continue;
        const std::string at = d.where(n);
        if (w[0] == "nodes") {
            detail::require(w.size() == 2, at, "'nodes N' takes one number; got ", w.size() - 1);
            detail::require(!nodes_line, at, "the node count is given twice (also at line ", nodes_line, ")");
            d.nodes = detail::number_of(w[1], at, "the node count", max_graph_nodes);
            nodes_line = n;
        } else if (w[0] == "terminals") {
            detail::require(w.size() == 2 || w.size() == 3, at, "'terminals P [K]' takes one or two numbers");
            detail::require(!d.terminals_line, at, "terminals are given twice (also at line ", d.terminals_line, ")");
            d.terminals_per_node = detail::number_of(w[1], at, "terminals a node", 64);
            if (w.size() == 3) d.terminal_nodes = detail::number_of(w[2], at, "the nodes with terminals", max_graph_nodes);
            detail::require(d.terminals_per_node >= 1 && (w.size() == 2 || d.terminal_nodes >= 1), at,
                            "terminals: at least 1 a node, on at least 1 node");
            d.terminals_line = n;
        } else {
            detail::require(w.size() == 4 || w.size() == 5, at, "a link is 'A PA B PB [CLASS]' (node, port, node, "
                            "port, optional link class); got ", w.size(), " words");
            GraphLink l;
            l.node = detail::number_of(w[0], at, "a node", detail::most_node);
            l.port = detail::number_of(w[1], at, "a port", detail::most_port);
            l.neighbour = detail::number_of(w[2], at, "a node", detail::most_node);
            l.neighbour_port = detail::number_of(w[3], at, "a port", detail::most_port);
            if (w.size() == 5) l.link_class = detail::number_of(w[4], at, "a link class", detail::most_class);
            l.line = n;
            highest = std::max({highest, l.node, l.neighbour});
            d.links.push_back(l);
        }
    }
    detail::require(!d.links.empty() || d.nodes == 1, d.where(0), "no links: a graph file lists one link a line, "
                    "'A PA B PB [CLASS]'");
    if (!nodes_line) d.nodes = highest + 1;
    for (const GraphLink& l : d.links)
        detail::require(std::max(l.node, l.neighbour) < d.nodes, d.where(l.line), "node ", std::max(l.node, l.neighbour),
                        " is past the ", d.nodes, " nodes given at line ", nodes_line);
    return d;
}

/// A BookSim anynet graph from `in`; `source` names it in messages. Link latencies
/// other than 1 are refused: fabric's links take their latency from their class.
inline GraphDescription parse_anynet(std::istream& in, const std::string& source) {
    GraphDescription d;
    d.source = source;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> links;  // (low, high) router pair: its line
    std::map<std::uint32_t, std::pair<std::uint32_t, std::size_t>> router_of;  // node: its router, the line
    std::map<std::uint32_t, std::size_t> routers;                             // router: the first line naming it
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const auto w = detail::words_of(line, "");
        if (w.empty()) continue;
        const std::string at = d.where(n);
        auto kind = [&](std::size_t i) {
            detail::require(w[i] == "router" || w[i] == "node", at, "expected 'router' or 'node', got '",
                            detail::shown(w[i]), "'");
            return w[i] == "router";
        };
        detail::require(w.size() >= 2, at, "a line starts 'router R' or 'node T'");
        const bool head_router = kind(0);
        const std::uint32_t head = detail::number_of(w[1], at, head_router ? "a router" : "a node",
                                                     head_router ? detail::most_node : 64 * max_graph_nodes - 1);
        if (head_router) routers.emplace(head, n);
        std::size_t i = 2;
        while (i < w.size()) {
            const bool router = kind(i);
            detail::require(i + 1 < w.size(), at, "'", w[i], "' needs a number after it");
            const std::uint32_t id = detail::number_of(w[i + 1], at, router ? "a router" : "a node",
                                                       router ? detail::most_node : 64 * max_graph_nodes - 1);
            i += 2;
            if (i < w.size() && w[i] != "router" && w[i] != "node") {  // a link latency
                detail::require(detail::number_of(w[i], at, "a link latency", 0xFFFFFFFFu) == 1, at, "link latency ",
                                detail::shown(w[i]),
                                ": fabric reads anynet links of 1 cycle only (a link's latency comes from its class: "
                                "CycleConfig::link_latency, or write an edge list with link classes)");
                ++i;
            }
            detail::require(head_router || router, at, "node ", head, " is joined to node ", id,
                            "; a node (terminal) is joined to one router");
            if (head_router && router) {
                detail::require(head != id, at, "router ", head, " is joined to itself");
                routers.emplace(id, n);
                links.emplace(std::pair{std::min(head, id), std::max(head, id)}, n);
                continue;
            }
            const std::uint32_t node = head_router ? id : head, rt = head_router ? head : id;
            routers.emplace(rt, n);
            const auto [it, fresh] = router_of.emplace(node, std::pair{rt, n});
            detail::require(fresh || it->second.first == rt, at, "node ", node, " is joined to router ", rt,
                            " and, at line ", it->second.second, ", to router ", it->second.first,
                            "; a node is joined to one router");
        }
    }
    detail::require(!routers.empty(), d.where(0), "no routers: an anynet file has lines 'router R router S node T'");
    d.nodes = static_cast<std::uint32_t>(routers.size());
    for (const auto& [r, first] : routers)
        detail::require(r < d.nodes, d.where(first), "router ", r, ": routers are numbered 0 to ", d.nodes - 1,
                        " (as many as are named), with none left out");
    // Ports: a router's neighbours in increasing order; the map visits pairs by their lower router.
    std::vector<std::vector<std::uint32_t>> neighbours(d.nodes);
    for (const auto& [pair, n] : links) {
        neighbours[pair.first].push_back(pair.second);
        neighbours[pair.second].push_back(pair.first);
    }
    for (auto& list : neighbours) std::sort(list.begin(), list.end());
    for (const auto& [r, first] : routers)
        detail::require(d.nodes == 1 || !neighbours[r].empty(), d.where(first), "router ", r, " is joined to no other "
                        "router; the routers of a network are joined");
    auto port_to = [&](std::uint32_t from, std::uint32_t to) {
        const auto& list = neighbours[from];
        return static_cast<std::uint32_t>(std::lower_bound(list.begin(), list.end(), to) - list.begin());
    };
    for (const auto& [pair, n] : links)
        d.links.push_back(GraphLink{pair.first, port_to(pair.first, pair.second), pair.second,
                                    port_to(pair.second, pair.first), 0, n});
    std::stable_sort(d.links.begin(), d.links.end(), [](const GraphLink& a, const GraphLink& b) { return a.line < b.line; });
    // Terminals: fabric puts terminal t on router t / p, p on each router that has any.
    detail::require(!router_of.empty(), d.where(0), "no nodes: name a router's terminals, 'router R node T'");
    std::vector<std::uint32_t> count(d.nodes, 0);
    std::uint32_t expected = 0;
    for (const auto& [node, where] : router_of) {
        detail::require(node == expected++, d.where(where.second), "node ", node, ": nodes are numbered 0 to ",
                        router_of.size() - 1, " (as many as are named), with none left out");
        ++count[where.first];
    }
    const std::uint32_t p = count[0];
    detail::require(p > 0 && router_of.size() % p == 0, d.where(0), "router 0 has ", p, " nodes and there are ",
                    router_of.size(), "; fabric puts the same number of terminals on every router that has any "
                    "(terminal t on router t / p), the routers with nodes first");
    for (const auto& [node, where] : router_of)
        detail::require(where.first == node / p, d.where(where.second), "node ", node, " is on router ",
                        where.first, "; fabric places terminal t on router t / p with the same p on every router that "
                        "has terminals (here p = ", p, ", router 0's): number each router's nodes consecutively, "
                        "the routers with nodes first");
    d.terminals_per_node = p;
    d.terminal_nodes = static_cast<std::uint32_t>(router_of.size() / p);
    return d;
}

/// Writes `topo` as an edge list: each link once (from the end with the lower
/// channel index), with its ports and link class, and the terminals a concentrated
/// topology has, so that any Topology with reverse_port can be read back as a Graph
/// and altered by hand.
template <class T>
    requires CycleTopology<T>
void write_edge_list(std::ostream& out, const T& topo) {
    out << "# " << topo.node_count() << " nodes, " << T::ports_per_node << " port slots each\nnodes "
        << topo.node_count() << '\n';
    if (terminals_per_node(topo) > 1 || terminal_count(topo) != topo.node_count())
        out << "terminals " << terminals_per_node(topo) << ' ' << terminal_count(topo) / terminals_per_node(topo)
            << '\n';
    for (std::uint32_t n = 0; n < topo.node_count(); ++n)
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p) {
            const NodeId to = topo.neighbour(NodeId{n}, PortId{p});
            if (!to.valid()) continue;
            const PortId back = topo.reverse_port(NodeId{n}, PortId{p});
            if (channel_index<T>(to, back) < channel_index<T>(NodeId{n}, PortId{p})) continue;
            out << n << ' ' << p << ' ' << to.value << ' ' << back.value << ' ' << topo.link_class(NodeId{n}, PortId{p})
                << '\n';
        }
}

/// The graph in text `text` (read from `source`): BookSim's anynet when its first word
/// is "router" or "node", else an edge list.
inline GraphDescription parse_graph(const std::string& text, const std::string& source) {
    std::istringstream scan(text);
    std::string line, first;
    while (first.empty() && std::getline(scan, line))
        if (const auto words = detail::words_of(line, "#"); !words.empty()) first = words[0];
    const bool anynet = first == "router" || first == "node";
    std::istringstream again(text);
    return anynet ? parse_anynet(again, source) : parse_edge_list(again, source);
}

/// The graph in file `path` (a regular file of at most `limit` bytes: core/input_file.hpp;
/// `raise` says how to raise the limit).
inline GraphDescription read_graph_file(const std::string& path, std::uint64_t limit = default_input_limit,
                                        std::string_view raise = "give read_graph_file a larger limit") {
    return parse_graph(read_input_file(path, "graph file", limit, raise), detail::shown(path));
}

}  // namespace fabric
