// GF11's performance, network-bound or compute-bound (Kumar, "Unique design
// concepts in GF11 and their impact on performance").
//
// A processor issues one instruction a 50 ns cycle, each with one arithmetic
// operation: 20 MFLOPS when its two adders and two multipliers (5 MFLOPS each) are
// all kept busy, that is when a program has as many additions as multiplications.
// Its network port moves a 32-bit word every four cycles over a byte-wide path,
// 20 MB/s, overlapped with the arithmetic ("hide the communication overhead
// completely by overlapping it with the calculations"). So a program that does r
// floating-point operations per byte it sends runs at
//     min(20 MFLOPS x balance, r x 20 MB/s)
// a processor, balance = (adds + multiplies) / (2 max(adds, multiplies)): the
// network binds below r = 1 FLOP a byte. The paper's figures: 566 x 20 MFLOPS =
// 11.3 GFLOPS for the machine, 10 GFLOPS for the 500 of an application; the naive
// matrix multiplication at 0.5 FLOPS a byte still sustains 5.0 GFLOPS, the
// restructured one (about 40 FLOPS a byte) 10 (tests/paper/gf11.cpp).
#pragma once

#include <cstddef>

#include <fabric/core/error.hpp>
#include <fabric/flow/synchronous.hpp>

namespace fabric {

struct Gf11Performance {
    Synchronous timing{};             // 50 ns cycle, a word in 4 cycles: 20 MB/s
    double operations_per_cycle = 1;  // one arithmetic operation an instruction
    std::size_t processors = 500;     // an application's (the rest of the 566 are spares)

    constexpr void validate() const {
        timing.validate();
        detail::require(operations_per_cycle > 0, "GF11 performance: operations per cycle must be positive");
        detail::require(processors >= 1, "GF11 performance: at least one processor");
    }

    /// A processor's peak: 20 MFLOPS.
    [[nodiscard]] constexpr double peak_mflops() const { return operations_per_cycle * 1e3 / timing.cycle_ns; }
    /// A processor's network bandwidth: 20 MB/s.
    [[nodiscard]] constexpr double network_mbps() const { return timing.megabytes_per_second(); }
    /// FLOPs a byte below which the network binds: 1.
    [[nodiscard]] constexpr double balanced_flops_per_byte() const { return peak_mflops() / network_mbps(); }

    /// What the arithmetic allows a processor, in MFLOPS, for a program with
    /// `adds` additions to `multiplies` multiplications (any scale; equal gives the peak).
    [[nodiscard]] constexpr double compute_mflops(double adds = 1, double multiplies = 1) const {
        detail::require(adds >= 0 && multiplies >= 0 && adds + multiplies > 0,
                        "GF11 performance: additions and multiplications must not be negative, nor both 0");
        const double most = adds > multiplies ? adds : multiplies;
        return peak_mflops() * (adds + multiplies) / (2 * most);
    }
    /// What the network allows a processor, in MFLOPS, at `flops_per_byte`.
    [[nodiscard]] constexpr double network_mflops(double flops_per_byte) const {
        detail::require(flops_per_byte > 0, "GF11 performance: FLOPs per byte must be positive");
        return flops_per_byte * network_mbps();
    }
    /// The machine's sustained GFLOPS: every processor at the lower of the two.
    [[nodiscard]] constexpr double gflops(double flops_per_byte, double adds = 1, double multiplies = 1) const {
        const double compute = compute_mflops(adds, multiplies), network = network_mflops(flops_per_byte);
        return static_cast<double>(processors) * (compute < network ? compute : network) / 1e3;
    }
    /// Whether the network, not the arithmetic, sets gflops().
    [[nodiscard]] constexpr bool network_bound(double flops_per_byte, double adds = 1, double multiplies = 1) const {
        return network_mflops(flops_per_byte) < compute_mflops(adds, multiplies);
    }
};

}  // namespace fabric
