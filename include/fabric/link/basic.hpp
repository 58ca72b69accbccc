// A generic link: a bandwidth, a latency and a number of virtual channels. The
// default for topologies built in tests and examples, where only loads matter.
#pragma once

#include <cstddef>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

template <std::size_t VirtualChannels = 2>
class BasicLink {
    static_assert(VirtualChannels >= 1 && VirtualChannels <= 16,
                  "fabric: BasicLink needs between 1 and 16 virtual channels");

public:
    static constexpr std::string_view name = "basic";
    static constexpr std::size_t virtual_channels = VirtualChannels;

    constexpr BasicLink() = default;
    constexpr explicit BasicLink(GBps bandwidth, Nanoseconds latency = Nanoseconds{0.0})
        : bandwidth_(bandwidth), latency_(latency) {
        detail::require(bandwidth.count > 0, "BasicLink bandwidth must be positive; got ", bandwidth.count, " GB/s");
        detail::require(latency.count >= 0, "BasicLink latency must be zero or positive; got ", latency.count, " ns");
    }

    [[nodiscard]] constexpr GBps bandwidth() const { return bandwidth_; }
    [[nodiscard]] constexpr Nanoseconds latency() const { return latency_; }

private:
    GBps bandwidth_{1.0};
    Nanoseconds latency_{0.0};
};

}  // namespace fabric
