// The APEnet+ torus-link efficiency model of the EURETILE 2012 report, vol. II,
// section 3.1.1.1, in closed form.
//
//   E_1 = S / (P + S)                         protocol words per packet (P = 64 bytes)
//   E_2 = C / (C + 2)                         a Credit and its Magic word every C cycles
//   W   = L_T + C,  L_T = 2 L_R + 2 L_L       the wait for a Credit after stopping
//   E_3 = T_RED / (T_RED + W)                 words sent up to T_RED, then a wait
//   E_3 = k S / (k S + W), k = floor(T_RED/S) with the router's whole-packet rule
//   E_T = E_1 E_2 E_3
// where S is the largest payload in 16-byte words (256 for 4096 bytes). The optimum
// C maximises E_T: for E_T proportional to C / ((C + 2)(C + K)) it is sqrt(2 K).
// Every member is constexpr: the model runs in constant evaluation as at run time.
#pragma once

#include <cstdint>

#include <fabric/core/error.hpp>
#include <fabric/core/math.hpp>

namespace fabric::analytic {

struct ApenetEfficiency {
    std::uint32_t payload_bytes = 4096;  // S_MAX
    std::uint32_t word_bytes = 16;
    std::uint32_t protocol_bytes = 64;   // Magic, Start, Header, Footer
    std::uint32_t credit_period = 35;    // C
    std::uint32_t remote_latency = 35;   // L_R
    std::uint32_t local_latency = 20;    // L_L
    std::uint32_t t_red = 506;
    bool whole_packet_rule = true;

    /// The report's Table 8 rows: T_RED = FIFO depth - 6.
    static constexpr ApenetEfficiency with_fifo(std::uint32_t depth) {
        detail::require(depth >= 8, "FIFO depth must be at least 8 words; got ", depth);
        ApenetEfficiency e;
        e.t_red = depth - 6;
        return e;
    }

    [[nodiscard]] constexpr double payload_words() const { return static_cast<double>(payload_bytes) / word_bytes; }
    [[nodiscard]] constexpr double e1() const {
        return static_cast<double>(payload_bytes) / static_cast<double>(protocol_bytes + payload_bytes);
    }
    [[nodiscard]] constexpr double e2() const {
        return static_cast<double>(credit_period) / static_cast<double>(credit_period + 2);
    }
    [[nodiscard]] constexpr double total_latency() const { return 2.0 * remote_latency + 2.0 * local_latency; }
    [[nodiscard]] constexpr double wait() const { return total_latency() + credit_period; }
    /// Packets sent before each wait under the whole-packet rule.
    [[nodiscard]] constexpr double packets_per_burst() const { return detail::floor_nonnegative(static_cast<double>(t_red) / payload_words()); }
    [[nodiscard]] constexpr double e3() const {
        if (!whole_packet_rule) return t_red / (t_red + wait());
        const double burst = packets_per_burst() * payload_words();
        return burst / (burst + wait());
    }
    [[nodiscard]] constexpr double et() const { return e1() * e2() * e3(); }

    /// The C that maximises E_T (with the other parameters fixed): sqrt(2 K),
    /// K = burst + L_T, burst = T_RED (or k S with the whole-packet rule).
    [[nodiscard]] constexpr double optimum_credit_period() const {
        const double burst = whole_packet_rule ? packets_per_burst() * payload_words() : static_cast<double>(t_red);
        return detail::sqrt_nonnegative(2.0 * (burst + total_latency()));
    }

    /// Link bandwidth in MB/s for a line rate of `gbps` (8b10b: 80% of it is data).
    [[nodiscard]] constexpr double bandwidth_MBps(double gbps) const { return et() * gbps * 0.8 / 8.0 * 1e3; }

    /// The model for a stream of messages of `message_bytes` (Fig. 13's abscissa):
    /// a message of up to S_MAX bytes is one packet of that payload, a longer one
    /// is cut into S_MAX packets (the powers of two Fig. 13 plots divide evenly).
    /// The link's side of Fig. 13: the report's curve is also held below the host
    /// read bandwidth, 2.8 GB/s at its peak (Table 12; apenet_host.hpp).
    [[nodiscard]] constexpr ApenetEfficiency for_message(std::uint64_t message_bytes) const {
        detail::require(message_bytes >= word_bytes, "a message needs at least one ", word_bytes, "-byte word; got ",
                        message_bytes);
        ApenetEfficiency e = *this;
        if (message_bytes < payload_bytes) e.payload_bytes = static_cast<std::uint32_t>(message_bytes);
        return e;
    }
};

}  // namespace fabric::analytic
