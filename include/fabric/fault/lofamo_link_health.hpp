// A "sick" APEnet+ link (EURETILE 2012 report, vol. II): one that "malfunctions
// and introduces errors during the packet transmission" (section 2.1.4), found by
// the receiving link logic's CRC check and declared sick "when the ratio between
// the number of errors and the number of packets received overruns a given
// (programmable) threshold" (section 3.1.3.5), a threshold that section 2.1.3
// calls "the threshold for the CRC errors/transferred bytes ratio". Both ratios
// are offered; the report gives no value for either (the default, 1e-6 errors a
// byte, is the library's, lofamo::Timing::crc_threshold).
//
// Error rates are the report's measure (section 3.1.3.6): the "bit error rate" of
// Table 16 is "number of incorrectly transferred words / number of transferred
// words", 128-bit words. A packet (header, payload, footer: the words CRC-32
// covers) fails its CRC when any of its words is wrong; CRC-32 catches every such
// packet at these rates (it detects "from 2 to 6" errors, and two bad words in a
// packet are rarer than one by the rate itself).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include <fabric/core/error.hpp>
#include <fabric/fault/lofamo_registers.hpp>

namespace fabric::lofamo {

/// One row of Table 16: a measured upper bound on a channel's word error rate.
struct BerMeasurement {
    double ber;                  // "< ber": no error seen in 1 / ber words
    std::string_view direction;  // the channel
    double cable_m;
    double gbps;                 // line rate per lane
};
/// Table 16: BER measurements on APEnet+'s channels.
inline constexpr std::array<BerMeasurement, 5> table16{{
    {7.04e-11, "X+", 5, 8.5},
    {8.12e-11, "Y+", 5, 8.5},
    {7.04e-10, "Z+", 5, 8.5},
    {9.8e-13, "X+", 5, 7.0},
    {2.46e-14, "X+", 2, 7.0},
}};

/// What the sickness threshold divides the CRC errors by.
enum class CrcRatio : std::uint8_t { per_byte, per_packet };

/// The words the CRC covers in a packet of `payload_bytes`: header, payload, footer.
constexpr double crc_words(std::uint32_t payload_bytes) { return static_cast<double>(payload_bytes) / 16.0 + 2.0; }
/// Bytes a packet takes on the link: the covered words plus Magic and Start (64 bytes of protocol in all).
constexpr double link_bytes(std::uint32_t payload_bytes) { return static_cast<double>(payload_bytes) + 64.0; }

/// The probability that a packet of `payload_bytes` fails its CRC at word error rate `ber`.
inline double packet_error_probability(double ber, std::uint32_t payload_bytes) {
    fabric::detail::require(ber >= 0 && ber < 1, "LO|FA|MO: a word error rate lies in [0, 1); got ", ber);
    return -std::expm1(crc_words(payload_bytes) * std::log1p(-ber));
}
/// The CRC errors a link counts, in the long run, per packet or per transferred
/// byte, at word error rate `ber` with packets of `payload_bytes`.
inline double crc_error_ratio(double ber, std::uint32_t payload_bytes, CrcRatio per) {
    const double p = packet_error_probability(ber, payload_bytes);
    return per == CrcRatio::per_packet ? p : p / link_bytes(payload_bytes);
}

/// The receiving end of one link: its CRC errors counted, the ratio judged
/// against the threshold. It judges only once it has seen `judged_after` (bytes
/// or packets, as the ratio), 1 / threshold by default, so that no single error
/// can make a link sick; from then on, a ratio above the threshold makes it sick.
class LinkErrorCounter {
public:
    explicit LinkErrorCounter(double threshold = 1e-6, CrcRatio per = CrcRatio::per_byte, double judged_after = 0)
        : threshold_(threshold), per_(per), judged_after_(judged_after > 0 ? judged_after : 1 / threshold) {
        fabric::detail::require(threshold > 0 && threshold < 1, "LO|FA|MO: the CRC threshold must lie in (0, 1); "
                                "got ", threshold);
    }
    /// A packet of `payload_bytes` arrived; `crc_error`: its CRC did not match.
    void count(std::uint32_t payload_bytes, bool crc_error) {
        bytes_ += link_bytes(payload_bytes);
        ++packets_;
        errors_ += crc_error ? 1 : 0;
        if (!sick_ && seen() >= judged_after_ && static_cast<double>(errors_) > threshold_ * seen()) sick_ = true;
    }
    [[nodiscard]] Status status() const { return sick_ ? Status::sick : Status::normal; }
    [[nodiscard]] std::uint64_t errors() const { return errors_; }
    [[nodiscard]] std::uint64_t packets() const { return packets_; }
    [[nodiscard]] double bytes() const { return bytes_; }

private:
    [[nodiscard]] double seen() const { return per_ == CrcRatio::per_byte ? bytes_ : static_cast<double>(packets_); }
    double threshold_;
    CrcRatio per_;
    double judged_after_;
    double bytes_ = 0;
    std::uint64_t packets_ = 0, errors_ = 0;
    bool sick_ = false;
};

/// The expected-value rule the event model (fault/lofamo.hpp) uses: a link of word
/// error rate `ber` carrying `bytes_per_us` in packets of `payload_bytes` is sick
/// from its first judgement, 1 / threshold bytes (or packets) after its traffic
/// starts, when its long-run ratio is above the threshold; else never (infinity).
inline double time_to_sick_us(double ber, double bytes_per_us, double threshold, std::uint32_t payload_bytes = 4096,
                              CrcRatio per = CrcRatio::per_byte) {
    fabric::detail::require(bytes_per_us > 0, "LO|FA|MO: a sick link is found by its traffic; give it some (bytes "
                            "a microsecond > 0)");
    if (crc_error_ratio(ber, payload_bytes, per) <= threshold) return std::numeric_limits<double>::infinity();
    const double judged = 1 / threshold;  // bytes, or packets
    return (per == CrcRatio::per_byte ? judged : judged * link_bytes(payload_bytes)) / bytes_per_us;
}

}  // namespace fabric::lofamo
