// Words a protocol's periodic Credits carry beside the credit itself: the spare
// bits of APEnet+'s Credit, which carry LO|FA|MO's LiFaMa Diagnostic Messages to
// the neighbours "without adding protocol overhead" (EURETILE 2012 report, vol.
// II, section 2.3). A node posts a word at a cycle; from then on each of the
// links into it carries the word upstream, to the neighbour at that link's other
// end, in the next Credit its receiver sends, one word a Credit in the order
// posted; the word arrives with its Credit. So when a neighbour hears depends on
// the link's frames and the Credit's flight, as the protocol has them, and not on
// the data the link carries. The kernel keeps what arrived, in order, for the
// caller (fault/lofamo_cycle.hpp reads it as LO|FA|MO does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace fabric::cycle {

/// A word that reached a neighbour: posted by `from` at `posted`, heard by `to`
/// at `arrived` on its link of port `port` (the link on which `to` sends to `from`).
struct SideBandWord {
    std::uint32_t word = 0;
    std::uint32_t from = 0, to = 0, port = 0;
    std::uint64_t posted = 0, arrived = 0;
    friend bool operator==(const SideBandWord&, const SideBandWord&) = default;
};

class SideBand {
public:
    /// Node `node` posts `word` at cycle `cycle` of the next run, to every neighbour.
    void post(std::uint32_t node, std::uint32_t word, std::uint64_t cycle) { posts_.push_back({cycle, node, word}); }
    [[nodiscard]] bool any() const { return !posts_.empty(); }

    /// The start of a run of `channels` input ports (as channels) on routers of `ports` ports.
    void reset(std::size_t channels, std::uint32_t ports) {
        ports_ = ports;
        queued_.assign(posts_.empty() ? 0 : channels, {});
        flying_.clear();
        heard_.clear();
    }

    /// At cycle `now`: each word posted now joins the queue of every link into its
    /// node (connected(channel): the input port has a link).
    template <class Connected>
    void step(std::uint64_t now, Connected&& connected) {
        for (const Post& p : posts_) {
            if (p.cycle != now) continue;
            for (std::uint32_t port = 0; port < ports_; ++port) {
                const std::size_t channel = std::size_t{p.node} * ports_ + port;
                if (connected(channel)) queued_[channel].push_back(p);
            }
        }
    }

    /// The receiver of input port `channel` sends a Credit to router `to`'s
    /// output port `port`, where it arrives at `due`: it carries the first word queued there.
    void credit_sent(std::size_t channel, std::uint32_t to, std::uint32_t port, std::uint64_t due) {
        if (queued_.empty() || queued_[channel].empty()) return;
        const Post p = queued_[channel].front();
        queued_[channel].pop_front();
        flying_.push_back({p.word, p.node, to, port, p.cycle, due});
    }

    /// What arrives at `now`, heard in the order sent.
    void deliver(std::uint64_t now) {
        if (flying_.empty()) return;
        std::size_t keep = 0;
        for (const SideBandWord& w : flying_) {
            if (w.arrived == now) heard_.push_back(w);
            else flying_[keep++] = w;
        }
        flying_.resize(keep);
    }

    /// The words heard in the last run, in the order they arrived.
    [[nodiscard]] const std::vector<SideBandWord>& heard() const { return heard_; }

private:
    struct Post {
        std::uint64_t cycle;
        std::uint32_t node, word;
    };
    std::uint32_t ports_ = 1;
    std::vector<Post> posts_;                 // as posted, for every run
    std::vector<std::deque<Post>> queued_;    // per input port (as a channel): words waiting for a Credit
    std::vector<SideBandWord> flying_;        // in Credits on their way
    std::vector<SideBandWord> heard_;
};

}  // namespace fabric::cycle
