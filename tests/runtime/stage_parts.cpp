// The stage-list kernel's parts, each alone: the table of geometric gaps (the same
// gap as the expression for every draw), bit sets, lists by cycle, the switch
// allocators (the same grants and pointers as the wake kernel's allocators for any
// bids), the wiring of a torus's ports, VC allocation's one pass worked by hand,
// and the deadlock search on a ring worked by hand.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/cycle/stage/kernel.hpp>
#include <fabric/topology/torus.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

namespace unit_stage_parts {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric::cycle;

TEST_CASE("GapTable: every draw's gap is the expression's, at random and next to every step") {
    for (const double p : {0.1, 0.37, 0.003, 0.9, 0.5}) {
        CAPTURE(p);
        const GapTable table(p);
        REQUIRE(table.steps() > 0);
        Random a(7), b(7);
        for (int i = 0; i < 200000; ++i) {
            const std::uint64_t m = b.next() >> 11;
            REQUIRE(table.draw(a) == table.gap_of(m));
        }
        for (std::size_t k = 0; k < table.steps(); ++k)
            for (std::uint64_t d = 0; d < 3; ++d) {
                const std::uint64_t at = table.step(k);
                CHECK(table.gap_for(at + d) == table.gap_of(at + d));
                CHECK(table.gap_for(at - 1 - d) == table.gap_of(at - 1 - d));
                CHECK(table.gap_of(at) == k + 2);  // the step's own draw: the first of gap k + 2
                CHECK(table.gap_of(at - 1) == k + 1);
            }
        // The tail, past the table's last step: the expression itself.
        const std::uint64_t top = (std::uint64_t{1} << 53) - 1;
        CHECK(table.gap_for(top) == table.gap_of(top));
    }
    // The mean gap is 1 / p (geometric): a law, within 1% over 10^6 draws.
    const GapTable tenth(0.1);
    Random r(3);
    double sum = 0;
    for (int i = 0; i < 1000000; ++i) sum += static_cast<double>(tenth.draw(r));
    CHECK(sum / 1e6 == doctest::Approx(10.0).epsilon(0.01));
    CHECK(GapTable(1.0).gap_for(123) == 1);
}

TEST_CASE("BitSet: members in increasing order, one word and several") {
    BitSet<10> s;
    CHECK_FALSE(s.any());
    CHECK(s.lone() == ~0U);
    s.set(7);
    CHECK(s.lone() == 7);
    s.set(2);
    CHECK(s.lone() == ~0U);
    std::vector<std::uint32_t> seen;
    s.for_each([&](std::uint32_t i) { seen.push_back(i); });
    CHECK(seen == std::vector<std::uint32_t>{2, 7});
    s.reset(2);
    CHECK(s.test(7));
    CHECK_FALSE(s.test(2));
    BitSet<130> big;
    big.set(129);
    CHECK(big.lone() == 129);
    big.set(3);
    big.set(64);
    seen.clear();
    big.for_each([&](std::uint32_t i) { seen.push_back(i); });
    CHECK(seen == std::vector<std::uint32_t>{3, 64, 129});
    big.clear();
    CHECK_FALSE(big.any());
}

TEST_CASE("CycleLists: a list per cycle round a power-of-two horizon, pushed by cycle or through a slot") {
    CycleLists<int> lists;
    lists.reset(3, 8);  // offsets up to 3 ahead: a horizon of 4
    CHECK(lists.horizon() == 4);
    auto v = lists.view();
    v.push(5, 50);
    v.push(5, 51);
    v.push(6, 59);
    auto slot = v.slot(6);  // continues after 59; its count is the list's once done() writes it back
    slot.push(60);
    CHECK(v.size(6) == 1);
    slot.done();
    CHECK(v.size(5) == 2);
    CHECK(v.begin(5)[1] == 51);
    CHECK(v.size(9) == 2);  // cycle 9 shares cycle 5's slot
    CHECK(v.size(6) == 2);
    v.clear(5);
    CHECK(v.size(5) == 0);
    CHECK(v.begin(6)[0] == 59);
    CHECK(v.begin(6)[1] == 60);
}

/// A router of NP ports and V VCs with bids `bids` (local VC -> output port): the
/// stage-list allocator's grants (in order) and pointers after, against the wake
/// kernel's allocator A given the same requests.
template <class A, class T>
void same_grants_as_the_wake_allocator(std::uint64_t seed) {
    using S = StaticShape<T>;
    constexpr std::uint32_t V = S::V;
    using Sw = StageSwitch<A, S>;
    typename Sw::State state{};
    typename A::stage wake;
    wake.reset(1, S::NP, S::V);
    Random rng(seed);
    for (int round = 0; round < 3000; ++round) {
        BitSet<S::L> bids;
        StageVc vcs[S::L]{};
        wake.begin(0);
        std::vector<std::uint32_t> expected;
        for (std::uint32_t l = 0; l < S::L; ++l) {
            if (rng.below(3) != 0) continue;
            vcs[l].port = static_cast<std::uint16_t>(rng.below(S::NP));
            bids.set(l);
            wake.request(l / V, l % V, vcs[l].port);
        }
        if (!bids.any()) continue;
        if (bids.lone() != ~0U) {
            const std::uint32_t l = bids.lone();
            Sw::lone(state, l / V, l % V, vcs[l].port);
            expected.push_back(l);
        } else {
            // Bids that share no input port and no output port all win, and the pointers move
            // as a lone grant of each moves them (the model grants such a set so: model.hpp).
            std::uint64_t ins = 0, outs = 0;
            std::size_t n = 0;
            bool apart = true;
            bids.for_each([&](std::uint32_t l) {
                ++n;
                apart = apart && !(ins >> (l / V) & 1) && !(outs >> vcs[l].port & 1);
                ins |= std::uint64_t{1} << (l / V);
                outs |= std::uint64_t{1} << vcs[l].port;
            });
            typename Sw::State each = state;
            if (apart) bids.for_each([&](std::uint32_t l) { Sw::lone(each, l / V, l % V, vcs[l].port); });
            Sw::allocate(state, bids, vcs, [&](std::uint32_t l) { expected.push_back(l); });
            if (apart) {
                CHECK(expected.size() == n);
                CHECK(std::memcmp(&each, &state, sizeof state) == 0);
            }
        }
        std::vector<std::uint32_t> got;
        wake.allocate([&](std::uint32_t in, std::uint32_t vc, std::uint32_t) { got.push_back(in * V + vc); });
        REQUIRE(got == expected);
    }
}

TEST_CASE("StageSwitch: the separable allocator and iSLIP grant as the wake kernel's do, in the same order, round after round") {
    using T2 = Torus<2>;                  // 4 network ports and a terminal's, 2 VCs
    using T3 = Torus<3, BasicLink<3>>;    // 6 and a terminal's, 3 VCs
    same_grants_as_the_wake_allocator<SeparableSwitch, T2>(1);
    same_grants_as_the_wake_allocator<Islip<1>, T2>(2);
    same_grants_as_the_wake_allocator<Islip<2>, T3>(3);
    same_grants_as_the_wake_allocator<SeparableOutputFirst, T2>(4);
    same_grants_as_the_wake_allocator<SeparableSwitch, T3>(5);
    static_assert(stage_switch_v<SeparableOutputFirst> && !stage_switch_v<Wavefront>);
}

/// The stage network of a 4x4 torus (16 routers, 4 ports, 2 VCs, one terminal each) with 8-flit buffers,
/// as both tests below take it.
template <class S, class Fab>
void reset_4x4(StageNetwork<S, SeparableSwitch>& n, const Fab& fab, const CycleConfig& cfg) {
    const Links links(fab.topology(), cfg);
    Shape shape;
    shape.routers = 16;
    shape.ports = 4;
    shape.vcs = 2;
    shape.terminals = 16;
    n.reset(shape, links, 8, 1, 2, 4, 4);
}

TEST_CASE("StageNetwork: a 4x4 torus's ports wired by hand, every output VC with its credits") {
    using T = Torus<2>;
    using S = StaticShape<T>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    CycleConfig cfg;
    StageNetwork<S, SeparableSwitch> n;
    reset_4x4(n, net, cfg);
    const auto v = n.view();
    // Router 5 is (1, 1): port 0 leads + in dimension 0 to router 6, arriving at its port 1
    // (the - port of dimension 0); VC 1 of that output VC arrives at input VC 6 * LP + 1 * 2 + 1.
    const std::size_t o = 5 * S::NVP + 0 * S::V + 1;
    CHECK(v.ovs[o].down == 6 * S::LP + 1 * S::V + 1);
    CHECK(v.ovs[o].credits == 8);
    CHECK(v.ovs[o].delay == 2 + 1 - 1 + 1);  // switch stages, serialisation - 1, latency
    // Router 6's input port 1 VC 1 returns its credits to that output VC.
    CHECK(v.vcs[6 * S::LP + 1 * S::V + 1].up == o);
    CHECK(v.delay == 3);  // every link alike
}

TEST_CASE("StageModel::allocate_vcs: one pass, the asker nearest the pointer wins wherever it is listed") {
    using T = Torus<2>;
    using Fab = Fabric<T, DorTieSplit<>>;
    using K = StageKernel<Fab, SeparableSwitch>;
    using S = StaticShape<T>;
    const Fab fab{T({4, 4})};
    CycleConfig cfg;
    StageNetwork<S, SeparableSwitch> n;
    reset_4x4(n, fab, cfg);
    Observer obs;
    const typename K::Model m{{&n, typename K::Route{&fab}, StageTiming{}, &obs, &cfg, false, 2}};
    const auto v = n.view();
    // Router 5's input VCs a = 2 (port 1, VC 0) and b = 7 (port 3, VC 1) ask for output VC 1
    // (port 0, VC 1), whose pointer is 5: on a ring of L = 10 input VCs, b lies 2 on from it
    // and a 7, so b wins though a asks first; c = 0 asks for the free output VC 2 between them.
    constexpr std::uint32_t r = 5, a = 2, b = 7, c = 0, wanted = 1;
    static_assert(S::L == 10);
    for (const auto& [l, out] : {std::pair{a, wanted}, std::pair{b, wanted}, std::pair{c, 2U}}) {
        StageVc& vc = v.vcs[r * S::LP + l];
        vc.out = static_cast<std::uint16_t>(out);
        vc.state = StageState::waiting;
    }
    auto& ov = v.ovs[r * S::NVP + wanted];
    ov.pointer = 5;
    v.va.push(10, r * S::LP + a);
    v.va.push(10, r * S::LP + c);
    v.va.push(10, r * S::LP + b);
    m.allocate_vcs(v, 10);
    CHECK(v.va.size(10) == 0);
    CHECK(ov.owner == std::uint16_t{b});
    CHECK(ov.pointer == 8);  // past b
    CHECK(ov.waiters.test(a));
    CHECK_FALSE(ov.waiters.test(b));
    CHECK(v.vcs[r * S::LP + a].state == StageState::waiting);
    CHECK(v.vcs[r * S::LP + b].state == StageState::active);
    CHECK(v.ovs[r * S::NVP + 2].owner == std::uint16_t{c});
    // Listed for the switch a cycle on, b in the place a had: as if granted once every ask was seen.
    REQUIRE(v.sa.size(11) == 2);
    CHECK(v.sa.begin(11)[0] == r * S::LP + b);
    CHECK(v.sa.begin(11)[1] == r * S::LP + c);
    // A cycle later the VC is held from an earlier cycle: a new asker waits, though the list's
    // first place is where b's record says it was listed (that list now holds another winner).
    constexpr std::uint32_t d = 4, e = 3;
    v.vcs[r * S::LP + d].out = 3;
    v.vcs[r * S::LP + d].state = StageState::waiting;
    v.vcs[r * S::LP + e].out = static_cast<std::uint16_t>(wanted);
    v.vcs[r * S::LP + e].state = StageState::waiting;
    v.va.push(11, r * S::LP + d);
    v.va.push(11, r * S::LP + e);
    m.allocate_vcs(v, 11);
    CHECK(ov.owner == std::uint16_t{b});
    CHECK(ov.pointer == 8);
    CHECK(ov.waiters.test(e));
    REQUIRE(v.sa.size(12) == 1);
    CHECK(v.sa.begin(12)[0] == r * S::LP + d);
}

TEST_CASE("find_stage_deadlock: four flits round a ring of one VC, each holding its link and waiting for the next") {
    using Ring = Torus<1, BasicLink<1>>;
    using S = StaticShape<Ring>;
    const Fabric<Ring, DorTieSplit<NoDateline>> net{Ring({4}), allow_deadlock};
    CycleConfig cfg;
    const Links links(net.topology(), cfg);
    Shape shape;
    shape.routers = 4;
    shape.ports = 2;
    shape.vcs = 1;
    shape.terminals = 4;
    StageNetwork<S, SeparableSwitch> n;
    n.reset(shape, links, 1, 1, 2, 4, 4);
    const auto v = n.view();
    Watchdog watchdog;
    watchdog.reset(10);
    CHECK_FALSE(find_stage_deadlock<S>(v, 4, links, watchdog, 20, 0));  // nothing buffered
    // Router r holds a flit at input port 1 (from r - 1, going +), bound out of port 0 to r + 1,
    // whose one buffer slot is full: no credit.
    for (std::uint32_t r = 0; r < 4; ++r) {
        StageVc& vc = v.vcs[r * S::LP + 1 * S::V];
        vc.count = 1;
        vc.since = 3;
        vc.state = StageState::active;
        vc.out = 0;
        vc.port = 0;
        v.ovs[r * S::NVP + 0].credits = 0;
    }
    CHECK_FALSE(find_stage_deadlock<S>(v, 4, links, watchdog, 12, 4));  // waited 9 cycles: not yet
    const auto report = find_stage_deadlock<S>(v, 4, links, watchdog, 13, 4);
    REQUIRE(report);
    CHECK(report->cycle == 13);
    CHECK(report->flits_buffered == 4);
    REQUIRE(report->waiting.size() == 4);
    // Each waiting flit is named by the channel it came in on: (r - 1, port 0).
    std::vector<std::uint32_t> from;
    for (const VirtualChannel& w : report->waiting) {
        CHECK(w.port.value == 0);
        from.push_back(w.node.value);
    }
    std::sort(from.begin(), from.end());
    CHECK(from == std::vector<std::uint32_t>{0, 1, 2, 3});
    // One flit moves on (its downstream VC has a credit): no cycle.
    v.ovs[2 * S::NVP + 0].credits = 1;
    CHECK_FALSE(find_stage_deadlock<S>(v, 4, links, watchdog, 13, 4));
}

}  // namespace unit_stage_parts
