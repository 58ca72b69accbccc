// The QCDOC Serial Communications Unit link (Boyle et al., QCDOC, section on the
// SCU): a bit-serial connection between neighbouring nodes running at the
// processor clock, carrying 64-bit data words each behind an 8-bit packet header
// (which also holds two parity bits). With 24 such unidirectional links per node
// at 500 MHz the node moves 24 * 500e6 * 64/72 / 8 bytes/s, the paper's 1.3 GB/s.
#pragma once

#include <cstddef>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

class QcdocScu {
public:
    static constexpr std::string_view name = "QCDOC SCU";
    /// The SCU has no virtual channels: it moves data between nearest neighbours only.
    static constexpr std::size_t virtual_channels = 1;
    static constexpr unsigned data_bits = 64;    // one normal data word
    static constexpr unsigned header_bits = 8;   // packet header, two parity bits included
    static constexpr unsigned bits_per_word = data_bits + header_bits;

    constexpr QcdocScu() = default;
    /// `clock`: the core clock, which is also the serial bit rate (500 MHz target;
    /// the paper's machines also ran at 360, 420 and 450 MHz).
    /// `latency`: time of flight over the cable and HSSL; the paper gives no figure.
    constexpr explicit QcdocScu(MHz clock, Nanoseconds latency = Nanoseconds{0.0}) : clock_(clock), latency_(latency) {
        detail::require(clock.count > 0, "QcdocScu clock must be positive; got ", clock.count, " MHz");
        detail::require(latency.count >= 0, "QcdocScu latency must be zero or positive; got ", latency.count, " ns");
    }

    [[nodiscard]] constexpr MHz clock() const { return clock_; }
    /// Raw serial rate: one bit per clock.
    [[nodiscard]] constexpr GBps raw_bandwidth() const { return GBps{clock_.count * 1e6 / 8.0 / 1e9}; }
    /// Payload bandwidth: 64 data bits of every 72 sent.
    [[nodiscard]] constexpr GBps bandwidth() const {
        return GBps{raw_bandwidth().count * data_bits / bits_per_word};
    }
    [[nodiscard]] constexpr Nanoseconds latency() const { return latency_; }

private:
    MHz clock_{500.0};
    Nanoseconds latency_{0.0};
};

}  // namespace fabric
