// Concentration (Concentrated<Base, MaxTerminals>): several terminals a router.
// Worked by hand or held to laws: terminal numbering; one terminal a router is the
// plain topology, result for result; a packet between terminals takes the same
// cycles as between their routers, and leaves by its terminal's own port; each
// terminal has its own ejection port (four terminals of one router swapping in pairs
// carry a flit a cycle each, where one shared port would carry a quarter); loads are
// per terminal; a pattern must have one task per terminal.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/core/error.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_concentration {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ring = Torus<1>;
using Ring4 = Concentrated<Ring, 4>;

/// Terminal t sends to t XOR 1: the two terminals of a pair share their router.
struct SwapPairs : detail::PermutationPattern<SwapPairs> {
    std::size_t tasks;
    [[nodiscard]] std::size_t task_count() const { return tasks; }
    [[nodiscard]] std::size_t destination(std::size_t t) const { return t ^ 1U; }
};

CycleConfig short_run() {
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 4000;
    return cfg;
}
}  // namespace

TEST_CASE("concentration: terminal numbering, and a plain topology has one terminal a router") {
    static_assert(max_terminals_v<Ring> == 1);
    static_assert(max_terminals_v<Ring4> == 4);
    static_assert(ConcentratedTopology<Ring4> && !ConcentratedTopology<Ring>);
    const Ring4 t(Ring({5}), 3);
    CHECK(terminals_per_node(Ring({5})) == 1);
    CHECK(terminals_per_node(t) == 3);
    CHECK(t.node_count() == 5);
    CHECK(t.terminal_count() == 15);
    CHECK(t.terminal_router(7) == NodeId{2});
    CHECK(t.terminal_slot(7) == 1);
    CHECK_THROWS_WITH_AS(Ring4(Ring({5}), 5), doctest::Contains("1 to 4 terminals"), config_error);
    CHECK_THROWS_WITH_AS(Ring4(Ring({5}), 0), doctest::Contains("1 to 4 terminals"), config_error);
}

TEST_CASE("concentration: one terminal a router gives the plain topology's run, result for result") {
    const Fabric<Ring, DorTieSplit<>> plain{Ring({8})};
    const Fabric<Concentrated<Ring, 1>, DorTieSplit<>> one{Concentrated<Ring, 1>(Ring({8}))};
    const auto a = simulate_cycles(plain, UniformTraffic(8), 0.3, PacketSizes::fixed(3), short_run());
    const auto b = simulate_cycles(one, UniformTraffic(8), 0.3, PacketSizes::fixed(3), short_run());
    CHECK(a.measured_packets > 100);
    CHECK(a.measured_packets == b.measured_packets);
    CHECK(a.latency.mean == b.latency.mean);
    CHECK(a.accepted == b.accepted);
    CHECK(a.flit_moves == b.flit_moves);
    CHECK(b.terminals_per_node == 1);
}

TEST_CASE("concentration: a packet between terminals takes its routers' zero-load cycles and its terminal's port") {
    // Ring of 8 routers, 2 terminals each (ports 0, 1 network; 2, 3 terminals).
    // Terminal 3 (router 1, slot 1) to terminal 10 (router 5, slot 0): 4 hops, like
    // router 1 to router 5 on the plain ring.
    using Ring2 = Concentrated<Ring, 2>;
    const Fabric<Ring2, DorTieSplit<>> two{Ring2(Ring({8}))};
    const Fabric<Ring, DorTieSplit<>> plain{Ring({8})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 100;
    std::vector<FlitEvent> events;
    cfg.watch.packets = {0};
    cfg.watch.sink = [&](const FlitEvent& e) { events.push_back(e); };
    cfg.node_statistics = true;
    CycleSimulator<decltype(two)> sim(two, cfg);
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 3, 10, 2}});
    cfg.watch = {};
    CycleSimulator<decltype(plain)> flat(plain, cfg);
    const auto p = flat.run_trace(std::vector<TraceMessage>{{0, 1, 5, 2}});
    REQUIRE(r.packets_delivered == 1);
    CHECK(r.misdelivered == 0);
    CHECK(r.hops_mean == doctest::Approx(4.0));
    CHECK(r.latency.max == p.latency.max);
    CHECK(r.latency.max == 5 * 4 + 4 * 1 + 2 - 1);  // (h + 1) P + h L + S - 1
    // Created at router 1 on terminal port 2 + 1; ejected at router 5 on port 2 + 0.
    for (const FlitEvent& e : events) {
        if (e.kind == FlitEventKind::created) CHECK((e.node == 1 && e.port == 3));
        if (e.kind == FlitEventKind::ejected) CHECK((e.node == 5 && e.port == 2));
    }
    REQUIRE(r.nodes.size() == 16);
    CHECK(r.nodes[3].packets_sent == 1);
    CHECK(r.nodes[10].packets_received == 1);
    CHECK(r.nodes[11].packets_received == 0);
    CHECK(r.nodes[10].flits_accepted == 2);
}

TEST_CASE("concentration: every terminal has its own ejection port, so a router delivers a flit a cycle to each") {
    // Four terminals a router, each pair swapping within its router: no link is used,
    // and each terminal takes in and delivers up to a flit a cycle. Offered 0.8 a
    // terminal (two source queues each, as one input VC passes a 1-flit packet every
    // other cycle) is accepted: 3.2 flits a cycle through each router's ejection
    // ports, where one shared port would pass at most 1, 0.25 a terminal.
    const Fabric<Ring4, DorTieSplit<>> net{Ring4(Ring({4}))};
    CycleConfig cfg = short_run();
    cfg.injection_queues = 2;
    const auto r = simulate_cycles(net, SwapPairs{{}, 16}, 0.8, PacketSizes::fixed(1), cfg);
    CHECK(r.drained);
    CHECK(r.hops_mean == 0.0);
    CHECK(r.offered == doctest::Approx(0.8).epsilon(0.03));
    CHECK(r.accepted == doctest::Approx(r.offered).epsilon(0.01));
    CHECK(r.terminals_per_node == 4);
}

TEST_CASE("concentration: loads are per terminal, and a link's share is split among its router's terminals") {
    // Terminal t sends to the same slot of the next router: all of a router's
    // terminals share its one link to the next. With 4 terminals the link carries at
    // most one flit a cycle, so a terminal gets at most a quarter.
    struct NextRouter : detail::PermutationPattern<NextRouter> {
        [[nodiscard]] std::size_t task_count() const { return 16; }
        [[nodiscard]] std::size_t destination(std::size_t t) const { return (t + 4) % 16; }
    };
    const Fabric<Ring4, DorTieSplit<>> net{Ring4(Ring({4}))};
    const auto low = simulate_cycles(net, NextRouter{}, 0.1, PacketSizes::fixed(1), short_run());
    CHECK(low.drained);
    CHECK(low.accepted == doctest::Approx(0.1).epsilon(0.1));
    const auto high = simulate_cycles(net, NextRouter{}, 0.6, PacketSizes::fixed(4), short_run());
    CHECK(high.saturated);
    CHECK(high.accepted <= 0.25 + 1e-9);
    // The plain ring under the same pattern: its one terminal a router has the link
    // to itself, and gets four times as much.
    const Fabric<Ring, DorTieSplit<>> plain{Ring({4})};
    struct Next : detail::PermutationPattern<Next> {
        [[nodiscard]] std::size_t task_count() const { return 4; }
        [[nodiscard]] std::size_t destination(std::size_t t) const { return (t + 1) % 4; }
    };
    const auto alone = simulate_cycles(plain, Next{}, 0.99, PacketSizes::fixed(4), short_run());
    MESSAGE("per terminal ", high.accepted, ", per node of the plain ring ", alone.accepted);
    CHECK(high.accepted == doctest::Approx(alone.accepted / 4).epsilon(0.05));
}

TEST_CASE("concentration: a dragonfly of 2 terminals a router runs conserved, and a pattern counts terminals") {
    using Df = Concentrated<Dragonfly<5>, 2>;  // a = 4, h = 2, p = 2: 36 routers, 72 terminals
    const Fabric<Df, DragonflyMinimal> net{Df(Dragonfly<5>(4, 2))};
    const auto r = simulate_cycles(net, UniformTraffic(72), 0.2, PacketSizes::fixed(2), short_run());
    check_delivered_and_conserved(r);
    CHECK(r.accepted == doctest::Approx(0.2).epsilon(0.1));
    CHECK_THROWS_WITH_AS(simulate_cycles(net, UniformTraffic(36), 0.2), doctest::Contains("one task per terminal"),
                         config_error);
}

TEST_CASE("concentration in the flow kernel: the dragonfly's worst case carries 1/(a p) a terminal, worked by hand") {
    // a = 4, h = 2, p = 2: group G's 8 terminals send 1 unit each to group G + 1, all
    // over the one G -> G + 1 global link: a load of a p = 8, so a terminal can
    // inject 1/8 (Kim et al.'s 1/(a p)). Uniform: a global link carries a^2 p^2 / N
    // = 64/72 of a unit, twice the one-terminal figure 16/36 as each router sends twice.
    using Df = Concentrated<Dragonfly<5>, 2>;
    const Fabric<Df, DragonflyMinimal> fab{Df(Dragonfly<5>(4, 2))};
    const auto worst = link_load(fab, GroupShiftTraffic(8, 9));
    CHECK(worst.link_class(Dragonfly<5>::global_class).max_load == doctest::Approx(8.0));
    const double global_bandwidth = worst.link_class(Dragonfly<5>::global_class).bandwidth.count;
    CHECK(worst.bottleneck() == Dragonfly<5>::global_class);
    CHECK(worst.throughput_per_task() == doctest::Approx(global_bandwidth / 8));  // per terminal
    CHECK(worst.throughput() == doctest::Approx(2 * global_bandwidth / 8));      // per router of 2
    const auto uniform = link_load(fab, UniformTraffic(72));
    CHECK(uniform.link_class(Dragonfly<5>::global_class).max_load == doctest::Approx(64.0 / 72));
    CHECK_THROWS_WITH_AS(link_load(fab, UniformTraffic(36)), doctest::Contains("one task per terminal"), config_error);
}

}  // namespace unit_concentration
