// Valiant routing on a dragonfly: routes (end at the destination, at most 5 hops
// and 2 global ones, levels climb), the flow-level loads of the worst case worked
// by hand against minimal routing (with p terminals a router as tasks placed p to
// a node), the under-provisioned variant cyclic and deadlocking, and the cycle
// kernel under the worst case.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/placement.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/dragonfly.hpp>

#include <cstdint>
#include <span>

#include "../support/cycle_laws.hpp"

namespace unit_dragonfly_valiant {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;  // a = 4, h = 2: 3 local + 2 global ports

/// Valiant with every hop on VC 0 (a dragonfly of one VC a link): the levels no
/// longer climb, and local -> global -> local chains close into cycles.
struct ValiantOneVc : DragonflyValiant {
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    static constexpr bool vc_levels_increase = false;
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        const std::size_t len = DragonflyValiant::select_route(t, src, dst, choice, out);
        for (std::size_t i = 0; i < len; ++i) out[i].vc = 0;
        return len;
    }
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        DragonflyValiant::for_each_route(t, src, dst, [&](std::span<const Hop> hops, double w) {
            std::array<Hop, 5> flat{};
            for (std::size_t i = 0; i < hops.size(); ++i) flat[i] = Hop{hops[i].node, hops[i].port, 0};
            f(std::span<const Hop>(flat.data(), hops.size()), w);
        });
    }
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
    }
};
}  // namespace

TEST_CASE("dragonfly Valiant routes: end at the destination, at most 5 hops and 2 global, shares sum to 1, levels climb") {
    const Df t(4, 2);  // 9 groups, 36 routers
    const DragonflyValiant val;
    for (std::uint32_t s = 0; s < 36; ++s)
        for (std::uint32_t d = 0; d < 36; ++d) {
            double total = 0;
            std::size_t routes = 0;
            val.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double w) {
                total += w;
                ++routes;
                CHECK(route_end(t, NodeId{s}, hops) == NodeId{d});
                CHECK(hops.size() <= 5);
                std::size_t global = 0;
                for (const Hop& h : hops) global += t.link_class(h.node, h.port) == Df::global_class;
                CHECK(global <= 2);
            });
            CHECK(total == doctest::Approx(1.0));
            // Another group: the minimal route and one through each of the 7 other groups.
            CHECK(routes == (s == d || t.group_of(NodeId{s}) == t.group_of(NodeId{d}) ? 1 : 8));
        }
    // The kernel's draw: group choice mod g, so choices 0..8 take each route once.
    Hop a[5], b[5];
    const std::size_t la = val.select_route(t, t.node(0, 1), t.node(1, 2), 5, a);
    CHECK(la == DragonflyValiant::route_via(t, t.node(0, 1), t.node(1, 2), 5, b));
    CHECK(std::equal(a, a + la, b));
    CHECK(la >= 3);  // via group 5: two global hops and at least one local one
    const VcLevelReport levels = check_vc_levels(t, val);
    CHECK(levels.increasing);
    CHECK(levels.routes == 36 + 36 * 3 + 36 * 32 * 8);  // to itself, its 3 group mates, 32 others (8 routes each)
}

TEST_CASE("dragonfly worst case, worked by hand: minimal puts a p on one global link, Valiant 2 a p / g on every one") {
    // a = 4, p = 2, h = 2: the balanced dragonfly (a = 2p = 2h) of 9 groups, 72 terminals.
    const Df t(4, 2);
    const std::size_t a = 4, p = 2, g = 9;
    const GroupShiftTraffic worst(a * p, g);
    const Placement two_a_router = Placement::blocked(a * p * g, a * g);
    const auto min = link_load(Fabric<Df, DragonflyMinimal>{t}, worst, two_a_router);
    CHECK(min.link_class(Df::global_class).max_load == doctest::Approx(double(a * p)));  // 1/(a p) a terminal
    const auto val = link_load(Fabric<Df, DragonflyValiant>{t}, worst, two_a_router);
    // Every global link, first or second leg: a p / g of its group's own traffic and
    // a p / g of the traffic passing through.
    for (std::uint32_t n = 0; n < 36; ++n)
        for (std::uint32_t port = 3; port < 5; ++port)
            CHECK(val.load(NodeId{n}, PortId{port}) == doctest::Approx(2.0 * a * p / g));
    CHECK(val.link_class(Df::global_class).max_load == doctest::Approx(16.0 / 9));
    // So a terminal may inject 9/16 of a link's bandwidth: above Valiant's 1/2.
    CHECK(1 / val.link_class(Df::global_class).max_load > 0.5);
    // Uniform traffic: Valiant at most doubles the global load of minimal routing.
    const UniformTraffic uniform(a * p * g);
    const double min_u = link_load(Fabric<Df, DragonflyMinimal>{t}, uniform, two_a_router).link_class(1).max_load;
    const double val_u = link_load(Fabric<Df, DragonflyValiant>{t}, uniform, two_a_router).link_class(1).max_load;
    CHECK(val_u > min_u);
    CHECK(val_u <= 2 * min_u);
}

TEST_CASE("dragonfly Valiant on one VC is cyclic, refused, and deadlocks in the kernel") {
    using Df1 = Dragonfly<5, BasicLink<1>, BasicLink<1>>;
    const Df1 t(4, 2);
    CHECK_THROWS_WITH_AS((Fabric<Df1, ValiantOneVc>{t}), doctest::Contains("can deadlock"), config_error);
    const Fabric<Df1, ValiantOneVc> fab(t, allow_deadlock);
    const CycleConfig cfg = deadlock_watch_config();
    check_deadlock_reported(simulate_cycles(fab, UniformTraffic(36), 0.8, PacketSizes::fixed(8), cfg));
    // The provisioned policy, same load: no deadlock.
    const auto ok = simulate_cycles(Fabric<Df, DragonflyValiant>{Df(4, 2)}, UniformTraffic(36), 0.8,
                                    PacketSizes::fixed(8), cfg);
    CHECK_FALSE(ok.deadlock);
}

TEST_CASE("dragonfly under the worst case in the cycle kernel: Valiant gets more than twice minimal's throughput") {
    const Df t(4, 2);
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 4000;
    const GroupShiftTraffic worst(4, 9);
    const auto min = simulate_cycles(Fabric<Df, DragonflyMinimal>{t}, worst, 0.5, PacketSizes::fixed(4), cfg);
    const auto val = simulate_cycles(Fabric<Df, DragonflyValiant>{t}, worst, 0.5, PacketSizes::fixed(4), cfg);
    CHECK(min.accepted <= 0.25);  // 1/a: the one global link between the two groups
    CHECK(val.accepted > 2 * min.accepted);
    CHECK_FALSE(val.deadlock);
    CHECK(val.out_of_order == 0);  // wormhole on a path a packet: reordering is between packets only
    MESSAGE("worst case, 4-flit packets, offered 0.5: minimal ", min.accepted, ", Valiant ", val.accepted);
}

}  // namespace unit_dragonfly_valiant
