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
#include <fabric/link/crc_errors.hpp>
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

using fabric::CrcRatio;

/// The words the CRC covers in a packet of `payload_bytes`: header, payload, footer.
constexpr double crc_words(std::uint32_t payload_bytes) { return static_cast<double>(payload_bytes) / 16.0 + 2.0; }
/// Bytes a packet takes on the link: the covered words plus Magic and Start (64 bytes of protocol in all).
constexpr double link_bytes(std::uint32_t payload_bytes) { return static_cast<double>(payload_bytes) + 64.0; }

/// The probability that a packet of `payload_bytes` fails its CRC at word error rate `ber`.
inline double packet_error_probability(double ber, std::uint32_t payload_bytes) {
    fabric::detail::require(ber >= 0 && ber < 1, "LO|FA|MO: a word error rate lies in [0, 1); got ", ber);
    return any_in_error(ber, crc_words(payload_bytes));
}
/// The CRC errors a link counts, in the long run, per packet or per transferred
/// byte, at word error rate `ber` with packets of `payload_bytes`.
inline double crc_error_ratio(double ber, std::uint32_t payload_bytes, CrcRatio per) {
    const double p = packet_error_probability(ber, payload_bytes);
    return per == CrcRatio::per_packet ? p : p / link_bytes(payload_bytes);
}

/// The receiving end of one link (link/crc_errors.hpp), its judgement given as
/// the DNP_STATUS register's Status.
class LinkErrorCounter {
public:
    explicit LinkErrorCounter(double threshold = 1e-6, CrcRatio per = CrcRatio::per_byte, double judged_after = 0)
        : counter_(CrcRule{threshold, per, judged_after}) {}
    /// A packet of `payload_bytes` arrived; `crc_error`: its CRC did not match.
    void count(std::uint32_t payload_bytes, bool crc_error) { counter_.count(link_bytes(payload_bytes), crc_error); }
    [[nodiscard]] Status status() const { return counter_.sick() ? Status::sick : Status::normal; }
    [[nodiscard]] std::uint64_t errors() const { return counter_.errors(); }
    [[nodiscard]] std::uint64_t packets() const { return counter_.packets(); }
    [[nodiscard]] double bytes() const { return counter_.bytes(); }

private:
    CrcErrorCounter counter_;
};

/// The probability that a flit of `flit_bytes` (whole 16-byte words) has a wrong
/// word at word error rate `ber`: what the cycle kernel's link error rate is
/// (CycleSimulator::link_errors) for an APEnet+ link of Table 16's measure.
inline double flit_error_rate(double ber, std::uint32_t flit_bytes) {
    fabric::detail::require(ber >= 0 && ber < 1, "LO|FA|MO: a word error rate lies in [0, 1); got ", ber);
    fabric::detail::require(flit_bytes >= 16 && flit_bytes % 16 == 0, "LO|FA|MO: a flit is whole 16-byte words; got ",
                            flit_bytes, " bytes");
    return any_in_error(ber, static_cast<double>(flit_bytes / 16));
}

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
