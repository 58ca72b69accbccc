// The host side of APEnet+'s point-to-point bandwidth (EURETILE 2012 report, vol.
// II, section 3.1.1.1, Figs. 12 and 13; section 3.1.3.3, Table 12).
//
// The card reads a message from host memory over PCIe before the link sends it:
// "if the host read bandwidth (BW_H) is less than the link maximum bandwidth
// BW_L^MAX then BW_L = BW_H", and with that rule the report estimates Fig. 13's
// bandwidth against message size. So a message of m bytes goes at
//     min(BW_H(m), E_T(m) x BW_L^MAX)
// with the link's side from ApenetEfficiency (apenet_efficiency.hpp). The host
// read peaks at 2.8 GB/s (Table 12, "the maximum bandwidth that APEnet+ can
// achieve is the HOST memory read one"). Its curve against message size is drawn
// in Figs. 12 and 28 with no numbers in the text; we take the usual one of a read
// with a fixed start-up, BW_H(m) = peak x m / (m + m_half), m_half the message
// that gets half the peak. The report bounds m_half: the link "overlaps the Host
// Read Bandwidth until message size of 8KB-32KB, depending of the operating
// frequency", at 20 to 34 Gbps. The crossover of the two curves, where
// BW_H(m) = E_T x BW_L^MAX = P, is m = m_half P / (peak - P), so the report's
// window holds all four only for m_half in [8 KiB (peak - P_20) / P_20,
// 32 KiB (peak - P_34) / P_34] = [10.84, 12.32] KiB (half_size_range). Our m_half,
// 11.5 KiB, lies inside that window: the library's number, from the report's range.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include <fabric/core/error.hpp>
#include <fabric/sim/analytic/apenet_efficiency.hpp>

namespace fabric::analytic {

struct ApenetHostRead {
    double peak_MBps = 2800;       // Table 12: host memory read, 2.8 GB/s
    double half_bytes = 11776;     // m_half, 11.5 KiB: ours, inside the window the report allows (10.84-12.32 KiB)

    /// The report's four line rates (Fig. 12): 425, 350, 300 and 250 MHz.
    static constexpr std::array<double, 4> line_rates_gbps{34, 28, 24, 20};
    /// The crossover window of Fig. 12's caption, in bytes.
    static constexpr double window_low = 8192, window_high = 32768;

    constexpr void validate() const {
        detail::require(peak_MBps > 0 && half_bytes >= 0, "the host read needs a positive peak and a half size of "
                        "at least 0");
    }

    /// Host read bandwidth for a message of m bytes, MB/s.
    [[nodiscard]] constexpr double bandwidth_MBps(double message_bytes) const {
        return peak_MBps * message_bytes / (message_bytes + half_bytes);
    }
    /// The message size where the host read reaches `link_MBps` (a link slower than the peak).
    [[nodiscard]] constexpr double crossover_bytes(double link_MBps) const {
        detail::require(link_MBps > 0 && link_MBps < peak_MBps, "the link must be slower than the host read's peak "
                        "for the curves to cross; got ", link_MBps, " MB/s against ", peak_MBps);
        return half_bytes * link_MBps / (peak_MBps - link_MBps);
    }
    /// The half sizes for which the crossover lies in the report's 8-32 KB window at
    /// every line rate, for a link of model `link` (its plateau, messages of S_MAX on).
    [[nodiscard]] static constexpr std::pair<double, double> half_size_range(const ApenetEfficiency& link,
                                                                             double peak = 2800) {
        double low = 0, high = 1e300;
        for (const double gbps : line_rates_gbps) {
            const double p = link.bandwidth_MBps(gbps);
            const double lo = window_low * (peak - p) / p, hi = window_high * (peak - p) / p;
            low = lo > low ? lo : low;
            high = hi < high ? hi : high;
        }
        return {low, high};
    }
};

/// Fig. 13's estimate: a message of m bytes at the lower of the host read and the
/// link (E_T for that message times BW_L^MAX at `gbps`), MB/s.
constexpr double apenet_point_to_point_MBps(const ApenetEfficiency& link, const ApenetHostRead& host,
                                           std::uint64_t message_bytes, double gbps) {
    const double wire = link.for_message(message_bytes).bandwidth_MBps(gbps);
    const double read = host.bandwidth_MBps(static_cast<double>(message_bytes));
    return read < wire ? read : wire;
}

}  // namespace fabric::analytic
