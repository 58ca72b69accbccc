// A calendar of events by cycle: one bucket per cycle of a power-of-two horizon
// longer than the longest delay an event is scheduled ahead (link latency plus
// serialisation, the flow-control protocol's feedback delay). Buckets keep their
// capacity from run to run, so scheduling does not allocate once the peak is met.
#pragma once

#include <cstdint>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric::cycle {

template <class Event>
class EventWheel {
public:
    /// The smallest power of two greater than `longest_delay`.
    static constexpr std::uint64_t horizon_for(std::uint64_t longest_delay) {
        std::uint64_t size = 1;
        while (size <= longest_delay) size *= 2;
        return size;
    }

    /// Empties the wheel and sizes it for delays up to `longest_delay`.
    void reset(std::uint64_t longest_delay) {
        const std::uint64_t size = horizon_for(longest_delay);
        if (size != buckets_.size()) buckets_.assign(size, {});
        for (auto& b : buckets_) b.clear();
        mask_ = size - 1;
    }

    /// An event at cycle `at`; `at` must lie within the horizon ahead of now.
    void schedule(std::uint64_t at, const Event& e) { buckets_[at & mask_].push_back(e); }

    /// The events of cycle `now`; the caller handles them, then clears the bucket.
    [[nodiscard]] std::vector<Event>& due(std::uint64_t now) { return buckets_[now & mask_]; }

    /// Every bucket, for a rare sweep (a link failing drops what is on the wire).
    [[nodiscard]] std::vector<std::vector<Event>>& buckets() { return buckets_; }

    [[nodiscard]] std::uint64_t horizon() const { return mask_ + 1; }

private:
    std::vector<std::vector<Event>> buckets_;
    std::uint64_t mask_ = 0;
};

}  // namespace fabric::cycle
