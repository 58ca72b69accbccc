// APEnet+ (EURETILE 2012 report, vol. II): a 3-D torus of DNPs, six 4-lane links
// each, two virtual channels per link and dimension-order routing with a dateline,
// links driven by the threshold-credit protocol. QUonG, the report's test system,
// is 4 x 2 x 2.
#pragma once

#include <array>
#include <cstdint>

#include <fabric/composition.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The APEnet+ machine type: `ApenetTorus{{4, 2, 2}}`.
using ApenetTorus = Torus<3, ApenetLink>;

/// The APEnet+ fabric.
using ApenetFabric = Fabric<ApenetTorus, DorTieSplit<Dateline>, ApenetCredit>;

/// Extents of the QUonG system.
inline constexpr std::array<long long, 3> quong_extents{4, 2, 2};

/// APEnet+ packets in 16-byte words: header, payload, footer.
constexpr std::uint32_t apenet_packet_words(std::uint32_t payload_bytes) {
    return 2 + (payload_bytes + 15) / 16;
}

}  // namespace fabric
