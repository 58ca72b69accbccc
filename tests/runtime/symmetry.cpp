// The flow kernel by symmetry (sim/link_load_symmetric.hpp): on every family that
// states a symmetry, the claims hold (sim/symmetry_checks.hpp) and link_load's
// loads are the pair walk's, bit for bit, with the symmetric path taken where its
// terms add the same in every order and declined, with its reason, where not. A
// claim made wrongly is caught by the checks and shows in the comparison.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/ecube.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/hyperx_dor.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/sim/symmetry_checks.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/hypercube.hpp>
#include <fabric/topology/hyperx.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace unit_symmetry {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
const std::string_view inexact =
    "a channel's load is a sum of unequal terms that do not add exactly, so its last bit depends on the order of "
    "the pairs, which only the pair-by-pair walk keeps";

/// The claims of the fabric's topology and routing hold.
template <class Fab>
void claims_hold(const Fab& fab) {
    const SymmetryReport topology = check_translations(fab.topology());
    CHECK_MESSAGE(topology.holds, topology.describe());
    const SymmetryReport routing = check_commutes(fab.topology(), fab.routing());
    CHECK_MESSAGE(routing.holds, routing.describe());
}

/// The pattern's claim holds, link_load agrees with the pair walk bit for bit, and
/// took the symmetric path unless `declined` says why not.
template <class Fab, class P>
void agrees(const Fab& fab, const P& pattern, std::string_view declined = "") {
    if constexpr (InvariantPattern<P> && SymmetricTopology<typename Fab::topology_type>) {
        const SymmetryReport invariance = check_invariance(fab, pattern);
        CHECK_MESSAGE((invariance.holds || !declined.empty()), invariance.describe());
    }
    const LoadsComparison c = compare_with_pairwise(fab, pattern);
    CHECK_MESSAGE(c.identical, c.difference);
    CHECK(c.declined == declined);
}
}  // namespace

TEST_CASE("torus: dimension order by symmetry, ring by ring, equals the pair walk bit for bit") {
    for (const long long k : {4LL, 5LL, 8LL}) {
        const auto n = static_cast<std::size_t>(k * k);
        const Fabric<Torus<2>, DorTieSplit<>> split{Torus<2>{k, k}};
        const Fabric<Torus<2>, DorTiePositive<>> positive{Torus<2>{k, k}};
        claims_hold(split);
        claims_hold(positive);
        agrees(split, UniformTraffic(n));
        agrees(positive, UniformTraffic(n));
        agrees(split, TornadoTraffic(Grid{k, k}));
        agrees(split, NeighbourTraffic(Grid{k, k}));
        agrees(split, HaloTraffic(Grid{k, k}));
        agrees(split, GroupShiftTraffic(static_cast<std::size_t>(k), static_cast<std::size_t>(k)));
        agrees(split, RowColumnAllToAllTraffic(static_cast<std::size_t>(k), static_cast<std::size_t>(k)));
        agrees(split, UniformTraffic(2 * n));  // two tasks a node
    }
    // Rank 3, unequal extents; and terminals: two a router.
    const Fabric<Torus<3>, DorTieSplit<>> cube{Torus<3>{4, 3, 6}};
    claims_hold(cube);
    agrees(cube, TornadoTraffic(Grid{4, 3, 6}));
    agrees(cube, HaloTraffic(Grid{4, 3, 6}));
    using Ct = Concentrated<Torus<2>, 2>;
    const Fabric<Ct, DorTieSplit<>> terminals{Ct(Torus<2>{4, 4}, 2)};
    agrees(terminals, UniformTraffic(32));
    agrees(terminals, TornadoTraffic(Grid{8, 4}));
    // A placement given explicitly, in the blocked form, goes the same way.
    const Fabric<Torus<2>, DorTieSplit<>> eight{Torus<2>{8, 8}};
    CHECK(link_load(eight, UniformTraffic(64), Placement::blocked(64, 64)).max_load() == 1.0);  // k/8
}

TEST_CASE("torus: where ties split a share that is not dyadic, both ways count the halves and scale once: one "
          "double, equal bit for bit; a mix of amounts that do not add exactly declines") {
    // Uniform traffic on a 6 x 6 torus loads every channel k/8 = 0.75: 27 crossings
    // of 1/36 each, counted as whole routes and halves of split ties (a ring of 6:
    // distance 1 crosses one channel, 2 two, the tie at 3 half of three each way; per
    // destination column 1 + 2 + 3/2 = 4.5 crossings of one channel a source, times 6
    // rows of destinations: 27). Before the counts, the pair walk added 1/36 and 1/72
    // in pair order and ended with five different doubles round 0.75, which no other
    // order reproduced, and link_load walked the pairs.
    const Fabric<Torus<2>, DorTieSplit<>> six{Torus<2>{6, 6}};
    const LinkLoads pairs = link_load_pairwise(six, UniformTraffic(36));
    const std::set<double> values(pairs.per_channel().begin(), pairs.per_channel().end());
    CHECK(values.size() == 1);
    CHECK(*values.begin() == (1.0 / 36) * 27);
    CHECK(*values.begin() == doctest::Approx(0.75));
    agrees(six, UniformTraffic(36));
    agrees(six, UniformTraffic(36, UniformTraffic::Self::excluded));  // 1/35 a flow
    // Positive ties give one term a channel, 1/36 each, and one double however added.
    agrees(Fabric<Torus<2>, DorTiePositive<>>{Torus<2>{6, 6}}, UniformTraffic(36));
    // Two amounts (1/10 along a row of 5, 1/12 along a column of 6, its ties split)
    // are added pair by pair as amount x fraction, whose sums are not exact.
    agrees(Fabric<Torus<2>, DorTieSplit<>>{Torus<2>{5, 6}}, RowColumnAllToAllTraffic(6, 5), inexact);
    // A mesh states no symmetry; a pattern that claims none is walked pair by pair.
    agrees(Fabric<Mesh<2>, DorTieSplit<>>{Mesh<2>{4, 4}}, UniformTraffic(16),
           "the topology states no symmetry (translations())");
    agrees(six, TransposeTraffic(36), "the traffic pattern does not claim invariance (invariant_under)");
}

TEST_CASE("HyperX, dragonfly, fat tree, hypercube: by symmetry equals the pair walk bit for bit") {
    const Fabric<HyperX<3, 9>, HyperXDimensionOrder> hyperx{HyperX<3, 9>({3, 4, 5})};
    claims_hold(hyperx);
    agrees(hyperx, UniformTraffic(60));
    agrees(hyperx, TornadoTraffic(Grid{3, 4, 5}));
    using Chx = Concentrated<HyperX<2, 6>, 4>;
    const Fabric<Chx, HyperXDimensionOrder> chx{Chx(HyperX<2, 6>({4, 4}), 3)};
    claims_hold(chx);
    agrees(chx, UniformTraffic(48));
    // Router i to router i + 1 is not a shift of the 4 x 4 grid of routers.
    agrees(chx, GroupShiftTraffic(3, 16), "the traffic pattern is not invariant under the translations");

    // Group rotation: a group's routers are the orbits.
    const Fabric<Dragonfly<5>, DragonflyMinimal> dragonfly{Dragonfly<5>(4, 2)};
    claims_hold(dragonfly);
    agrees(dragonfly, UniformTraffic(36));
    agrees(dragonfly, GroupShiftTraffic(4, 9));
    using Cdf = Concentrated<Dragonfly<5>, 2>;
    const Fabric<Cdf, DragonflyMinimal> terminals{Cdf(Dragonfly<5>(4, 2), 2)};
    agrees(terminals, UniformTraffic(72));
    agrees(terminals, GroupShiftTraffic(8, 9));
    claims_hold(Fabric<Dragonfly<5>, DragonflyMinimal>{Dragonfly<5>(3, 2, 5)});  // fewer groups than a h + 1

    // Switch words translated digit by digit; k = 3 gives fractions of thirds.
    for (const std::uint32_t k : {3U, 4U}) {
        const Fabric<FatTree<4>, FatTreeNca> tree{FatTree<4>(k, 3)};
        claims_hold(tree);
        agrees(tree, UniformTraffic(k * k * k));
        agrees(tree, GroupShiftTraffic(k * k, k));
    }
    agrees(Fabric<FatTree<4>, FatTreeAdaptiveUp>{FatTree<4>(2, 4)}, UniformTraffic(16));

    // XOR translations: bit complement is invariant under them.
    const Fabric<Hypercube<5>, ECube> cube{Hypercube<5>(5)};
    claims_hold(cube);
    agrees(cube, UniformTraffic(32));
    agrees(cube, BitComplementTraffic(32));
}

namespace {
/// A policy that claims to commute but routes every pair through node 0.
struct ViaNodeZero : DorTieSplit<> {
    template <class T, class F>
    constexpr void for_each_hop(const T& topo, NodeId src, NodeId dst, F&& f) const {
        DorTieSplit<>::for_each_hop(topo, src, NodeId{0}, f);
        DorTieSplit<>::for_each_hop(topo, NodeId{0}, dst, f);
    }
};
/// Transpose does not move with a torus's shifts, whatever it claims.
struct ClaimedTranspose : TransposeTraffic {
    using TransposeTraffic::TransposeTraffic;
    [[nodiscard]] constexpr bool invariant_under(const Translations&) const { return true; }
};
/// A mesh that claims a torus's symmetry.
struct ClaimedMesh : Mesh<2> {
    using Mesh<2>::Mesh;
    static constexpr bool translation_keeps_ports = true;
    [[nodiscard]] constexpr Translations translations() const {
        return Translations{}.then(extent(0), true).then(extent(1), true);
    }
    [[nodiscard]] static constexpr PortId port_at_representative(NodeId, PortId p) { return p; }
};
}  // namespace

TEST_CASE("a symmetry claimed wrongly is caught by the checks, and the comparison shows it") {
    const Fabric<Torus<2>, ViaNodeZero> detour{Torus<2>{4, 4}, allow_deadlock};
    const SymmetryReport routing = check_commutes(detour.topology(), detour.routing());
    CHECK_FALSE(routing.holds);
    // Node 1 to itself goes round by node 0; node 0 to itself goes nowhere.
    CHECK(routing.failure == "the route from node 1 to node 1, translated, is not the route from node 0 to node 0");
    CHECK_FALSE(compare_with_pairwise(detour, UniformTraffic(16)).identical);

    const Fabric<Torus<2>, DorTieSplit<>> torus{Torus<2>{4, 4}};
    CHECK_FALSE(check_invariance(torus, ClaimedTranspose(16)).holds);
    CHECK_FALSE(compare_with_pairwise(torus, ClaimedTranspose(16)).identical);

    const SymmetryReport mesh = check_translations(ClaimedMesh{4, 4});
    CHECK_FALSE(mesh.holds);
    // Node 1's - link leads to node 0; node 0 has no - link.
    CHECK(mesh.failure == "channel (node 1, port 1): the translation to node 0 does not map its link to port 1's "
                          "there");
}

}  // namespace unit_symmetry
