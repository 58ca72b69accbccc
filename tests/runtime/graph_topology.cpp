// Topologies read from files (topology/graph.hpp, graph_file.hpp) under shortest-path
// routing with layered virtual channels (routing/graph_shortest_path.hpp): small
// graphs worked by hand through both kernels, a torus written as a graph against the
// built-in torus, the cycle a ring closes with one virtual channel, and every read
// error named by file and line.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/core/graph.hpp>
#include <fabric/core/incremental_dag.hpp>
#include <fabric/core/random.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/topology/graph_file.hpp>
#include <fabric/topology/torus.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace unit_graph_topology {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

const std::string data = FABRIC_TEST_DATA;

GraphDescription from_text(const std::string& text, const std::string& name = "bad.graph") {
    std::istringstream in(text);
    return name.ends_with(".anynet") ? parse_anynet(in, name) : parse_edge_list(in, name);
}

/// One message per ordered pair, far enough apart that none meets another: each
/// latency is the zero-load latency of its pair.
Trace every_pair_alone(std::uint32_t nodes, std::uint32_t flits) {
    Trace t;
    t.source = "every pair";
    for (std::uint32_t s = 0; s < nodes; ++s)
        for (std::uint32_t d = 0; d < nodes; ++d)
            if (s != d) {
                t.messages.push_back({t.messages.size() * 200, s, d, flits, 0});
                t.lines.push_back(t.messages.size());
            }
    return t;
}

template <class Fab>
std::vector<std::uint64_t> latencies_alone(const Fab& net, const Trace& trace) {
    MessageLatencies each(trace);
    CycleSimulator sim(net, each.watching(trace_settings({}, trace)));
    const CycleResult r = sim.run_trace(trace.messages);
    CHECK(r.measured_messages_delivered == trace.messages.size());
    return each.latencies();
}

}  // namespace

TEST_CASE("the incremental acyclic graph refuses exactly the edges a full cycle search would, naming the cycle") {
    // Random edges among 12 vertices, each offered to the incremental graph and checked against
    // find_cycle on the edges kept so far plus the new one.
    Random rng(7);
    detail::IncrementalDag dag(12);
    std::vector<std::vector<std::uint32_t>> kept(12);
    std::size_t refused = 0;
    for (int i = 0; i < 400; ++i) {
        const auto u = static_cast<std::uint32_t>(rng.below(12)), v = static_cast<std::uint32_t>(rng.below(12));
        auto with = kept;
        with[u].push_back(v);
        const bool closes = !detail::find_cycle(with).empty();
        const std::vector<std::uint32_t> cycle = dag.add(u, v);
        REQUIRE(cycle.empty() == !closes);
        if (closes) {
            ++refused;
            // v, ..., u along kept edges, and the new edge u -> v closes it.
            CHECK(cycle.front() == v);
            CHECK(cycle.back() == u);
            for (std::size_t j = 0; j + 1 < cycle.size(); ++j)
                CHECK(std::ranges::count(kept[cycle[j]], cycle[j + 1]) == 1);
        } else if (std::ranges::count(kept[u], v) == 0) {
            kept[u].push_back(v);
        }
    }
    CHECK(refused > 100);  // the test offered many edges that close cycles, not only easy ones
    // An edge taken out again may be offered anew.
    const auto [u, v] = [&] {
        for (std::uint32_t a = 0; a < 12; ++a)
            if (!kept[a].empty()) return std::pair{a, kept[a].front()};
        return std::pair{0U, 0U};
    }();
    dag.remove(u, v);
    CHECK_FALSE(dag.has_edge(u, v));
    CHECK(dag.add(u, v).empty());
}

TEST_CASE("a 4-node ring read from a file: distances, routes and loads by hand, in both kernels") {
    using Ring = Graph<2, 1, BasicLink<2>>;
    const Ring ring(read_graph_file(data + "/ring4.graph"));
    CHECK(ring.node_count() == 4);
    CHECK(ring.neighbour(NodeId{3}, PortId{0}) == NodeId{0});
    CHECK(ring.reverse_port(NodeId{3}, PortId{0}) == PortId{1});
    CHECK(ring.distance(NodeId{0}, NodeId{3}) == 1);
    CHECK(ring.diameter() == 2);
    const GraphShortestPath routing(ring);
    // The tie (two hops either way) goes by the lower port, clockwise: 0 -> 1 -> 2.
    std::vector<Hop> route(2);
    REQUIRE(routing.select_route(ring, NodeId{0}, NodeId{2}, 0, route.data()) == 2);
    CHECK(route[0] == Hop{NodeId{0}, PortId{0}, 0});
    CHECK(route[1] == Hop{NodeId{1}, PortId{0}, 0});
    // 0 -> 2, 1 -> 3, 2 -> 0 fill layer 0; 3 -> 1 would close the clockwise ring, so it takes layer 1.
    CHECK(routing.layers_used() == 2);
    CHECK(routing.layer(NodeId{3}, NodeId{1}) == 1);
    CHECK(routing.layer(NodeId{2}, NodeId{0}) == 0);
    const Fabric<Ring, GraphShortestPath> net(ring, routing);  // the dependency check proves it acyclic
    // Uniform traffic, 1/4 to every node: a clockwise channel carries the 1-hop pair and two 2-hop
    // pairs (3/4), an anticlockwise one the 1-hop pair the other way (1/4).
    const auto loads = link_load(net, UniformTraffic(4));
    for (std::uint32_t n = 0; n < 4; ++n) {
        CHECK(loads.load(ChannelId{2 * n}) == 0.75);
        CHECK(loads.load(ChannelId{2 * n + 1}) == 0.25);
    }
    // One flit over 2 hops with no other traffic: (h + 1) P + h L = 3 x 4 + 2 = 14 cycles.
    CycleConfig one;
    one.warmup = 0;
    one.measure = 1;
    CycleSimulator sim(net, one);
    CHECK(sim.run_trace(std::vector<TraceMessage>{{0, 0, 2, 1}}).latency.max == 14);
}

TEST_CASE("link classes from the edge list's fifth column, both directions of a link in its class") {
    using Ring = Graph<2, 1, BasicLink<2>, 2>;
    const GraphDescription d = from_text("0 0 1 1\n1 0 2 1\n2 0 3 1\n3 0 0 1 1  # the link 3-0 in class 1\n");
    CHECK(d.ports_used() == 2);
    CHECK(d.classes_used() == 2);
    const Ring ring(d);
    CHECK(ring.link_class(NodeId{3}, PortId{0}) == 1);
    CHECK(ring.link_class(NodeId{0}, PortId{1}) == 1);
    CHECK(ring.link_class(NodeId{0}, PortId{0}) == 0);
    const Fabric<Ring, GraphShortestPath> net(ring, GraphShortestPath(ring));
    // As the ring above: 3/4 clockwise, 1/4 the other way, now summarised per class.
    const auto loads = link_load(net, UniformTraffic(4));
    CHECK(loads.link_class(1).max_load == 0.75);
    CHECK(loads.link_class(1).channels == 2);
    CHECK(loads.link_class(0).channels == 6);
}

TEST_CASE("an irregular graph from an anynet file, two terminals a router: ports, loads and hops by hand") {
    using Irregular = Graph<3, 2, BasicLink<1>>;
    const GraphDescription d = read_graph_file(data + "/irregular.anynet");
    CHECK(d.nodes == 5);
    CHECK(d.terminals_per_node == 2);
    CHECK(d.ports_used() == 3);
    CHECK(d.links.size() == 5);  // 2-3, listed from both ends, is one link
    const Irregular g(d);
    CHECK(terminal_count(g) == 10);
    // Ports are the neighbouring routers in increasing order: router 0's are 1, 2, 4.
    CHECK(g.neighbour(NodeId{0}, PortId{2}) == NodeId{4});
    CHECK(g.neighbour(NodeId{3}, PortId{1}) == NodeId{2});
    CHECK(g.reverse_port(NodeId{3}, PortId{1}) == PortId{1});
    CHECK(g.distance(NodeId{4}, NodeId{3}) == 3);
    CHECK(g.diameter() == 3);
    // Shortest paths by the lower port leave the square 0-1-3-2 without a cycle: one VC is enough.
    const GraphShortestPath routing(g);
    CHECK(routing.layers_used() == 1);
    const Fabric<Irregular, GraphShortestPath> net(g, routing);
    // Uniform over 10 terminals: 2 x 2 x 1/10 = 0.4 between two routers. Channel 0 -> 1 carries
    // the routes 0-1, 0-3, 2-1, 4-1 and 4-3 (2.0); 0 -> 4 those into router 4 from 0, 1, 2, 3 (1.6);
    // 2 -> 3 only 2-3 (0.4).
    const auto loads = link_load(net, UniformTraffic(10));
    auto load = [&](std::uint32_t n, std::uint32_t p) { return loads.load(ChannelId{n * 3 + p}); };
    CHECK(load(0, 0) == doctest::Approx(2.0));
    CHECK(load(1, 0) == doctest::Approx(2.0));
    CHECK(load(0, 2) == doctest::Approx(1.6));
    CHECK(load(4, 0) == doctest::Approx(1.6));
    CHECK(load(0, 1) == doctest::Approx(1.2));
    CHECK(load(2, 1) == doctest::Approx(0.4));
    CHECK(load(3, 1) == doctest::Approx(0.4));
    CHECK(loads.link_class(0).max_load == doctest::Approx(2.0));
    // Terminal 9 (router 4) to terminal 6 (router 3): 3 hops, (3 + 1) 4 + 3 = 19 cycles alone.
    CycleConfig one;
    one.warmup = 0;
    one.measure = 1;
    CycleSimulator sim(net, one);
    const CycleResult r = sim.run_trace(std::vector<TraceMessage>{{0, 9, 6, 1}});
    CHECK(r.latency.max == 19);
    CHECK(r.measured_hops == 3);
}

TEST_CASE("a leaf-spine network from an anynet file: terminals on the leaves only, one path a pair") {
    // Leaves 0 to 3 with two terminals each, spines 4 and 5 with none (the routers after the terminals' serve none).
    const GraphDescription d = from_text("router 0 node 0 node 1 router 4 router 5\nrouter 1 node 2 node 3 router 4 "
                                         "router 5\nrouter 2 node 4 node 5 router 4 router 5\nrouter 3 node 6 node 7 "
                                         "router 4 router 5\n", "leafspine.anynet");
    using LeafSpine = Graph<4, 2, BasicLink<2>>;
    const LeafSpine g(d);
    CHECK(terminal_count(g) == 8);
    CHECK(g.terminals_per_node() == 2);
    const Fabric<LeafSpine, GraphShortestPath> net(g, GraphShortestPath(g));
    // Each leaf sends 2 x 6/8 = 1.5 units to other leaves, all by its lowest port (spine 4): shortest-path
    // routing gives one path a pair and does not spread over equal ones, as BookSim's anynet routing.
    const auto loads = link_load(net, UniformTraffic(8));
    for (std::uint32_t leaf = 0; leaf < 4; ++leaf) {
        CHECK(loads.load(ChannelId{leaf * 4}) == 1.5);
        CHECK(loads.load(ChannelId{leaf * 4 + 1}) == 0);
        CHECK(loads.load(ChannelId{4 * 4 + leaf}) == 1.5);
    }
    CycleSimulator sim(net);
    const CycleResult r = sim.run(UniformTraffic(8), 0.2, PacketSizes::fixed(4));
    CHECK(r.terminals == 8);
    CHECK_FALSE(r.saturated);
}

TEST_CASE("a 4 x 4 torus written as a graph: the built-in torus's loads, and its latency alone and at low load") {
    using Tor = Torus<2, BasicLink<3>>;
    const Tor torus({4, 4});
    // The file is what write_edge_list makes of the built-in torus (its ports: 2d the + way).
    std::ostringstream written;
    write_edge_list(written, torus);
    std::ifstream kept(data + "/torus4x4.graph");
    std::stringstream file;
    file << kept.rdbuf();
    CHECK(written.str() == file.str());
    using G = Graph<4, 1, BasicLink<3>>;
    const G g(read_graph_file(data + "/torus4x4.graph"));
    const GraphShortestPath routing(g);
    CHECK(routing.layers_used() == 3);  // one VC more than the dateline's 2: layers hold whole routes
    const Fabric<G, GraphShortestPath> graph(g, routing);
    const Fabric<Tor, DorTiePositive<Dateline>> builtin(torus);
    // The lowest port one hop nearer is dimension order with ties the + way, hop for hop: the same
    // loads to the last bit.
    auto same_loads = [&](const auto& pattern) {
        return std::ranges::equal(link_load(graph, pattern).per_channel(), link_load(builtin, pattern).per_channel());
    };
    CHECK(same_loads(UniformTraffic(16)));
    CHECK(same_loads(TornadoTraffic({4, 4})));
    // Alone, every pair's latency is the same: the routes are, and no packet meets another.
    const Trace pairs = every_pair_alone(16, 4);
    CHECK(latencies_alone(graph, pairs) == latencies_alone(builtin, pairs));
    // Loaded, packets meet, and the VCs they meet on differ (the torus's switch at the dateline,
    // the graph's stay on their route's layer), so wormhole interleaving differs: close, not equal.
    // Measured (seed 1, 4-flit packets): 17.4491 against 17.4596 cycles at 0.05, 17.8641 against
    // 17.8824 at 0.10.
    for (const double rate : {0.05, 0.10}) {
        CycleSimulator a(graph);
        CycleSimulator b(builtin);
        const CycleResult x = a.run(UniformTraffic(16), rate, PacketSizes::fixed(4));
        const CycleResult y = b.run(UniformTraffic(16), rate, PacketSizes::fixed(4));
        CHECK(x.hops_mean == y.hops_mean);
        CHECK(x.accepted == doctest::Approx(y.accepted).epsilon(0.002));
        CHECK(std::abs(x.latency.mean - y.latency.mean) < 0.002 * y.latency.mean);
    }
}

TEST_CASE("a ring with one virtual channel: refused, naming the cycle its routes close") {
    const Graph<2, 1, BasicLink<1>> ring(read_graph_file(data + "/ring4.graph"));
    const std::string message = "fabric: " + data + "/ring4.graph: shortest-path routing needs more than 1 virtual "
        "channel: the route from node 3 to node 1 would close the cycle (node 0, port 0, vc 0) -> (node 1, port 0, vc 0) "
        "-> (node 2, port 0, vc 0) -> (node 3, port 0, vc 0) -> (node 0, port 0, vc 0) in every one of them; give the "
        "links more virtual channels (a Link with 2 or more)";
    CHECK_THROWS_WITH_AS(GraphShortestPath{ring}, message.c_str(), config_error);
    // A policy not built from the graph has no routes: the fabric is refused when formed.
    using Ring2 = Graph<2, 1, BasicLink<2>>;
    CHECK_THROWS_WITH_AS((Fabric<Ring2, GraphShortestPath>{Ring2(read_graph_file(data + "/ring4.graph"))}),
                         doctest::Contains("build it from its graph"), config_error);
}

TEST_CASE("read errors name the file and line") {
    using G = Graph<4>;
    auto refused = [](const std::string& text, const std::string& expected, const std::string& name = "bad.graph") {
        CHECK_THROWS_WITH_AS(G(from_text(text, name)), doctest::Contains(expected.c_str()), config_error);
    };
    CHECK_THROWS_WITH_AS(read_graph_file(data + "/no_such.graph"), doctest::Contains("cannot open graph file"),
                         config_error);
    refused("0 0 1 1\n0 0 x 1\n", "fabric: bad.graph:2: a node must be a whole number");
    refused("0 0 1\n", "fabric: bad.graph:1: a link is 'A PA B PB [CLASS]'");
    refused("0 0 1 1\n1 1 0 0\n", "fabric: bad.graph:2: duplicate link: port 1 of node 1 is already wired by line 1");
    refused("0 0 1 1\n0 0 2 1\n", "fabric: bad.graph:2: port wired twice: port 0 of node 0 is already wired by line 1");
    refused("0 0 1 1\n1 4 2 0\n", "fabric: bad.graph:2: port 4 is past Graph<4>'s port slots 0 to 3; use Graph<5>");
    refused("0 0 1 1 1\n", "fabric: bad.graph:1: link class 1 is past the 1 class of this Graph type");
    refused("0 0 0 1\n", "fabric: bad.graph:1: a link from node 0 to itself");
    refused("nodes 3\n0 0 1 1\n", "fabric: bad.graph:1: node 2 has no link");
    refused("0 0 1 1\n2 0 3 1\n", "fabric: bad.graph: node 2 cannot be reached from node 0");
    refused("nodes 2\n0 0 5 1\n", "fabric: bad.graph:2: node 5 is past the 2 nodes given at line 1");
    refused("terminals 2\n0 0 1 1\n", "fabric: bad.graph:1: Graph<4, 1> serves 1 to 1 terminals a node; got 2");
    refused("router 0 router 1 node 0\nrouter 1 node 0\n",
            "fabric: bad.anynet:2: node 0 is joined to router 1 and, at line 1, to router 0", "bad.anynet");
    refused("router 0 router 1 15 node 0\n", "fabric: bad.anynet:1: link latency 15", "bad.anynet");
    refused("router 0 router 2 node 0\nrouter 2 node 1\n", "fabric: bad.anynet:1: router 2: routers are numbered 0 to 1",
            "bad.anynet");
    refused("router 0 router 1 node 0 node 1\nrouter 1 node 2\n", "fabric: bad.anynet: router 0 has 2 nodes and there "
            "are 3", "bad.anynet");
    refused("router 0 router 1 node 0\nrouter 2 node 1\n", "fabric: bad.anynet:2: router 2 is joined to no other "
            "router", "bad.anynet");
    refused("router 0 route 1\n", "fabric: bad.anynet:1: expected 'router' or 'node', got 'route'", "bad.anynet");
    refused("router 0 router 1 node 0\nnode 1 node 2\n", "fabric: bad.anynet:2: node 1 is joined to node 2",
            "bad.anynet");
    // Every number is bounded where it is read, by what a Graph holds, before anything is computed
    // from it: 4294967295 nodes once wrapped "highest + 1" to 0, and 2^32 / 16 terminals on 16 a
    // node wrapped their product to 0 in the tool before the Graph's own check.
    refused("nodes 4294967295\n0 0 1 1\n", "fabric: bad.graph:1: the node count must be a whole number from 0 to 8192; "
            "got '4294967295'");
    refused("0 0 4294967295 1\n", "fabric: bad.graph:1: a node must be a whole number from 0 to 8191");
    refused("terminals 16 268435456\n0 0 1 1\n", "fabric: bad.graph:1: the nodes with terminals must be a whole "
            "number from 0 to 8192");
    refused("terminals 4294967296\n0 0 1 1\n", "fabric: bad.graph:1: terminals a node must be a whole number from 0 to 64");
    refused("0 255 1 1\n", "fabric: bad.graph:1: a port must be a whole number from 0 to 254");
    refused("router 8192 router 1 node 0\n", "fabric: bad.anynet:1: a router must be a whole number from 0 to 8191",
            "bad.anynet");
}

TEST_CASE("a graph file is read with a bound: a regular file within the limit, anything else refused by name") {
    CHECK_THROWS_WITH_AS(read_graph_file(data), doctest::Contains("is a directory, not a file to read"), config_error);
    CHECK_THROWS_WITH_AS(read_graph_file("/dev/zero"), doctest::Contains("'/dev/zero' is a character device"),
                         config_error);
    CHECK_THROWS_WITH_AS(read_graph_file(data + "/ring4.graph", 10, "raise it so"),
                         doctest::Contains("past the limit of 10 bytes for one input file; raise it so"), config_error);
}

}  // namespace unit_graph_topology
