// CycleConfig::vc_choice = any: a head takes any free VC of its route's VC class
// (BookSim's VC ranges, picked as its separable input-first VC allocator picks).
// Cases worked by hand on a line of three routers, the classes kept apart on a
// torus with the dateline, the deadlock search over a head's every VC, and the
// refusals.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_vc_choice {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Line = KAryNCube<1, BasicLink<2>, DynamicExtents, Boundary::open>;  // one VC class (no dateline): both VCs
using LineNet = Fabric<Line, DimensionOrder<TieRule::split, NoDateline>>;

/// `count` packets of `flits` from node 0 to node 2 at cycle 0, dealt to two source queues (injection VCs 0, 1).
CycleResult line_run(VcChoice choice, std::uint32_t count, std::uint32_t flits) {
    const LineNet net{Line({3})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 1;
    cfg.injection_queues = 2;
    cfg.vc_choice = choice;
    CycleSimulator<LineNet> sim(net, cfg);
    const auto r = sim.run_trace(std::vector<TraceMessage>(count, TraceMessage{0, 0, 2, flits}));
    REQUIRE(r.packets_delivered == count);
    REQUIRE(r.flits_injected == r.flits_ejected);
    return r;
}
}  // namespace

TEST_CASE("vc_choice any: a lone packet takes the zero-load latency, as under route") {
    // Pipeline 1+1+1+1, one-cycle links, two hops: 3 * 4 + 2 + (S - 1).
    for (const std::uint32_t flits : {1U, 4U, 9U}) {
        CHECK(line_run(VcChoice::any, 1, flits).latency.max == 14 + flits - 1);
        CHECK(line_run(VcChoice::route, 1, flits).latency.max == 14 + flits - 1);
    }
}

TEST_CASE("vc_choice any: a second head takes the other VC instead of waiting for the first's tail") {
    // Two 1-flit packets, A on injection VC 0 and B on VC 1, both routed at cycle 0
    // and asking at 1. Under route both ask for VC 0: A wins it and crosses at 2; B,
    // blocked until A's tail frees VC 0, asks at 3 and crosses at 4: 14 and 16.
    // Under any both pick VC 0 at 1 (each its free VC nearest its pointer, both at 0:
    // input-first), A wins; B picks VC 1 at 2 and crosses at 3: 14 and 15.
    const CycleResult route = line_run(VcChoice::route, 2, 1), any = line_run(VcChoice::any, 2, 1);
    CHECK(route.latency.max == 16);
    CHECK(route.latency.mean == doctest::Approx(15.0));
    CHECK(any.latency.max == 15);
    CHECK(any.latency.mean == doctest::Approx(14.5));
    // Four: C behind A, D behind B. Under route one packet every 2 cycles: 14, 16, 18, 20.
    // Under any, C routes as A leaves (2) and asks at 3: its pointer is past VC 0, VC 1 is
    // B's until B crosses at 3, so C takes VC 0 and crosses at 4; D asks at 4, wraps to
    // VC 0 (C's), takes VC 1 and crosses at 5: 14, 15, 16, 17, a packet a cycle.
    CHECK(line_run(VcChoice::route, 4, 1).latency.mean == doctest::Approx(17.0));
    const CycleResult four = line_run(VcChoice::any, 4, 1);
    CHECK(four.latency.max == 17);
    CHECK(four.latency.mean == doctest::Approx(15.5));
}

TEST_CASE("vc_choice any on a torus with the dateline: each class keeps its half of the VCs, and no deadlock") {
    // Four VCs, two classes (the dateline's): class 0 takes VC 0 or 1, class 1 VC 2 or 3,
    // so the dateline still breaks every ring's cycle. Heavy load, 8-flit packets.
    using T = KAryNCube<2, BasicLink<4>, DynamicExtents, Boundary::wrap>;
    const Fabric<T, DimensionOrder<TieRule::split, Dateline>> net{T({4, 4})};
    for (const VcChoice choice : {VcChoice::route, VcChoice::any}) {
        CycleConfig cfg;
        cfg.warmup = 1000;
        cfg.measure = 3000;
        cfg.watchdog = 500;
        cfg.vc_choice = choice;
        CycleSimulator<decltype(net)> sim(net, cfg);
        CHECK(sim.staged() == (choice == VcChoice::route));  // the stage-list kernel models route only
        const auto r = sim.run(UniformTraffic(16), 0.5, PacketSizes::fixed(8));
        CHECK_FALSE(r.deadlock.has_value());
        CHECK(r.drained);
        CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    }
}

TEST_CASE("vc_choice any: a deadlock over every VC of a class is found and named") {
    // A ring of 4, one class on both VCs (no dateline): each node sends two long packets
    // two hops on (a tie: taken +). A node's own two take both VCs of its link at once,
    // the packets from upstream wait for them, and they for the next node's: a cycle.
    using R = KAryNCube<1, BasicLink<2>, DynamicExtents, Boundary::wrap>;
    const Fabric<R, DimensionOrder<TieRule::positive, NoDateline>> net{R({4}), allow_deadlock};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 1;
    cfg.watchdog = 200;
    cfg.injection_queues = 2;
    cfg.vc_choice = VcChoice::any;
    CycleSimulator<decltype(net)> sim(net, cfg);
    std::vector<TraceMessage> trace;
    for (std::uint32_t n = 0; n < 4; ++n)
        for (int i = 0; i < 2; ++i) trace.push_back(TraceMessage{0, n, (n + 2) % 4, 64});
    const auto r = sim.run_trace(trace);
    REQUIRE(r.deadlock.has_value());
    CHECK(r.deadlock->waiting.size() >= 4);  // at least once round the ring
    CHECK(r.packets_delivered == 0);
}

TEST_CASE("vc_choice any is refused where the VCs cannot be dealt evenly to the routing's classes") {
    using T = KAryNCube<1, BasicLink<3>, DynamicExtents, Boundary::wrap>;  // the dateline's 2 classes, 3 VCs
    const Fabric<T, DimensionOrder<TieRule::split, Dateline>> net{T({4})};
    CycleConfig cfg;
    cfg.vc_choice = VcChoice::any;
    CHECK_THROWS_WITH_AS(CycleSimulator<decltype(net)>(net, cfg),
                         doctest::Contains("vc_choice = any deals a link's 3 VCs evenly to the 2 VC classes"),
                         std::invalid_argument);
    // A dragonfly under Valiant routing needs a count per link class (local, global): no one class split.
    using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;  // Valiant's 3 local VCs and 2 global ones
    const Fabric<Df, DragonflyValiant> dragonfly{Df(4, 2)};
    CHECK_THROWS_WITH_AS(CycleSimulator<decltype(dragonfly)>(dragonfly, cfg),
                         doctest::Contains("vc_choice = any deals each link's VCs to the classes"),
                         std::invalid_argument);
}

}  // namespace unit_vc_choice
