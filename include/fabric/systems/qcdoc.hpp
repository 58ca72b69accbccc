// QCDOC (Boyle et al.): a 6-D torus of nodes joined by SCU links, moving data
// between nearest neighbours under the three-in-the-air acknowledgement window.
// The native 1024-node machine of the paper is 8 x 4 x 4 x 2 x 2 x 2.
#pragma once

#include <array>

#include <fabric/composition.hpp>
#include <fabric/flow/ack_window.hpp>
#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/routing/nearest_neighbour.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The QCDOC machine type: `QcdocTorus{{8, 4, 4, 2, 2, 2}}`, that is `Torus<6, QcdocScu>`.
using QcdocTorus = Torus<6, QcdocScu>;

/// The QCDOC fabric: nearest-neighbour transfers under the acknowledgement window.
using QcdocFabric = Fabric<QcdocTorus, NearestNeighbour, AckWindow>;

/// Extents of the 1024-node machine described in the paper.
inline constexpr std::array<long long, 6> qcdoc_1024_extents{8, 4, 4, 2, 2, 2};

/// The acknowledgement window of an SCU link: three words, and the acknowledgement's
/// turnaround, its 8 bits and the link latency for the way back.
inline AckWindow qcdoc_ack_window(const QcdocScu& link = {}, std::uint32_t window = 3,
                                  std::uint32_t turnaround_cycles = 8) {
    return AckWindow{window, turnaround_cycles + AckWindow::ack_bits + link.latency_cycles()};
}

}  // namespace fabric
