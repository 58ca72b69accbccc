// The flit-level kernel: exact zero-load latencies worked by hand, conservation
// of flits, reproducibility, agreement with the flow-level kernel, deadlock
// detection, and validation.
#include <doctest/doctest.h>

#include "../support/sanitized.hpp"

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#include <cmath>
#include <vector>

namespace unit_cycle_kernel {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

using Ring = Torus<1>;
using Torus2 = Torus<2>;

CycleConfig quiet(CycleConfig c = {}) {
    return c;
}

/// Latency of one packet of `flits` from node 0 to `dst` on an otherwise idle network.
template <class Fab>
std::uint64_t single_packet(const Fab& net, std::uint32_t dst, std::uint32_t flits, CycleConfig cfg) {
    cfg.warmup = 0;
    cfg.measure = 1;
    CycleSimulator<Fab> sim(net, quiet(cfg));
    const std::vector<TraceMessage> trace{{0, 0, dst, flits}};
    const auto r = sim.run_trace(trace);
    REQUIRE(r.packets_delivered == 1);
    REQUIRE(r.measured_delivered == 1);
    return r.latency.max;
}

}  // namespace

TEST_CASE("zero-load latency, one flit per cycle: (h + 1) * pipeline + h * link latency + (S - 1)") {
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    const std::vector<PipelineDelays> pipelines{{1, 1, 1, 1}, {0, 0, 0, 1}, {2, 1, 3, 1}, {0, 0, 0, 0}, {1, 2, 1, 2}};
    for (const auto& pd : pipelines)
        for (std::uint32_t latency : {1U, 2U, 5U})
            for (std::uint32_t h : {0U, 1U, 2U, 5U, 8U})
                for (std::uint32_t flits : {1U, 2U, 7U}) {
                    CAPTURE(pd.total());
                    CAPTURE(latency);
                    CAPTURE(h);
                    CAPTURE(flits);
                    CycleConfig cfg;
                    cfg.pipeline = pd;
                    cfg.link_latency = latency;
                    const std::uint64_t expected = (h + 1) * pd.total() + h * latency + (flits - 1);
                    CHECK(single_packet(ring, h, flits, cfg) == expected);
                }
}

TEST_CASE("zero-load latency with serialisation s: body flits close up by routing + VC allocation at the end") {
    // 2 GB/s links, 8-byte flits, 1 ns cycles: s = 4 cycles per flit; 3 ns: 3 cycles of latency.
    // Worked by hand for 3 hops, pipeline 1+1+1+1: a flit is received 4 - 1 + 3 = 6
    // cycles after it starts onto a link, so the head takes 4 * 4 + 3 * 6 = 34
    // cycles; flits leave 4 apart, and at the last router a body flit needs only
    // switch allocation and traversal (2 cycles, not 4): the tail ejects
    // 34 + 4 (S - 1) - 2 cycles after creation, and never less than one cycle after
    // the flit ahead of it.
    using T = Torus<2, BasicLink<2>>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8}, BasicLink<2>(GBps{2.0}, Nanoseconds{3.0}))};
    CycleConfig cfg;
    cfg.cycle_ns = 1.0;
    cfg.flit_bytes = 8;
    CHECK(single_packet(net, 2 + 8 * 1, 1, cfg) == 34);
    CHECK(single_packet(net, 2 + 8 * 1, 3, cfg) == 34 + 8 - 2);
    CHECK(single_packet(net, 2 + 8 * 1, 6, cfg) == 34 + 20 - 2);
    // A longer routing stage: the close-up is capped at one flit per cycle.
    cfg.pipeline = {5, 1, 1, 1};
    CHECK(single_packet(net, 2 + 8 * 1, 2, cfg) == 4 * 8 + 3 * 6 + 1);
    // And the general form, over many cases.
    for (std::uint32_t flits : {1U, 2U, 5U})
        for (std::uint32_t r : {0U, 1U, 3U})
            for (std::uint32_t va : {0U, 2U}) {
                cfg.pipeline = {r, va, 1, 1};
                const std::uint64_t p = cfg.pipeline.total();
                const std::int64_t close = static_cast<std::int64_t>(flits - 1) * 4 - static_cast<std::int64_t>(r + va);
                const std::uint64_t tail = static_cast<std::uint64_t>(std::max<std::int64_t>(close, flits - 1));
                CHECK(single_packet(net, 2 + 8 * 1, flits, cfg) == 4 * p + 3 * (3 + 4 - 1) + tail);
            }
}

TEST_CASE("conservation: injected = ejected + in flight, in order, at the right node, for every workload") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    const auto check = [](const CycleResult& r) {
        CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
        CHECK(r.out_of_order == 0);
        CHECK(r.misdelivered == 0);
        CHECK_FALSE(r.deadlock);
    };
    CycleConfig cfg = quiet();
    cfg.warmup = 200;
    cfg.measure = 2000;
    for (const double rate : {0.05, 0.2, 0.6}) {
        CAPTURE(rate);
        check(simulate_cycles(net, UniformTraffic(64), rate, PacketSizes::fixed(1), cfg));
        check(simulate_cycles(net, RowColumnAllToAllTraffic(8, 8), rate, PacketSizes::fixed(4), cfg));
        check(simulate_cycles(net, TornadoTraffic(Grid{8, 8}), rate, PacketSizes::bimodal(1, 8, 0.5), cfg));
        check(simulate_cycles(net, BitComplementTraffic(64), rate, PacketSizes::fixed(2), cfg));
        check(simulate_cycles(net, RandomPermutationTraffic(64, 3), rate, PacketSizes::fixed(3), cfg));
        check(simulate_cycles(net, HaloTraffic(Grid{8, 8}), rate, PacketSizes::fixed(5), cfg));
        CycleConfig vct = cfg;
        vct.switching = Switching::virtual_cut_through;
        check(simulate_cycles(net, UniformTraffic(64), rate, PacketSizes::fixed(4), vct));
    }
}

TEST_CASE("the same seed gives the same numbers bit for bit; another seed other numbers") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    CycleConfig cfg = quiet();
    cfg.warmup = 300;
    cfg.measure = 3000;
    const auto a = simulate_cycles(net, UniformTraffic(64), 0.3, PacketSizes::bimodal(1, 4, 0.5), cfg);
    const auto b = simulate_cycles(net, UniformTraffic(64), 0.3, PacketSizes::bimodal(1, 4, 0.5), cfg);
    CHECK(a.latency.mean == b.latency.mean);
    CHECK(a.latency.histogram == b.latency.histogram);
    CHECK(a.accepted == b.accepted);
    CHECK(a.cycles == b.cycles);
    CHECK(a.channel_utilisation == b.channel_utilisation);
    cfg.seed = 2;
    const auto c = simulate_cycles(net, UniformTraffic(64), 0.3, PacketSizes::bimodal(1, 4, 0.5), cfg);
    CHECK(c.latency.histogram != a.latency.histogram);
}

TEST_CASE("at low load every channel carries the flow-level load times the offered load") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    const double rate = 0.05;
    for (const auto& [name, flow, cycle] :
         std::vector<std::tuple<const char*, LinkLoads, CycleResult>>{
             {"uniform", link_load(net, UniformTraffic(64)), {}},
             {"tornado", link_load(net, TornadoTraffic(Grid{8, 8})), {}}}) {
        (void)cycle;
        CAPTURE(name);
        CycleConfig cfg = quiet();
        cfg.warmup = 1000;
        cfg.measure = 40000;
        const auto r = std::string(name) == "uniform"
                           ? simulate_cycles(net, UniformTraffic(64), rate, PacketSizes::fixed(1), cfg)
                           : simulate_cycles(net, TornadoTraffic(Grid{8, 8}), rate, PacketSizes::fixed(1), cfg);
        // Flits on a channel in the window are close to Poisson: standard error
        // sqrt(expected / window). Allow 5 standard errors plus the 1% by which the
        // offered load itself fluctuates.
        for (std::size_t c = 0; c < r.channel_utilisation.size(); ++c) {
            const double expected = rate * flow.per_channel()[c];
            const double sigma = std::sqrt(expected / static_cast<double>(cfg.measure));
            CHECK(std::abs(r.channel_utilisation[c] - expected) <= 5 * sigma + 0.01 * expected + 1e-12);
        }
    }
}

TEST_CASE("accepted throughput never exceeds the flow-level bound") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    CycleConfig cfg = quiet();
    cfg.warmup = 500;
    cfg.measure = 4000;
    const std::vector<std::pair<const char*, double>> bounds{
        {"uniform", link_load(net, UniformTraffic(64)).throughput()},
        {"transpose", link_load(net, RowColumnAllToAllTraffic(8, 8)).throughput()},
        {"tornado", link_load(net, TornadoTraffic(Grid{8, 8})).throughput()}};
    for (const auto& [name, bound] : bounds) {
        CAPTURE(name);
        for (const double rate : {0.2, 0.5, 0.9}) {
            CycleResult r;
            if (std::string(name) == "uniform") r = simulate_cycles(net, UniformTraffic(64), rate, PacketSizes::fixed(1), cfg);
            else if (std::string(name) == "transpose")
                r = simulate_cycles(net, RowColumnAllToAllTraffic(8, 8), rate, PacketSizes::fixed(1), cfg);
            else r = simulate_cycles(net, TornadoTraffic(Grid{8, 8}), rate, PacketSizes::fixed(1), cfg);
            CAPTURE(rate);
            CAPTURE(r.accepted);
            CHECK(r.accepted <= bound * 1.02);  // 2%: the window's statistical fluctuation
        }
    }
}

TEST_CASE("deadlock: one VC and no dateline locks up under heavy load and the watchdog names the cycle") {
    using OneVc = Torus<2, BasicLink<1>>;
    const Fabric<OneVc, DorTieSplit<NoDateline>> net{OneVc({8, 8}), allow_deadlock};
    CycleConfig cfg = quiet();
    cfg.watchdog = 1000;
    const auto r = simulate_cycles(net, UniformTraffic(64), 0.8, PacketSizes::fixed(8), cfg);
    REQUIRE(r.deadlock);
    CHECK(r.saturated);
    CHECK_FALSE(r.drained);
    CHECK(r.deadlock->waiting.size() >= 2);
    CHECK(r.deadlock->describe().find("fabric: deadlock at cycle") == 0);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    // Each waiting channel that is a network channel leads into the router of the next one.
    const OneVc& topo = net.topology();
    for (std::size_t i = 0; i < r.deadlock->waiting.size(); ++i) {
        const auto& c = r.deadlock->waiting[i];
        const auto& next = r.deadlock->waiting[(i + 1) % r.deadlock->waiting.size()];
        if (c.port.value < OneVc::ports_per_node && next.port.value < OneVc::ports_per_node) {
            const NodeId into = topo.neighbour(c.node, c.port);
            CHECK((topo.neighbour(next.node, next.port) == into || next.node == into));
        }
    }
}

TEST_CASE("deadlock: with the dateline and two VCs the same load runs to the end") {
    const Fabric<Torus2, DorTieSplit<Dateline>> net{Torus2({8, 8})};
    CycleConfig cfg = quiet();
    cfg.watchdog = 1000;
    cfg.warmup = 1000;
    cfg.measure = 5000;
    const auto r = simulate_cycles(net, UniformTraffic(64), 0.8, PacketSizes::fixed(8), cfg);
    CHECK_FALSE(r.deadlock);
    CHECK(r.saturated);
    CHECK(r.accepted > 0.1);
}

TEST_CASE("saturation is reported; a light load drains") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    CycleConfig cfg = quiet();
    cfg.warmup = 500;
    cfg.measure = 3000;
    const auto light = simulate_cycles(net, UniformTraffic(64), 0.1, PacketSizes::fixed(1), cfg);
    CHECK_FALSE(light.saturated);
    CHECK(light.drained);
    CHECK(light.measured_delivered == light.measured_packets);
    CHECK(light.accepted == doctest::Approx(light.offered).epsilon(0.05));
    const auto heavy = simulate_cycles(net, UniformTraffic(64), 0.9, PacketSizes::fixed(1), cfg);
    CHECK(heavy.saturated);
    CHECK(heavy.accepted < 0.9 * heavy.offered);
    CHECK(light.latency.p50 <= light.latency.p99);
    CHECK(light.latency.p99 <= light.latency.max);
    CHECK(light.hops_mean == doctest::Approx(4.0).epsilon(0.05));  // mean DOR distance on an 8x8 torus is 4
}

TEST_CASE("the cycle kernel refuses what it cannot run") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({4, 4})};
    CycleConfig cfg = quiet();
    CHECK_THROWS_WITH_AS(simulate_cycles(net, UniformTraffic(8), 0.1, PacketSizes::fixed(1), cfg),
                         doctest::Contains("one task per terminal"), config_error);
    CHECK_THROWS_WITH_AS(simulate_cycles(net, UniformTraffic(16), 2.0, PacketSizes::fixed(1), cfg),
                         doctest::Contains("offered load must be in [0, mean packet size = 1]"), config_error);
    cfg.switching = Switching::virtual_cut_through;
    CHECK_THROWS_WITH_AS(simulate_cycles(net, UniformTraffic(16), 0.1, PacketSizes::fixed(16), cfg),
                         doctest::Contains("virtual cut-through needs a buffer of a whole packet"), config_error);
    CycleConfig bad = quiet();
    bad.link_latency = 0;
    CHECK_THROWS_WITH_AS(CycleSimulator(net, bad), doctest::Contains("link latency of at least 1"), config_error);
    CycleSimulator sim(net, quiet());
    const std::vector<TraceMessage> unsorted{{5, 0, 1, 1}, {2, 1, 0, 1}};
    CHECK_THROWS_WITH_AS(sim.run_trace(unsorted), doctest::Contains("sorted by cycle"), config_error);
    const std::vector<TraceMessage> far{{0, 0, 99, 1}};
    CHECK_THROWS_WITH_AS(sim.run_trace(far), doctest::Contains("out of range"), config_error);
}

TEST_CASE("a trace runs to the end and delivers every message") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({4, 4})};
    std::vector<TraceMessage> trace;
    for (std::uint32_t i = 0; i < 200; ++i) trace.push_back({i / 4, i % 16, (i * 7) % 16, 1 + i % 5});
    CycleConfig cfg = quiet();
    cfg.warmup = 0;
    cfg.measure = 1000;
    CycleSimulator sim(net, cfg);
    const auto r = sim.run_trace(trace);
    CHECK(r.packets_delivered == 200);
    CHECK(r.flits_in_flight == 0);
    CHECK(r.flits_ejected == r.flits_injected);
    CHECK_FALSE(r.saturated);
}

TEST_CASE("output queues leave the zero-load latency unchanged: a flit queued at the output goes on at once") {
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    // A queue slot is taken when the switch grants a flit and freed when the flit
    // goes onto the link, switch allocation + traversal (here 2) cycles later: a
    // queue of one flit passes a flit every 2 cycles, and the body falls behind.
    CycleConfig shallow;
    shallow.output_buffer_flits = 1;
    CHECK(single_packet(ring, 1, 7, shallow) > 2 * 4 + 1 + 6);
    for (std::uint32_t depth : {2U, 4U, 32U})
        for (std::uint32_t latency : {1U, 3U})
            for (std::uint32_t h : {0U, 1U, 5U})
                for (std::uint32_t flits : {1U, 7U}) {
                    CAPTURE(depth);
                    CAPTURE(h);
                    CAPTURE(flits);
                    CycleConfig cfg;
                    cfg.output_buffer_flits = depth;
                    cfg.link_latency = latency;
                    CHECK(single_packet(ring, h, flits, cfg) == (h + 1) * 4 + h * latency + (flits - 1));
                }
    // With serialisation 4 the body flits wait in the output queue instead of the
    // input buffer; the tail still ejects at the hand-worked cycle of the test above.
    using T = Torus<2, BasicLink<2>>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8}, BasicLink<2>(GBps{2.0}, Nanoseconds{3.0}))};
    CycleConfig cfg;
    cfg.cycle_ns = 1.0;
    cfg.flit_bytes = 8;
    cfg.output_buffer_flits = 8;
    CHECK(single_packet(net, 2 + 8 * 1, 1, cfg) == 34);
    CHECK(single_packet(net, 2 + 8 * 1, 3, cfg) == 34 + 8 - 2);
    CHECK(single_packet(net, 2 + 8 * 1, 6, cfg) == 34 + 20 - 2);
}

TEST_CASE("output queues: flits are conserved, in order, at the right node, under every load") {
    const Fabric<Torus2, DorTieSplit<>> net{Torus2({8, 8})};
    CycleConfig cfg = quiet();
    cfg.warmup = 200;
    cfg.measure = 2000;
    for (std::uint32_t depth : {1U, 3U, 16U})
        for (const double rate : {0.1, 0.6}) {
            CAPTURE(depth);
            CAPTURE(rate);
            cfg.output_buffer_flits = depth;
            for (const auto sw : {Switching::wormhole, Switching::virtual_cut_through}) {
                cfg.switching = sw;
                const auto r = simulate_cycles(net, UniformTraffic(64), rate, PacketSizes::bimodal(1, 4, 0.5), cfg);
                CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
                CHECK(r.out_of_order == 0);
                CHECK(r.misdelivered == 0);
                CHECK_FALSE(r.deadlock);
            }
        }
}

TEST_CASE("output queues do not hide a deadlock: the watchdog still names the cycle, through the queues") {
    using OneVc = Torus<2, BasicLink<1>>;
    const Fabric<OneVc, DorTieSplit<NoDateline>> net{OneVc({8, 8}), allow_deadlock};
    CycleConfig cfg = quiet();
    cfg.watchdog = 1000;
    cfg.output_buffer_flits = 4;
    const auto r = simulate_cycles(net, UniformTraffic(64), 0.8, PacketSizes::fixed(8), cfg);
    REQUIRE(r.deadlock);
    CHECK(r.deadlock->waiting.size() >= 2);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    const Fabric<Torus2, DorTieSplit<Dateline>> safe{Torus2({8, 8})};
    CHECK_FALSE(simulate_cycles(safe, UniformTraffic(64), 0.8, PacketSizes::fixed(8), cfg).deadlock);
}

TEST_CASE("two injection queues: a short packet no longer waits behind a long one to another port") {
    // Node 0 of a 16-ring sends 8 flits east to node 1 and then 1 flit west to
    // node 15, both at cycle 0 (pipeline 1+1+1+1, link latency 1). One queue: the
    // long packet's flits leave at cycles 2..9, the short one becomes the front at
    // 9 and takes its zero-load 2 * 4 + 1 = 9 cycles from there: 18; the long one
    // takes 2 * 4 + 1 + 7 = 16. Two queues: both bid for the injection port at
    // cycle 2; its round robin serves queue 0 first, so the short packet goes at
    // cycle 3 (latency 10) and the long one's body a cycle later; that bubble
    // closes up at node 1, where the head spends routing and VC allocation while
    // the body catches up (latency still 16).
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    const std::vector<TraceMessage> trace{{0, 0, 1, 8}, {0, 0, 15, 1}};
    auto latencies = [&](std::uint32_t queues) {
        CycleConfig cfg = quiet();
        cfg.warmup = 0;
        cfg.measure = 1;
        cfg.injection_queues = queues;
        CycleSimulator sim(ring, cfg);
        const auto r = sim.run_trace(trace);
        REQUIRE(r.packets_delivered == 2);
        std::vector<std::uint64_t> at;
        for (std::size_t l = 0; l < r.latency.histogram.size(); ++l)
            for (std::uint64_t k = 0; k < r.latency.histogram[l]; ++k) at.push_back(l);
        return at;
    };
    CHECK(latencies(1) == std::vector<std::uint64_t>{16, 18});
    CHECK(latencies(2) == std::vector<std::uint64_t>{10, 16});
    CycleConfig too_many = quiet();
    too_many.injection_queues = 3;  // the ring's links have 2 VCs
    CHECK_THROWS_WITH_AS(CycleSimulator(ring, too_many),
                         doctest::Contains("fabric: this fabric's links have 2 virtual channels"), config_error);
    too_many.injection_queues = 0;
    CHECK_THROWS_WITH_AS(CycleSimulator(ring, too_many), doctest::Contains("at least one injection queue"),
                         config_error);
}

TEST_CASE("messages split into packets: each packet starts when the previous tail leaves; reassembled in order") {
    // 40 flits in packets of at most 16: 16, 16 and 8 flits from node 0 to node 2
    // of a 16-ring. Packet k + 1's head is the front when packet k's tail leaves,
    // S_k + 1 cycles after packet k's (routing 1, VC allocation 1, then a flit a
    // cycle): fronts at 0, 17 and 34. The last packet then takes its zero-load
    // 3 * 4 + 2 + 7 = 21 cycles: the message is complete at 55.
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    CycleConfig cfg = quiet();
    cfg.warmup = 0;
    cfg.measure = 1;
    cfg.max_packet_flits = 16;
    CycleSimulator sim(ring, cfg);
    const std::vector<TraceMessage> one{{0, 0, 2, 40}};
    const auto r = sim.run_trace(one);
    CHECK(r.packets_delivered == 3);
    CHECK(r.measured_messages == 1);
    CHECK(r.measured_messages_delivered == 1);
    CHECK(r.message_latency.max == 55);
    CHECK(r.message_reorder_depth == 0);
    CHECK(r.packets_early == 0);
    // Many messages of many sizes: every one reassembled, every flit conserved.
    std::vector<TraceMessage> trace;
    for (std::uint32_t i = 0; i < 300; ++i) trace.push_back({i / 3, (i * 5) % 16, (i * 11 + 3) % 16, 1 + (i * 37) % 90});
    cfg.measure = 100;
    CycleSimulator many(ring, cfg);
    const auto m = many.run_trace(trace);
    CHECK(m.messages_delivered == 300);
    CHECK(m.messages_lost == 0);
    CHECK(m.flits_ejected == m.flits_injected);
    std::uint64_t packets = 0;
    for (const auto& t : trace) packets += (t.flits + 15) / 16;
    CHECK(m.packets_delivered == packets);
    cfg.max_packet_flits = 70000;
    CHECK_THROWS_WITH_AS(CycleSimulator(ring, cfg), doctest::Contains("max_packet_flits must be at most 65535"),
                         config_error);
}

TEST_CASE("routes longer than 255 hops: a 2,048-node ring and a 300-node mesh simulate and drain") {
    // Zero-load latency of the longest route, worked as above: h = 1024 (ring), 299 (mesh).
    const Fabric<Ring, DorTieSplit<>> ring{Ring({2048})};
    CHECK(single_packet(ring, 1024, 1, CycleConfig{}) == (1024 + 1) * 4 + 1024);
    using Line = KAryNCube<1, BasicLink<2>, DynamicExtents, Boundary::open>;
    const Fabric<Line, DorTieSplit<>> line{Line(std::vector<long long>{300})};
    CHECK(single_packet(line, 299, 3, CycleConfig{}) == (299 + 1) * 4 + 299 + 2);
    // Uniform traffic on both: every measured packet arrives, hops as the flow kernel says.
    CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = fabric_tests::sanitized ? 1000 : 3000;  // 3,000: 50 s under the sanitizers
    const auto r = simulate_cycles(ring, UniformTraffic(2048), 0.002, PacketSizes::fixed(1), cfg);
    CHECK_FALSE(r.deadlock);
    CHECK(r.drained);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    CHECK(r.hops_mean == doctest::Approx(512).epsilon(0.05));  // mean distance on a ring of k: k / 4
    const auto m = simulate_cycles(line, UniformTraffic(300), 0.005, PacketSizes::fixed(2), cfg);
    CHECK_FALSE(m.deadlock);
    CHECK(m.drained);
    CHECK(m.hops_mean == doctest::Approx(100).epsilon(0.08));  // on a line of k: (k^2 - 1) / 3k
}

}  // namespace unit_cycle_kernel
