// The collectives at flit level (CycleSimulator::run_workload) against their
// alpha-beta costs (collective/alpha_beta.hpp: Thakur, Rabenseifner and Gropp
// 2005, sections 4.1-4.6; Chan et al. 2007, section 4, the bucket algorithms).
//
// Where nothing contends the simulated finish equals the formula to the cycle,
// with alpha and beta fitted from two single-message runs, as the issue asks. Why
// it is exact: the cycle kernel's zero-load latency of S flits over h router links
// is (h + 1) P + h L + S - 1 (sim/cycle/simulator.hpp; P = 4 pipeline cycles a
// router, L = 1 cycle a link, tests/runtime/workload_engine.cpp), which is alpha +
// b beta for a message of b = 16 S bytes with alpha = (h + 1) P + h L - 1 and beta
// = 1/16 cycle a byte: a line in b, so two runs give it. A ring's neighbours are
// one link apart (alpha = 8); on an 8-ary 2-tree with one rank on each leaf every
// pair meets at a root, two links apart (alpha = 13). The dependency engine
// readies a successor in the cycle its last predecessor is delivered
// (workload_engine.cpp's chains), a send leaves one flit a cycle, and each round
// of these algorithms is a permutation (a partial one for a tree) sent one
// message a rank at a time, so no two messages share a channel at once and each
// round takes alpha + b beta: the formula's sum. Each test also checks that no
// message waited in the network (its latency is its zero-load latency), which is
// what makes the equality a fact rather than a coincidence.
//
// Worked by hand, ring allreduce on a ring of 5, n = 320 bytes: blocks of n/p = 64
// bytes (4 flits), 2(p-1) = 8 rounds of alpha + 64 beta = 8 + 4 = 12 cycles: 96.
//
// Where messages contend (an all-to-all sent all at once, a ring laid on a torus
// whose wrap-around shares links), two laws hold instead: every byte is delivered
// (flits ejected = flits of every message, none in flight), and the run never ends
// before the model with the least alpha of the network's pairs.
#include <doctest/doctest.h>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/cau.hpp>
#include <fabric/collective/dimension_sum.hpp>
#include <fabric/collective/scu_global.hpp>
#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/policies.hpp>
#include <fabric/collective/timing.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace unit_runs {

using namespace fabric;
using collective::AlphaBeta;
using collective::Algorithm;
using collective::Operation;

constexpr std::uint32_t flit_bytes = 16;  // the kernel's default flit

std::uint64_t flits_of(std::uint64_t bytes) { return std::max<std::uint64_t>(1, (bytes + flit_bytes - 1) / flit_bytes); }

/// Alpha and beta from two single-message runs, rank 0 to rank 1 of `placement` (its other ranks idle): one
/// flit, then two.
template <class Fab>
AlphaBeta fit(const Fab& fab, const workload::RankPlacement& placement) {
    std::uint64_t latency[2];
    for (const std::uint64_t flits : {1U, 2U}) {
        workload::GraphBuilder b("one message");
        b.add_message(0, 1, flits * flit_bytes);
        CycleSimulator<Fab> sim(fab);
        WorkloadOptions o;
        o.placement = placement;
        const WorkloadResult r = sim.run_workload(b.build(placement.ranks()), o);
        REQUIRE(r.finished);
        latency[flits - 1] = r.finish_cycle;
    }
    const double beta = static_cast<double>(latency[1] - latency[0]) / flit_bytes;
    return AlphaBeta{static_cast<double>(latency[0]) - flit_bytes * beta, beta, flit_bytes};
}

struct Run {
    WorkloadResult result;
    double model = 0;          // collective::model_times: the graph timed with no network
    std::uint64_t waited = 0;  // messages whose latency passed their zero-load latency
};

/// Runs `g` with every node's times and checks the conservation laws, which hold with or without contention.
template <class Fab, class G>
Run run(const Fab& fab, const G& g, const workload::RankPlacement& placement, const AlphaBeta& m) {
    CycleSimulator<Fab> sim(fab);
    WorkloadOptions o;
    o.placement = placement;
    o.record_nodes = true;
    Run out{sim.run_workload(g, o)};
    const WorkloadResult& r = out.result;
    REQUIRE(r.finished);
    CHECK(r.completed == g.size());
    std::uint64_t messages = 0, flits = 0;
    for (std::uint64_t i = 0; i < g.size(); ++i) {
        const workload::Node x = g.node(i);
        if (!x.is_message()) continue;
        ++messages;
        flits += flits_of(x.bytes);
        const cycle::NodeTimes& t = r.nodes[i];
        REQUIRE(t.delivered != cycle::NodeTimes::never);
        if (static_cast<double>(t.delivered - t.injected) > m.alpha + m.message(static_cast<double>(x.bytes)))
            ++out.waited;
    }
    // Conservation: every message delivered whole, once, and nothing left in the network.
    CHECK(r.network.packets_delivered == messages);
    CHECK(r.network.flits_injected == flits);
    CHECK(r.network.flits_ejected == flits);
    CHECK(r.network.flits_in_flight == 0);
    CHECK(r.network.misdelivered == 0);
    out.model = collective::model_times(g, m).finish();
    // Never earlier than the model: queueing only delays.
    CHECK(static_cast<double>(r.finish_cycle) >= out.model);
    return out;
}

TEST_CASE("ring allreduce on a ring takes its alpha-beta cost to the cycle (Chan et al., bucket algorithm)") {
    // 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma; blocks of 8 flits, reductions of gamma 0 and 1/2 a byte.
    using R = Torus<1>;
    for (const std::uint32_t p : {2U, 3U, 5U, 8U, 16U})
        for (const double gamma : {0.0, 0.5}) {
            CAPTURE(p);
            CAPTURE(gamma);
            const Fabric<R, DorTieSplit<>> fab{R({p})};
            const auto placement = workload::RankPlacement::identity(p);
            const AlphaBeta m = fit(fab, placement);
            CHECK(m.alpha == 8);
            CHECK(m.beta == 1.0 / 16);
            const CollectiveRequest req{.bytes = std::uint64_t{p} * 8 * flit_bytes, .reduce_per_byte = gamma};
            const auto g = Allreduce<fabric::Ring>{}.graph(R({p}), req);
            const Run r = run(fab, g, placement, m);
            CHECK(r.waited == 0);
            const double formula = Allreduce<fabric::Ring>{}.cost(R({p}), req, m);
            CHECK(static_cast<double>(r.result.finish_cycle) == formula);
            CHECK(r.model == formula);
            // Worked by hand: each of the 2(p-1) rounds one block of 8 flits, alpha 8 cycles, and p - 1 reductions
            // of a block (128 bytes, 64 cycles at gamma 1/2).
            CHECK(r.result.finish_cycle == 2 * (p - 1) * (8 + 8) + (p - 1) * static_cast<std::uint64_t>(128 * gamma));
        }
}

struct Case {
    Operation op;
    Algorithm a;
    std::uint32_t segments = 1;
};

TEST_CASE("on a fat tree whose pairs all meet at a root, each algorithm takes its alpha-beta cost to the cycle") {
    // 8-ary 2-tree (64 terminals on 8 leaves), rank r on terminal 8 r: one rank a leaf, every pair two links apart,
    // so alpha is one number (13 cycles) and each round's permutation finds its up and down links free.
    using Ft = FatTree<8>;
    const Fabric<Ft, FatTreeNca> fab{Ft(8, 2)};
    const std::uint32_t p = 8;
    std::vector<std::vector<std::uint32_t>> terminals(p);
    for (std::uint32_t r = 0; r < p; ++r) terminals[r] = {8 * r};
    const workload::RankPlacement placement(terminals);
    const AlphaBeta m = fit(fab, placement);
    CHECK(m.alpha == 13);
    CHECK(m.beta == 1.0 / 16);
    const std::uint64_t n = std::uint64_t{p} * 16 * flit_bytes;  // blocks of 16 flits
    // Thakur et al. 2005: allreduce (4.4: recursive doubling lg p (alpha + n beta + n gamma); Rabenseifner
    // 2 lg p alpha + 2(p-1)/p n beta + (p-1)/p n gamma), allgather (4.1: recursive doubling and Bruck, lg p alpha +
    // (p-1)/p n beta), reduce-scatter (4.3: recursive halving, lg p alpha + (p-1)/p n (beta + gamma)), broadcast and
    // reduce (4.2, 4.5: binomial lg p (alpha + n beta (+ n gamma)); van de Geijn's scatter + allgather), all-to-all
    // (4.6: pairwise (p-1) alpha + (p-1)/p n beta; Bruck lg p alpha + lg p n/2 beta), barrier (4.7: dissemination
    // lg p alpha, a message a flit); Chan et al.: the ring's bucket algorithms; the chain's pipeline.
    const std::vector<Case> cases{
        {Operation::allreduce, Algorithm::recursive_doubling}, {Operation::allreduce, Algorithm::rabenseifner},
        {Operation::allreduce, Algorithm::ring},               {Operation::allgather, Algorithm::recursive_doubling},
        {Operation::allgather, Algorithm::bruck},              {Operation::allgather, Algorithm::ring},
        {Operation::reduce_scatter, Algorithm::recursive_halving},
        {Operation::broadcast, Algorithm::binomial},           {Operation::reduce, Algorithm::binomial},
        {Operation::broadcast, Algorithm::scatter_allgather},  {Operation::broadcast, Algorithm::chain},
        {Operation::alltoall, Algorithm::pairwise},            {Operation::alltoall, Algorithm::bruck},
        {Operation::barrier, Algorithm::dissemination}};
    for (const double gamma : {0.0, 0.25})
        for (const Case& c : cases) {
            CAPTURE(std::string(name(c.op)));
            CAPTURE(std::string(name(c.a)));
            CAPTURE(gamma);
            const collective::Size size{c.op == Operation::barrier ? 0 : n, c.segments, gamma, 0};
            const auto g = collective::build(c.op, c.a, collective::Shape::line(p), size);
            const Run r = run(fab, g, placement, m);
            CHECK(r.waited == 0);
            const double formula = collective::cost(c.op, c.a, collective::Shape::line(p), size, m);
            CHECK(static_cast<double>(r.result.finish_cycle) == formula);
            CHECK(r.model == formula);
        }
}

/// The fat tree of the test above: one rank on each of its 8 leaves.
struct OneRankALeaf {
    using Ft = FatTree<8>;
    Fabric<Ft, FatTreeNca> fab{Ft(8, 2)};
    workload::RankPlacement placement = [] {
        std::vector<std::vector<std::uint32_t>> terminals(8);
        for (std::uint32_t r = 0; r < 8; ++r) terminals[r] = {8 * r};
        return workload::RankPlacement(terminals);
    }();
};

TEST_CASE("a pipelined chain: each piece after the first leaves the root 2 cycles later than the model says") {
    // The model lets piece j + 1 start the cycle piece j's last byte has left (k - 1 pieces back to back: (k - 1)
    // n/k beta). The engine completes a send the cycle after its last flit leaves the source queue (injected + S + 1,
    // sim/cycle/dependency_engine.hpp), and a successor of that completion enters the queue at the next cycle's
    // injection phase: 2 cycles a piece at the root, whose k - 1 back-to-back sends are on the critical path (the
    // ranks downstream are paced by arrivals, alpha + n/k beta apart). So the run is the formula plus 2(k - 1),
    // exactly, and nothing waits in the network.
    const OneRankALeaf t;
    const AlphaBeta m = fit(t.fab, t.placement);
    for (const std::uint32_t k : {1U, 2U, 4U, 8U})
        for (const std::uint64_t flits : {1U, 16U}) {
            CAPTURE(k);
            CAPTURE(flits);
            const collective::Size size{k * flits * flit_bytes, k};
            const auto g = collective::build(Operation::broadcast, Algorithm::chain, collective::Shape::line(8), size);
            const Run r = run(t.fab, g, t.placement, m);
            CHECK(r.waited == 0);
            const double formula = collective::cost(Operation::broadcast, Algorithm::chain, collective::Shape::line(8),
                                                    size, m);
            CHECK(r.model == formula);
            CHECK(static_cast<double>(r.result.finish_cycle) == formula + 2 * (k - 1));
        }
}

TEST_CASE("under contention every byte arrives and no run beats the model") {
    // An all-to-all sent all at once: each leaf's down link carries 7 messages at once (fat tree); on a 4 x 4
    // torus a pairwise all-to-all and a ring allreduce over terminals in order, whose messages cross rows and
    // share links. alpha is the least of the network's pairs (one link apart), so the model is a lower bound.
    {
        const OneRankALeaf t;
        const auto& fab = t.fab;
        const auto& placement = t.placement;
        const AlphaBeta m = fit(fab, placement);
        const auto g = collective::build(Operation::alltoall, Algorithm::direct, collective::Shape::line(8),
                                         collective::Size{8 * 8 * 4 * flit_bytes});
        const Run r = run(fab, g, placement, m);
        CHECK(r.waited > 0);  // contention there is
        CHECK(static_cast<double>(r.result.finish_cycle) > r.model);
        // Where a rank's sends and reductions overlap, the engine holds a send until the rank's one CPU is free
        // (LogGOPSim's rule, even with o = 0) and gives the CPU in the order nodes became ready; the model lets a
        // send leave while the CPU reduces. A pipelined reduce chain and the double binary tree (a rank an inner
        // node of one tree and a leaf of the other, its sends to two children queued on one rail) run later than
        // the model: the laws hold, the difference is the engine's rule.
        for (const std::uint32_t k : {1U, 4U}) {
            CAPTURE(k);
            run(fab, collective::build(Operation::allreduce, Algorithm::double_binary_tree, collective::Shape::line(8),
                                       collective::Size{8 * 64 * flit_bytes, k}),
                placement, m);
            run(fab, collective::build(Operation::reduce, Algorithm::chain, collective::Shape::line(8),
                                       collective::Size{k * 16 * flit_bytes, k, 0.25}),
                placement, m);
        }
    }
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> fab{T({4, 4})};
    const auto placement = workload::RankPlacement::identity(16);
    const AlphaBeta m = fit(fab, placement);  // ranks 0 and 1: one link apart, the least alpha
    CHECK(m.alpha == 8);
    for (const auto& [op, a] : std::vector<std::pair<Operation, Algorithm>>{
             {Operation::alltoall, Algorithm::pairwise}, {Operation::alltoall, Algorithm::direct},
             {Operation::allreduce, Algorithm::ring}, {Operation::allreduce, Algorithm::recursive_doubling},
             {Operation::allgather, Algorithm::bruck}, {Operation::barrier, Algorithm::dissemination}}) {
        CAPTURE(std::string(name(op)));
        CAPTURE(std::string(name(a)));
        const auto g = collective::build(op, a, collective::Shape::line(16),
                                         collective::Size{op == Operation::barrier ? 0 : 16 * 16 * 8 * flit_bytes});
        run(fab, g, placement, m);
    }
}

TEST_CASE("multi-ported dimension-wise allreduce on a 4 x 4 torus: its cost to the cycle, 4x the single-ported ring") {
    // Sack and Gropp: a rank of 2d ports runs 2d lanes of n/2d, each dimension-wise round its own rings its own
    // way, so the bandwidth term falls 2d = 4 times. Ranks are routers of a 4 x 4 torus concentrated 4 a router, a
    // terminal a rail; each lane's ring steps are one link, and the 4 lanes of a round take 4 different directions,
    // so nothing contends and the run is the cost (collective/alpha_beta.hpp: the lanes side by side, each the
    // dimension-wise cost of n/4: along x, 2(3)(alpha + n/16 beta), along y on n/16, 2(3)(alpha + n/64 beta)).
    using T = Torus<2>;
    using C = Concentrated<T, 4>;
    const C quad(T({4, 4}), 4);
    const Fabric<C, DorTieSplit<>> fab{quad};
    const auto rails = workload::RankPlacement::rails(16, 4);
    const AlphaBeta m = fit(fab, rails);
    CHECK(m.alpha == 8);
    const CollectiveRequest req{.bytes = 1 << 20, .rails = 4};
    const auto g = Allreduce<Multiported<>>{}.graph(quad, req);
    const Run multi = run(fab, g, rails, m);
    const double formula = Allreduce<Multiported<>>{}.cost(quad, req, m);
    CHECK(formula == 12 * 8 + 6 * (1 << 20) / 16.0 / 16 + 6 * (1 << 20) / 64.0 / 16);
    CHECK(static_cast<double>(multi.result.finish_cycle) == formula);
    // The single-ported ring over the same 16 ranks, one terminal of each router: at 1 MiB, at least 3.5x slower
    // (the figure; Sack and Gropp's 2d = 4 is the limit).
    std::vector<std::vector<std::uint32_t>> one(16);
    for (std::uint32_t r = 0; r < 16; ++r) one[r] = {4 * r};
    const Run ring = run(fab, collective::build(Operation::allreduce, Algorithm::ring, collective::Shape::line(16),
                                                collective::Size{1 << 20}),
                         workload::RankPlacement(one), m);
    CHECK(static_cast<double>(ring.result.finish_cycle) >= 3.5 * static_cast<double>(multi.result.finish_cycle));
    CHECK(static_cast<double>(ring.result.finish_cycle) <= 4.0 * static_cast<double>(multi.result.finish_cycle) * 1.01);
}

TEST_CASE("the seed collectives at flit level: the dimension-wise and SCU sums' hop counts exactly, the CAU's difference") {
    // QCDOC's dimension-wise sum (dimension_sum.hpp): critical_path_hops() one-hop messages of one word, each a
    // flit (alpha 8, one flit 1 cycle: 9 cycles a hop), where the paper's assumption holds (nothing contends: a word
    // a link a step). So the flit-level run is the closed form times one hop's latency, to the cycle.
    {
        using T = Torus<3>;
        const T torus({4, 3, 2});
        const Fabric<T, DorTieSplit<>> fab{torus};
        const auto placement = workload::RankPlacement::identity(24);
        const AlphaBeta m = fit(fab, placement);
        CHECK(m.alpha == 8);
        const DimensionWiseSum sum;
        const auto g = sum.graph(torus, {.bytes = 8});
        const Run r = run(fab, g, placement, m);
        CHECK(r.waited == 0);
        CHECK(r.result.finish_cycle == sum.critical_path_hops(torus) * 9);
    }
    // QCDOC's SCU global sum (scu_global.hpp, Boyle et al. section 2.2) as its graph, one word a message round each
    // ring, dimension by dimension: hops(N) one-hop messages on the critical path, as the closed form counts them.
    // The closed form's time is bit-serial pass-through (a word forwarded after 8 bits), which a network of whole
    // flits does not model; its hop count is what carries over: the run takes hops(N) x 9 cycles, exactly.
    {
        const ScuGlobalSum sum(false);
        using T = Torus<3>;
        const std::vector<std::uint32_t> extents{4, 3, 2};
        const Fabric<T, DorTieSplit<>> fab{T({4, 3, 2})};
        const auto placement = workload::RankPlacement::identity(24);
        const AlphaBeta m = fit(fab, placement);
        const Run r = run(fab, sum.graph(extents), placement, m);
        CHECK(r.waited == 0);
        CHECK(r.result.finish_cycle == sum.hops(extents) * 9);
        using R = Torus<1>;
        const Fabric<R, DorTieSplit<>> ring{R({7})};
        const Run seven = run(ring, sum.graph({7}), workload::RankPlacement::identity(7), m);
        CHECK(seven.result.finish_cycle == sum.hops(std::vector<std::uint32_t>{7}) * 9);
    }
    // The PERCS CAU's reduction (cau.hpp) over 13 hubs, each on a leaf of a 16-ary 2-tree (every pair two links
    // apart, alpha 13): the paper's assumption (a hub's packets to its children leave at once) does not hold, the
    // hub's one terminal sends them one after the other: model_times, which queues them so, is later than
    // cau::reduce() with the same hop time (seeds.cpp states by how much without a network), and the run later
    // still, since the engine's hub takes a packet in only when its CPU is not combining (LogGOPSim's rule): 206,
    // 210 and 218 cycles, reported, with the laws checked.
    {
        using Ft = FatTree<16>;
        const Fabric<Ft, FatTreeNca> fab{Ft(16, 2)};
        std::vector<std::vector<std::uint32_t>> terminals(13);
        for (std::uint32_t r = 0; r < 13; ++r) terminals[r] = {16 * r};
        const workload::RankPlacement placement(terminals);
        const AlphaBeta m = fit(fab, placement);
        CHECK(m.alpha == 13);
        const auto tree = cau::Tree::k_ary({4, 9, 1, 7, 0, 3, 12, 5, 8, 2, 11, 6, 10}, 3);
        const auto g = cau::graph(tree, 16, 30);
        const Run r = run(fab, g, placement, m);
        cau::Timing timing;
        timing.per_hop_ns = 14;  // a one-flit packet's latency, two links apart
        timing.cau_ns = 30;
        const auto closed = cau::reduce<double>({tree}, cau::Op::sum, {std::vector<double>(13, 1.0)},
                                                [](std::uint32_t, std::uint32_t) { return 1; }, timing);
        CHECK(r.model > closed[0].done_ns);
        MESSAGE("CAU over 13 hubs: flit level ", r.result.finish_cycle, " cycles, closed form ", closed[0].done_ns);
    }
}

}  // namespace unit_runs
