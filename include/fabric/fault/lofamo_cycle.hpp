// LO|FA|MO inside a cycle-kernel run of the APEnet+ torus: LiFaMa Diagnostic
// Messages carried in the Credits of the links (sim/cycle/side_band.hpp), so that
// when a neighbour hears of a fault is set by the link's Credit frames and
// flight, under whatever data the run carries (EURETILE 2012 report, vol. II,
// section 2.3; the closed form is fault/lofamo_credits.hpp), and each node's
// Remote Fault Descriptor (Table 5) as its DFM files what it heard.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/fault/lofamo_descriptors.hpp>
#include <fabric/fault/lofamo_registers.hpp>
#include <fabric/sim/cycle/side_band.hpp>

namespace fabric::lofamo {

/// The direction of a 3-D torus port: ports 0 .. 5 are X+, X-, Y+, Y-, Z+, Z- (Torus<3>'s order).
constexpr Direction direction_of_port(std::uint32_t port) {
    fabric::detail::require(port < directions, "LO|FA|MO: a 3-D torus has ports 0 to 5; got ", port);
    return static_cast<Direction>(directions - 1 - port);
}

/// In the next run of `sim` (a CycleSimulator of an APEnet+ fabric), node `node`'s
/// DFM posts message `m` at `cycle`: each neighbour hears it in a Credit.
template <class Simulator>
void post_lifama(Simulator& sim, NodeId node, const LifamaMessage& m, std::uint64_t cycle) {
    sim.post_side_band(node, m.encode(), cycle);
}

/// Every node's Remote Fault Descriptor after a run that heard `heard`
/// (CycleSimulator::side_band_heard), each message filed, in the order heard,
/// under the direction of the link it came over.
inline std::vector<RemoteFaultDescriptor> descriptors_heard(std::size_t nodes,
                                                            std::span<const cycle::SideBandWord> heard) {
    std::vector<RemoteFaultDescriptor> d(nodes);
    for (const cycle::SideBandWord& w : heard) {
        fabric::detail::require(w.to < nodes, "LO|FA|MO: a message heard at node ", w.to, " of ", nodes);
        d[w.to].file(direction_of_port(w.port), w.word);
    }
    return d;
}

}  // namespace fabric::lofamo
