// Compiling this file is the test: which types model which concepts, which
// compositions are well formed, and what the compile-time checks decide.
#include <fabric/fabric.hpp>

namespace {
using namespace fabric;

// Links.
static_assert(LinkType<BasicLink<1>>);
static_assert(LinkType<QcdocScu>);
static_assert(LinkType<ApenetLink>);
static_assert(!LinkType<int>);
static_assert(QcdocScu::virtual_channels == 1 && ApenetLink::virtual_channels == 2);

// Topologies.
static_assert(Topology<Torus<1>>);
static_assert(Topology<Torus<6, QcdocScu>>);
static_assert(Topology<Mesh<3>>);
static_assert(Topology<Torus<2, BasicLink<2>, StaticExtents<4, 4>>>);
static_assert(Topology<QcdocTorus> && Topology<ApenetTorus>);
static_assert(!Topology<BasicLink<2>>);
static_assert(Torus<6, QcdocScu>::ports_per_node == 12);  // 12 neighbours, 24 unidirectional links per node
static_assert(link_class_count_v<Torus<3>> == 1);
static_assert(min_virtual_channels_v<Torus<3, ApenetLink>> == 2);

// Routing fits the k-ary n-cube, and only it.
static_assert(RoutingPolicyFor<DorTieSplit<>, Torus<3>>);
static_assert(RoutingPolicyFor<DorTiePositive<NoDateline>, Mesh<2>>);
static_assert(DorTieSplit<Dateline>::vcs_required<Torus<2>> == 2);
static_assert(DorTieSplit<Dateline>::vcs_required<Mesh<2>> == 1);

// Flow control.
static_assert(FlowControl<Credit>);
static_assert(FlowControlFor<Credit, ApenetLink>);
static_assert(!FlowControl<int>);
static_assert(FlowControl<Synchronous> && !FlowControlFor<Synchronous, BasicLink<2>>);  // drives no packet link

// Collectives: flat algorithms fit any topology; the composed ones only those with dimensions or groups.
static_assert(CollectiveOn<Allreduce<Ring>, Torus<2>> && CollectiveOn<Allreduce<Ring>, Dragonfly<>>);
static_assert(CollectiveOn<Alltoall<Pairwise>, FatTree<4>> && CollectiveOn<Barrier<>, PercsTopology>);
static_assert(CollectiveOn<Allreduce<DimensionWise<>>, Torus<3>> && CollectiveOn<Allgather<DimensionWise<>>, Mesh<2>>);
static_assert(CollectiveOn<Allreduce<DimensionWise<>>, HyperX<2, 8>>);
static_assert(!CollectiveOn<Allreduce<DimensionWise<>>, Dragonfly<>> && !CollectiveOn<Allreduce<DimensionWise<>>, FatTree<4>>);
static_assert(CollectiveOn<Allreduce<Multiported<>>, Concentrated<Torus<2>, 4>>);
static_assert(!CollectiveOn<Allreduce<Multiported<>>, Torus<2>>);  // one terminal a router: one port
static_assert(CollectiveOn<Broadcast<Hierarchical<Binomial>>, Dragonfly<>> &&
              CollectiveOn<Allreduce<Hierarchical<>>, PercsTopology>);
static_assert(!CollectiveOn<Allreduce<Hierarchical<>>, Torus<2>>);
static_assert(CollectiveOn<DimensionWiseSum, Torus<4>> && !CollectiveOn<DimensionWiseSum, PercsTopology>);
static_assert(!CollectiveOn<int, Torus<4>>);

// Traffic patterns.
static_assert(TrafficPattern<UniformTraffic> && TrafficPattern<HaloTraffic> && TrafficPattern<RowColumnAllToAllTraffic>);
static_assert(TrafficPattern<TornadoTraffic> && TrafficPattern<BitComplementTraffic>);
static_assert(TrafficPattern<RandomPermutationTraffic> && TrafficPattern<TrafficMatrix>);
static_assert(TrafficPattern<TransposeTraffic> && TrafficPattern<BitReverseTraffic> && TrafficPattern<ShuffleTraffic>);
static_assert(TrafficPattern<NeighbourTraffic> && TrafficPattern<HotSpotTraffic> && TrafficPattern<NamedPattern>);
static_assert(!TrafficPattern<int> && !TrafficPattern<Torus<2>>);

// Static extents: sizes and the deadlock check at compile time.
using Static44 = Torus<2, BasicLink<2>, StaticExtents<4, 4>>;
static_assert(Static44{}.node_count() == 16 && Static44{}.diameter() == 4 && Static44{}.bisection_channels() == 16);
static_assert(!channel_dependencies(Torus<2, BasicLink<1>, StaticExtents<4, 4>>{}, DorTieSplit<NoDateline>{}, 1).acyclic);
static_assert(channel_dependencies(Static44{}, DorTieSplit<Dateline>{}, 2).acyclic);
static_assert(channel_dependencies(Torus<3, BasicLink<1>, StaticExtents<3, 3, 2>>{}, DorTieSplit<NoDateline>{}, 1).acyclic);

// Well-formed compositions.
[[maybe_unused]] constexpr Fabric<Static44, DorTieSplit<>> static_torus{Static44{}};
using ApenetFabric = Fabric<ApenetTorus, DorTieSplit<Dateline>>;
using QcdocDorFabric = Fabric<QcdocTorus, DorTieSplit<NoDateline>>;
static_assert(sizeof(ApenetFabric) > 0 && sizeof(QcdocDorFabric) > 0 && sizeof(QcdocFabric) > 0);
static_assert(FlowControlFor<AckWindow, QcdocScu>);

}  // namespace
