// How far the ranks of a partitioned run may go without hearing from each other:
// the lookahead. Everything that crosses from one rank to another (a flit on a
// link, a credit or other feedback coming back) is due some cycles after it is
// sent; the smallest such delay over the channels the partition cuts is the
// window W. What a rank sends in a window of W cycles is due after the window,
// so the ranks need exchange only once a window, each with the ranks it has
// channels to (SST's synchronisation works the same way: its window is the
// least latency of a link between ranks). Computed from the links as they stand
// when a run starts (a slowed link only takes longer).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <fabric/sim/cycle/partition.hpp>

namespace fabric::cycle {

/// A partitioned run's exchange plan, the same on every rank but for `neighbours`.
struct Lookahead {
    /// The longest a window may be, in cycles (1: the ranks exchange every cycle).
    std::uint32_t window = 1;
    /// What sets it: the least delay of a flit over a cut channel, and of feedback.
    std::uint64_t flit_delay = 0, feedback_delay = 0;
    /// Channels (one direction of a link) whose two ends are on different ranks.
    std::uint64_t cut_channels = 0;
    /// The ranks this rank exchanges with: those it has a channel to or from, in
    /// increasing order; every other rank when `everyone`.
    std::vector<std::uint32_t> neighbours;
    /// Whether every rank must hear of every cycle (links fail in the run: lost
    /// flits are told to every rank at the end of the cycle they are lost in).
    bool everyone = false;

    /// The longest window taken even where nothing crosses ranks (a run needs its
    /// totals summed now and then).
    static constexpr std::uint32_t most = 1024;
};

/// The lookahead of a run of `core` split by `partition` (alone: no cut, and
/// windows of `most`).
template <class Core>
[[nodiscard]] Lookahead plan_lookahead(const Core& core, const Partition& partition) {
    Lookahead plan;
    const auto& links = core.channels().links();
    const auto& pd = core.cfg().pipeline;
    const std::uint32_t P = core.shape().ports;
    const std::uint32_t rank = partition.rank();
    // A flit granted the switch at cycle g is put on its link at g (from an output
    // queue at the cycle it leaves the queue) and starts at g + the switch stages at
    // the soonest; it is in the next buffer serialisation - 1 + latency cycles later.
    const std::uint64_t stages =
        core.cfg().output_buffer_flits > 0 ? 0 : std::uint64_t{pd.switch_allocation} + pd.switch_traversal;
    std::uint64_t flit = std::numeric_limits<std::uint64_t>::max(), feedback = flit;
    std::vector<char> linked(partition.ranks(), 0);
    for (std::size_t c = 0; c < links.channels(); ++c) {
        if (!links.connected(c)) continue;
        const auto up = static_cast<std::uint32_t>(c / P), down = links.down(c);
        const std::uint32_t from = partition.rank_of(up), to = partition.rank_of(down);
        if (from == to) continue;
        ++plan.cut_channels;
        flit = std::min<std::uint64_t>(flit, stages + links.serialisation(c) - 1 + links.latency(c));
        feedback = std::min<std::uint64_t>(feedback, core.channels().feedback_delay(c));
        if (from == rank) linked[to] = 1;  // flits go there, its feedback comes back
        if (to == rank) linked[from] = 1;
    }
    plan.everyone = partition.split() && core.failures().active();
    for (std::uint32_t r = 0; r < partition.ranks(); ++r)
        if (r != rank && (linked[r] || plan.everyone)) plan.neighbours.push_back(r);
    if (plan.cut_channels == 0) {
        plan.window = Lookahead::most;
        return plan;
    }
    plan.flit_delay = flit;
    plan.feedback_delay = feedback;
    plan.window = plan.everyone ? 1U
                                : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
                                      std::min(flit, feedback), 1, Lookahead::most));
    return plan;
}

/// How finely the ranks tell each other how long the run surely goes on.
inline constexpr std::size_t reach_levels = 8;

/// What ends a run, summed over the ranks: measured packets, those delivered or
/// lost, packets in source queues, flits buffered, flits on links; and, in a
/// partitioned run, how many ranks know the run cannot end within W, W / 2, ...
/// W / 128 cycles (Windows::put_reach).
using RunTotals = std::array<std::uint64_t, 5 + reach_levels>;

/// Where a partitioned run's windows end. A window ends wherever the serial run
/// could stop or look: at the watchdog's cycles, at the converging sampler's
/// period ends, and at every cycle from the end of the measurement (or of the
/// trace) on, but where what ends the run cannot change fast enough for it to
/// end: many measured packets or flits left (each terminal ejects one a cycle),
/// a packet it waits for still to cross to its destination's rank (crossing
/// takes a window), or the last flit of one due there later (each rank says how
/// long it knows the run goes on, and the longest counts); and before the source
/// queues could reach the memory limit. The totals are summed over the ranks
/// only at the ends of the windows that need them (to look at what ends the run,
/// or to bound the queues again); between, the queues' bound grows by the most
/// packets a cycle creates.
class Windows {
public:
    /// What bounds the windows of one run (window_end: of the measurement).
    struct Limits {
        std::uint64_t window_end = 0, stop = 0;
        std::optional<std::uint64_t> trace_end;
        std::uint64_t terminals = 1;
        std::uint64_t most_packets = 1;   // new packets a cycle, at most
        std::uint64_t memory_cap = 1;     // the packets the source queues may hold (the memory limit)
        std::uint64_t queue_bound = 1;    // past the measurement: the run stops once the queues hold more
        std::uint64_t sample_period = 0;  // the converging sampler looks at the end of every period (0: off)
    };

    /// The first window, from cycle 0, `to_look` cycles before the watchdog looks (counting that one).
    void start(const Lookahead& plan, const Limits& limits, std::uint64_t to_look) {
        window_ = plan.window;
        limits_ = limits;
        limits_.most_packets = std::max<std::uint64_t>(limits.most_packets, 1);
        limits_.terminals = std::max<std::uint64_t>(limits.terminals, 1);
        queued_ = 0;
        plan_from(0, RunTotals{}, to_look);
    }
    /// Limits that move during a run (the converging sampler's window).
    [[nodiscard]] Limits& limits() { return limits_; }

    /// This rank knows that the run cannot end within `reach` cycles from the end
    /// of this window: recorded in `totals` for the sum over the ranks.
    void put_reach(RunTotals& totals, std::uint64_t reach) const {
        for (std::size_t j = 0; j < reach_levels; ++j) totals[5 + j] = reach >= level(j);
    }

    /// Whether cycle `now` ends the current window (the ranks exchange).
    [[nodiscard]] bool ends(std::uint64_t now) const { return now >= last_; }
    /// At the end of the window ending at `now`: whether the totals must be summed,
    /// to look at what ends the run (from `looks_from` on, or the watchdog looks)
    /// or to bound the queues again before the next window.
    [[nodiscard]] bool needs_totals(std::uint64_t now, bool watchdog_looks) const {
        return watchdog_looks || now + 1 >= looks_from() || period_ends(now) ||
               queued_ + (std::uint64_t{window_} + 1) * limits_.most_packets >= limits_.memory_cap;
    }
    /// The next window, from `now + 1`, after a window whose totals were summed
    /// (`totals`) or not (nullptr: the queues' bound stays the grown one).
    void next(std::uint64_t now, const RunTotals* totals, std::uint64_t to_look) {
        RunTotals t{};
        if (totals) {
            t = *totals;
            queued_ = t[2];
        }
        t[2] = queued_;
        plan_from(now + 1, t, to_look);
    }

private:
    /// From here on the run may stop at any cycle.
    [[nodiscard]] std::uint64_t looks_from() const {
        return limits_.trace_end ? *limits_.trace_end : std::max<std::uint64_t>(limits_.window_end, 1) - 1;
    }
    [[nodiscard]] bool period_ends(std::uint64_t now) const {
        return limits_.sample_period && (now + 1) % limits_.sample_period == 0;
    }
    [[nodiscard]] std::uint64_t level(std::size_t j) const { return std::max<std::uint64_t>(1, window_ >> j); }
    /// The longest any rank knows the run goes on (0: none knows).
    [[nodiscard]] std::uint64_t reach(const RunTotals& total) const {
        for (std::size_t j = 0; j < reach_levels; ++j)
            if (total[5 + j] > 0) return level(j);
        return 0;
    }
    void plan_from(std::uint64_t first, const RunTotals& total, std::uint64_t to_look) {
        const std::uint64_t terminals = limits_.terminals, most = limits_.most_packets;
        // The cycles over which what moves by at most `step` a cycle, `room` away from a limit, cannot reach it.
        auto within = [](std::uint64_t room, std::uint64_t step) { return room / step + 1; };
        std::uint64_t len = window_;
        const std::uint64_t from = looks_from();
        if (first < from) {
            len = std::min(len, from - first + 1);
        } else if (limits_.trace_end) {
            // Empty once every flit left is ejected, at most one a terminal a cycle.
            const std::uint64_t left = total[2] + total[3] + total[4];
            len = std::min(len, std::max(left ? within(left - 1, terminals) : 1, reach(total)));
        } else {
            // In once every measured packet left has its tail ejected, at most one a terminal a cycle; stopped
            // once the source queues outgrow their bound, by at most `most` packets a cycle.
            const std::uint64_t left = total[0] - total[1], bound = limits_.queue_bound;
            len = std::min(len, std::max(left ? within(left - 1, terminals) : 1, reach(total)));
            len = std::min(len, total[2] <= bound ? within(bound - total[2], most) : 1);
        }
        len = std::min(len, limits_.stop > first ? limits_.stop - first : 1);
        len = std::min(len, to_look);
        if (const std::uint64_t p = limits_.sample_period) len = std::min(len, p - first % p);  // to a period's end
        // The memory limit: the queues stay below it until the window's end.
        const std::uint64_t cap = limits_.memory_cap;
        len = std::max<std::uint64_t>(1, std::min(len, total[2] < cap ? within(cap - 1 - total[2], most) : 1));
        last_ = first + len - 1;
        queued_ = total[2] + len * most;
    }

    std::uint32_t window_ = 1;
    Limits limits_;
    std::uint64_t last_ = 0;
    std::uint64_t queued_ = 0;  // the source queues hold at most this many packets at the window's end
};

}  // namespace fabric::cycle
