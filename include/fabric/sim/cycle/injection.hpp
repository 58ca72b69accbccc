// Where the cycle kernel's packets come from: a Bernoulli process per node (or a
// trace), and per node its source queues, into which packets are dealt message
// by message. What a source queue holds was created but not yet injected, which
// is how an offered load above saturation shows; with
// CycleConfig::source_queue_packets set, the simulator refuses new messages at a
// terminal whose queues hold that many (CycleResult::refused), so memory stops
// growing.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/source/gap_table.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::cycle {

/// A Bernoulli trial per node per cycle with success probability `p`, drawn as
/// geometric gaps between successes: one random draw per packet, not one per
/// node-cycle, read off a table of the gaps' steps (source/gap_table.hpp). The next success of every node waits in a calendar (a wheel of
/// `horizon` cycles, the rarer far ones beside it), so a cycle costs the nodes
/// that create in it, in increasing node order, as a scan of every node would.
class BernoulliArrivals {
public:
    BernoulliArrivals(std::uint32_t nodes, double p)
        : p_(p), gaps_(p), nodes_(nodes),
          words_(nodes <= max_mask_nodes ? (nodes + 63) / 64 : 0) {
        if (words_) masks_.assign(horizon * words_, 0);
        else wheel_.resize(horizon);
    }

    /// Calls create(node) for each node whose trial succeeds at cycle `now`
    /// (called at every cycle from 0 on). At the first call, draws the first
    /// success of every node for which sends(node) holds.
    template <class Sends, class Create>
    void step(std::uint64_t now, Random& rng, Sends&& sends, Create&& create) {
        if (first_) {
            first_ = false;
            if (p_ > 0)
                for (std::uint32_t n = 0; n < nodes_; ++n)
                    if (sends(n)) schedule(n, now, now + gap(rng) - 1);
        }
        if (!far_.empty() && now >= bring_near_at_) bring_near(now);
        if (words_) {  // the cycle's nodes from its mask, in increasing order with no sort
            std::uint64_t* const due = masks_.data() + (now & (horizon - 1)) * words_;
            for (std::uint32_t w = 0; w < words_; ++w) {
                std::uint64_t bits = due[w];
                due[w] = 0;  // what is scheduled now lands in another cycle's mask
                for (; bits; bits &= bits - 1) {
                    const std::uint32_t n = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
                    create(n);
                    const std::uint64_t at = now + gap(rng);
                    if (at - now < horizon)  // near(), without its test of the mode
                        mark(n, at);
                    else
                        schedule(n, now, at);
                }
            }
            return;
        }
        auto& due = wheel_[now & (horizon - 1)];
        if (due.empty()) return;
        if (due.size() > 1) sort_small(due);
        current_.swap(due);
        for (const std::uint32_t n : current_) {
            create(n);
            schedule(n, now, now + gap(rng));
        }
        current_.clear();
    }

    /// Cycles from one success to the next: 1 + a geometric number of failures.
    [[gnu::always_inline]] std::uint64_t gap(Random& rng) const { return gaps_.draw(rng); }

private:
    static constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
    static constexpr std::uint64_t horizon = 1024;  // cycles the wheel holds ahead
    // Up to this many nodes the wheel is a mask of nodes per cycle (at most 512 KiB):
    // a node waits for one success at a time, so a cycle's nodes need no sort.
    static constexpr std::uint32_t max_mask_nodes = 4096;

    /// Node order, by insertion: a cycle's successes are few.
    static void sort_small(Bucket<std::uint32_t>& b) {
        if (b.size() > 32) return std::sort(b.begin(), b.end());
        for (std::size_t i = 1; i < b.size(); ++i) {
            const std::uint32_t x = b[i];
            std::size_t j = i;
            for (; j > 0 && b[j - 1] > x; --j) b[j] = b[j - 1];
            b[j] = x;
        }
    }

    void schedule(std::uint32_t n, std::uint64_t now, std::uint64_t at) {
        if (at - now < horizon) {
            near(n, at);
            return;
        }
        far_.push_back({at, n});
        bring_near_at_ = std::min(bring_near_at_, at - (horizon - 1));
    }
    /// Node n's next success at `at`, within the horizon: on the wheel.
    void near(std::uint32_t n, std::uint64_t at) {
        if (words_) mark(n, at);
        else wheel_[at & (horizon - 1)].push_back(n);
    }
    /// With masks: node n's bit in the slot of cycle `at`.
    [[gnu::always_inline]] void mark(std::uint32_t n, std::uint64_t at) {
        masks_[(at & (horizon - 1)) * words_ + n / 64] |= std::uint64_t{1} << (n % 64);
    }
    /// Moves the far successes now within the wheel's horizon onto it.
    void bring_near(std::uint64_t now) {
        bring_near_at_ = never;
        std::size_t keep = 0;
        for (const auto& [at, n] : far_) {
            if (at - now < horizon) {
                near(n, at);
            } else {
                far_[keep++] = {at, n};
                bring_near_at_ = std::min(bring_near_at_, at - (horizon - 1));
            }
        }
        far_.resize(keep);
    }

    double p_;
    GapTable gaps_;
    std::uint32_t nodes_, words_;                // words_: of a cycle's mask (0: buckets instead)
    std::vector<std::uint64_t> masks_;           // per cycle modulo the horizon: the nodes that create then
    std::vector<Bucket<std::uint32_t>> wheel_;  //  or, past max_mask_nodes, a bucket of them
    Bucket<std::uint32_t> current_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> far_;  // (cycle, node) past the horizon
    std::uint64_t bring_near_at_ = never;
    bool first_ = true;
};

/// On/off (bursty) arrivals: per node a two-state Markov chain (off -> on with
/// probability alpha a cycle, on -> off with beta), and a Bernoulli trial at
/// `p_on` in every cycle the node is on. Nodes start in the chain's stationary
/// state. Three draws a node-cycle: used only when asked for.
class OnOffArrivals {
public:
    OnOffArrivals(std::uint32_t nodes, double p, double alpha, double beta)
        : alpha_(alpha), beta_(beta), p_on_(p * (alpha + beta) / alpha), on_(nodes, 0) {
        if (p_on_ > 1 && p_on_ <= 1 + 1e-12) p_on_ = 1;  // exactly 1, but for rounding
        detail::require(p_on_ <= 1, "on/off injection: while on, a node must create ", p_on_,
                        " packets a cycle (rate x (alpha + beta) / alpha) but can create at most 1: lower the load or "
                        "beta, or raise alpha");
    }

    /// As BernoulliArrivals::step.
    template <class Sends, class Create>
    void step(std::uint64_t, Random& rng, Sends&& sends, Create&& create) {
        if (first_) {
            first_ = false;
            for (std::uint32_t n = 0; n < on_.size(); ++n) {
                if (!sends(n)) on_[n] = 2;
                else on_[n] = rng.uniform() * (alpha_ + beta_) < alpha_ ? 1 : 0;  // on with probability alpha / (alpha + beta)
            }
        }
        for (std::uint32_t n = 0; n < on_.size(); ++n) {
            auto& state = on_[n];
            if (state == 2) continue;  // sends nothing
            state = state ? rng.uniform() >= beta_ : rng.uniform() < alpha_;
            if (state && p_on_ > 0 && rng.uniform() < p_on_) create(n);
        }
    }

private:
    double alpha_, beta_, p_on_;
    std::vector<std::uint8_t> on_;  // 0 off, 1 on, 2 a node the pattern gives nothing to send
    bool first_ = true;
};

/// Checks a trace for a network of `nodes` nodes and `classes` traffic classes
/// (nodes and classes in range, 1 to 65535 flits, sorted by cycle); returns its
/// largest message.
inline std::uint32_t validate_trace(std::span<const TraceMessage> trace, std::uint32_t nodes,
                                    std::uint32_t classes = 1) {
    std::uint32_t largest = 1;
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const auto& m = trace[i];
        detail::require(m.source < nodes && m.destination < nodes, "trace message ", i,
                        " names a node out of range; valid: 0 to ", nodes - 1);
        detail::require(m.flits >= 1 && m.flits <= 65535, "trace message ", i, " needs 1 to 65535 flits");
        detail::require(m.traffic_class < classes, "trace message ", i, " names traffic class ", m.traffic_class,
                        "; the configuration has ", classes, " (CycleConfig::class_priority)");
        detail::require(i == 0 || trace[i - 1].cycle <= m.cycle, "trace messages must be sorted by cycle (message ", i,
                        ")");
        largest = std::max(largest, m.flits);
    }
    return largest;
}

/// Per node and traffic class, `queues` source queues of packet ids (one per
/// injection VC: class c has queues c * queues to (c + 1) * queues - 1);
/// messages of a class are dealt to its queues in turn.
class SourceQueues {
public:
    void reset(std::uint32_t nodes, std::uint32_t queues, std::uint32_t classes = 1) {
        per_class_ = queues;
        classes_ = classes;
        queues_ = queues * classes;
        rings_.assign(static_cast<std::size_t>(nodes) * queues_, RingQueue<std::uint32_t>{});
        next_.assign(static_cast<std::size_t>(nodes) * classes, 0);
        held_.assign(nodes, 0);
        packets_ = 0;
    }
    /// The queue of `node` that takes its next message of class `klass`.
    std::uint32_t deal(std::uint32_t node, std::uint32_t klass = 0) {
        std::uint32_t& next = next_[static_cast<std::size_t>(node) * classes_ + klass];
        const std::uint32_t q = next;
        next = q + 1 == per_class_ ? 0 : q + 1;
        return klass * per_class_ + q;
    }
    /// The class whose queues include queue `q`.
    [[nodiscard]] std::uint32_t class_of(std::uint32_t q) const { return q / per_class_; }
    /// Appends packet `id`; returns whether it is the front now.
    bool push(std::uint32_t node, std::uint32_t q, std::uint32_t id) {
        auto& ring = rings_[static_cast<std::size_t>(node) * queues_ + q];
        ring.push(id);
        ++packets_;
        ++held_[node];
        return ring.size() == 1;
    }
    [[gnu::always_inline]] [[nodiscard]] std::uint32_t front(std::uint32_t node, std::uint32_t q) const {
        return rings_[static_cast<std::size_t>(node) * queues_ + q].front();
    }
    /// Removes the front packet; returns whether the queue is empty now.
    [[gnu::always_inline]] bool pop(std::uint32_t node, std::uint32_t q) {
        auto& ring = rings_[static_cast<std::size_t>(node) * queues_ + q];
        ring.pop();
        --packets_;
        --held_[node];
        return ring.empty();
    }
    /// Packets waiting in all source queues.
    [[nodiscard]] std::uint64_t packets() const { return packets_; }
    /// Packets waiting in the source queues of `node`, all classes.
    [[nodiscard]] std::uint32_t held(std::uint32_t node) const { return held_[node]; }

private:
    std::uint32_t queues_ = 1, per_class_ = 1, classes_ = 1;
    std::vector<RingQueue<std::uint32_t>> rings_;
    std::vector<std::uint32_t> next_;
    std::vector<std::uint32_t> held_;  // per node: packets in its queues
    std::uint64_t packets_ = 0;
};

}  // namespace fabric::cycle
