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

/// The instructions a unit of a graph's set-up takes (callgrind): a step of the breadth-first
/// searches that measure its distances, and a pair of routers whose route is layered.
struct GraphCost {
    static constexpr double per_search_step = 15;
    static constexpr double per_layered_pair = 700;
};

template <std::size_t Ports, std::size_t Terminals, std::size_t Vcs>
int with_graph(const GraphDescription& d, const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using T = Graph<Ports, Terminals, BasicLink<Vcs>>;
    // The set-up, estimated before it starts: the distances (breadth-first from every router, 2 bytes a pair),
    // then the layering of every pair's route (routing/graph_shortest_path.hpp: a pair's layer and next hop, and
    // 2 bytes a pair for each layer, --vcs at most, on the way).
    const auto n = static_cast<double>(d.nodes), links = static_cast<double>(d.links.size());
    Cost setup;
    setup.add("graph: distances measured (search steps)", n * (n + 2 * links), GraphCost::per_search_step);
    setup.need("graph: distance table", 2 * n * n);
    fabric_apps::check(setup, false);
    const T graph(d);
    setup.add("graph: routes layered (router pairs)", n * n, GraphCost::per_layered_pair);
    setup.need("graph: layers, next hops and layering state", n * n * (2 + 2.0 * s.vcs));
    // The run, from the graph's own distances (shortest routes) and the kernel's memory for its shape.
    Cost cost = setup;
    KernelRun k;
    k.routers = n;
    k.terminals = static_cast<double>(pattern.task_count());
    k.channels = 2 * links;
    k.max_hops = static_cast<double>(graph.diameter());
    {
        const DestinationSampler<NamedPattern> draw(pattern);
        Random rng(s.seeds.front() ^ 0x5eed);
        const std::size_t per = graph.terminals_per_node();
        for (int i = 0; i < 512; ++i) {
            const std::size_t a = rng.below(pattern.task_count()), b = draw(a, rng);
            k.hops += static_cast<double>(graph.distance(NodeId{static_cast<std::uint32_t>(a / per)},
                                                         NodeId{static_cast<std::uint32_t>(b / per)})) / 512;
        }
    }
    cost.add("deadlock check: turns", n * Ports * Ports * Vcs, CheckCost::per_turn);
    add_runs(cost, s, k);
    cycle::MemoryShape shape;
    shape.nodes = d.nodes;
    shape.ports = Ports;
    shape.vcs = Vcs;
    shape.buffer_flits = s.vc_buf;
    shape.max_hops = graph.diameter();
    shape.flow_state_bytes = 16;
    shape.terminal_ports = Terminals;
    add_run_memory(cost, cycle::memory_need(shape), s, k.terminals);
    fabric_apps::check(cost);
    const GraphShortestPath routing(graph, static_cast<std::size_t>(s.vcs));
    const Fabric<T, GraphShortestPath> net(graph, allow_deadlock, routing, credit_flow(s));  // checked in simulate_on
    return simulate_on(net, s, pattern, out, Slabs{}, true, setup);
}

}  // namespace

GraphDescription read_graph(const RunSettings& s) {
    detail::require(!s.graph.empty(), "graph: give the network's file (--graph FILE: an edge list or BookSim's anynet "
                    "file, docs/graph_topology.md)");
    return read_graph_file(s.graph, fabric_apps::input_limit_bytes(), fabric_apps::raise_input_limit);
}

std::uint64_t graph_terminals(const GraphDescription& d) {
    const std::uint64_t nodes = d.terminal_nodes ? d.terminal_nodes : d.nodes;
    return nodes * d.terminals_per_node;  // (each count bounded where it was read: at most 8,192 x 64)
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
