// Synchronous SIMD communication as on GF11 (Kumar, sections "Fixed delay" and
// "System-wide synchronous operation"): all processors send one word in the same
// cycle through the selected precomputed setting, and all receive it after the
// network's fixed delay, whatever the pattern. Paths are one byte wide, a cycle is
// 50 ns, so a 32-bit word takes 4 cycles (200 ns): 20 MB/s per processor. Choosing
// the next setting overlaps the current transfer, so a program may change
// configuration with every word, five million times a second.
//
// There is no flow control to speak of: the schedule is conflict free by
// construction. As a flow-control policy it drives no link of the packet
// networks (drives<L> is false), so a fabric pairing it with one does not compile.
#pragma once

#include <cstdint>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

struct Synchronous {
    static constexpr std::string_view name = "synchronous SIMD";
    template <class L>
    static constexpr bool drives = false;

    double cycle_ns = 50;             // GF11's machine cycle
    std::uint32_t path_bytes = 1;     // byte-wide network paths
    std::uint32_t word_bytes = 4;     // 32-bit words
    std::uint32_t delay_cycles = 3;   // the network's fixed delay (one per stage, our assumption)

    constexpr void validate() const {
        detail::require(cycle_ns > 0, "the SIMD cycle must be positive");
        detail::require(path_bytes >= 1 && word_bytes >= path_bytes && word_bytes % path_bytes == 0,
                        "a word must be a whole number of network path widths; got ", word_bytes, " and ",
                        path_bytes, " bytes");
    }

    /// Cycles to put one word through the network: 4 on GF11.
    [[nodiscard]] constexpr std::uint32_t cycles_per_word() const { return word_bytes / path_bytes; }
    [[nodiscard]] constexpr double word_ns() const { return cycles_per_word() * cycle_ns; }
    /// Bandwidth per processor: 20 MB/s on GF11.
    [[nodiscard]] constexpr double megabytes_per_second() const { return word_bytes / word_ns() * 1e3; }
    /// Configuration changes per second with the setting switch overlapped: 5 million.
    [[nodiscard]] constexpr double configurations_per_second() const { return 1e9 / word_ns(); }
    /// Cycle at which a word sent at cycle `t` is in every receiver: the last byte
    /// enters at t + cycles_per_word - 1 and leaves the fixed-delay network after it.
    [[nodiscard]] constexpr std::uint64_t arrival_cycle(std::uint64_t t) const {
        return t + cycles_per_word() - 1 + delay_cycles;
    }
};

}  // namespace fabric
