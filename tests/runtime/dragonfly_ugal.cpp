// UGAL on a dragonfly: the decision rule worked by hand on a network state of our
// own (UGAL-L: first-hop queue times hops; UGAL-G: the global channels' queues
// times hops), the routes and VC levels of Valiant's, and the dragonfly paper's
// claim in the cycle kernel: UGAL-G within 90% of Valiant's throughput under the
// worst case and of minimal routing's under uniform traffic.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <utility>

namespace unit_dragonfly_ugal {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;  // a = 4, h = 2: 3 local + 2 global ports

/// A network state given port by port; every other port empty.
struct GivenQueues {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> flits;
    [[nodiscard]] std::uint32_t occupancy(NodeId n, PortId p) const {
        const auto it = flits.find({n.value, p.value});
        return it == flits.end() ? 0 : it->second;
    }
};

std::size_t globals(const Df& t, std::span<const Hop> hops) {
    std::size_t g = 0;
    for (const Hop& h : hops) g += t.link_class(h.node, h.port) == Df::global_class;
    return g;
}
}  // namespace

static_assert(SourceAdaptive<DragonflyUgalL, Df> && SourceAdaptive<DragonflyUgalG, Df>);
static_assert(!SourceAdaptive<DragonflyValiant, Df> && SourceRoutable<DragonflyUgalL, Df>);

TEST_CASE("UGAL's choice worked by hand: the minimal route unless its queues times its hops cost more") {
    const Df t(4, 2);
    // A pair and a draw whose minimal route takes 3 hops and whose Valiant route 5.
    NodeId src{}, dst{};
    std::uint64_t via5 = 0;  // the draw: Valiant through that group
    std::array<Hop, 5> minimal{}, valiant{}, got{};
    for (std::uint32_t s = 0; s < 4 && !via5; ++s)
        for (std::uint32_t d = 0; d < 4 && !via5; ++d)
            for (std::uint32_t v = 2; v < 9 && !via5; ++v)
                if (DragonflyValiant::route_via(t, t.node(0, s), t.node(1, d), 0, minimal.data()) == 3 &&
                    DragonflyValiant::route_via(t, t.node(0, s), t.node(1, d), v, valiant.data()) == 5 &&
                    minimal[0].port != valiant[0].port) {
                    src = t.node(0, s);
                    dst = t.node(1, d);
                    via5 = v;
                }
    REQUIRE(via5 != 0);
    const std::size_t lm = DragonflyValiant::route_via(t, src, dst, 0, minimal.data());
    const std::size_t lv = DragonflyValiant::route_via(t, src, dst, static_cast<std::uint32_t>(via5), valiant.data());
    REQUIRE(lm == 3);  // local, global, local
    REQUIRE(lv == 5);  // local, global, local, global, local
    const auto route = [&](const auto& ugal, const GivenQueues& q) {
        const std::size_t len = ugal.select_route(t, src, dst, via5, got.data(), q);
        return std::span<const Hop>(got.data(), len);
    };
    const auto is = [](std::span<const Hop> r, const std::array<Hop, 5>& want, std::size_t len) {
        return r.size() == len && std::equal(r.begin(), r.end(), want.begin());
    };
    const DragonflyUgalL local;
    const DragonflyUgalG global;
    // An idle network, and the five-argument call: minimal.
    CHECK(is(route(local, {}), minimal, lm));
    CHECK(is(route(global, {}), minimal, lm));
    CHECK(local.select_route(t, src, dst, via5, got.data()) == lm);
    // UGAL-L: minimal's first hop holds 5 flits (cost 15), Valiant's first 3 (cost 15):
    // a tie keeps minimal; 4 on Valiant's (20) keeps it too; 2 (10) sends it round.
    const auto first = [](const std::array<Hop, 5>& r) { return std::pair{r[0].node.value, r[0].port.value}; };
    REQUIRE(first(minimal) != first(valiant));
    CHECK(is(route(local, {{{first(minimal), 5}, {first(valiant), 3}}}), minimal, lm));
    CHECK(is(route(local, {{{first(minimal), 5}, {first(valiant), 4}}}), minimal, lm));
    CHECK(is(route(local, {{{first(minimal), 5}, {first(valiant), 2}}}), valiant, lv));
    // UGAL-G reads global channels only: a queue on minimal's first (local) hop is not
    // seen; one on its global hop of 4 flits (cost 12) against 2 on each of Valiant's
    // two global hops (cost 20) keeps minimal, 7 (21) does not.
    CHECK(is(route(global, {{{first(minimal), 50}}}), minimal, lm));
    const std::pair gm{minimal[1].node.value, minimal[1].port.value};
    const std::pair gv1{valiant[1].node.value, valiant[1].port.value}, gv2{valiant[3].node.value, valiant[3].port.value};
    REQUIRE(globals(t, std::span<const Hop>(minimal.data(), lm)) == 1);
    REQUIRE(globals(t, std::span<const Hop>(valiant.data(), lv)) == 2);
    CHECK(is(route(global, {{{gm, 4}, {gv1, 2}, {gv2, 2}}}), minimal, lm));
    CHECK(is(route(global, {{{gm, 7}, {gv1, 2}, {gv2, 2}}}), valiant, lv));
    // A draw of the source's or the destination's group, or a packet within its
    // group: minimal whatever the queues.
    CHECK(local.select_route(t, src, dst, 9 + 1, got.data(), GivenQueues{{{first(minimal), 99}}}) == lm);
    CHECK(local.select_route(t, src, t.node(0, src.value == 3 ? 2 : 3), via5, got.data(), GivenQueues{}) == 1);
}

TEST_CASE("UGAL takes Valiant's routes on Valiant's VCs: the levels climb") {
    const Df t(4, 2);
    CHECK(check_vc_levels(t, DragonflyUgalL{}).increasing);
    const Fabric<Df, DragonflyUgalG> fab{t};  // formed: the claim replaces the O(N^2) check
    CHECK(fab.topology().groups() == 9);
}

TEST_CASE("UGAL in the cycle kernel: the dragonfly paper's claim, with 32-flit VC buffers") {
    // Saturation throughput: offered 0.9 flits/cycle/router, far past every curve's knee.
    Credit deep;
    deep.buffer_flits_per_vc = 32;
    const Df t(4, 2);
    CycleConfig cfg;
    cfg.warmup = 2000;
    cfg.measure = 8000;
    const auto accepted = [&](auto routing, const auto& pattern) {
        const Fabric<Df, decltype(routing)> fab(t, {}, deep);
        const auto r = simulate_cycles(fab, pattern, 0.9, PacketSizes::fixed(4), cfg);
        CHECK_FALSE(r.deadlock);
        CHECK(r.misdelivered == 0);
        return r.accepted;
    };
    const GroupShiftTraffic worst(4, 9);
    const UniformTraffic uniform(36);
    const double min_wc = accepted(DragonflyMinimal{}, worst), val_wc = accepted(DragonflyValiant{}, worst);
    const double ugal_l_wc = accepted(DragonflyUgalL{}, worst), ugal_g_wc = accepted(DragonflyUgalG{}, worst);
    const double min_u = accepted(DragonflyMinimal{}, uniform), ugal_g_u = accepted(DragonflyUgalG{}, uniform);
    MESSAGE("worst case: MIN ", min_wc, ", VAL ", val_wc, ", UGAL-L ", ugal_l_wc, ", UGAL-G ", ugal_g_wc,
            "; uniform: MIN ", min_u, ", UGAL-G ", ugal_g_u);
    CHECK(min_wc <= 0.25);                // 1/a
    CHECK(ugal_g_wc >= 0.9 * val_wc);     // Kim et al.: UGAL-G close to VAL under the worst case...
    CHECK(ugal_g_u >= 0.9 * min_u);       // ... and to MIN under uniform traffic
    CHECK(ugal_l_wc > 2 * min_wc);        // UGAL-L leaves the minimal route when it is full
}

}  // namespace unit_dragonfly_ugal
