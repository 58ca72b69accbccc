// PERCS (IBM Power 775 / Blue Waters): the hub network as a fabric type,
// `PercsFabric<Direct>` or `PercsFabric<Indirect>`.
#pragma once

#include <fabric/composition.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/topology/percs.hpp>

namespace fabric {

template <class Routing = Direct, class Flow = Credit>
using PercsFabric = Fabric<PercsTopology, Routing, Flow>;

}  // namespace fabric
