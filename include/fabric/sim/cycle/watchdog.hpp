// The cycle kernel's deadlock watchdog: how often it looks, and the cycle search
// over the wait-for graph the kernel describes when it does. A vertex is
// something a flit waits in (an input VC, an output queue); an edge u -> v means
// the front flit of u, which has not moved for the watchdog's patience, waits for
// v to move. A cycle of such waits never resolves: a deadlock.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/graph.hpp>

namespace fabric::cycle {

class Watchdog {
public:
    /// Waits of `patience` cycles count; the graph is looked at every
    /// patience / 4 cycles (at most every 1024, at least every cycle).
    void reset(std::uint64_t patience) {
        patience_ = patience;
        every_ = std::max<std::uint64_t>(1, std::min<std::uint64_t>(patience / 4, 1024));
        until_ = every_;
    }
    [[nodiscard]] std::uint64_t patience() const { return patience_; }
    /// Whether a flit at the front since `since` has waited long enough at `now`.
    [[nodiscard]] bool stuck(std::uint64_t since, std::uint64_t now) const { return now >= since + patience_; }

    /// The cycles until the next at which to look, counting that one (1: this cycle).
    [[nodiscard]] std::uint64_t cycles_to_look() const { return until_; }

    /// Counts one cycle; whether this is a cycle at which to look.
    bool due() {
        if (--until_ != 0) return false;
        until_ = every_;
        return true;
    }
    /// Counts `cycles` cycles at once, as many calls of due() would (a driven run's
    /// idle cycles, skipped: nothing waits in them, so there is nothing to look at).
    void skip(std::uint64_t cycles) { until_ = (until_ - 1 + every_ - cycles % every_) % every_ + 1; }

    /// One cycle of waits among `vertices` vertices, whose edges edges(wait)
    /// gives by calling wait(from, to); empty when there is none.
    template <class Edges>
    [[nodiscard]] static std::vector<std::uint32_t> find(std::size_t vertices, Edges&& edges) {
        std::vector<std::vector<std::uint32_t>> waits(vertices);
        edges([&](std::size_t from, std::size_t to) { waits[from].push_back(static_cast<std::uint32_t>(to)); });
        return detail::find_cycle(waits);
    }

private:
    std::uint64_t patience_ = 1;
    std::uint64_t every_ = 1;
    std::uint64_t until_ = 1;
};

}  // namespace fabric::cycle
