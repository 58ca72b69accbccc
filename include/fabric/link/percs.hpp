// The three link classes of the PERCS hub network (Arimilli et al.; Chakaravarthy
// et al., section II). Bandwidths are per direction. The mapping paper uses 21, 5
// and 10 GB/s for LL, LR and D; the interconnect paper's all-to-all model uses
// 24 GB/s for LL, so every bandwidth is a parameter with the mapping paper's value
// as default. Virtual channels follow the hop position in the longest route,
// L-D-L-D-L: three on L links, two on D links.
#pragma once

#include <cstddef>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

namespace detail {
template <class Derived>
class percs_link {
public:
    constexpr percs_link() = default;
    constexpr explicit percs_link(GBps bandwidth, Nanoseconds latency = Nanoseconds{0.0})
        : bandwidth_(bandwidth), latency_(latency) {
        require(bandwidth.count > 0, Derived::name, " link bandwidth must be positive; got ", bandwidth.count, " GB/s");
        require(latency.count >= 0, Derived::name, " link latency must be zero or positive; got ", latency.count, " ns");
    }
    [[nodiscard]] constexpr GBps bandwidth() const { return bandwidth_; }
    [[nodiscard]] constexpr Nanoseconds latency() const { return latency_; }

private:
    GBps bandwidth_{Derived::default_bandwidth};
    Nanoseconds latency_{0.0};
};
}  // namespace detail

/// Copper link between the 8 hubs of a drawer.
struct PercsLL : detail::percs_link<PercsLL> {
    using percs_link::percs_link;
    static constexpr std::string_view name = "LL";
    static constexpr std::size_t virtual_channels = 3;
    static constexpr double default_bandwidth = 21.0;
};

/// Optical link between hubs of different drawers of a supernode.
struct PercsLR : detail::percs_link<PercsLR> {
    using percs_link::percs_link;
    static constexpr std::string_view name = "LR";
    static constexpr std::size_t virtual_channels = 3;
    static constexpr double default_bandwidth = 5.0;
};

/// Optical link between supernodes; long, so its latency is a parameter. A D
/// link has 10 active optical lanes and 2 spares (Arimilli et al., section V):
/// it keeps its bandwidth while at most 2 lanes fail, then loses a tenth per lane,
/// and is down with 12.
struct PercsD : detail::percs_link<PercsD> {
    using percs_link::percs_link;
    static constexpr std::string_view name = "D";
    static constexpr std::size_t virtual_channels = 2;
    static constexpr double default_bandwidth = 10.0;
    static constexpr unsigned active_lanes = 10;
    static constexpr unsigned spare_lanes = 2;

    /// Lanes carrying data with `failed` lanes broken (0 when the link is down).
    static constexpr unsigned working_lanes(unsigned failed) {
        const unsigned left = failed >= active_lanes + spare_lanes ? 0 : active_lanes + spare_lanes - failed;
        return left < active_lanes ? left : active_lanes;
    }
    /// Bandwidth with `failed` lanes broken.
    [[nodiscard]] constexpr GBps bandwidth_with_failed_lanes(unsigned failed) const {
        return GBps{bandwidth().count * working_lanes(failed) / active_lanes};
    }
};

}  // namespace fabric
