// The composed collectives (dimension-wise, multi-ported) on a 4 x 4 torus whose two dimensions' links take
// different latencies: every one ends, with every message delivered and no flit left in flight, and the
// latencies take effect (the finish moves from the run on links all of one cycle).
//
// The built-in torus has one link class, so the network is the same torus written as a graph
// (topology/graph_file.hpp: write_edge_list), its x links in class 0 and its y links in class 1, each class
// given its latency (CycleConfig::class_latency), routed along shortest paths on layered VCs
// (routing/graph_shortest_path.hpp, deadlock-free by construction). The collectives' graphs are built on the
// torus itself: ranks are its routers, a rank's rails the 4 terminals of its router, as the graph numbers them
// too (terminal t on router t / 4). What can go wrong with unequal latencies is in the workload, not the
// routing: the lanes of a multi-ported round, and the rings of a dimension-wise one, fall out of step, so a
// message of a later round can reach a rank before one of an earlier round; the dependency engine waits for
// deliveries, not for an order, and a run that could not finish would stop with `finished` false.
#include <doctest/doctest.h>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/policies.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/graph.hpp>
#include <fabric/topology/graph_file.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/graph.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace unit_unequal_links {

using namespace fabric;
using collective::Algorithm;
using collective::Operation;

using Tor = Torus<2, BasicLink<3>>;
using G = Graph<4, 4, BasicLink<3>, 2>;

/// The 4 x 4 torus as a graph of 4 terminals a router: x links (same row) in class 0, y links in class 1.
GraphDescription torus_by_dimension() {
    std::ostringstream written;
    write_edge_list(written, Tor({4, 4}));
    std::istringstream in(written.str());
    GraphDescription d = parse_edge_list(in, "torus4x4");
    for (GraphLink& l : d.links) l.link_class = l.node / 4 == l.neighbour / 4 ? 0 : 1;
    d.terminals_per_node = 4;
    return d;
}

/// Runs `g` with x links of latency `x` and y links of `y`; checks that it ends with every flit delivered.
std::uint64_t finish(const Fabric<G, GraphShortestPath>& fab, const collective::CollectiveGraph& g,
                     std::uint32_t x, std::uint32_t y) {
    CycleConfig cfg;
    cfg.class_latency = {x, y};
    CycleSimulator<Fabric<G, GraphShortestPath>> sim(fab, cfg);
    WorkloadOptions o;
    o.placement = workload::RankPlacement::rails(16, 4);
    const WorkloadResult r = sim.run_workload(g, o);
    REQUIRE_MESSAGE(r.finished, r.report());
    CHECK(r.completed == g.size());
    CHECK(r.network.flits_in_flight == 0);
    CHECK(r.network.flits_ejected == r.network.flits_injected);
    return r.finish_cycle;
}

TEST_CASE("composed collectives on a torus with unequal link latencies: each ends, every flit delivered") {
    const GraphDescription d = torus_by_dimension();
    CHECK(d.classes_used() == 2);
    const G g(d);
    const Fabric<G, GraphShortestPath> fab(g, GraphShortestPath(g));
    const Concentrated<Torus<2>, 4> quad(Torus<2>({4, 4}), 4);
    const CollectiveRequest req{.bytes = 64 * 1024, .rails = 4};
    std::vector<std::pair<std::string, collective::CollectiveGraph>> runs;
    runs.emplace_back("allreduce, multi-ported", Allreduce<Multiported<>>{}.graph(quad, req));
    runs.emplace_back("allreduce, dimension-wise rings", Allreduce<DimensionWise<>>{}.graph(quad, req));
    runs.emplace_back("allgather, multi-ported",
                      collective::build(Operation::allgather, Algorithm::multiported,
                                        collective::Shape{{4, 4}, {}, 4}, collective::Size{64 * 1024}));
    runs.emplace_back("barrier, dimension-wise",
                      collective::build(Operation::barrier, Algorithm::dimension_wise,
                                        collective::Shape{{4, 4}, {}, 4}, collective::Size{}));
    for (const auto& [name, graph] : runs) {
        CAPTURE(name);
        const std::uint64_t fast = finish(fab, graph, 1, 1);
        for (const auto& [x, y] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 7}, {7, 1}, {2, 13}}) {
            CAPTURE(x);
            CAPTURE(y);
            CHECK(finish(fab, graph, x, y) != fast);
        }
    }
}

}  // namespace unit_unequal_links
