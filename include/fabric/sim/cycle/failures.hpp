// Link failures of the cycle kernel: the schedule of links that fail and come
// back during a run, and which channels are broken at the current cycle. A link
// fails and returns in both directions. A channel may also turn sick
// (link_errors.hpp): it still works, but routes avoid it from then on. The flags
// of broken and sick channels are what routing policies that avoid broken links
// are given (select_route with a span of flags per channel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace fabric::cycle {

class LinkFailures {
public:
    void fail(std::uint32_t channel, std::uint64_t cycle) { failures_.push_back({cycle, channel}); }
    void restore(std::uint32_t channel, std::uint64_t cycle) { restores_.push_back({cycle, channel}); }
    /// Whether any failure is scheduled (routes may then need detours).
    [[nodiscard]] bool scheduled() const { return !failures_.empty(); }

    /// All links work at the start of a run of `channels` channels.
    void reset(std::size_t channels) {
        broken_.assign(channels, 0);
        sick_.assign(channels, 0);
        avoid_.assign(channels, 0);
        any_ = false;
        sick_count_ = 0;
    }

    /// Applies what the schedule says for cycle `now`: first the failures, calling
    /// failed(channel) once for each link that breaks now (reverse(channel) names
    /// the other direction), then the restores.
    template <class Reverse, class Failed>
    void step(std::uint64_t now, Reverse&& reverse, Failed&& failed) {
        for (const auto& [cycle, channel] : failures_) {
            if (cycle != now || broken_[channel]) continue;
            broken_[channel] = avoid_[channel] = 1;
            broken_[reverse(channel)] = avoid_[reverse(channel)] = 1;
            any_ = true;
            failed(channel);
        }
        for (const auto& [cycle, channel] : restores_) {
            if (cycle != now) continue;
            broken_[channel] = 0;
            broken_[reverse(channel)] = 0;
            avoid_[channel] = sick_[channel];
            avoid_[reverse(channel)] = sick_[reverse(channel)];
        }
    }
    [[nodiscard]] bool active() const { return !failures_.empty() || !restores_.empty(); }

    /// Channel `channel` (one direction) is sick: routes avoid it from now on; it still carries flits.
    void sicken(std::size_t channel) {
        if (sick_[channel]) return;
        sick_[channel] = avoid_[channel] = 1;
        any_ = true;
        ++sick_count_;
    }
    [[nodiscard]] std::uint64_t sick_count() const { return sick_count_; }

    /// Whether a link has failed or turned sick during this run (routes then avoid some).
    [[nodiscard]] bool any() const { return any_; }
    [[nodiscard]] bool broken(std::size_t channel) const { return broken_[channel] != 0; }
    [[nodiscard]] bool sick(std::size_t channel) const { return sick_[channel] != 0; }
    /// Per channel, whether routes must avoid it: broken or sick.
    [[nodiscard]] std::span<const std::uint8_t> flags() const { return avoid_; }

private:
    std::vector<std::pair<std::uint64_t, std::uint32_t>> failures_;  // (cycle, channel)
    std::vector<std::pair<std::uint64_t, std::uint32_t>> restores_;  // (cycle, channel)
    std::vector<std::uint8_t> broken_, sick_, avoid_;  // per channel; avoid_ = broken_ or sick_
    bool any_ = false;
    std::uint64_t sick_count_ = 0;
};

}  // namespace fabric::cycle
