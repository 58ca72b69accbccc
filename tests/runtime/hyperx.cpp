// HyperX and its dimension-order routing: wiring laws (all-to-all in each
// dimension, every link with its reverse), routes (minimal, at the destination,
// within the diameter), the deadlock check from the policy's turns equal to the
// check from every route, the textbook channel load 1/S_d of uniform traffic,
// and the cycle kernel's zero-load latency.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/hyperx_dor.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/hyperx.hpp>

#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

namespace unit_hyperx {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Hx = HyperX<3, 9>;  // 4 x 3 x 5: 3 + 2 + 4 = 9 ports a router, 60 routers

struct Walked : HyperXDimensionOrder {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};
}  // namespace

TEST_CASE("HyperX wiring: each router linked once to every router differing in one coordinate, each link with its reverse") {
    const Hx t({4, 3, 5});
    CHECK(t.node_count() == 60);
    CHECK(t.diameter() == 3);
    for (std::uint32_t n = 0; n < 60; ++n) {
        std::set<std::uint32_t> seen;
        for (std::uint32_t p = 0; p < 9; ++p) {
            const NodeId m = t.neighbour(NodeId{n}, PortId{p});
            REQUIRE(m.valid());
            CHECK(t.distance(NodeId{n}, m) == 1);
            CHECK(t.dimension_of(PortId{p}) == (p < 3 ? 0 : p < 5 ? 1 : 2));
            CHECK(t.coordinate(NodeId{n}, t.dimension_of(PortId{p})) != t.coordinate(m, t.dimension_of(PortId{p})));
            CHECK(t.neighbour(m, t.reverse_port(NodeId{n}, PortId{p})) == NodeId{n});
            seen.insert(m.value);
        }
        CHECK(seen.size() == 9);  // 3 + 2 + 4 distinct neighbours: all of them
    }
    CHECK_FALSE(HyperX<3, 12>({4, 3, 5}).neighbour(NodeId{0}, PortId{9}).valid());  // spare slots
    CHECK_THROWS_WITH_AS(Hx({4, 3, 6}), doctest::Contains("fewer than the 10 the extents need"), config_error);
    CHECK_THROWS_WITH_AS(Hx({4, 0}), doctest::Contains("a HyperX extent is 1 to 65536; got 0"), config_error);
}

TEST_CASE("HyperX dimension order: one hop per differing coordinate, lowest first, at the destination") {
    const Hx t({4, 3, 5});
    const HyperXDimensionOrder dor;
    for (std::uint32_t s = 0; s < 60; ++s)
        for (std::uint32_t d = 0; d < 60; ++d)
            dor.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double w) {
                CHECK(w == 1.0);
                CHECK(route_end(t, NodeId{s}, hops) == NodeId{d});
                CHECK(hops.size() == t.distance(NodeId{s}, NodeId{d}));
                for (std::size_t i = 1; i < hops.size(); ++i)
                    CHECK(t.dimension_of(hops[i - 1].port) < t.dimension_of(hops[i].port));
            });
}

TEST_CASE("HyperX deadlock check: the policy's turns give exactly the dependencies of all routes, acyclic on one VC") {
    const Hx t({4, 3, 5});
    const auto turns = channel_dependencies(t, HyperXDimensionOrder{});
    const auto walked = channel_dependencies(t, Walked{});
    CHECK(turns.acyclic);
    CHECK(walked.acyclic);
    CHECK(turns.dependencies == walked.dependencies);
    // By hand: at each router, every channel in of dimension d to every channel out of
    // a higher one: 3 x (2 + 4) + 2 x 4 = 26 a router.
    CHECK(turns.dependencies == 60 * 26);
    const Fabric<Hx, HyperXDimensionOrder> fab{t};
    CHECK(fab.topology().rank() == 3);
}

TEST_CASE("HyperX uniform load, the textbook figure: every channel of dimension d carries 1/S_d") {
    const Hx t({4, 3, 5});
    const Fabric<Hx, HyperXDimensionOrder> fab{t};
    const auto loads = link_load(fab, UniformTraffic(60));
    // The hop of dimension d from router u is taken by the sources that agree with u
    // from d up (N / (prod of S below d) ... ) to the destinations that agree with u
    // below d and have the channel's coordinate in d: (N / S_d) pairs of 1/N each.
    const std::array<double, 3> expect{1.0 / 4, 1.0 / 3, 1.0 / 5};
    for (std::uint32_t n = 0; n < 60; ++n)
        for (std::uint32_t p = 0; p < 9; ++p)
            CHECK(loads.load(NodeId{n}, PortId{p}) == doctest::Approx(expect[t.dimension_of(PortId{p})]));
    CHECK(loads.max_load() == doctest::Approx(1.0 / 3));
}

TEST_CASE("HyperX in the cycle kernel: zero-load latency by the kernel's formula, and a loaded run drains") {
    const Fabric<Hx, HyperXDimensionOrder> fab{Hx({4, 3, 5})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    // 0 -> 59 differs in all three coordinates: (3 + 1) 4 + 3 + S - 1 with S = 2: 20 cycles.
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 59, 2}});
    CHECK(r.hops_mean == doctest::Approx(3.0));
    CHECK(r.latency.max == 20);
    CycleConfig loaded;
    loaded.warmup = 500;
    loaded.measure = 3000;
    const auto u = simulate_cycles(fab, UniformTraffic(60), 0.4, PacketSizes::fixed(4), loaded);
    CHECK(u.drained);
    CHECK_FALSE(u.deadlock);
    CHECK(u.measured_delivered == u.measured_packets);
    // Mean hops: sum over d of (S_d - 1) / S_d = 3/4 + 2/3 + 4/5.
    CHECK(u.hops_mean == doctest::Approx(3.0 / 4 + 2.0 / 3 + 4.0 / 5).epsilon(0.05));
}

}  // namespace unit_hyperx
