// PERCS (IBM Power 775 / Blue Waters): the hub network as a fabric type,
// `PercsFabric<Direct>` or `PercsFabric<Indirect>`.
#pragma once

#include <fabric/composition.hpp>
#include <fabric/routing/percs_modes.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/topology/percs.hpp>

namespace fabric {

template <class Routing = Direct, class Flow = Credit>
using PercsFabric = Fabric<PercsTopology, Routing, Flow>;

/// The hub's packet-level routing: route modes chosen per packet.
using PercsHub = PercsFabric<PercsHubRouting<>>;

/// PERCS packets: 128-byte flits, packets of up to 2048 bytes (16 flits).
inline constexpr std::uint32_t percs_flit_bytes = 128;
inline constexpr std::uint32_t percs_packet_flits = 2048 / percs_flit_bytes;

}  // namespace fabric
