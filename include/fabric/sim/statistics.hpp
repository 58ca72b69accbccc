// Latency statistics for the cycle kernel: an exact histogram with one bin per
// cycle (latencies are whole cycles), from which mean and percentiles are exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace fabric {

namespace detail {
/// The smallest latency L such that at least a fraction q of the `count` samples
/// counted in `bins` (index = cycles) are <= L; `fallback` if the bins hold fewer.
inline std::uint64_t histogram_percentile(std::span<const std::uint64_t> bins, std::uint64_t count, double q,
                                          std::uint64_t fallback) {
    if (count == 0) return 0;
    const auto need = static_cast<std::uint64_t>(q * static_cast<double>(count) + 0.999999999);
    std::uint64_t seen = 0;
    for (std::size_t c = 0; c < bins.size(); ++c) {
        seen += bins[c];
        if (seen >= (need == 0 ? 1 : need)) return c;
    }
    return fallback;
}
}  // namespace detail

class LatencyHistogram {
public:
    void add(std::uint64_t cycles) {
        if (cycles >= bins_.size()) [[unlikely]]
            grow(cycles);
        ++bins_[cycles];
        ++count_;
        sum_ += static_cast<double>(static_cast<std::int64_t>(cycles));  // the same value: a latency is below 2^63
        if (cycles > max_) max_ = cycles;
    }

    [[nodiscard]] std::uint64_t count() const { return count_; }
    [[nodiscard]] double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
    [[nodiscard]] std::uint64_t max() const { return max_; }

    /// The smallest latency L such that at least a fraction q of the samples are <= L.
    [[nodiscard]] std::uint64_t percentile(double q) const {
        return detail::histogram_percentile(bins_, count_, q, max_);
    }

    /// Samples per latency, index = cycles (up to max()).
    [[nodiscard]] std::vector<std::uint64_t> bins() const {
        return {bins_.begin(), bins_.begin() + static_cast<std::ptrdiff_t>(count_ ? max_ + 1 : 0)};
    }

    /// Samples per latency as kept (zeros may follow the largest): for summing histograms.
    [[nodiscard]] const std::vector<std::uint64_t>& raw() const { return bins_; }
    /// Takes `bins`, samples per latency, as the whole histogram (a sum of others).
    void assign(std::vector<std::uint64_t> bins) {
        bins_ = std::move(bins);
        count_ = max_ = 0;
        std::uint64_t total = 0;  // exact, as the sum added one latency at a time is while below 2^53
        for (std::size_t c = 0; c < bins_.size(); ++c) {
            count_ += bins_[c];
            total += bins_[c] * c;
            if (bins_[c]) max_ = c;
        }
        sum_ = static_cast<double>(total);
        if (bins_.size() < 256) bins_.resize(256, 0);
    }

private:
    /// Room for a latency past the bins (apart, so that add needs no frame).
    [[gnu::noinline]] void grow(std::uint64_t cycles) { bins_.resize(cycles + 1 + bins_.size() / 2, 0); }

    std::vector<std::uint64_t> bins_ = std::vector<std::uint64_t>(256, 0);
    std::uint64_t count_ = 0;
    std::uint64_t max_ = 0;
    double sum_ = 0;
};

}  // namespace fabric
