// A link's receiver counting CRC errors and judging the link sick: the rule the
// APEnet+ link logic follows (EURETILE 2012 report, vol. II, sections 2.1.3 and
// 3.1.3.5: a link is sick "when the ratio between the number of errors and the
// number of packets received overruns a given (programmable) threshold", a ratio
// section 2.1.3 gives per transferred byte). Both ratios are offered. Used by the
// cycle kernel (a link that turns sick is routed round) and by LO|FA|MO's event
// model (fault/lofamo_link_health.hpp).
#pragma once

#include <cmath>
#include <cstdint>

#include <fabric/core/error.hpp>

namespace fabric {

/// The chance that at least one of `n` units (words, flits) is in error, each
/// with probability `p`: 1 - (1 - p)^n, exact for small p. A packet fails its CRC
/// when any unit it covers is wrong.
inline double any_in_error(double p, double n) { return -std::expm1(n * std::log1p(-p)); }

/// What the sickness threshold divides the CRC errors by.
enum class CrcRatio : std::uint8_t { per_byte, per_packet };

/// When a receiver declares its link sick: once it has seen `judged_after` (bytes
/// or packets, as the ratio; 0: 1 / threshold, so that no single error can make
/// a link sick), a ratio of errors above `threshold`.
struct CrcRule {
    double threshold = 1e-6;
    CrcRatio per = CrcRatio::per_byte;
    double judged_after = 0;

    void validate() const {
        detail::require(threshold > 0 && threshold < 1, "the CRC error threshold must lie in (0, 1); got ", threshold);
        detail::require(judged_after >= 0, "the CRC judgement's start (judged_after) must not be negative; got ",
                        judged_after);
    }
    [[nodiscard]] double start() const { return judged_after > 0 ? judged_after : 1 / threshold; }
};

/// The receiving end of one link: its packets, bytes and CRC errors counted, the
/// ratio judged by a CrcRule; once sick, it stays sick.
class CrcErrorCounter {
public:
    explicit CrcErrorCounter(CrcRule rule = {}) : rule_(rule), start_(rule.start()) { rule_.validate(); }
    /// A packet of `bytes` on the link arrived; `crc_error`: its CRC did not match.
    /// Returns whether the link turned sick with it.
    bool count(double bytes, bool crc_error) {
        bytes_ += bytes;
        ++packets_;
        errors_ += crc_error ? 1 : 0;
        if (sick_ || seen() < start_ || static_cast<double>(errors_) <= rule_.threshold * seen()) return false;
        sick_ = true;
        return true;
    }
    [[nodiscard]] bool sick() const { return sick_; }
    [[nodiscard]] std::uint64_t errors() const { return errors_; }
    [[nodiscard]] std::uint64_t packets() const { return packets_; }
    [[nodiscard]] double bytes() const { return bytes_; }

private:
    [[nodiscard]] double seen() const { return rule_.per == CrcRatio::per_byte ? bytes_ : static_cast<double>(packets_); }
    CrcRule rule_;
    double start_;
    double bytes_ = 0;
    std::uint64_t packets_ = 0, errors_ = 0;
    bool sick_ = false;
};

}  // namespace fabric
