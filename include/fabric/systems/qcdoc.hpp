// QCDOC (Boyle et al.): a 6-D torus of nodes joined by SCU links. The native
// 1024-node machine of the paper is 8 x 4 x 4 x 2 x 2 x 2.
#pragma once

#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The QCDOC machine type: `QcdocTorus{{8, 4, 4, 2, 2, 2}}`.
using QcdocTorus = Torus<6, QcdocScu>;

/// Extents of the 1024-node machine described in the paper.
inline constexpr std::array<long long, 6> qcdoc_1024_extents{8, 4, 4, 2, 2, 2};

}  // namespace fabric
