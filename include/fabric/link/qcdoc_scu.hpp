// The QCDOC Serial Communications Unit link (Boyle et al., QCDOC, section 2.2):
// a bit-serial connection between neighbouring nodes running at the processor
// clock, carrying 64-bit data words each behind an 8-bit packet header (which
// also holds two parity bits): 72 bits on the wire per word. With 24 such
// unidirectional links per node at 500 MHz a node moves 24 * 500e6 * 64/72 / 8
// bytes/s, the paper's "1.3 GBytes/second".
//
// The paper gives no figure for the HSSL controllers' own latency; it is a
// parameter in clock cycles (default 32: see sim/scu_link.hpp for how it and the
// acknowledgement turnaround set the round trip that "three in the air" covers).
#pragma once

#include <cstddef>
#include <cstdint>
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
    static constexpr unsigned links_per_node = 24;  // 12 neighbours, one link each way

    constexpr QcdocScu() = default;
    /// `clock`: the core clock, which is also the serial bit rate (500 MHz target;
    /// the paper's machines also ran at 360, 420 and 450 MHz).
    /// `latency_cycles`: HSSL serialiser, cable and deserialiser, in bit times.
    constexpr explicit QcdocScu(MHz clock, std::uint32_t latency_cycles = 32)
        : clock_(clock), latency_cycles_(latency_cycles) {
        detail::require(clock.count > 0, "QcdocScu clock must be positive; got ", clock.count, " MHz");
    }

    [[nodiscard]] constexpr MHz clock() const { return clock_; }
    [[nodiscard]] constexpr std::uint32_t latency_cycles() const { return latency_cycles_; }
    /// Raw serial rate: one bit per clock.
    [[nodiscard]] constexpr GBps raw_bandwidth() const { return GBps{clock_.count * 1e6 / 8.0 / 1e9}; }
    /// Payload bandwidth: 64 data bits of every 72 sent.
    [[nodiscard]] constexpr GBps bandwidth() const {
        return GBps{raw_bandwidth().count * data_bits / bits_per_word};
    }
    [[nodiscard]] constexpr Nanoseconds latency() const { return Cycles{latency_cycles_} * clock_; }
    /// Time of one word on the wire: 72 bit times.
    [[nodiscard]] constexpr Nanoseconds word_time() const { return Cycles{bits_per_word} * clock_; }

private:
    MHz clock_{500.0};
    std::uint32_t latency_cycles_ = 32;
};

}  // namespace fabric
