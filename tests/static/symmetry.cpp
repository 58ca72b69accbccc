// The flow kernel by symmetry in constant evaluation: systems whose pair walk is
// far past the compilers' constexpr limits (a 16 x 16 torus under uniform traffic
// is 589,824 channel-load additions pair by pair, a 16 x 16 x 16 one 226 million)
// are checked while compiling, under GCC's and Clang's default limits, in about
// a second each (docs/compile_time.md). And which types state a symmetry.
#include <fabric/composition.hpp>
#include <fabric/concepts/symmetry.hpp>
#include <fabric/core/order_free_sum.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/hyperx_dor.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/hyperx.hpp>
#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>

namespace {
using namespace fabric;

// Dally and Towles: uniform traffic under dimension order with ties split loads
// every channel of a k-ary n-cube k/8.
static_assert(link_load(Fabric<Torus<2, BasicLink<2>, StaticExtents<16, 16>>, DorTieSplit<>>{}, UniformTraffic(256))
                  .max_load() == 2.0);
static_assert(link_load(Fabric<Torus<3, BasicLink<2>, StaticExtents<16, 16, 16>>, DorTieSplit<>>{},
                        UniformTraffic(4096))
                  .max_load() == 2.0);

// A HyperX's hop in dimension d is taken by the pairs that agree with the channel's
// router above d at the source and below d at the destination, and have the
// channel's coordinate in d: N / S_d pairs of 1/N, 1/4 on 4 x 4 x 4. Its deadlock
// check runs when a fabric of run-time sizes is built, here a constant evaluation
// of its own (about a million of Clang's steps), and link_load another.
constexpr Fabric<HyperX<3, 9>, HyperXDimensionOrder> hyperx_4x4x4{HyperX<3, 9>({4, 4, 4})};
static_assert(link_load(hyperx_4x4x4, UniformTraffic(64)).max_load() == 0.25);

// The summing rule of the symmetric path holds in constant evaluation too.
static_assert([] {
    double loop = 0;
    for (int i = 0; i < 1000; ++i) loop += 0.1;
    return detail::repeated_sum(0.1, 1000) == loop && loop != 100.0;
}());

// Which topologies state a symmetry, which policies commute with it, which
// patterns are invariant, and where a torus's loads come ring by ring.
static_assert(SymmetricTopology<Torus<3>> && !SymmetricTopology<Mesh<3>> && translation_keeps_ports_v<Torus<3>>);
static_assert(SymmetricTopology<HyperX<3, 9>> && !translation_keeps_ports_v<HyperX<3, 9>>);
static_assert(SymmetricTopology<Dragonfly<>> && SymmetricTopology<Concentrated<Dragonfly<>, 4>>);
static_assert(SymmetricTopology<FatTree<4>> && !SymmetricTopology<PercsTopology>);
static_assert(CommutesWithTranslations<DorTieSplit<>, Torus<2>> && CommutesWithTranslations<DorTiePositive<>, Torus<2>>);
static_assert(!ClaimsCommuting<DorTieSplit<>, Mesh<2>>);
static_assert(CommutesWithTranslations<HyperXDimensionOrder, HyperX<2, 6>> &&
              CommutesWithTranslations<DragonflyMinimal, Dragonfly<>> && CommutesWithTranslations<FatTreeNca, FatTree<4>>);
static_assert(InvariantPattern<UniformTraffic> && InvariantPattern<TornadoTraffic> && InvariantPattern<HaloTraffic> &&
              InvariantPattern<NeighbourTraffic> && InvariantPattern<GroupShiftTraffic>);
static_assert(!InvariantPattern<TransposeTraffic> && !InvariantPattern<HotSpotTraffic> &&
              !InvariantPattern<RandomPermutationTraffic> && !InvariantPattern<TrafficMatrix>);
static_assert(RingSeparable<DorTieSplit<>, Torus<3>> && !RingSeparable<HyperXDimensionOrder, HyperX<2, 6>>);
}  // namespace
