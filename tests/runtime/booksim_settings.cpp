// BookSim's router details as settings of the cycle kernel: terminal channels
// (injection and ejection latency), the head turnaround of an input VC and the
// whole-ring dateline, each worked by hand or held to a law, and free when unused.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace unit_booksim_settings {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ring = Torus<1>;

/// The latency of the last of `count` packets of `flits` sent from node 0 to `dst` at cycle 0.
std::uint64_t last_latency(const CycleConfig& base, std::uint32_t dst, std::uint32_t flits, std::uint32_t count = 1) {
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    CycleConfig cfg = base;
    cfg.warmup = 0;
    cfg.measure = 1;
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    const std::vector<TraceMessage> trace(count, TraceMessage{0, 0, dst, flits});
    const auto r = sim.run_trace(trace);
    REQUIRE(r.packets_delivered == count);
    REQUIRE(r.flits_injected == r.flits_ejected);
    return r.latency.max;
}
}  // namespace

TEST_CASE("terminal channels add their latencies to the zero-load latency, nothing else") {
    // Idle ring, pipeline 1+1+1+1, 1-cycle links: (h + 1) 4 + h + (S - 1), then a + b.
    for (const std::uint32_t a : {0U, 1U, 3U})
        for (const std::uint32_t b : {0U, 1U, 2U})
            for (const std::uint32_t h : {1U, 3U})
                for (const std::uint32_t flits : {1U, 4U}) {
                    CycleConfig cfg;
                    cfg.injection_latency = a;
                    cfg.ejection_latency = b;
                    CHECK(last_latency(cfg, h, flits) == (h + 1) * 4 + h + (flits - 1) + a + b);
                }
}

TEST_CASE("head turnaround: back-to-back 1-flit packets from one VC, one per 2 cycles, or per 3 with BookSim's 1") {
    // The first packet: 2 * 4 + 1 = 9 cycles to the next node. Without turnaround
    // the head behind a tail routes in the cycle the tail leaves, and the input VC
    // sends a packet every 2 cycles (route, then VC allocation, overlapping the
    // previous packet's switch stages); with 1, every 3.
    CycleConfig cfg;
    CHECK(last_latency(cfg, 1, 1, 1) == 9);
    CHECK(last_latency(cfg, 1, 1, 10) == 9 + 9 * 2);
    cfg.head_turnaround = 1;
    CHECK(last_latency(cfg, 1, 1, 1) == 9);  // a lone packet has no tail ahead of it
    CHECK(last_latency(cfg, 1, 1, 10) == 9 + 9 * 3);
}

TEST_CASE("the injection channel delays a head queued behind another only when it is still on the channel") {
    // 10 packets at cycle 0, injection latency 5: the first reaches the router at 5
    // and every later one is on the channel by then, so the spacing is unchanged.
    CycleConfig cfg;
    cfg.injection_latency = 5;
    CHECK(last_latency(cfg, 1, 1, 10) == 5 + 9 + 9 * 2);
}

TEST_CASE("terminal settings are validated, and the router's head turnaround") {
    CycleConfig cfg;
    cfg.ejection_latency = max_delay_cycles + 1;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("injection_latency and ejection_latency must each be at most"),
                         config_error);
    CHECK_THROWS_WITH_AS(static_cast<const TerminalSettings&>(cfg).validate(),
                         doctest::Contains("injection_latency and ejection_latency"), config_error);
    CycleConfig router;
    router.head_turnaround = max_delay_cycles + 1;
    CHECK_THROWS_WITH_AS(router.validate(), doctest::Contains("head_turnaround must be at most"), config_error);
}

TEST_CASE("BookSim's settings together on an 8x8 torus: past saturation, no deadlock, every flit accounted for") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<DatelineWholeRing>> net{T({8, 8})};
    double light_without = 0;
    for (const bool speculative : {false, true}) {
        CAPTURE(speculative);
        CycleConfig cfg;
        cfg.injection_latency = 1;
        cfg.ejection_latency = 1;
        cfg.head_turnaround = 1;
        cfg.injection_queues = 2;
        cfg.speculative = speculative;
        cfg.warmup = 500;
        cfg.measure = 3000;
        CycleSimulator<decltype(net)> sim(net, cfg);
        const auto r = sim.run(UniformTraffic(64), 0.6, PacketSizes::fixed(4));
        CHECK_FALSE(r.deadlock);
        CHECK(r.saturated);
        CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
        CHECK(r.out_of_order == 0);
        CHECK(r.misdelivered == 0);
        // Below saturation speculation saves a cycle at each router, 5 a packet on average here (4 hops).
        CycleSimulator<decltype(net)> light(net, cfg);
        const auto low = light.run(UniformTraffic(64), 0.1, PacketSizes::fixed(4));
        CHECK_FALSE(low.saturated);
        if (speculative) CHECK(low.latency.mean < light_without - 3.0);
        else light_without = low.latency.mean;
    }
}

TEST_CASE("wait_for_tail_credit: an output VC waits for its last packet's tail credit, 7 cycles a packet here") {
    // Ten 1-flit packets from node 0 to node 1 at cycle 0. Without the setting one
    // leaves every 2 cycles (9 + 9 * 2, above). With it, packet 1 crosses router 0's
    // switch at 2, leaves router 1's buffer at 7 and its credit is back at router 0
    // at 8; only then may packet 2 (routed since 2) have the VC: switch at 9, out of
    // router 1's buffer at 14, credit back at 15, ejected at 16. So 7 cycles a
    // packet: the last at 9 + 9 * 7 = 72.
    CycleConfig cfg;
    cfg.wait_for_tail_credit = true;
    CHECK(last_latency(cfg, 1, 1, 1) == 9);  // alone: no change
    CHECK(last_latency(cfg, 1, 1, 2) == 16);
    CHECK(last_latency(cfg, 1, 1, 10) == 9 + 9 * 7);
    CHECK(last_latency(cfg, 3, 4, 1) == (3 + 1) * 4 + 3 + 3);  // zero load: (h + 1) 4 + h + S - 1
}

TEST_CASE("wait_for_tail_credit holds the ejection port's VC too, until the tail's credit is back from the sink") {
    // A line of 3, one VC: 4-flit packets from nodes 0 and 2 to node 1 at cycle 0, one
    // hop each. A takes the ejection VC and is out by the zero-load (1 + 1) 4 + 1 + 3 =
    // 12. Without the setting B's flits interleave with A's at the port: 15 and 16. With
    // it B waits for the VC, free when A's tail credit is back (12 + 1), takes it at 13,
    // crosses the switch at 14, its head is out at 16 and its tail at 19 (as BookSim's
    // ejection port, an output with VCs like the others).
    using Line = KAryNCube<1, BasicLink<1>, DynamicExtents, Boundary::open>;
    const Fabric<Line, DimensionOrder<TieRule::split, NoDateline>> line{Line({3})};
    for (const bool hold : {false, true}) {
        CycleConfig cfg;
        cfg.warmup = 0;
        cfg.measure = 1;
        cfg.wait_for_tail_credit = hold;
        CycleSimulator<decltype(line)> sim(line, cfg);
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 1, 4}, {0, 2, 1, 4}});
        REQUIRE(r.packets_delivered == 2);
        CHECK(r.latency.max == (hold ? 19 : 16));
        CHECK(2 * r.latency.mean - static_cast<double>(r.latency.max) == doctest::Approx(hold ? 12 : 15));  // the other
        CHECK(r.out_of_order == 0);
    }
}

TEST_CASE("wait_for_tail_credit on a loaded torus: no deadlock, every flit accounted for; refused where it cannot work") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    CycleConfig cfg;
    cfg.wait_for_tail_credit = true;
    cfg.warmup = 200;
    cfg.measure = 2000;
    const auto r = simulate_cycles(net, UniformTraffic(16), 0.3, PacketSizes::fixed(4), cfg);
    CHECK_FALSE(r.deadlock);
    CHECK(r.drained);
    CHECK(r.measured_delivered == r.measured_packets);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    CHECK(r.out_of_order == 0);
    cfg.output_buffer_flits = 4;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("wait_for_tail_credit is for input-queued routers"),
                         config_error);
    using Pair = Mesh<1, ApenetLink>;
    const Fabric<Pair, DorTieSplit<Dateline>, ApenetCredit> apenet{Pair({2})};
    CycleConfig tail;
    tail.wait_for_tail_credit = true;
    CHECK_THROWS_WITH_AS(CycleSimulator<decltype(apenet)>(apenet, tail), doctest::Contains("drained(sender_vc)"),
                         config_error);
}

TEST_CASE("wait_for_tail_credit over a link that fails: the lost credits do not hold the VC for ever") {
    // Ten packets from node 0 to node 1; the link fails at cycle 3 with packet 1 on
    // it, whose credit is then never returned. The packets behind it are dropped
    // at the switch or routed round the failure; the run ends with each accounted for.
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    CycleConfig cfg;
    cfg.wait_for_tail_credit = true;
    cfg.warmup = 0;
    cfg.measure = 1;
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    sim.fail_link(NodeId{0}, PortId{0}, 3);
    const auto r = sim.run_trace(std::vector<TraceMessage>(10, TraceMessage{0, 0, 1, 1}));
    CHECK(r.drained);
    CHECK(r.packets_delivered + r.packets_lost == 10);
    CHECK(r.packets_lost >= 1);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
}

namespace {
/// The latencies (min, max) of the packets of `trace` on the 16-ring.
std::pair<std::uint64_t, std::uint64_t> trace_latencies(const CycleConfig& base, const std::vector<TraceMessage>& trace) {
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    CycleConfig cfg = base;
    cfg.warmup = 0;
    cfg.measure = 16;
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    const auto r = sim.run_trace(trace);
    REQUIRE(r.packets_delivered == trace.size());
    REQUIRE(r.flits_injected == r.flits_ejected);
    std::uint64_t least = 0;
    while (r.latency.histogram.at(least) == 0) ++least;
    return {least, r.latency.max};
}
}  // namespace

TEST_CASE("speculative switch allocation: a head gains the VC allocation cycle at every router it crosses") {
    // Idle ring, pipeline 1+1+1+1: (h + 1) 4 + h + (S - 1) without; with, the
    // head bids for the switch in its VC allocation cycle, (h + 1) 3 + h + (S - 1).
    for (const std::uint32_t h : {1U, 2U, 5U})
        for (const std::uint32_t flits : {1U, 3U}) {
            CycleConfig cfg;
            CHECK(last_latency(cfg, h, flits) == (h + 1) * 4 + h + (flits - 1));
            cfg.speculative = true;
            CHECK(last_latency(cfg, h, flits) == (h + 1) * 3 + h + (flits - 1));
            cfg.pipeline.vc_allocation = 0;  // nothing to gain: the same as without
            CHECK(last_latency(cfg, h, flits) == (h + 1) * 3 + h + (flits - 1));
        }
    // Back to back from one VC: a 1-flit packet every cycle (every 2 with BookSim's head turnaround).
    CycleConfig cfg;
    cfg.speculative = true;
    CHECK(last_latency(cfg, 1, 1, 10) == 7 + 9 * 1);
    cfg.head_turnaround = 1;
    CHECK(last_latency(cfg, 1, 1, 10) == 7 + 9 * 2);
}

TEST_CASE("speculative switch allocation: a speculative request loses to a non-speculative one for the same output") {
    // A: 2 flits, node 0 -> 1 at cycle 0. Its head crosses router 0 at 1, is on
    // link 0->1 at 3, in router 1's buffer at 4, routed at 5 and, speculating,
    // ejected at 5 + 2 = 7; its body flit, 1 cycle behind, bids at router 1 at 6,
    // non-speculatively, and leaves at 8: latency 8.
    // B: 1 flit, node 2 -> 1 at cycle 1: in router 1's other input at 5, routed
    // at 6, where its speculative bid for the ejection port meets A's body: it
    // loses, bids again at 7 and leaves at 9: latency 8 instead of 7.
    CycleConfig cfg;
    cfg.speculative = true;
    const std::vector<TraceMessage> both{{0, 0, 1, 2}, {1, 2, 1, 1}};
    CHECK(trace_latencies(cfg, {both[0]}) == std::pair<std::uint64_t, std::uint64_t>{8, 8});
    CHECK(trace_latencies(cfg, {both[1]}) == std::pair<std::uint64_t, std::uint64_t>{7, 7});
    CHECK(trace_latencies(cfg, both) == std::pair<std::uint64_t, std::uint64_t>{8, 8});
}

TEST_CASE("link latencies per class: a dragonfly set up as BookSim's dragonflynew (local 10, global 100 cycles)") {
    // a = 4, h = 2, 9 groups, minimal routing. Zero-load, 1 flit a cycle, pipeline
    // 1+1+1+1: (h + 1) 4 plus each hop's own latency plus (S - 1), and the terminal
    // channels. By hand: router 1 of group 0 reaches router 0 of group 1 over
    // local, global, local (router 0 of group 0 holds the global link to group 1,
    // which lands on router 3 there): 4 * 4 + 10 + 100 + 10 = 136 cycles.
    using Df = Dragonfly<5>;
    const Fabric<Df, DragonflyMinimal> fab{Df(4, 2)};
    const auto latency = [&](const CycleConfig& base, std::uint32_t src, std::uint32_t dst, std::uint32_t flits) {
        CycleConfig cfg = base;
        cfg.warmup = 0;
        cfg.measure = 1;
        CycleSimulator<decltype(fab)> sim(fab, cfg);
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, src, dst, flits}});
        REQUIRE(r.packets_delivered == 1);
        return r.latency.max;
    };
    CycleConfig booksim;
    booksim.class_latency = {10, 100};
    CHECK(latency(booksim, 1, 4, 1) == 136);
    CHECK(latency(booksim, 0, 7, 1) == 2 * 4 + 100);  // the global link alone
    CHECK(latency(booksim, 0, 1, 1) == 2 * 4 + 10);   // a local link alone
    // From router 1 to every router, packets of 1 and 5 flits, terminal channels 2 and 1.
    booksim.injection_latency = 2;
    booksim.ejection_latency = 1;
    for (std::uint32_t dst = 0; dst < 36; ++dst) {
        std::array<Hop, 3> hops{};
        const std::size_t h = DragonflyMinimal{}.select_route(fab.topology(), NodeId{1}, NodeId{dst}, 0, hops.data());
        std::uint64_t wires = 0;
        for (std::size_t i = 0; i < h; ++i)
            wires += fab.topology().link_class(hops[i].node, hops[i].port) == Df::global_class ? 100 : 10;
        for (const std::uint32_t flits : {1U, 5U}) {
            CAPTURE(dst);
            CAPTURE(flits);
            CHECK(latency(booksim, 1, dst, flits) == (h + 1) * 4 + wires + (flits - 1) + 2 + 1);
        }
    }
    // One latency for every class is link_latency's run, result for result.
    CycleConfig same, one;
    same.class_latency = {3, 3};
    one.link_latency = 3;
    const auto run = [&](const CycleConfig& cfg) {
        CycleSimulator<decltype(fab)> sim(fab, cfg);
        return sim.run(UniformTraffic(36), 0.3, PacketSizes::fixed(4));
    };
    const auto a = run(same), b = run(one);
    CHECK(a.accepted == b.accepted);
    CHECK(a.latency.mean == b.latency.mean);
    CHECK(a.flits_ejected == b.flits_ejected);
}

TEST_CASE("link latencies per class: one a class of the topology, each 1 to the longest delay") {
    using Df = Dragonfly<5>;
    const Fabric<Df, DragonflyMinimal> fab{Df(4, 2)};
    CycleConfig cfg;
    cfg.class_latency = {10};
    CHECK_THROWS_WITH_AS(CycleSimulator<decltype(fab)>(fab, cfg),
                         doctest::Contains("fabric: class_latency gives 1 latencies; this topology has 2 link classes"),
                         config_error);
    cfg.class_latency = {10, 0};
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("class_latency: every link class needs a latency of 1 to"),
                         config_error);
    cfg.class_latency = {10, max_delay_cycles + 1};
    CHECK_THROWS_AS(cfg.validate(), config_error);
}

}  // namespace unit_booksim_settings
