// PERCS compositions: which policies fit, which VC counts suffice.
#include <fabric/fabric.hpp>
#include <fabric/systems/percs.hpp>

namespace {
using namespace fabric;

static_assert(Topology<PercsTopology>);
static_assert(link_class_count_v<PercsTopology> == 3);
static_assert(PercsLL::virtual_channels == 3 && PercsLR::virtual_channels == 3 && PercsD::virtual_channels == 2);
static_assert(RoutingPolicyFor<Direct, PercsTopology> && RoutingPolicyFor<Indirect, PercsTopology>);
static_assert(RoutingPolicyFor<PercsIndirectVia<>, PercsTopology>);
static_assert(!RoutingPolicyFor<Direct, Torus<2>> && !RoutingPolicyFor<DorTieSplit<>, PercsTopology>);
static_assert(detail::enough_vcs<PercsTopology, Indirect>() && detail::enough_vcs<PercsTopology, Direct>());
static_assert(detail::deadlock_free_by_construction<Indirect>());
// Hop-position levels: L0 < D0 < L1 < D1 < L2.
static_assert(Indirect::level(PercsTopology::LL, 0) < Indirect::level(PercsTopology::D, 0) &&
              Indirect::level(PercsTopology::D, 0) < Indirect::level(PercsTopology::LR, 1) &&
              Indirect::level(PercsTopology::LR, 1) < Indirect::level(PercsTopology::D, 1) &&
              Indirect::level(PercsTopology::D, 1) < Indirect::level(PercsTopology::LL, 2));
static_assert(sizeof(PercsFabric<Direct>) > 0 && sizeof(PercsFabric<Indirect>) > 0);
}  // namespace
