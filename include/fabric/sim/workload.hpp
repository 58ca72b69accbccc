// Workloads of the cycle kernel: packet sizes, destination sampling from any
// traffic pattern, and message traces.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>

namespace fabric {

/// Packet sizes in flits: fixed, or bimodal (`small` with probability p_small, else `large`).
struct PacketSizes {
    std::uint32_t small = 1;
    std::uint32_t large = 1;
    double p_small = 1.0;

    static constexpr PacketSizes fixed(std::uint32_t flits) { return {flits, flits, 1.0}; }
    static constexpr PacketSizes bimodal(std::uint32_t small, std::uint32_t large, double p_small) {
        return {small, large, p_small};
    }

    void validate() const {
        detail::require(small >= 1 && large >= 1, "packets need at least 1 flit; got sizes ", small, " and ", large);
        detail::require(p_small >= 0 && p_small <= 1, "the probability of the small packet size must be in [0, 1]; got ",
                        p_small);
        detail::require(small <= 65535 && large <= 65535, "packets have at most 65535 flits");
    }
    [[nodiscard]] double mean() const { return p_small * small + (1 - p_small) * large; }
    [[nodiscard]] std::uint32_t max() const { return std::max(small, large); }
    [[nodiscard]] std::uint32_t draw(Random& rng) const {
        if (small == large) return small;
        return rng.uniform() < p_small ? small : large;
    }
};

/// One message of a trace: injected at `cycle` from `source` to `destination`.
struct TraceMessage {
    std::uint64_t cycle = 0;
    std::uint32_t source = 0;
    std::uint32_t destination = 0;
    std::uint32_t flits = 1;
    std::uint32_t traffic_class = 0;  // with CycleConfig::class_priority: which class
};

/// `count` messages of `flits` flits, one every `gap` cycles from cycle 0, each
/// from a random node to another random node (never itself); reproducible from
/// `seed`.
inline std::vector<TraceMessage> random_pairs_trace(std::uint32_t nodes, std::uint32_t count, std::uint64_t gap,
                                                    std::uint32_t flits, std::uint64_t seed = 1) {
    detail::require(nodes >= 2, "a random-pairs trace needs at least 2 nodes; got ", nodes);
    Random rng(seed);
    std::vector<TraceMessage> trace;
    trace.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const auto src = static_cast<std::uint32_t>(rng.below(nodes));
        auto dst = static_cast<std::uint32_t>(rng.below(nodes - 1));
        dst += dst >= src ? 1U : 0U;
        trace.push_back({i * gap, src, dst, flits});
    }
    return trace;
}

/// Draws destinations with a pattern's probabilities: through the pattern's own
/// sample() when it has one (uniform, transpose, permutations: no tables), else
/// from per-source cumulative tables built once from for_each_flow.
template <TrafficPattern P>
class DestinationSampler {
public:
    explicit DestinationSampler(const P& pattern) : pattern_(pattern) {
        if constexpr (!has_sample) {
            const std::size_t n = pattern.task_count();
            start_.assign(n + 1, 0);
            pattern.for_each_flow([&](std::size_t s, std::size_t, double a) {
                if (a > 0) ++start_[s + 1];
            });
            for (std::size_t s = 0; s < n; ++s) start_[s + 1] += start_[s];
            dest_.resize(start_[n]);
            cdf_.resize(start_[n]);
            std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
            pattern.for_each_flow([&](std::size_t s, std::size_t d, double a) {
                if (a <= 0) return;
                dest_[fill[s]] = static_cast<std::uint32_t>(d);
                cdf_[fill[s]] = a;
                ++fill[s];
            });
            for (std::size_t s = 0; s < n; ++s) {
                double total = 0;
                for (std::size_t i = start_[s]; i < start_[s + 1]; ++i) cdf_[i] = (total += cdf_[i]);
                for (std::size_t i = start_[s]; i < start_[s + 1]; ++i) cdf_[i] /= total;
            }
        }
    }

    /// True when source s sends anything.
    [[nodiscard]] bool sends(std::size_t s) const {
        if constexpr (has_sample) return true;
        else return start_[s + 1] > start_[s];
    }

    [[nodiscard]] std::size_t operator()(std::size_t s, Random& rng) const {
        if constexpr (has_sample) {
            return pattern_.sample(s, rng);
        } else {
            const double u = rng.uniform();
            const auto first = cdf_.begin() + static_cast<std::ptrdiff_t>(start_[s]);
            const auto last = cdf_.begin() + static_cast<std::ptrdiff_t>(start_[s + 1]);
            auto it = std::upper_bound(first, last, u);
            if (it == last) --it;
            return dest_[static_cast<std::size_t>(it - cdf_.begin())];
        }
    }

private:
    static constexpr bool has_sample = requires(const P& p, Random& r) {
        { p.sample(std::size_t{}, r) } -> std::convertible_to<std::size_t>;
    };
    const P& pattern_;
    std::vector<std::size_t> start_;
    std::vector<std::uint32_t> dest_;
    std::vector<double> cdf_;
};

}  // namespace fabric
