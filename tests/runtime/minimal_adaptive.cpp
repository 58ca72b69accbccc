// Minimal adaptive routing on the k-ary n-cube (MinimalAdaptive): every route
// minimal and on the VCs its state names (worked by hand on a ring, a torus and a
// mesh); the deadlock check from its turns equal to the walk over every route, and
// acyclic, where the same routes with one adaptive class, or on one VC, are not; the
// flow kernel's shares worked by hand; and the cycle kernel: dimension order's
// zero-load latency, and long packets at high load delivered without deadlock where
// the one-VC routes deadlock.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/minimal_adaptive.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_minimal_adaptive {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using T2 = Torus<2, BasicLink<4>>;  // 2 escape VCs, 2 adaptive classes
using T3 = Torus<3, BasicLink<6>>;  // 2 + 4
using M2 = Mesh<2, BasicLink<2>>;
using Ring = Torus<1, BasicLink<3>>;

static_assert(MinimalAdaptive::vcs_required<T2> == 4 && MinimalAdaptive::vcs_required<T3> == 6);
static_assert(MinimalAdaptive::vcs_required<M2> == 2 && MinimalAdaptive::vcs_required<Ring> == 3);
static_assert(HopAdaptive<MinimalAdaptive, T2> && !SourceAdaptive<MinimalAdaptive, T2>);

using Edge = std::tuple<std::uint32_t, std::uint32_t, int, std::uint32_t, std::uint32_t, int>;
Edge edge(const Hop& a, const Hop& b) { return {a.node.value, a.port.value, a.vc, b.node.value, b.port.value, b.vc}; }

/// The dependencies of every route of every pair, and those for_each_turn names.
template <class Topo, class R>
std::pair<std::set<Edge>, std::set<Edge>> walked_and_turned(const Topo& t, const R& r) {
    std::set<Edge> walked, turned;
    for (std::uint32_t s = 0; s < t.node_count(); ++s)
        for (std::uint32_t d = 0; d < t.node_count(); ++d)
            r.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double) {
                for (std::size_t i = 0; i + 1 < hops.size(); ++i) walked.insert(edge(hops[i], hops[i + 1]));
            });
    r.for_each_turn(t, [&](const Hop& a, const Hop& b) { turned.insert(edge(a, b)); });
    return {walked, turned};
}

/// The same routes with every adaptive hop on one VC (the class dropped): the double-y classes are what
/// keeps the adaptive part acyclic.
struct OneClass : MinimalAdaptive {
    template <class T>
    static constexpr std::size_t vcs_required = escape_vcs<T> + 1;
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        MinimalAdaptive::for_each_turn(t, [&](Hop a, Hop b) { f(flat<T>(a), flat<T>(b)); });
    }
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId s, NodeId d, F&& f) const {
        MinimalAdaptive::for_each_route(t, s, d, [&](std::span<const Hop> hops, double w) {
            std::vector<Hop> v(hops.begin(), hops.end());
            for (Hop& h : v) h = flat<T>(h);
            f(std::span<const Hop>(v), w);
        });
    }
    template <class T>
    static constexpr Hop flat(Hop h) {
        constexpr std::uint8_t adaptive = escape_vcs<T>;
        return Hop{h.node, h.port, h.vc > adaptive ? adaptive : h.vc};
    }
};

/// Every hop on VC 0, in the kernel too.
struct OneVc : MinimalAdaptive {
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        MinimalAdaptive::for_each_turn(t, [&](Hop a, Hop b) { f(Hop{a.node, a.port, 0}, Hop{b.node, b.port, 0}); });
    }
    template <class T>
    std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return zero(MinimalAdaptive::select_route(t, src, dst, choice, out), out);
    }
    template <class T, class Router>
    std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t hop, std::uint64_t choice, Hop* out,
                        const Router& router) const {
        return zero(MinimalAdaptive::reroute(t, here, dst, hop, choice, out, router), out);
    }
    static std::size_t zero(std::size_t len, Hop* out) {
        for (std::size_t i = 0; i < len; ++i) out[i].vc = 0;
        return len;
    }
};
}  // namespace

TEST_CASE("Minimal adaptive routes: minimal, ending at the destination, shares summing to 1, VCs in range") {
    auto check_all = [](const auto& t) {
        using Topo = std::remove_cvref_t<decltype(t)>;
        const MinimalAdaptive r;
        std::vector<Hop> hops(t.diameter() + 1);
        for (std::uint32_t a = 0; a < t.node_count(); ++a)
            for (std::uint32_t b = 0; b < t.node_count(); ++b) {
                double shares = 0;
                r.for_each_route(t, NodeId{a}, NodeId{b}, [&](std::span<const Hop> route, double w) {
                    shares += w;
                    CHECK(route.size() == t.distance(NodeId{a}, NodeId{b}));
                    CHECK(route_end(t, NodeId{a}, route) == NodeId{b});
                    for (const Hop& h : route) CHECK(h.vc < MinimalAdaptive::vcs_required<Topo>);
                });
                CHECK(shares == doctest::Approx(1.0));
                for (const std::uint64_t c : {0ULL, 7ULL, 0x123456789abcdefULL}) {
                    const std::size_t len = r.select_route(t, NodeId{a}, NodeId{b}, c, hops.data());
                    CHECK(len == t.distance(NodeId{a}, NodeId{b}));
                    CHECK(route_end(t, NodeId{a}, std::span<const Hop>(hops.data(), len)) == NodeId{b});
                }
            }
    };
    check_all(T2({5, 4}));
    check_all(T3({4, 3, 4}));
    check_all(M2({4, 3}));
    check_all(Ring({8}));
}

TEST_CASE("Minimal adaptive routes worked by hand: the escape VCs up to the dateline, then a class") {
    const MinimalAdaptive r;
    std::vector<std::vector<Hop>> routes;
    std::vector<double> shares;
    auto collect = [&](const auto& t, std::uint32_t a, std::uint32_t b) {
        routes.clear();
        shares.clear();
        r.for_each_route(t, NodeId{a}, NodeId{b}, [&](std::span<const Hop> h, double w) {
            routes.emplace_back(h.begin(), h.end());
            shares.push_back(w);
        });
    };
    // Ring of 8, 6 -> 1: 3 hops +, across the dateline (7 -> 0). From 6 and 7 the hops left cross it: escape,
    // VC 1; from 0 they do not: adaptive, VC 2 (a ring has one class).
    collect(Ring({8}), 6, 1);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0] == std::vector<Hop>{{NodeId{6}, PortId{0}, 1}, {NodeId{7}, PortId{0}, 1}, {NodeId{0}, PortId{0}, 2}});
    // Ring of 8, 0 -> 4 (a tie): half the traffic each way, 4 hops. + from 0 to 4 crosses nothing: VC 2 all the
    // way; - from 0 crosses at once (0 -> 7), then 7 -> 6 -> 5 -> 4 on VC 2.
    collect(Ring({8}), 0, 4);
    REQUIRE(routes.size() == 2);
    CHECK(shares[0] == 0.5);
    const std::size_t up = routes[0][0].port == PortId{0} ? 0 : 1;
    CHECK(routes[up] == std::vector<Hop>{{NodeId{0}, PortId{0}, 2}, {NodeId{1}, PortId{0}, 2}, {NodeId{2}, PortId{0}, 2},
                                         {NodeId{3}, PortId{0}, 2}});
    CHECK(routes[1 - up] == std::vector<Hop>{{NodeId{0}, PortId{1}, 1}, {NodeId{7}, PortId{1}, 2},
                                             {NodeId{6}, PortId{1}, 2}, {NodeId{5}, PortId{1}, 2}});
    // 4 x 4 torus, (3, 0) -> (0, 1), node 3 -> node 4: x crosses the dateline, so dimension order on the escape
    // VC 1 first; at (0, 0) nothing crosses: y on class 0's VC 2.
    collect(T2({4, 4}), 3, 4);
    REQUIRE(routes.size() == 1);
    CHECK(routes[0] == std::vector<Hop>{{NodeId{3}, PortId{0}, 1}, {NodeId{0}, PortId{2}, 2}});
    // 4 x 4 mesh, (2, 0) -> (0, 2): - in x, + in y: the 6 orders of two x and two y hops, each hop's dimension
    // drawn with share 1/2 while both remain: xxyy and yyxx 1/4 each, the other four 1/8. Class 1 (VC 1) while
    // x hops are left, class 0 (VC 0) once they are done.
    collect(M2({4, 4}), 2, 8);
    REQUIRE(routes.size() == 6);
    double xxyy = 0, total = 0;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        int x_left = 2;
        for (const Hop& h : routes[i]) {
            CHECK(h.vc == (x_left > 0 ? 1 : 0));
            x_left -= h.port == PortId{1} ? 1 : 0;
        }
        total += shares[i];
        if (routes[i][0].port == PortId{1} && routes[i][1].port == PortId{1}) xxyy = shares[i];
    }
    CHECK(total == 1.0);
    CHECK(xxyy == 0.25);
}

TEST_CASE("Minimal adaptive deadlock check: its turns are its routes' dependencies, acyclic; one class is not") {
    auto same = [](const auto& t) {
        const auto [walked, turned] = walked_and_turned(t, MinimalAdaptive{});
        CHECK(walked == turned);
        const auto report = channel_dependencies(t, MinimalAdaptive{});
        CHECK(report.acyclic);
        CHECK(report.dependencies == turned.size());
    };
    same(T2({4, 4}));
    same(T2({5, 6}));
    same(T3({4, 3, 4}));
    same(M2({4, 5}));
    same(Ring({7}));
    // One adaptive VC: packets turning + x into + y and others + y into - x ... close a cycle of waits.
    const auto one = channel_dependencies(T2({4, 4}), OneClass{}, 3);
    CHECK_FALSE(one.acyclic);
    CHECK_FALSE(one.vc_out_of_range);
    CHECK(one.cycle.size() >= 4);  // at least the four turns of a square
    const auto mesh = channel_dependencies(M2({4, 4}), OneClass{}, 1);
    CHECK_FALSE(mesh.acyclic);
    CHECK_FALSE(mesh.vc_out_of_range);
    CHECK_THROWS_WITH_AS((Fabric<Torus<2, BasicLink<1>>, OneVc>{Torus<2, BasicLink<1>>({4, 4})}),
                         doctest::Contains("can deadlock"), config_error);
    // The fabric checks itself at construction: a 16 x 16 torus, as the collectives run it.
    CHECK_NOTHROW((Fabric<T2, MinimalAdaptive>{T2({16, 16})}));
}

TEST_CASE("Minimal adaptive flow shares: the box of minimal routes, each node's share split over its candidates") {
    // 3 x 3 mesh, 0 -> 4 ((0, 0) -> (1, 1)): half the unit goes x first, half y first; each of the four channels
    // carries 1/2. 0 -> 8 ((0, 0) -> (2, 2)): the first hop 1/2 each way; (1, 0) splits its half over +x and +y,
    // (2, 0) has only +y left for its quarter; (1, 1) gets a quarter from each side and splits its half.
    const M2 t({3, 3});
    const MinimalAdaptive r;
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> share;
    r.for_each_hop(t, NodeId{0}, NodeId{4}, [&](NodeId n, PortId p, double w) { share[{n.value, p.value}] += w; });
    CHECK(share.size() == 4);
    for (const auto& [c, w] : share) CHECK(w == 0.5);
    share.clear();
    r.for_each_hop(t, NodeId{0}, NodeId{8}, [&](NodeId n, PortId p, double w) { share[{n.value, p.value}] += w; });
    CHECK(share[{0, 0}] == 0.5);   // (0, 0) +x
    CHECK(share[{1, 0}] == 0.25);  // (1, 0) +x
    CHECK(share[{2, 2}] == 0.25);  // (2, 0) +y
    CHECK(share[{4, 0}] == 0.25);  // (1, 1) +x: half of (1, 1)'s half
    CHECK(share[{4, 2}] == 0.25);
    CHECK(share[{5, 2}] == 0.5);   // (2, 1) +y: a quarter from (2, 0), a quarter from (1, 1)
    double total = 0;
    for (const auto& [c, w] : share) total += w;
    CHECK(total == 4.0);  // four hops of the whole unit
    // The flow kernel's loads carry every pair's distance: on a 5 x 4 torus under uniform traffic the loads add
    // up to the mean distance times the nodes, as under any minimal routing.
    const T2 torus({5, 4});
    const Fabric<T2, MinimalAdaptive> fab{torus};
    const auto loads = link_load(fab, UniformTraffic(20));
    double sum = 0, distance = 0;
    for (std::uint32_t n = 0; n < 20; ++n) {
        for (std::uint32_t p = 0; p < 4; ++p) sum += loads.load(NodeId{n}, PortId{p});
        for (std::uint32_t m = 0; m < 20; ++m) distance += static_cast<double>(torus.distance(NodeId{n}, NodeId{m}));
    }
    CHECK(sum == doctest::Approx(distance / 20));
}

TEST_CASE("Minimal adaptive in the cycle kernel: dimension order's zero-load latency; no deadlock where one VC has") {
    const Fabric<T2, MinimalAdaptive> fab{T2({8, 8})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    // 0 -> 36 ((0, 0) -> (4, 4)): 8 hops whichever way; the library's default router: 4 cycles a router and 1 a
    // link, (8 + 1) x 4 + 8 = 44, and the second flit one cycle behind: 45.
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 36, 2}});
    CHECK(r.hops_mean == doctest::Approx(8.0));
    CHECK(r.latency.max == 45);
    // Transpose at 0.9 in packets of 16 flits: every pair crosses the diagonal, turning both ways.
    const CycleConfig watch = deadlock_watch_config();
    const TransposeTraffic transpose(64);
    const auto ok = simulate_cycles(fab, transpose, 0.9, PacketSizes::fixed(16), watch);
    CHECK_FALSE(ok.deadlock);
    const auto uniform = simulate_cycles(fab, UniformTraffic(64), 0.3, PacketSizes::fixed(8), watch);
    CHECK_FALSE(uniform.deadlock);
    check_delivered_and_conserved(uniform);
    using T1 = Torus<2, BasicLink<1>>;
    const Fabric<T1, OneVc> flat(T1({8, 8}), allow_deadlock);
    check_deadlock_reported(simulate_cycles(flat, UniformTraffic(64), 0.9, PacketSizes::fixed(16), watch));
}

}  // namespace unit_minimal_adaptive
