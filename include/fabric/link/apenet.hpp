// The APEnet+ torus link (EURETILE 2012 report, vol. II, section 2): each of the
// six torus links of a DNP bonds 4 serial lanes; lanes run at 7.0 Gbps for the
// 28 Gbps link (up to 8.5 Gbps for 34 Gbps) under 8b10b coding, so 8 of every 10
// line bits are data. Two virtual channels per link make dimension-order routing
// on the torus deadlock free.
#pragma once

#include <cstddef>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

/// The link with `VirtualChannels` receive FIFOs per direction (two in APEnet+;
/// other counts exist to show what the static deadlock check makes of them).
template <std::size_t VirtualChannels = 2>
class ApenetLinkT {
public:
    static constexpr std::string_view name = "APEnet+ torus link";
    static constexpr std::size_t virtual_channels = VirtualChannels;
    static constexpr unsigned lanes = 4;
    static constexpr double coding_efficiency = 8.0 / 10.0;  // 8b10b

    constexpr ApenetLinkT() = default;
    constexpr explicit ApenetLinkT(double lane_gbps, Nanoseconds latency = Nanoseconds{0.0})
        : lane_gbps_(lane_gbps), latency_(latency) {
        detail::require(lane_gbps > 0 && lane_gbps <= 8.5, "ApenetLink lane rate must be in (0, 8.5] Gbps; got ",
                        lane_gbps, " Gbps");
        detail::require(latency.count >= 0, "ApenetLink latency must be zero or positive; got ", latency.count, " ns");
    }

    [[nodiscard]] constexpr double lane_gbps() const { return lane_gbps_; }
    /// Line rate of the 4 bonded lanes, in Gbit/s (28 at 7.0 Gbps per lane).
    [[nodiscard]] constexpr double line_gbps() const { return lane_gbps_ * lanes; }
    [[nodiscard]] constexpr GBps bandwidth() const { return GBps{line_gbps() * coding_efficiency / 8.0}; }
    [[nodiscard]] constexpr Nanoseconds latency() const { return latency_; }

private:
    double lane_gbps_{7.0};
    Nanoseconds latency_{0.0};
};

using ApenetLink = ApenetLinkT<2>;

}  // namespace fabric
