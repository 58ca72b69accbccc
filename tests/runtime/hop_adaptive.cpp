// Routing decided at every router (HopAdaptive): the policies' reroute reads the
// router it is at and picks the emptiest candidate; every route it can give is one
// the deadlock check saw (a law over every pair, position and a spread of router
// states); the cycle kernel asks every router a head reaches, the source's
// included and in order, and no other; a packet routed behind another avoids the
// port the first one holds, worked by hand; a policy breaking reroute's contract
// is named.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/hyperx_adaptive.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/hyperx.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace unit_hop_adaptive {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Hx = HyperX<3, 9, BasicLink<3>>;
using Ft = FatTree<4>;

/// A router state: a spread of queue lengths by port, set by `seed`.
struct Loaded {
    std::uint64_t seed;
    [[nodiscard]] std::uint32_t occupancy(PortId p) const {
        std::uint64_t z = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ (p.value + 1) * 0xbf58476d1ce4e5b9ULL;
        z ^= z >> 31;
        return static_cast<std::uint32_t>(z % 7);
    }
};

/// One router where every port is busy but `free`.
struct OneFree {
    PortId free;
    [[nodiscard]] std::uint32_t occupancy(PortId p) const { return p == free ? 0 : 5; }
};

/// For every pair, every route of for_each_route and every router on it: rerouting
/// there, under several router states and choices, gives the rest of one of the
/// pair's routes (so the deadlock check, which walks those, covers it).
template <class R, class T>
void check_reroutes_are_routes(const T& t, const R& r, std::uint32_t nodes) {
    std::vector<Hop> out(R::max_hops(t) + 1);
    std::size_t checked = 0;
    for (std::uint32_t a = 0; a < nodes; ++a)
        for (std::uint32_t b = 0; b < nodes; ++b) {
            std::vector<std::vector<Hop>> routes;
            r.for_each_route(t, NodeId{a}, NodeId{b}, [&](std::span<const Hop> hops, double) {
                routes.emplace_back(hops.begin(), hops.end());
            });
            for (const auto& route : routes)
                for (std::size_t h = 0; h < route.size(); ++h)
                    for (std::uint64_t s = 0; s < 3; ++s) {
                        const std::size_t len =
                            r.reroute(t, route[h].node, NodeId{b}, h, s * 0x1234567ULL, out.data(), Loaded{s});
                        std::vector<Hop> whole(route.begin(), route.begin() + static_cast<std::ptrdiff_t>(h));
                        whole.insert(whole.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(len));
                        const bool known = std::find(routes.begin(), routes.end(), whole) != routes.end();
                        CAPTURE(a);
                        CAPTURE(b);
                        CAPTURE(h);
                        REQUIRE(known);
                        ++checked;
                    }
        }
    CHECK(checked > nodes);
}
}  // namespace

TEST_CASE("reroute reads the router it is at: the one free candidate port is taken") {
    const Hx hx({4, 3, 5});
    const HyperXAdaptive hr;
    std::array<Hop, 3> out{};
    // 0 = (0,0,0) to 59 = (3,2,4): all three dimensions differ; whichever port is free is the first hop.
    for (std::uint32_t d = 0; d < 3; ++d) {
        const PortId free = hx.port_to(NodeId{0}, d, hx.coordinate(NodeId{59}, d));
        REQUIRE(hr.reroute(hx, NodeId{0}, NodeId{59}, 0, 0, out.data(), OneFree{free}) == 3);
        CHECK(out[0].port == free);
        CHECK(out[2].node != NodeId{0});
        // Rerouted from hop 1: the VCs go on climbing from 1.
        REQUIRE(hr.reroute(hx, NodeId{0}, NodeId{59}, 1, 0, out.data(), OneFree{free}) == 3);
        CHECK(out[0].vc == 1);
        CHECK(out[2].vc == 3);
    }
    const Ft ft(4, 3);
    const FatTreeAdaptiveUp fr;
    std::array<Hop, 4> up{};
    for (std::uint32_t j = 0; j < 4; ++j) {
        // Leaf 0 to leaf 63: climbs two levels; at the leaf, the free up port.
        REQUIRE(fr.reroute(ft, NodeId{0}, NodeId{15}, 0, 0, up.data(), OneFree{Ft::up_port(j)}) == 4);
        CHECK(up[0].port == Ft::up_port(j));
        // At the level-1 switch it reaches, the same rule; then straight down.
        const NodeId mid = ft.neighbour(NodeId{0}, Ft::up_port(j));
        REQUIRE(fr.reroute(ft, mid, NodeId{15}, 1, 0, up.data(), OneFree{Ft::up_port(3 - j)}) == 3);
        CHECK(up[0].port == Ft::up_port(3 - j));
        CHECK(up[1].port == Ft::down_port(ft.digit(ft.word(NodeId{15}), 1)));
    }
}

TEST_CASE("every route reroute can give is one of for_each_route's: HyperX and fat tree, every pair") {
    check_reroutes_are_routes(Hx({4, 3, 5}), HyperXAdaptive{}, 60);
    check_reroutes_are_routes(Ft(4, 3), FatTreeAdaptiveUp{}, 16);  // the 16 leaves; routes start and end there
    check_reroutes_are_routes(Ft(2, 4), FatTreeAdaptiveUp{}, 8);
}

namespace {
/// HyperXAdaptive that writes down every router asked to reroute.
struct Recorded : HyperXAdaptive {
    std::vector<std::uint32_t>* asked = nullptr;
    template <class T, class Router>
    std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t hop, std::uint64_t choice, Hop* out,
                        const Router& router) const {
        asked->push_back(here.value);
        return HyperXAdaptive::reroute(t, here, dst, hop, choice, out, router);
    }
};

/// A reroute that claims one hop more than max_hops allows.
struct Overlong : HyperXAdaptive {
    template <class T, class Router>
    std::size_t reroute(const T& t, NodeId, NodeId, std::size_t hop, std::uint64_t, Hop*, const Router&) const {
        return max_hops(t) - hop + 1;
    }
};
}  // namespace

TEST_CASE("the cycle kernel asks every router a head reaches, the source's included, and not the destination's") {
    std::vector<std::uint32_t> asked;
    Recorded policy;
    policy.asked = &asked;
    const Fabric<Hx, Recorded> fab{Hx({4, 3, 5}), policy};
    static_assert(HopAdaptive<Recorded, Hx>);
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 59, 2}});
    REQUIRE(r.packets_delivered == 1);
    CHECK(r.misdelivered == 0);
    REQUIRE(asked.size() == 3);  // 0 and 59 differ in three dimensions: three routers route it
    CHECK(asked[0] == 0);
    const Hx& t = fab.topology();
    for (std::size_t i = 1; i < 3; ++i) {  // each next router is one hop on, correcting one dimension more
        std::uint32_t aligned = 0;
        for (std::uint32_t d = 0; d < 3; ++d)
            aligned += t.coordinate(NodeId{asked[i]}, d) == t.coordinate(NodeId{59}, d) ? 1U : 0U;
        CHECK(aligned == i);
    }
    CHECK(r.latency.max == 20);  // zero-load, as dimension order: (3 + 1) 4 + 3 + 2 - 1
}

TEST_CASE("fat tree, worked by hand: a packet routed behind another leaves by the other up port, no wait") {
    // 4-ary 2-tree: leaf 0 holds terminals 0-3, leaf 1 terminals 4-7, four roots.
    // Terminal 0 sends 16 flits to 4 at cycle 0; terminal 1 sends 16 to 5 at cycle 2.
    // When the second head is routed at leaf 0, the first packet's up port holds a
    // backlog and the others none: it climbs through another root, and both take
    // the zero-load latency (h + 1) 4 + h + S - 1 = 29 for h = 2, S = 16.
    const Fabric<FatTree<4>, FatTreeAdaptiveUp> fab{FatTree<4>(4, 2)};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 100;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        cfg.seed = seed;
        CycleSimulator<decltype(fab)> sim(fab, cfg);
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 4, 16}, {2, 1, 5, 16}});
        CAPTURE(seed);
        REQUIRE(r.packets_delivered == 2);
        CHECK(r.latency.max == 29);
        CHECK(r.latency.mean == doctest::Approx(29.0));
    }
}

TEST_CASE("a reroute longer than max_hops allows is named, with the router and the hop") {
    const Fabric<Hx, Overlong> fab{Hx({4, 3, 5})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    try {
        (void)sim.run_trace(std::vector<TraceMessage>{{0, 0, 59, 1}});
        FAIL("no error");
    } catch (const std::logic_error& e) {
        const std::string what = e.what();
        CHECK(what.rfind("fabric: ", 0) == 0);
        CHECK(what.find("router 0, hop 0") != std::string::npos);
    }
}

}  // namespace unit_hop_adaptive
