// The adversarial patterns the fat tree and the HyperX are judged by, both group
// shifts (GroupShiftTraffic), worked by hand in the flow kernel and bounded in the
// cycle kernel:
//  - fat tree: every terminal of top-level subtree i sends to subtree i + 1, so
//    every packet climbs to the roots; full bisection means every up and every down
//    link carries exactly what one terminal injects (load 1), whatever k and n;
//  - HyperX (the flattened butterfly's worst case, Kim, Dally and Abts, ISCA 2007):
//    the p terminals of router R_i send to router R_(i+1); minimal routing puts
//    them all on one link, so a terminal carries 1/p.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/hyperx_adaptive.hpp>
#include <fabric/routing/hyperx_dor.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/hyperx.hpp>

#include <cstdint>

#include "../support/cycle_laws.hpp"

namespace unit_worst_cases {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
template <class Routing>
void check_fat_tree_worst_case(std::uint32_t k, std::uint32_t n) {
    const Fabric<FatTree<4>, Routing> fab{FatTree<4>(k, n)};
    const FatTree<4>& t = fab.topology();
    const auto terminals = static_cast<std::size_t>(t.terminal_count());
    const auto loads = link_load(fab, GroupShiftTraffic(terminals / k, k));
    for (std::uint32_t s = 0; s < t.node_count(); ++s) {
        const NodeId sw{s};
        if (t.level(sw) + 1 == t.levels()) continue;  // the roots have no up links
        for (std::uint32_t j = 0; j < k; ++j) {
            CHECK(loads.load(sw, FatTree<4>::up_port(j)) == doctest::Approx(1.0));
            CHECK(loads.load(t.neighbour(sw, FatTree<4>::up_port(j)), t.reverse_port(sw, FatTree<4>::up_port(j))) ==
                  doctest::Approx(1.0));
        }
    }
    CHECK(loads.throughput_per_task() == doctest::Approx(loads.link_class(0).bandwidth.count));
}
}  // namespace

TEST_CASE("fat tree worst case, worked by hand: subtree i to subtree i + 1 loads every up and down link with 1") {
    // A top-level subtree of k^(n-1) terminals sends its k^(n-1) units out over its
    // k^(n-1) up links of every level (k^(n-1) / k^l switches of level l, k up links
    // each, times k^l ... every level alike), spread evenly: 1 a link.
    check_fat_tree_worst_case<FatTreeNca>(4, 3);
    check_fat_tree_worst_case<FatTreeNca>(2, 4);
    check_fat_tree_worst_case<FatTreeAdaptiveUp>(3, 3);
}

TEST_CASE("fat tree worst case in the cycle kernel: every packet climbs to the roots, delivered and conserved") {
    const Fabric<FatTree<4>, FatTreeAdaptiveUp> fab{FatTree<4>(4, 3)};
    CycleConfig cfg;
    cfg.warmup = 500;
    cfg.measure = 3000;
    const auto r = simulate_cycles(fab, GroupShiftTraffic(16, 4), 0.3, PacketSizes::fixed(4), cfg);
    check_delivered_and_conserved(r);
    CHECK(r.accepted == doctest::Approx(0.3).epsilon(0.05));
    CHECK(r.hops_mean == doctest::Approx(4.0));  // 2 (n - 1): up from the leaf to a root, and down
}

namespace {
using Hx = HyperX<2, 6, BasicLink<2>>;
using Hx4 = HyperX<2, 6, BasicLink<4>>;
template <class H>
using Chx = Concentrated<H, 4>;

template <class Routing, class H>
double hyperx_worst_case_load(std::uint32_t p) {
    const Fabric<Chx<H>, Routing> fab{Chx<H>(H({4, 4}), p)};
    const auto loads = link_load(fab, GroupShiftTraffic(p, 16));
    CHECK(loads.throughput_per_task() == doctest::Approx(loads.link_class(0).bandwidth.count / p));
    return loads.link_class(0).max_load;
}
}  // namespace

TEST_CASE("HyperX worst case, worked by hand: router i's p terminals to router i + 1 share one link, 1/p each") {
    // On a 4 x 4 HyperX, R_(i+1) is R_i's neighbour in dimension 0 (or, at a row's end,
    // the first router of the next row: a hop in each dimension). Every dimension-0 link
    // from x to x + 1 carries all p units of its router, under dimension order and under
    // minimal adaptive routing alike.
    for (std::uint32_t p : {1U, 2U, 4U}) {
        CAPTURE(p);
        CHECK(hyperx_worst_case_load<HyperXDimensionOrder, Hx>(p) == doctest::Approx(p));
        CHECK(hyperx_worst_case_load<HyperXAdaptive, Hx4>(p) == doctest::Approx(p));
    }
}

TEST_CASE("HyperX worst case in the cycle kernel: 2 terminals a router carry at most 1/2 each, and near it") {
    const Fabric<Chx<Hx>, HyperXDimensionOrder> fab{Chx<Hx>(Hx({4, 4}), 2)};
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 4000;
    const auto r = simulate_cycles(fab, GroupShiftTraffic(2, 16), 0.9, PacketSizes::fixed(4), cfg);
    CHECK(r.terminals == 32);
    CHECK(r.accepted <= 0.5 * 1.02);
    CHECK(r.accepted >= 0.4);
}

}  // namespace unit_worst_cases
