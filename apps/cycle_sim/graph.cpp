// cycle_sim on a network read from a file (--graph FILE: fabric's edge list or
// BookSim's anynet file; docs/graph_topology.md) under shortest-path routing, its
// virtual channels layered so that no route can deadlock (routing/graph_shortest_path.hpp):
// --vcs layers at most, on links of 2 VCs (a second VC unused by 1 layer, and by
// injection when --injection-queues is 1) or 4. Two port-slot sizes, so that a
// small graph's routers do not scan the empty ports of a large one.
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/topology/graph.hpp>
#include <fabric/topology/graph_file.hpp>

#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t Ports, std::size_t Terminals, std::size_t Vcs>
int with_graph(const GraphDescription& d, const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using T = Graph<Ports, Terminals, BasicLink<Vcs>>;
    const T graph(d);
    // Layering routes every pair of routers once: about 1e7 pairs a second.
    const auto routers = static_cast<double>(graph.node_count());
    fabric_apps::check_work(routers * routers, "router pairs routed to layer the virtual channels", 1e7);
    const GraphShortestPath routing(graph, static_cast<std::size_t>(s.vcs));
    const Fabric<T, GraphShortestPath> net(graph, allow_deadlock, routing, credit_flow(s));  // checked in simulate_on
    return simulate_on(net, s, pattern, out);
}

}  // namespace

GraphDescription read_graph(const RunSettings& s) {
    detail::require(!s.graph.empty(), "graph: give the network's file (--graph FILE: an edge list or BookSim's anynet "
                    "file, docs/graph_topology.md)");
    return read_graph_file(s.graph);
}

std::uint32_t graph_terminals(const GraphDescription& d) {
    const std::uint32_t nodes = d.terminal_nodes ? d.terminal_nodes : d.nodes;
    return nodes * d.terminals_per_node;
}

int simulate_graph(const GraphDescription& d, const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    detail::require(s.routing == "shortest", "routing: a graph routes shortest (shortest paths, the lowest port at "
                    "a tie, virtual channels layered so that no route can deadlock); got '", s.routing, "'");
    detail::require(d.ports_used() <= 64 && d.terminals_per_node <= 16, d.where(0), "cycle_sim builds graphs of at "
                    "most 64 ports and 16 terminals a router; this one uses ", d.ports_used(), " ports and ",
                    d.terminals_per_node, " terminals a router (fabric::Graph<Ports, Terminals> in C++ takes up to "
                    "255 and 64)");
    detail::require(s.vcs >= 1 && s.vcs <= 4, "vcs: a graph's routes take 1 to 4 layers of virtual channels; got ",
                    s.vcs);
    const bool small = d.ports_used() <= 16 && d.terminals_per_node <= 4;
    if (s.vcs <= 2) return small ? with_graph<16, 4, 2>(d, s, pattern, out) : with_graph<64, 16, 2>(d, s, pattern, out);
    return small ? with_graph<16, 4, 4>(d, s, pattern, out) : with_graph<64, 16, 4>(d, s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
