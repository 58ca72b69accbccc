// The three link classes of the PERCS hub network (Arimilli et al.; Chakaravarthy
// et al., section II), and the W links from the hub to its node's POWER7 chips.
// Bandwidths are per direction. The mapping paper uses 21, 5
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

/// Optical link between supernodes; long, so its latency is a parameter.
/// Lanes: the paper says only that the hub "gracefully degrades performance in
/// the presence of lane failures" (Arimilli et al., abstract) and gives no lane
/// count. The count here is the library's assumption, not the paper's: 10
/// active lanes and 2 spares, so a D link keeps its bandwidth while at most 2
/// lanes fail, then loses a tenth per lane, and is down with 12.
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

/// The W links that join the hub to the four POWER7 chips of its node (Arimilli
/// et al., section VII.A: "4 * 24 GiB/s = 96 GiB/s", the injection bandwidth of
/// a compute node). Section V gives "192 GB/s" to the chips without saying per
/// direction; we read it as both ways (96 each), as its combined link figures
/// are (336 GB/s for 7 LL links of 24 each way), which its ratio "1:4.6" confirms
/// (896 / 192 = 4.67; PercsHubConfig::network_to_injection). Data a node
/// sends into the network or takes out of it crosses them; traffic between the
/// chips of one node does not (the mapping paper counts it free). Not a network
/// link: a topology that models them says so (PercsTopology::with_w_links).
struct PercsW : detail::percs_link<PercsW> {
    using percs_link::percs_link;
    static constexpr std::string_view name = "W";
    static constexpr std::size_t virtual_channels = 1;
    static constexpr double default_bandwidth = 24.0;
    static constexpr unsigned links_per_node = 4;  // one to each POWER7 chip

    /// A node's W links together, per direction: 96 GB/s with the paper's 24.
    [[nodiscard]] constexpr GBps node_bandwidth() const { return GBps{bandwidth().count * links_per_node}; }
};

}  // namespace fabric
