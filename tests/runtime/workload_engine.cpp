// The dependency engine on the cycle kernel (CycleSimulator::run_workload), exact
// to the cycle: chains and fan-ins on a torus, a fat tree and a dragonfly against
// the zero-load latency worked by hand from sim/cycle/simulator.hpp's formula
// (h + 1) P + h L + S - 1 (P = 4 pipeline cycles, L = 1, S flits of 16 bytes);
// a successor whose ready cycle has passed the injection phase that could have
// sent it; compute nodes; idle cycles skipped; a run that cannot finish says why.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/graph.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace unit_workload_engine {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using workload::Completion;
using workload::GraphBuilder;
using workload::NodeIndex;

namespace {

WorkloadOptions recorded() {
    WorkloadOptions o;
    o.record_nodes = true;
    return o;
}

/// Zero-load latency of S flits over h links: (h + 1) P + h L + S - 1 with P = 4, L = 1.
std::uint64_t zero_load(std::uint64_t h, std::uint64_t S) { return (h + 1) * 4 + h + S - 1; }

struct Hop {
    std::uint32_t from, to;
    std::uint64_t hops;
};

/// A chain of messages, each waiting for the delivery of the one before plus `delay`, of S flits each.
workload::ExplicitGraph chain(const std::vector<Hop>& hops, std::uint32_t ranks, std::uint64_t S,
                              std::uint64_t delay) {
    GraphBuilder b("chain");
    NodeIndex last = 0;
    for (std::size_t i = 0; i < hops.size(); ++i) {
        const NodeIndex m = b.add_message(hops[i].from, hops[i].to, 16 * S);
        if (i > 0) {
            b.depend(m, last);
            b.node(m).delay = delay;
        }
        last = m;
    }
    return b.build(ranks);
}

template <class Fab>
void check_chain(const Fab& fab, const std::vector<Hop>& hops, std::uint32_t ranks) {
    for (const std::uint64_t S : {1U, 3U})
        for (const std::uint64_t delay : {0U, 5U}) {
            CycleSimulator<Fab> sim(fab);
            const auto g = chain(hops, ranks, S, delay);
            const WorkloadResult r = sim.run_workload(g, recorded());
            REQUIRE(r.finished);
            std::uint64_t expect = 0;
            for (std::size_t i = 0; i < hops.size(); ++i) {
                CAPTURE(i);
                CHECK(r.nodes[i].ready == expect);
                CHECK(r.nodes[i].injected == expect);
                expect += zero_load(hops[i].hops, S);
                CHECK(r.nodes[i].delivered == expect);
                CHECK(r.nodes[i].received == expect);
                if (i + 1 < hops.size()) expect += delay;
            }
            // The whole chain: the sum of the zero-load latencies plus (k - 1) delays.
            CHECK(r.finish_cycle == expect);
            CHECK(r.ranks[hops.back().to] == expect);
            CHECK(r.network.packets_delivered == hops.size());
            CHECK(r.frontier_peak == 1);
            CHECK(critical_path(g, r).size() == hops.size());
        }
}

}  // namespace

TEST_CASE("a chain of k messages ends at the sum of their zero-load latencies plus (k - 1) delays: torus") {
    // 4x4 torus, node x + 4y, dimension order: (0,0)->(1,0) one hop, (1,0)->(2,1) two,
    // (2,1)->(3,2) two, (3,2)->(0,3) two (x wraps 3 -> 0).
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> fab{T({4, 4})};
    check_chain(fab, {{0, 1, 1}, {1, 6, 2}, {6, 11, 2}, {11, 12, 2}}, 16);
}

TEST_CASE("a chain of k messages ends at the sum of their zero-load latencies plus (k - 1) delays: fat tree") {
    // 4-ary 3-tree, terminal t on leaf t / 4: 0 -> 3 shares a leaf (0 hops), 3 -> 6
    // meets at level 1 (2 hops), 6 -> 63 at the roots (4 hops), 63 -> 62 shares a leaf.
    using Ft = FatTree<4>;
    const Fabric<Ft, FatTreeNca> fab{Ft(4, 3)};
    check_chain(fab, {{0, 3, 0}, {3, 6, 2}, {6, 63, 4}, {63, 62, 0}}, 64);
}

TEST_CASE("a chain of k messages ends at the sum of their zero-load latencies plus (k - 1) delays: dragonfly") {
    // a = 4, h = 2, one terminal a router (terminal = router); group 0's router 0
    // holds the global link to group 1's router 3 (tests/runtime/dragonfly.cpp).
    using Df = Dragonfly<5>;
    const Df t(4, 2);
    const Fabric<Df, DragonflyMinimal> fab{t};
    const std::uint32_t r01 = t.node(0, 1).value, r02 = t.node(0, 2).value, r00 = t.node(0, 0).value,
                        r13 = t.node(1, 3).value, r11 = t.node(1, 1).value;
    check_chain(fab, {{r01, r02, 1}, {r02, r13, 2}, {r13, r00, 1}, {r00, r11, 2}, {r11, r02, 3}},
                static_cast<std::uint32_t>(t.node_count()));
}

TEST_CASE("a fan-in starts at the later delivery plus its delay") {
    // Ring of 16: 0 -> 5 crosses 5 links, 3 -> 5 two; 5 -> 6 waits for both, delay 7.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({16})};
    GraphBuilder b("fan-in");
    const NodeIndex far = b.add_message(0, 5, 32);   // 2 flits
    const NodeIndex near = b.add_message(3, 5, 16);  // 1 flit
    const NodeIndex next = b.add_message(5, 6, 16);
    b.depend(next, far);
    b.depend(next, near);
    b.node(next).delay = 7;
    const auto g = b.build(16);
    CycleSimulator<decltype(fab)> sim(fab);
    const WorkloadResult r = sim.run_workload(g, recorded());
    REQUIRE(r.finished);
    CHECK(r.nodes[far].delivered == zero_load(5, 2));   // 6 * 4 + 5 + 1 = 30
    CHECK(r.nodes[near].delivered == zero_load(2, 1));  // 3 * 4 + 2 = 14
    CHECK(r.nodes[next].ready == 30 + 7);
    CHECK(r.nodes[next].delivered == 37 + zero_load(1, 1));
    CHECK(r.finish_cycle == 37 + 9);
    CHECK(r.ranks[0] == r.nodes[far].sent);  // a sender finishes when its message has left
    CHECK(r.ranks[5] == 37 + r.nodes[next].sent - r.nodes[next].injected);
    CHECK(critical_path(g, r) == std::vector<NodeIndex>{far, next});
}

TEST_CASE("a ready cycle that has passed the injection phase: the message enters at the next cycle's") {
    // A send completes at its tail's switch grant at the source router, which the
    // kernel learns during the routers' step: a successor of a send with no delay is
    // ready that cycle, after its injection phase, and enters one cycle later; with
    // a delay of 1 it enters at its ready cycle. At zero load the grant of an S-flit
    // message created at c is c + routing + VC allocation + (S - 1) = c + 2 + S - 1.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({16})};
    for (const std::uint64_t delay : {0U, 1U}) {
        GraphBuilder b("sent");
        const NodeIndex first = b.add_message(0, 3, 48);  // 3 flits
        const NodeIndex second = b.add_message(0, 9, 16);
        b.depend(second, first, Completion::sent);
        b.node(second).delay = delay;
        CycleSimulator<decltype(fab)> sim(fab);
        const WorkloadResult r = sim.run_workload(b.build(16), recorded());
        REQUIRE(r.finished);
        CAPTURE(delay);
        CHECK(r.nodes[first].sent == 2 + 2);
        CHECK(r.nodes[second].ready == 4 + delay);
        CHECK(r.nodes[second].injected == 5);
        CHECK(r.nodes[second].delivered == 5 + zero_load(7, 1));
    }
    // A delivery at its grant's own cycle (switch allocation and traversal of 0
    // cycles): its successor, with no delay, enters one cycle after it too.
    CycleConfig cfg;
    cfg.pipeline.switch_allocation = 0;
    cfg.pipeline.switch_traversal = 0;
    GraphBuilder b("delivered");
    const NodeIndex first = b.add_message(0, 1, 16);
    const NodeIndex second = b.add_message(1, 2, 16);
    b.depend(second, first);
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    const WorkloadResult r = sim.run_workload(b.build(16), recorded());
    REQUIRE(r.finished);
    // P = 2 now: one hop takes 2 * 2 + 1 = 5 cycles.
    CHECK(r.nodes[first].delivered == 5);
    CHECK(r.nodes[second].ready == 5);
    CHECK(r.nodes[second].injected == 6);
    CHECK(r.nodes[second].delivered == 11);
}

TEST_CASE("compute nodes take their rank's CPU in turn; long idle stretches are skipped, not stepped") {
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({8})};
    GraphBuilder b("compute");
    const NodeIndex work = b.add_compute(2, 1'000'000'000);  // a long compute on rank 2
    const NodeIndex also = b.add_compute(2, 10);             // ready at 0 too: runs after it, one CPU
    const NodeIndex send = b.add_message(2, 3, 16);
    b.depend(send, work);
    b.depend(send, also);
    b.node(send).not_before = 5;
    const auto g = b.build(8);
    CycleSimulator<decltype(fab)> sim(fab);
    const WorkloadResult r = sim.run_workload(g, recorded());
    REQUIRE(r.finished);
    CHECK(r.nodes[work].delivered == 1'000'000'000);
    CHECK(r.nodes[also].injected == 1'000'000'000);
    CHECK(r.nodes[also].delivered == 1'000'000'010);
    CHECK(r.nodes[send].ready == 1'000'000'010);
    CHECK(r.finish_cycle == 1'000'000'010 + zero_load(1, 1));
    CHECK(r.network.flits_ejected == 1);
}

TEST_CASE("LogGP endpoints: send and receive overheads take the CPU, the gap spaces a rank's injections") {
    // Ring of 16, rank 0 sends two 1-flit messages to rank 1 (one hop, 9 cycles),
    // o = 100, g = 150: the first enters at 100, the second's overhead ends at 200
    // but the rail is free only at 100 + 150 = 250. Each is received at delivery + o
    // in turn on rank 1's CPU: 109 + 100 = 209, and 259 + 100 = 359.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({16})};
    GraphBuilder b("loggp");
    const NodeIndex a = b.add_message(0, 1, 8);
    const NodeIndex c = b.add_message(0, 1, 8);
    const auto g = b.build(16);
    CycleSimulator<decltype(fab)> sim(fab);
    WorkloadOptions opt = recorded();
    opt.endpoints = workload::Endpoints::loggp(100, 150);
    const WorkloadResult r = sim.run_workload(g, opt);
    REQUIRE(r.finished);
    CHECK(r.nodes[a].injected == 100);
    CHECK(r.nodes[c].injected == 250);
    CHECK(r.nodes[a].delivered == 109);
    CHECK(r.nodes[a].received == 209);
    CHECK(r.nodes[c].delivered == 259);
    CHECK(r.nodes[c].received == 359);
    CHECK(r.ranks[1] == 359);
    CHECK(r.finish_cycle == 359);
}

TEST_CASE("rendezvous: a request and a clear to send of one flit each before the data") {
    // Ring of 16, 0 -> 2 (two hops): request 0 .. 14, clear 14 .. 28, data of 4
    // flits 28 .. 28 + 17 = 45; below the eager limit the data alone, 0 .. 17.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({16})};
    GraphBuilder b("rendezvous");
    b.add_message(0, 2, 64);
    const auto g = b.build(16);
    for (const std::uint64_t limit : {64U, 63U}) {
        CycleSimulator<decltype(fab)> sim(fab);
        WorkloadOptions opt = recorded();
        opt.endpoints.eager_limit = limit;
        const WorkloadResult r = sim.run_workload(g, opt);
        REQUIRE(r.finished);
        CAPTURE(limit);
        const std::uint64_t handshake = limit == 64 ? 0 : 2 * zero_load(2, 1);
        CHECK(r.nodes[0].injected == handshake);
        CHECK(r.finish_cycle == handshake + zero_load(2, 4));
        CHECK(r.network.packets_delivered == (limit == 64 ? 1U : 3U));
    }
}

TEST_CASE("a workload that cannot finish stops and says which ranks wait for what") {
    // Ring of 8: both links of node 2 fail at cycle 0, so 0 -> 2 has no route and is
    // lost; 2 -> 3 waits for that message, and rank 3's compute for 2 -> 3.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({8})};
    GraphBuilder b("broken");
    const NodeIndex lost = b.add_message(0, 2, 16);
    const NodeIndex next = b.add_message(2, 3, 16);
    const NodeIndex work = b.add_compute(3, 5);
    const NodeIndex fine = b.add_message(4, 5, 16);
    b.depend(next, lost);
    b.depend(work, next);
    const auto g = b.build(8);
    CycleSimulator<decltype(fab)> sim(fab);
    sim.fail_link(NodeId{2}, PortId{0}, 0);  // both directions of each link
    sim.fail_link(NodeId{2}, PortId{1}, 0);
    const WorkloadResult r = sim.run_workload(g);
    CHECK_FALSE(r.finished);
    CHECK(r.completed == 1);  // 4 -> 5
    CHECK(r.ranks[5] == zero_load(1, 1));
    const std::string report = r.report();
    CAPTURE(report);
    CHECK(report.find("rank 2: message 0 (rank 0 to rank 2, 16 bytes)") != std::string::npos);
    CHECK(report.find("lost at a failed link") != std::string::npos);
    CHECK(r.network.packets_lost == 1);
    CHECK(report.find("rank 3") != std::string::npos);
    (void)fine;
    (void)work;
}

TEST_CASE("a run without a driver is unchanged: the same trace, the same figures, before and after a workload") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> fab{T({4, 4})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 200;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    const auto trace = random_pairs_trace(16, 200, 1, 3, 7);
    const CycleResult before = sim.run_trace(trace);
    GraphBuilder b("between");
    for (std::uint32_t i = 0; i < 16; ++i) b.add_message(i, (i + 5) % 16, 100);
    (void)sim.run_workload(b.build(16));
    const CycleResult after = sim.run_trace(trace);
    CHECK(after.cycles == before.cycles);
    CHECK(after.latency.mean == before.latency.mean);
    CHECK(after.flit_moves == before.flit_moves);
    CHECK(sim.config().warmup == 0);
    CHECK(sim.config().measure == 200);
    CHECK(sim.config().max_packet_flits == 0);
}

TEST_CASE("the embedding interface: another event loop drives the same hook, to the same cycles") {
    // Ring of 16: a ping-pong between terminals 0 and 3 (three hops, 4 * 4 + 3 =
    // 19 cycles each way), each reply injected 10 cycles after the delivery it answers,
    // as the same chain through run_workload.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({16})};
    CycleSimulator<decltype(fab)> sim(fab);
    std::vector<std::uint64_t> delivered;
    {
        auto run = sim.embed();
        CHECK_FALSE(run.run_until_report());  // nothing in flight, nothing scheduled: returns, no hang
        CHECK(run.idle());
        run.inject(0, {.handle = 0, .source = 0, .destination = 3, .flits = 1, .traffic_class = 0});
        for (std::uint64_t next = 1; next <= 4;) {
            REQUIRE(run.run_until_report());
            run.take([&](const cycle::PortReport& r) {
                if (r.event != cycle::PortEvent::delivered) return;
                delivered.push_back(r.cycle);
                if (next < 4)
                    run.inject(r.cycle + 10, {.handle = next, .source = r.terminal, .destination = 3 - r.terminal,
                                              .flits = 1, .traffic_class = 0});
                ++next;
            });
        }
        CHECK(run.idle());
        run.run_until(1'000'000);  // idle cycles are skipped
        CHECK(run.now() == 1'000'000);
        const CycleResult net = run.finish();
        CHECK(net.packets_delivered == 4);
    }
    CHECK(delivered == std::vector<std::uint64_t>{19, 48, 77, 106});
    GraphBuilder b("ping-pong");
    for (std::uint32_t i = 0; i < 4; ++i) {
        b.add_message(i % 2 ? 3 : 0, i % 2 ? 0 : 3, 16);
        if (i > 0) {
            b.depend(i, i - 1);
            b.node(i).delay = 10;
        }
    }
    const WorkloadResult r = sim.run_workload(b.build(16), recorded());
    REQUIRE(r.finished);
    for (std::size_t i = 0; i < 4; ++i) CHECK(r.nodes[i].delivered == delivered[i]);
    CHECK(sim.config().measure == CycleConfig{}.measure);
}

}  // namespace unit_workload_engine
