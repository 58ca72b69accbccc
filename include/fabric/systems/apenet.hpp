// APEnet+ (EURETILE 2012 report, vol. II): a 3-D torus of DNPs, six 4-lane links
// each, two virtual channels per link. QUonG, the report's test system, is 4 x 2 x 2.
#pragma once

#include <array>

#include <fabric/link/apenet.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The APEnet+ machine type: `ApenetTorus{{4, 2, 2}}`.
using ApenetTorus = Torus<3, ApenetLink>;

/// Extents of the QUonG system.
inline constexpr std::array<long long, 3> quong_extents{4, 2, 2};

}  // namespace fabric
