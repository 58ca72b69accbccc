// Traffic classes with priorities in the cycle kernel (CycleConfig::class_priority,
// BookSim's classes and class_priority): the level table, a packet alone costs
// the same in any class, priority decides VC and switch contention worked by hand
// (each case run with the priorities both ways round, so that round robin alone
// cannot pass it), the per-class figures add up on a loaded torus, and the
// settings' validation.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_traffic_classes {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ring = Torus<1>;
const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};

CycleConfig two_classes(std::uint32_t p0, std::uint32_t p1) {
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    cfg.class_priority = {p0, p1};
    return cfg;
}
}  // namespace

TEST_CASE("traffic classes: priority levels, highest first") {
    cycle::ClassTable t;
    const std::vector<std::uint32_t> priority{1, 5, 1, 3};
    t.configure(priority);
    CHECK(t.count() == 4);
    CHECK(t.levels() == 3);
    CHECK(t.level(1) == 0);
    CHECK(t.level(3) == 1);
    CHECK(t.level(0) == 2);
    CHECK(t.level(2) == 2);
    t.configure({});
    CHECK(t.count() == 1);
    CHECK(t.levels() == 1);
    const std::vector<std::uint32_t> same{7, 7};
    t.configure(same);
    CHECK(t.count() == 2);
    CHECK(t.levels() == 1);  // equal priorities: allocation need not look at them
}

TEST_CASE("traffic classes: a packet alone takes the zero-load latency in any class") {
    // 1 flit 0 -> 3 on the idle ring: (3 + 1) 4 + 3 = 19 cycles; 4 flits: 22.
    for (const std::uint32_t klass : {0U, 1U}) {
        CAPTURE(klass);
        CycleSimulator<decltype(ring)> sim(ring, two_classes(0, 9));
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 3, 1, klass}, {100, 0, 3, 4, klass}});
        REQUIRE(r.classes.size() == 2);
        CHECK(r.classes[klass].measured_delivered == 1);  // the second is created after the window
        CHECK(r.classes[klass].latency.max == 19);
        CHECK(r.classes[1 - klass].measured_packets == 0);
        CHECK(r.packets_delivered == 2);
        CHECK(r.delivered_latency_sum == 19 + 22);
    }
}

TEST_CASE("traffic classes: the higher priority wins the output VC, whichever class it is") {
    // Node 1 creates two 1-flit packets for node 3 at cycle 0, one per class, each
    // in its class's injection VC. Both heads ask for the same output VC at cycle
    // 1: the winner takes (2 + 1) 4 + 2 = 14 cycles. Round robin alone would pick
    // the same VC both times.
    const std::vector<TraceMessage> trace{{0, 1, 3, 1, 0}, {0, 1, 3, 1, 1}};
    for (const std::uint32_t high : {0U, 1U}) {
        CAPTURE(high);
        CycleSimulator<decltype(ring)> sim(ring, high == 0 ? two_classes(2, 1) : two_classes(1, 2));
        const auto r = sim.run_trace(trace);
        REQUIRE(r.packets_delivered == 2);
        CHECK(r.classes[high].latency.max == 14);
        CHECK(r.classes[1 - high].latency.max > 14);
    }
    // Equal priorities: the same winner both ways (round robin from VC 0).
    CycleSimulator<decltype(ring)> even(ring, two_classes(4, 4));
    const auto e = even.run_trace(trace);
    CHECK(e.classes[0].latency.max == 14);
    CHECK(e.classes[1].latency.max > 14);
}

TEST_CASE("traffic classes: the higher priority wins the ejection port, whichever input it comes from") {
    // 1-flit packets 0 -> 1 and 2 -> 1 at cycle 0, one hop each, reach router 1
    // on different input ports in the same cycle and ask for its ejection port
    // together: the winner takes (1 + 1) 4 + 1 = 9 cycles, the other one more.
    for (const std::uint32_t high : {0U, 1U}) {
        CAPTURE(high);
        CycleSimulator<decltype(ring)> sim(ring, high == 0 ? two_classes(1, 0) : two_classes(0, 1));
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 1, 1, 0}, {0, 2, 1, 1, 1}});
        REQUIRE(r.packets_delivered == 2);
        CHECK(r.classes[high].latency.max == 9);
        CHECK(r.classes[1 - high].latency.max == 10);
    }
}

TEST_CASE("traffic classes on a loaded torus: the figures add up, and the high class waits less") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    CycleConfig cfg;
    cfg.warmup = 500;
    cfg.measure = 3000;
    cfg.class_priority = {0, 1};  // class 1 first
    CycleSimulator<decltype(net)> sim(net, cfg);
    const std::vector<OfferedLoad> loads{{0.25, PacketSizes::fixed(4)}, {0.2, PacketSizes::fixed(4)}};
    const auto r = sim.run(UniformTraffic(16), loads);
    REQUIRE(r.classes.size() == 2);
    REQUIRE_FALSE(r.deadlock);
    CHECK(r.classes[0].measured_delivered + r.classes[1].measured_delivered == r.measured_delivered);
    CHECK(r.classes[0].flits_ejected_in_window + r.classes[1].flits_ejected_in_window == r.flits_ejected_in_window);
    CHECK(r.classes[0].flits_created_in_window + r.classes[1].flits_created_in_window == r.flits_created_in_window);
    CHECK(r.classes[0].offered + r.classes[1].offered == doctest::Approx(r.offered));
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    CHECK(r.classes[1].latency.mean < r.classes[0].latency.mean);

    // Request-reply: a reply keeps its request's class.
    cfg.request_reply.reply_flits = 2;
    CycleSimulator<decltype(net)> rr(net, cfg);
    const std::vector<OfferedLoad> only_one{{0.0, PacketSizes::fixed(1)}, {0.05, PacketSizes::fixed(1)}};
    const auto q = rr.run(UniformTraffic(16), only_one);
    CHECK(q.classes[0].measured_packets == 0);
    CHECK(q.classes[1].measured_delivered == q.measured_delivered);
    CHECK(q.replies_delivered > 0);
}

TEST_CASE("traffic classes: validation") {
    CycleConfig cfg;
    cfg.class_priority.assign(17, 0);
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("at most 16 traffic classes"), config_error);
    cfg.class_priority = {0, 1, 2};  // 3 classes: 3 injection VCs, the ring's links have 2
    CHECK_THROWS_WITH_AS(CycleSimulator<decltype(ring)>(ring, cfg), doctest::Contains("for each of 3 traffic classes"),
                         config_error);
    CycleSimulator<decltype(ring)> sim(ring, two_classes(0, 1));
    CHECK_THROWS_WITH_AS(sim.run(UniformTraffic(16), 0.1), doctest::Contains("offer a load per class"), config_error);
    const std::vector<OfferedLoad> one{{0.1, PacketSizes::fixed(1)}};
    CHECK_THROWS_WITH_AS(sim.run(UniformTraffic(16), one), doctest::Contains("one load per traffic class"), config_error);
    CHECK_THROWS_WITH_AS(sim.run_trace(std::vector<TraceMessage>{{0, 0, 1, 1, 2}}),
                         doctest::Contains("names traffic class 2"), config_error);
}

}  // namespace unit_traffic_classes
