// Minimal adaptive routing on a HyperX (HyperXAdaptive): routes in every order of
// the differing dimensions, all minimal, VC h on hop h; the deadlock check from its
// turns equal to the walk over every route and counted by hand; the same orders on
// one VC cyclic; the textbook uniform load 1/S_d whatever the order; and the cycle
// kernel, oblivious and queue-reading, against dimension order's zero-load latency.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/hyperx_adaptive.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/hyperx.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_hyperx_adaptive {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Hx = HyperX<3, 9, BasicLink<3>>;  // 4 x 3 x 5, 60 routers, a VC a hop
using Hx2 = HyperX<2, 6, BasicLink<2>>;  // 4 x 4

struct Walked : HyperXAdaptive {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};

/// Every order on VC 0: a packet may turn from dimension 0 to 1 and another from 1 to 0.
struct OneVc : Walked {
    static constexpr bool vc_levels_increase = false;  // the claim no longer holds: checked in full
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    template <class T>
    std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return flat(HyperXAdaptive::select_route(t, src, dst, choice, out), out);
    }
    template <class T, class Router>
    std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t hop, std::uint64_t choice, Hop* out,
                        const Router& router) const {
        return flat(HyperXAdaptive::reroute(t, here, dst, hop, choice, out, router), out);
    }
    static std::size_t flat(std::size_t len, Hop* out) {
        for (std::size_t i = 0; i < len; ++i) out[i].vc = 0;
        return len;
    }
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId s, NodeId d, F&& f) const {
        HyperXAdaptive::for_each_route(t, s, d, [&](std::span<const Hop> hops, double w) {
            std::array<Hop, T::max_rank> flat{};
            for (std::size_t i = 0; i < hops.size(); ++i) flat[i] = Hop{hops[i].node, hops[i].port, 0};
            f(std::span<const Hop>(flat.data(), hops.size()), w);
        });
    }
};
}  // namespace

TEST_CASE("HyperX adaptive routes: every order of the differing dimensions, minimal, VC h on hop h") {
    const Hx t({4, 3, 5});
    const HyperXAdaptive r;
    std::array<Hop, 3> hops{};
    for (std::uint32_t a = 0; a < 60; a += 7) {
        for (std::uint32_t b = 0; b < 60; ++b) {
            double weights = 0;
            std::size_t routes = 0;
            r.for_each_route(t, NodeId{a}, NodeId{b}, [&](std::span<const Hop> route, double w) {
                weights += w;
                ++routes;
                CHECK(route.size() == t.distance(NodeId{a}, NodeId{b}));
                CHECK(route_end(t, NodeId{a}, route) == NodeId{b});
                for (std::size_t h = 0; h < route.size(); ++h) CHECK(route[h].vc == h);
            });
            const std::size_t m = t.distance(NodeId{a}, NodeId{b});
            CHECK(routes == (m == 3 ? 6U : m == 2 ? 2U : 1U));  // m! orders
            CHECK(weights == doctest::Approx(1.0));
            for (std::uint64_t c : {0ULL, 5ULL, 987654321ULL}) {
                const std::size_t len = r.select_route(t, NodeId{a}, NodeId{b}, c, hops.data());
                CHECK(len == m);
                CHECK(route_end(t, NodeId{a}, std::span<const Hop>(hops.data(), len)) == NodeId{b});
            }
        }
    }
    CHECK(check_vc_levels(t, r).increasing);
}

TEST_CASE("HyperX adaptive deadlock check: acyclic with a VC a hop, its turns counted by hand; cyclic on one VC") {
    const Hx2 t({4, 4});
    const auto turns = channel_dependencies(t, HyperXAdaptive{});
    const auto walked = channel_dependencies(t, Walked{});
    CHECK(turns.acyclic);
    CHECK(walked.acyclic);
    CHECK(turns.dependencies == walked.dependencies);
    // Each of 16 routers: 2 dimensions x 3 channels in, on VC 0, to 3 channels of the other dimension on VC 1.
    CHECK(turns.dependencies == 16 * 2 * 3 * 3);
    const auto flat = channel_dependencies(t, OneVc{});
    CHECK_FALSE(flat.acyclic);
    CHECK_THROWS_WITH_AS((Fabric<HyperX<2, 6, BasicLink<1>>, OneVc>{HyperX<2, 6, BasicLink<1>>({4, 4})}),
                         doctest::Contains("can deadlock"), config_error);
}

TEST_CASE("HyperX adaptive on one VC deadlocks in the kernel under tornado traffic, where a VC a hop does not") {
    // Tornado on 4 x 4 x 4 sends (x, y, z) to (x + 1, y + 1, z + 1): every packet turns
    // twice, and on one VC the turns close cycles of channels that long packets hold.
    using Hx1 = HyperX<3, 9, BasicLink<1>>;
    const Fabric<Hx1, OneVc> fab(Hx1({4, 4, 4}), allow_deadlock);
    const CycleConfig cfg = deadlock_watch_config();
    const TornadoTraffic tornado(Grid({4, 4, 4}));
    check_deadlock_reported(simulate_cycles(fab, tornado, 0.9, PacketSizes::fixed(16), cfg));
    const Fabric<Hx, HyperXAdaptive> ok_fab{Hx({4, 4, 4})};
    const auto ok = simulate_cycles(ok_fab, tornado, 0.9, PacketSizes::fixed(16), cfg);
    CHECK_FALSE(ok.deadlock);
    check_delivered_and_conserved(ok);
}

TEST_CASE("HyperX adaptive uniform load: every channel of dimension d carries 1/S_d, whatever the order") {
    // A pair differing in d crosses one channel of d in every order; (S_d - 1)/S_d of
    // each source's unit does, over the S_d - 1 channels of d at each router alike.
    const Fabric<Hx, HyperXAdaptive> fab{Hx({4, 3, 5})};
    const auto loads = link_load(fab, UniformTraffic(60));
    const std::array<double, 3> expect{1.0 / 4, 1.0 / 3, 1.0 / 5};
    for (std::uint32_t n = 0; n < 60; ++n)
        for (std::uint32_t p = 0; p < 9; ++p)
            CHECK(loads.load(NodeId{n}, PortId{p}) ==
                  doctest::Approx(expect[fab.topology().dimension_of(PortId{p})]));
}

TEST_CASE("HyperX adaptive in the cycle kernel: dimension order's zero-load latency; loaded runs deliver all") {
    const Fabric<Hx, HyperXAdaptive> fab{Hx({4, 3, 5})};
    static_assert(HopAdaptive<HyperXAdaptive, Hx> && !SourceAdaptive<HyperXAdaptive, Hx>);
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    // 0 -> 59 differs in all three coordinates: (3 + 1) 4 + 3 + S - 1 with S = 2: 20 cycles, in any order.
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 59, 2}});
    CHECK(r.hops_mean == doctest::Approx(3.0));
    CHECK(r.latency.max == 20);
    CycleConfig loaded;
    loaded.warmup = 500;
    loaded.measure = 3000;
    const auto u = simulate_cycles(fab, UniformTraffic(60), 0.4, PacketSizes::fixed(4), loaded);
    check_delivered_and_conserved(u);
    CHECK(u.hops_mean == doctest::Approx(3.0 / 4 + 2.0 / 3 + 4.0 / 5).epsilon(0.05));
}

}  // namespace unit_hyperx_adaptive
