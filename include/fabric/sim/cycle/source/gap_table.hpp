// Geometric gaps between Bernoulli successes without a logarithm a draw. The gap
// a draw gives is defined by one expression of the 53-bit uniform the draw makes
// (gap_of: 1 + floor(log(1 - u) / log(1 - p)), the kernel's since it drew gaps);
// that expression never decreases as the uniform grows, so it is a step function
// of the draw's 53 bits, and its steps are found once, by binary search over the
// same expression: the table answers with the same gap for every draw. A draw
// near a step (within `guard` of it, where a logarithm that is not correctly
// rounded might wobble) and one past the table's last step (the long gaps of the
// tail, 1/1024 of the draws) are answered by the expression itself. A first-level index by the
// draw's top bits leaves a step or two to scan.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/core/random.hpp>

namespace fabric::cycle {

class GapTable {
public:
    static constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

    /// Gaps of a Bernoulli process with success probability `p` a cycle.
    explicit GapTable(double p) : p_(p), log_miss_(p < 1 ? std::log1p(-p) : 0.0) {
        if (p_ <= 0 || p_ >= 1) return;
        // bound_[k]: the least 53-bit draw whose gap exceeds k + 1 (draws below it give at most k + 1).
        // Steps up to where a gap's tail holds a 1/1024 of the draws (those take the expression).
        const double tail = std::log(1.0 / 1024) / log_miss_;
        for (std::uint64_t k = 1; bound_.size() < max_steps && static_cast<double>(k) < tail; ++k) {
            std::uint64_t lo = bound_.empty() ? 0 : bound_.back(), hi = std::uint64_t{1} << 53;
            if (gap_of(hi - 1) <= k) break;  // the last step: every draw from here on gives at most k
            while (lo < hi) {                // the least draw giving more than k
                const std::uint64_t mid = lo + (hi - lo) / 2;
                if (gap_of(mid) > k) hi = mid;
                else lo = mid + 1;
            }
            bound_.push_back(lo);
        }
        index_.assign(std::size_t{1} << index_bits, 0);
        for (std::size_t b = 0, k = 0; b < index_.size(); ++b) {
            const std::uint64_t first = std::uint64_t{b} << (53 - index_bits);
            while (k < bound_.size() && bound_[k] <= first) ++k;
            index_[b] = static_cast<std::uint32_t>(k);
        }
    }

    /// Cycles from one success to the next, for a draw of the stream: 1 + a geometric number of failures.
    [[gnu::always_inline]] std::uint64_t draw(Random& rng) const {
        if (p_ >= 1) return 1;
        const std::uint64_t m = rng.next() >> 11;  // the 53 bits Random::uniform() takes
        if (p_ <= 0) return gap_of(m);
        std::size_t k = index_[m >> (53 - index_bits)];
        while (k < bound_.size() && m >= bound_[k]) ++k;
        if (k == bound_.size() || bound_[k] - m <= guard || (k > 0 && m - bound_[k - 1] < guard)) [[unlikely]]
            return gap_of(m);
        return k + 1;
    }

    /// The gap of the 53-bit draw `m`: the expression itself.
    [[nodiscard]] std::uint64_t gap_of(std::uint64_t m) const {
        if (p_ >= 1) return 1;
        const double u = 1.0 - static_cast<double>(m) * 0x1.0p-53;  // (0, 1]
        // floor(g) by truncation: g >= 0 (or -0), and any g past 1e18 is an integer already.
        const double g = std::log(u) / log_miss_;
        return g > 1e18 ? never / 2 : static_cast<std::uint64_t>(static_cast<std::int64_t>(g)) + 1;
    }
    [[nodiscard]] double probability() const { return p_; }
    /// Steps the table holds (draws past the last are answered by the expression).
    [[nodiscard]] std::size_t steps() const { return bound_.size(); }

private:
    static constexpr std::size_t max_steps = 4096;
    static constexpr unsigned index_bits = 10;
    static constexpr std::uint64_t guard = std::uint64_t{1} << 16;  // draws this near a step take the expression
    double p_, log_miss_;
    std::vector<std::uint64_t> bound_;
    std::vector<std::uint32_t> index_;  // per top index_bits of a draw: the steps below its first draw
};

}  // namespace fabric::cycle
