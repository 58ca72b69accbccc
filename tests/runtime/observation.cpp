// What a cycle-kernel run lets a user watch: the per-flit trace of chosen
// packets (CycleConfig::watch), worked by hand on an idle ring, and the per-node
// counters (CycleConfig::node_statistics), held to the run's own totals.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace unit_observation {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ring = Torus<1>;
const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
constexpr std::uint32_t injection = 2;  // ports_per_node of a ring: the injection / ejection port

std::vector<FlitEvent> watch(const std::vector<TraceMessage>& trace, std::vector<std::uint64_t> packets) {
    std::vector<FlitEvent> events;
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 16;
    cfg.watch.packets = std::move(packets);
    cfg.watch.sink = [&](const FlitEvent& e) { events.push_back(e); };
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    const auto r = sim.run_trace(trace);
    REQUIRE(r.packets_delivered == trace.size());
    return events;
}

using Step = std::tuple<FlitEventKind, std::uint64_t, std::uint32_t>;  // kind, cycle, node
std::vector<Step> steps_of(const std::vector<FlitEvent>& events, std::uint32_t flit) {
    std::vector<Step> out;
    for (const FlitEvent& e : events)
        if (e.flit == flit) out.emplace_back(e.kind, e.cycle, e.node);
    return out;
}
}  // namespace

TEST_CASE("watch trace: every event of a 2-flit packet crossing 2 links of an idle ring, worked by hand") {
    // Pipeline 1+1+1+1, links of 1 cycle. The head is routed at 1, granted its VC
    // at 1, the switch at 2; it starts onto the link at 4 and is in router 1's
    // buffer at 5. There: routed 6, VC 6, switch 7, in router 2 at 10; routed 11,
    // the ejection port (no VC) at 11, switch 12, out at 14. The body follows a
    // cycle behind and is ejected at 15: (h + 1) 4 + h + S - 1 = 15.
    using K = FlitEventKind;
    const auto events = watch({{0, 0, 2, 2}}, {0});
    CHECK(steps_of(events, 0) == std::vector<Step>{{K::created, 0, 0}, {K::switched, 2, 0}, {K::arrived, 5, 1},
                                                    {K::switched, 7, 1}, {K::arrived, 10, 2}, {K::switched, 12, 2},
                                                    {K::ejected, 14, 2}});
    CHECK(steps_of(events, 1) == std::vector<Step>{{K::created, 0, 0}, {K::switched, 3, 0}, {K::arrived, 6, 1},
                                                    {K::switched, 8, 1}, {K::arrived, 11, 2}, {K::switched, 13, 2},
                                                    {K::ejected, 15, 2}});
    // Ports and VCs: created in injection queue 0; each switch's output port leads
    // to the node of the next arrival; the last switch is to the ejection port.
    for (const FlitEvent& e : events) {
        CHECK(e.packet == 0);
        if (e.kind == K::created) CHECK((e.port == injection && e.vc == 0));
        if (e.kind == K::switched && e.node < 2)
            CHECK(ring.topology().neighbour(NodeId{e.node}, PortId{e.port}) == NodeId{e.node + 1});
        if (e.kind == K::switched && e.node == 2) CHECK(e.port == injection);
        if (e.kind == K::arrived) CHECK(ring.topology().neighbour(NodeId{e.node}, PortId{e.port}) == NodeId{e.node - 1});
    }
}

TEST_CASE("watch trace: only the packets listed, numbered in creation order; off, nothing is called") {
    // Three 1-flit packets, created at cycles 0, 1 and 2 from nodes 5, 6, 7 to the
    // next node; packet 1 is 6 -> 7: created at 1, switched at 3, in router 7 at
    // 6, switched to the ejection port at 8, out at 10 (2 * 4 + 1 = 9 cycles).
    using K = FlitEventKind;
    const std::vector<TraceMessage> trace{{0, 5, 6, 1}, {1, 6, 7, 1}, {2, 7, 8, 1}};
    const auto events = watch(trace, {1, 99});
    CHECK(steps_of(events, 0) == std::vector<Step>{{K::created, 1, 6}, {K::switched, 3, 6}, {K::arrived, 6, 7},
                                                    {K::switched, 8, 7}, {K::ejected, 10, 7}});
    for (const FlitEvent& e : events) CHECK(e.packet == 1);
    CHECK(watch(trace, {}).empty());
    std::uint64_t calls = 0;
    CycleConfig cfg;
    cfg.watch.packets = {0, 1, 2};  // no sink: off
    CHECK_FALSE(cfg.watch.enabled());
    cfg.watch.sink = [&](const FlitEvent&) { ++calls; };
    cfg.watch.packets.clear();  // a sink and no packets: off
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    CHECK(sim.run_trace(trace).packets_delivered == 3);
    CHECK(calls == 0);
}

TEST_CASE("node statistics: one packet by hand, then a loaded torus whose nodes add up to the run's totals") {
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 100;
    {
        CycleSimulator<decltype(ring)> sim(ring, cfg);
        CHECK(sim.run_trace(std::vector<TraceMessage>{{0, 0, 3, 4}}).nodes.empty());  // off by default
    }
    cfg.node_statistics = true;
    {
        // 4 flits 0 -> 3: (3 + 1) 4 + 3 + 3 = 22 cycles.
        CycleSimulator<decltype(ring)> sim(ring, cfg);
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 3, 4}});
        REQUIRE(r.nodes.size() == 16);
        CHECK(r.nodes[0].flits_offered == 4);
        CHECK(r.nodes[0].flits_injected == 4);
        CHECK(r.nodes[0].packets_sent == 1);
        CHECK(r.nodes[0].latency_sent == 22);
        CHECK(r.nodes[3].flits_accepted == 4);
        CHECK(r.nodes[3].packets_received == 1);
        CHECK(r.nodes[3].latency_received == 22);
        for (std::uint32_t n = 0; n < 16; ++n)
            if (n != 0 && n != 3)
                CHECK(r.nodes[n].flits_offered + r.nodes[n].flits_injected + r.nodes[n].flits_accepted == 0);
    }
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    cfg.warmup = 300;
    cfg.measure = 2000;
    CycleSimulator<decltype(net)> sim(net, cfg);
    const auto r = sim.run(UniformTraffic(16), 0.3, PacketSizes::fixed(2));
    REQUIRE(r.nodes.size() == 16);
    NodeCounters sum;
    for (const NodeCounters& c : r.nodes) {
        sum.flits_offered += c.flits_offered;
        sum.flits_accepted += c.flits_accepted;
        sum.packets_sent += c.packets_sent;
        sum.packets_received += c.packets_received;
        sum.latency_sent += c.latency_sent;
        sum.latency_received += c.latency_received;
        CHECK(c.flits_injected > 0);
    }
    CHECK(sum.flits_offered == r.flits_created_in_window);
    CHECK(sum.flits_accepted == r.flits_ejected_in_window);
    CHECK(sum.packets_sent == r.measured_delivered);
    CHECK(sum.packets_received == r.measured_delivered);
    CHECK(sum.latency_sent == sum.latency_received);
    CHECK(static_cast<double>(sum.latency_sent) / static_cast<double>(sum.packets_sent) ==
          doctest::Approx(r.latency.mean));
}

}  // namespace unit_observation
