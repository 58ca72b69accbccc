// Latency statistics for the cycle kernel: an exact histogram (latencies are
// whole cycles), from which mean and percentiles are exact. Latencies below
// LatencyHistogram::dense_cycles have a bin each; longer ones (one huge
// message's, a saturated run's) are kept as (latency, count) pairs, so that the
// memory grows with the distinct long latencies seen, not with the longest.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace fabric {

/// Samples of one latency: (cycles, count).
using LatencyCount = std::pair<std::uint64_t, std::uint64_t>;

namespace detail {
/// The smallest latency L such that at least a fraction q of the `count` samples
/// counted in `bins` (index = cycles) and `beyond` (ascending, past the bins) are
/// <= L; `fallback` if they hold fewer.
inline std::uint64_t histogram_percentile(std::span<const std::uint64_t> bins, std::span<const LatencyCount> beyond,
                                          std::uint64_t count, double q, std::uint64_t fallback) {
    if (count == 0) return 0;
    const auto need = static_cast<std::uint64_t>(q * static_cast<double>(count) + 0.999999999);
    const std::uint64_t enough = need == 0 ? 1 : need;
    std::uint64_t seen = 0;
    for (std::size_t c = 0; c < bins.size(); ++c)
        if ((seen += bins[c]) >= enough) return c;
    for (const auto& [cycles, n] : beyond)
        if ((seen += n) >= enough) return cycles;
    return fallback;
}

/// `pairs` sorted by latency with the counts of equal latencies added.
inline std::vector<LatencyCount> merged(std::vector<LatencyCount> pairs) {
    std::sort(pairs.begin(), pairs.end());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (kept > 0 && pairs[kept - 1].first == pairs[i].first)
            pairs[kept - 1].second += pairs[i].second;
        else
            pairs[kept++] = pairs[i];
    }
    pairs.resize(kept);
    return pairs;
}
}  // namespace detail

class LatencyHistogram {
public:
    /// Latencies below this have a bin each (at most 512 KiB a histogram).
    static constexpr std::uint64_t dense_cycles = std::uint64_t{1} << 16;

    void add(std::uint64_t cycles) {
        if (cycles >= bins_.size()) [[unlikely]]
            return add_long(cycles);
        ++bins_[cycles];
        note(cycles);
    }

    [[nodiscard]] std::uint64_t count() const { return count_; }
    [[nodiscard]] double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
    [[nodiscard]] std::uint64_t max() const { return max_; }

    /// The smallest latency L such that at least a fraction q of the samples are <= L.
    [[nodiscard]] std::uint64_t percentile(double q) const {
        return detail::histogram_percentile(bins_, beyond(), count_, q, max_);
    }

    /// Samples per latency below dense_cycles, index = cycles, up to the largest such latency seen.
    [[nodiscard]] std::vector<std::uint64_t> bins() const {
        std::size_t n = bins_.size();
        while (n > 0 && bins_[n - 1] == 0) --n;
        return {bins_.begin(), bins_.begin() + static_cast<std::ptrdiff_t>(n)};
    }
    /// Samples of latencies from dense_cycles on, ascending by latency.
    [[nodiscard]] std::vector<LatencyCount> beyond() const {
        if (pending_.empty()) return far_;
        std::vector<LatencyCount> all = far_;
        for (const std::uint64_t c : pending_) all.emplace_back(c, 1);
        return detail::merged(std::move(all));
    }

    /// Samples per latency below dense_cycles as kept (zeros may follow the largest): for summing histograms.
    [[nodiscard]] const std::vector<std::uint64_t>& raw() const { return bins_; }
    /// Takes `bins` (samples per latency, below dense_cycles) and `beyond` (as beyond() gives
    /// them, in any order) as the whole histogram (a sum of others).
    void assign(std::vector<std::uint64_t> bins, std::vector<LatencyCount> beyond = {}) {
        bins_ = std::move(bins);
        far_ = detail::merged(std::move(beyond));
        pending_.clear();
        count_ = max_ = 0;
        std::uint64_t total = 0;  // exact, as the sum added one latency at a time is while below 2^53
        for (std::size_t c = 0; c < bins_.size(); ++c) {
            count_ += bins_[c];
            total += bins_[c] * c;
            if (bins_[c]) max_ = c;
        }
        for (const auto& [cycles, n] : far_) {
            count_ += n;
            total += n * cycles;
            max_ = cycles;
        }
        sum_ = static_cast<double>(total);
        if (bins_.size() < 256) bins_.resize(256, 0);
    }

private:
    void note(std::uint64_t cycles) {
        ++count_;
        sum_ += static_cast<double>(static_cast<std::int64_t>(cycles));  // the same value: a latency is below 2^63
        if (cycles > max_) max_ = cycles;
    }
    /// A latency past the bins (apart, so that add needs no frame): more bins below
    /// dense_cycles, a pair from there on, merged in batches.
    [[gnu::noinline]] void add_long(std::uint64_t cycles) {
        note(cycles);
        if (cycles < dense_cycles) {
            bins_.resize(std::min<std::uint64_t>(dense_cycles, cycles + 1 + bins_.size() / 2), 0);
            ++bins_[cycles];
            return;
        }
        pending_.push_back(cycles);
        if (pending_.size() >= std::max<std::size_t>(4096, far_.size())) {
            for (const std::uint64_t c : pending_) far_.emplace_back(c, 1);
            pending_.clear();
            far_ = detail::merged(std::move(far_));
        }
    }

    std::vector<std::uint64_t> bins_ = std::vector<std::uint64_t>(256, 0);
    std::vector<LatencyCount> far_;        // ascending, one pair a latency
    std::vector<std::uint64_t> pending_;   // latencies from dense_cycles on, not yet in far_
    std::uint64_t count_ = 0;
    std::uint64_t max_ = 0;
    double sum_ = 0;
};

}  // namespace fabric
