// Input and output speedup (Speedup<A, In, Out>, BookSim's input_speedup and
// output_speedup): cases worked by hand on an idle ring, the refusal of output
// speedup without output queues, and a loaded torus.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_speedup {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ring = Torus<1>;
const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};

/// Each packet's latency, in the order of the trace (one packet a source and cycle here).
template <class A>
std::vector<std::uint64_t> latencies(CycleConfig cfg, const std::vector<TraceMessage>& trace) {
    std::vector<std::uint64_t> created, out;
    cfg.warmup = 0;
    cfg.measure = 64;
    cfg.watch.packets = {0, 1, 2, 3};
    out.assign(trace.size(), 0);
    cfg.watch.sink = [&](const FlitEvent& e) {
        if (e.kind == FlitEventKind::ejected) out.at(e.packet) = e.cycle - trace.at(e.packet).cycle;
    };
    CycleSimulator<decltype(ring), A> sim(ring, cfg);
    REQUIRE(sim.run_trace(trace).packets_delivered == trace.size());
    return out;
}
}  // namespace

static_assert(SwitchAllocator<Speedup<SeparableSwitch, 2, 2>> && SwitchAllocator<Speedup<Islip<2>, 1, 3>>);

TEST_CASE("input speedup: two injection queues of one node send in the same cycle") {
    // Node 1, two injection queues (VCs 0 and 1), 1-flit packets to nodes 0 and 2
    // at cycle 0: one injection port, so one leaves at 2, the other at 3 (latencies
    // 9 and 10: 2 * 4 + 1, plus a cycle). With input speedup 2 the VCs have a
    // crossbar input each and both leave at 2.
    CycleConfig cfg;
    cfg.injection_queues = 2;
    const std::vector<TraceMessage> both{{0, 1, 0, 1}, {0, 1, 2, 1}};
    const auto plain = latencies<SeparableSwitch>(cfg, both);
    CHECK(std::min(plain[0], plain[1]) == 9);
    CHECK(std::max(plain[0], plain[1]) == 10);
    CHECK(latencies<Speedup<SeparableSwitch, 2, 1>>(cfg, both) == std::vector<std::uint64_t>{9, 9});
    CHECK(latencies<Speedup<Islip<1>, 2, 1>>(cfg, both) == std::vector<std::uint64_t>{9, 9});
    // No speedup through the adaptor is the allocator itself.
    CHECK(latencies<Speedup<SeparableSwitch, 1, 1>>(cfg, both) == plain);
}

TEST_CASE("output speedup: two flits for one output cross together; the ejection port still hands on one a cycle") {
    // A: 15 -> 2, on VC 1 past the dateline, crossing router 1's switch at 12;
    // B: 1 -> 2 on VC 0 from router 1's source, created at 10 (routed 11, VC 11,
    // switch 12); C: 1 -> 0, created at 10 behind B in the same source queue. A
    // and B want router 1's port to node 2 at 12. Without speedup the link input
    // (port 1) wins the round robin from pointer 0 over the injection port (2): B
    // crosses at 13 and C, routed from 13, at 15. With output speedup 2 both cross
    // at 12 into the output queues: B a cycle earlier, and so C; the link, one
    // flit a cycle, then serves VC 0 first, so A leaves a cycle later.
    CycleConfig cfg;
    cfg.output_buffer_flits = 4;
    const std::vector<TraceMessage> trace{{0, 15, 2, 1}, {10, 1, 2, 1}, {10, 1, 0, 1}};
    const auto plain = latencies<SeparableSwitch>(cfg, trace);
    const auto fast = latencies<Speedup<SeparableSwitch, 1, 2>>(cfg, trace);
    CHECK(fast[1] + 1 == plain[1]);
    CHECK(fast[2] + 1 == plain[2]);
    CHECK(fast[0] == plain[0] + 1);
    // Two packets ejected at one router in the same cycle: the second a cycle later.
    const std::vector<TraceMessage> meet{{0, 0, 1, 1}, {0, 2, 1, 1}};
    const auto ejected = latencies<Speedup<SeparableSwitch, 1, 2>>(cfg, meet);
    CHECK(std::min(ejected[0], ejected[1]) == 9);
    CHECK(std::max(ejected[0], ejected[1]) == 10);
    // Output speedup without output queues is refused when the run starts.
    CycleSimulator<decltype(ring), Speedup<SeparableSwitch, 1, 2>> bare(ring, CycleConfig{});
    CHECK_THROWS_WITH_AS(bare.run_trace(meet), doctest::Contains("output speedup"), config_error);
}

TEST_CASE("speedup on a loaded torus: no deadlock, every flit accounted for, and no less carried") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8})};
    CycleConfig cfg;
    cfg.output_buffer_flits = 8;
    cfg.injection_queues = 2;
    cfg.warmup = 500;
    cfg.measure = 3000;
    CycleSimulator<decltype(net)> plain(net, cfg);
    CycleSimulator<decltype(net), Speedup<SeparableSwitch, 2, 2>> fast(net, cfg);
    const auto a = plain.run(UniformTraffic(64), 0.9, PacketSizes::fixed(4));
    const auto b = fast.run(UniformTraffic(64), 0.9, PacketSizes::fixed(4));
    for (const auto* r : {&a, &b}) {
        CHECK_FALSE(r->deadlock);
        CHECK(r->flits_injected == r->flits_ejected + r->flits_in_flight);
        CHECK(r->out_of_order == 0);
        CHECK(r->accepted <= 1.0);  // the ejection port: one flit a cycle
    }
    CHECK(b.accepted >= a.accepted);
}

}  // namespace unit_speedup
