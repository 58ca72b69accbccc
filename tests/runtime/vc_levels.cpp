// The increasing-levels claim, checked route by route: the PERCS policies and
// nearest-neighbour routing keep it; a policy that claims it falsely is caught,
// and the route that does not climb is named.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/nearest_neighbour.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>

namespace unit_vc_levels {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
/// Dimension-order routing that claims levels it does not have: every VC on level 0.
struct FalseClaim : DorTieSplit<> {
    static constexpr bool vc_levels_increase = true;
    static constexpr int level(std::size_t, std::uint8_t) { return 0; }
};
}  // namespace

TEST_CASE("vc levels: the PERCS policies climb L0 < D0 < L1 < D1 < L2 on every route examined") {
    const PercsTopology t(8, 4);  // 256 nodes
    const auto direct = check_vc_levels(t, Direct{}, 5);
    CHECK(direct.increasing);
    CHECK(direct.routes > 1000);
    const auto indirect = check_vc_levels(t, Indirect{}, 23);
    CHECK_MESSAGE(indirect.increasing, indirect.describe());
    static_assert(ClaimsVcLevels<Direct> && ClaimsVcLevels<Indirect> && ClaimsVcLevels<NearestNeighbour>);
    static_assert(!ClaimsVcLevels<DorTieSplit<>>);
}

TEST_CASE("vc levels: nearest-neighbour routes have one hop, so they climb trivially") {
    const auto r = check_vc_levels(Torus<1>{{3}}, NearestNeighbour{});  // every pair of a 3-ring is adjacent
    CHECK(r.increasing);
    CHECK(r.routes > 0);
}

TEST_CASE("vc levels: a false claim is caught at the first two-hop route, which is named") {
    const auto r = check_vc_levels(Torus<2>{{4, 4}}, FalseClaim{});
    CHECK_FALSE(r.increasing);
    CHECK(r.source == NodeId{0});
    CHECK(r.destination == NodeId{2});  // 0 -> 1 -> 2 along x: the first pair two hops apart
    CHECK(r.hop == 1);
    CHECK(r.describe() == "a route from node 0 to node 2 does not climb at hop 1");
}

}  // namespace unit_vc_levels
