// A cycle-kernel run: the phases of every cycle, in a fixed order, over the
// parts the kernel joins (kernel.hpp), and the figures derived at its end.
//
// Each cycle:
//   1. links fail or come back, as scheduled;
//   2. replies due are created, then the workload's new messages (sources);
//   3. framed links' receivers send their periodic Credits;
//   4. feedback, then flits, due now reach their receivers (channels -> routers);
//   5. every router with work steps (VC and switch allocation, traversal onto a
//      link, into an output queue or out to a sink);
//   6. a partitioned run's ranks exchange what crossed between them, at the
//      end of a window of cycles (lookahead.hpp);
//   7. the cycle's losses settle and retired packets are freed;
//   8. what ends the run is summed (over the ranks of a partitioned run) and
//      looked at: the window, the drain, the memory limit, the watchdog.
// A partitioned run sums and looks only at the end of its windows: a window
// ends wherever the serial run could stop or look (the watchdog's cycles, the
// cycles from the end of the measurement on, before the memory limit could be
// reached), so that it stops where the serial run stops.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/deadlock_search.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/lookahead.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/run_figures.hpp>
#include <fabric/sim/cycle/sampler.hpp>
#include <fabric/sim/cycle/sources.hpp>
#include <fabric/sim/cycle/watchdog.hpp>

namespace fabric::cycle {

/// What creates a workload's messages of a cycle: called once a cycle, through a
/// pointer, so that one run loop serves every workload (the work it calls is
/// inlined where it is written).
struct Injection {
    void* context;
    void (*inject)(void* context, std::uint64_t now, Random& rng);
    std::uint64_t most_packets;  // the most packets it creates in one cycle, or in all (a trace)
    template <class F>
    static Injection of(F& f, std::uint64_t most_packets) {
        return {&f, [](void* c, std::uint64_t now, Random& rng) { (*static_cast<F*>(c))(now, rng); }, most_packets};
    }
    void operator()(std::uint64_t now, Random& rng) const { inject(context, now, rng); }
};

/// What drives a run from outside the kernel through the message port (a
/// workload's dependency engine, or a simulator that embeds fabric), asked through
/// pointers once a cycle at most: a call per cycle, never one per flit.
struct Driver {
    static constexpr std::uint64_t never = ~std::uint64_t{0};
    void* context = nullptr;
    /// The first cycle at or after `from` at which it has something to do (a message
    /// to inject, a compute to end), or never.
    std::uint64_t (*next)(void* context, std::uint64_t from) = nullptr;
    /// Whether it expects nothing more: the run ends once the network is empty too.
    /// Null: it never ends the run (an embedding simulator decides when to stop).
    bool (*finished)(void* context) = nullptr;
};

/// A run as an object that can be advanced and resumed: the phases of every cycle
/// in the order above, whoever advances it. simulate() runs it to its end at once
/// (open-loop traffic and traces); a driven run (Driven: a workload engine or an
/// embedding simulator, through Sources::port()) is advanced to a cycle or to the
/// next report of a message sent or delivered, and ends when its driver has
/// finished and the network is empty, or, for a workload, when nothing more can
/// happen (the engine then says what waits). A driven run alone (not partitioned)
/// skips cycles in which nothing can happen: the network empty for longer than any
/// feedback is in flight, no link failure scheduled, no periodic Credit to send,
/// and nothing for the driver to do before a later cycle; the watchdog's count goes
/// on over them, so that a skipped run is the run that steps every cycle. Nothing
/// in flight and nothing to come ends a workload's run (its engine says what
/// waits) and returns an embedder's advance(), never a hang.
template <class Kernel, CycleTransport Tx, bool Driven = false>
class Run {
    static constexpr bool alone = std::is_same_v<Tx, Alone>;  // nothing crosses ranks: no exchange, no sums

public:
    static constexpr std::uint64_t never = Driver::never;

    /// A run from cycle 0; for a trace ending at `trace_end`, until it is injected
    /// and the network is empty. inject(now, rng) creates the workload's messages of
    /// cycle `now`.
    Run(Kernel& k, std::optional<std::uint64_t> trace_end, Injection inject, Tx& tx, Driver driver = {})
        : k_(k), tx_(tx), cfg_(k.settings()), trace_end_(trace_end), inject_(inject), driver_(driver),
          split_(!alone && k.split()) {
        k.reset();
        watchdog_.reset(cfg_.watchdog);
        rng_ = Random(cfg_.seed);
        fixed_warmup_ = cfg_.warmup;
        fixed_measure_ = cfg_.measure;
        sampled_.start(cfg_);
        bounds();
        if (split_)
            windows_.start(k.channels().remote().lookahead(),
                           {window_end_, stop_, trace_end_, k.shape().terminals, inject_.most_packets,
                            k.source_packet_cap(), cfg_.max_queued_per_node * k.shape().terminals,
                            cfg_.sampling.enabled() ? cfg_.sampling.sample_period : 0},
                           watchdog_.cycles_to_look());
        last_report_ = std::chrono::steady_clock::now();
        if constexpr (Driven) {
            feedback_reach_ = feedback_reach(k);
            if (feedback_reach_ == never) skip_from_ = never;
        }
    }
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    /// Runs until the run ends; a driven run also stops before cycle `until`, and,
    /// with `to_report`, after the first cycle that reported a message sent or
    /// delivered (Sources::port().reports()).
    void advance([[maybe_unused]] std::uint64_t until = never, [[maybe_unused]] bool to_report = false) {
        if (over_) return;
        std::uint64_t now = now_;
        [[maybe_unused]] const std::uint64_t reported = k_.sources().port().reported();
        for (;; ++now) {
            if constexpr (Driven) {
                if (now >= until) break;
                if (alone && quiet_since_ != never) {  // the network empty, the port holding nothing
                    const std::uint64_t next = pending(now);
                    if (next == never) {  // nothing will ever happen
                        if (!driver_.finished) {  // an embedder's run waits for its next message
                            if (until == never) break;
                        } else {  // a workload waits for what never comes (finished: ended in cycle())
                            over_ = true;
                            k_.observer().res.drained = driver_.finished(driver_.context);
                            break;
                        }
                    }
                    if (next > now && now >= skip_from_ && !k_.failures().active()) {
                        const std::uint64_t to = std::min(next, until);  // cycles now .. to - 1 are idle
                        watchdog_.skip(to - now);
                        now = to;
                        if (now >= until) break;
                    }
                }
            }
            if (cycle(now)) {
                over_ = true;
                ++now;
                break;
            }
            if constexpr (Driven) {
                if (to_report && k_.sources().port().reported() != reported) {
                    ++now;
                    break;
                }
            }
        }
        now_ = now;
    }

    /// Whether the run has ended (the next cycle would not be run).
    [[nodiscard]] bool over() const { return over_; }
    /// The next cycle the run would step (after it ended: the cycles it ran).
    [[nodiscard]] std::uint64_t now() const { return now_; }

    /// The run's figures, once: ended, or stopped where it stands (cycles: now()).
    CycleResult finish() {
        CycleResult& res = k_.observer().res;
        res.flits_in_flight = k_.count_in_flight();
        if constexpr (!alone) {
            if (split_) {
                Observer& obs = k_.observer();
                std::vector<LatencyHistogram*> hists{&obs.latency, &obs.network, &obs.message, &obs.transaction};
                std::vector<std::uint64_t*> per_class;
                obs.classes.for_each_counted([&](std::uint64_t& c) { per_class.push_back(&c); },
                                             [&](LatencyHistogram& h) { hists.push_back(&h); });
                sum_over_ranks(tx_, res, hists, k_.channels().sent_in_window(), per_class);
            }
        }
        CycleResult r = finish_run(k_, now_);
        cfg_.warmup = fixed_warmup_;
        cfg_.measure = fixed_measure_;
        return r;
    }

private:
    void bounds() {
        window_end_ = cfg_.warmup + cfg_.measure;
        if constexpr (Driven) {
            stop_ = cfg_.drain_limit ? cfg_.drain_limit : never;  // a workload ends with itself, or its report
        } else if (trace_end_ && !cfg_.drain_limit) {
            // A trace drains until every message is delivered: its work is what its messages carry, not a
            // multiple of its window (one message of 65,535 flits outlasts any such bound); only a deadlock
            // (the watchdog), the memory limit or a drain_limit set stops it earlier, each reported.
            stop_ = std::uint64_t{1} << 62;
        } else {
            const auto drain = cfg_.drain_limit ? cfg_.drain_limit : std::max<std::uint64_t>(3 * window_end_, 20000);
            stop_ = std::max(window_end_, trace_end_.value_or(0) + 1) + drain;
        }
    }
    [[nodiscard]] bool empty() const {
        return total_[2] == 0 && total_[3] == 0 && total_[4] == 0 && k_.sinks().replies().empty();
    }

    /// The cycles after the network emptied before no feedback can be due any more.
    static std::uint64_t feedback_reach(Kernel& k) {
        using Channels = std::remove_cvref_t<decltype(k.channels())>;
        if constexpr (Channels::Frames::ticks) {
            return never;  // periodic Credits every frame: no cycle is idle
        } else {
            return std::uint64_t{k.flow().feedback_delay()} +
                   (k.cfg().feedback_over_link ? k.channels().links().max_latency() : 0) + 1;
        }
    }
    /// The first cycle from `now` at which the driver or the port has something to do, or never.
    [[nodiscard]] std::uint64_t pending(std::uint64_t now) {
        const std::uint64_t port = k_.sources().port().next_injection();
        const std::uint64_t driven = driver_.next ? driver_.next(driver_.context, now) : never;
        return std::min(port, driven);
    }

    /// Cycle `now`, its phases in order; whether the run ends with it.
    [[gnu::always_inline]] bool cycle(std::uint64_t now) {
        Kernel& k = k_;
        CycleConfig& cfg = cfg_;
        CycleResult& res = k.observer().res;
        auto& routers = k.routers();
        auto& channels = k.channels();
        LinkFailures& failures = k.failures();
        if (failures.active())
            failures.step(
                now, [&](std::size_t c) { return channels.links().reverse(c); },
                [&](std::uint32_t channel) { k.link_failed(channel, now); });
        if (cfg.request_reply.enabled()) k.sources().create_replies(now, rng_, k);
        if constexpr (Driven) {
            inject_(now, rng_);
            k.sources().inject_port(now, k);
        } else {
            if (!trace_end_ || now <= *trace_end_) inject_(now, rng_);
        }
        channels.tick_receivers(now);
        channels.deliver(
            now, [&](std::uint32_t n) { routers.feedback(n, now); },
            [&](const Arrival& a) {
                if (k.crossed_link(a, now)) routers.arrive(a, now, k);
            });
        routers.step_all(now, k);
        bool window_ends = true;  // whether the ranks exchange this cycle
        if constexpr (!alone) {
            if (split_) {
                window_ends = windows_.ends(now);
                if (window_ends) channels.exchange(now, tx_, k.losses(), k.packets());
                else if (!k.losses().pending().empty())
                    throw std::logic_error("fabric: a packet was lost inside a window of a partitioned run that "
                                           "schedules no link failure; the ranks could not hear of it in time");
            }
        }
        k.sinks().settle_losses(k);
        const bool watchdog_looks = watchdog_.due();
        if (cfg.on_progress && (now & 0x3fff) == 0) {
            const auto t = std::chrono::steady_clock::now();
            if (std::chrono::duration<double>(t - last_report_).count() >= cfg.progress_seconds) {
                last_report_ = t;
                cfg.on_progress(CycleProgress{now, stop_, res.measured_packets, res.measured_delivered});
            }
        }
        if (!window_ends) return false;
        if (split_ && !windows_.needs_totals(now, watchdog_looks)) {  // nothing can end the run here
            windows_.next(now, nullptr, watchdog_.cycles_to_look());
            return false;
        }
        total_ = {res.measured_packets, res.measured_delivered + res.measured_lost, k.sources().queues().packets(),
                  routers.buffered(), channels.in_flight()};
        if constexpr (!alone) {
            if (split_) {
                windows_.put_reach(total_, k.run_goes_on(now, !trace_end_));
                tx_.sum(total_);
            }
        }
        if (sampled_.due(cfg, now + 1)) {
            auto seen = SampledWindow::Seen::of(res);
            if constexpr (!alone) {
                if (split_) {
                    std::array<std::uint64_t, 4> sums{seen.packets_delivered, seen.delivered_latency_sum,
                                                      seen.flits_ejected, seen.flits_refused};
                    tx_.sum(sums);
                    seen = {sums[0], sums[1], sums[2], sums[3]};
                }
            }
            if (!sampled_.period_over(now + 1, k.shape().terminals, cfg, seen, res)) {
                res.drained = false;  // unstable: reported saturated, not drained
                return true;
            }
            bounds();
            windows_.limits().window_end = window_end_;
            windows_.limits().stop = stop_;
        }
        const bool measured_in = total_[0] == total_[1];
        if constexpr (Driven) {
            const bool quiet = empty() && k.sources().port().next_injection() == never;
            if (!quiet) {
                quiet_since_ = never;
            } else if (quiet_since_ == never) {
                quiet_since_ = now + 1;
                skip_from_ = feedback_reach_ == never ? never : now + 1 + feedback_reach_;
            }
            if (quiet && driver_.finished && driver_.finished(driver_.context)) return true;  // drained
            if (now + 1 >= stop_) {
                res.drained = false;
                return true;
            }
        } else {
            if (trace_end_ ? now >= *trace_end_ && empty() : now + 1 >= window_end_ && measured_in) return true;
            if (now + 1 >= stop_ ||
                (!trace_end_ && now >= window_end_ && total_[2] > cfg.max_queued_per_node * k.shape().terminals)) {
                res.drained = measured_in && !(trace_end_ && !empty());
                return true;
            }
        }
        if (total_[2] >= k.source_packet_cap()) {  // the memory limit: stop rather than grow
            res.source_limit_reached = true;
            res.drained = false;
            return true;
        }
        if (watchdog_looks && total_[3] > 0) {
            if (auto report = find_deadlock(k, watchdog_, now, tx_, total_[3])) {
                res.deadlock = std::move(report);
                res.drained = false;
                return true;
            }
        }
        if (split_) windows_.next(now, &total_, watchdog_.cycles_to_look());
        return false;
    }

    Kernel& k_;
    Tx& tx_;
    CycleConfig& cfg_;
    std::optional<std::uint64_t> trace_end_;
    Injection inject_;
    Driver driver_;
    bool split_;
    Watchdog watchdog_;
    Random rng_;
    std::uint64_t fixed_warmup_ = 0, fixed_measure_ = 0;
    SampledWindow sampled_;
    std::uint64_t window_end_ = 0, stop_ = 0;
    RunTotals total_{};  // what ends the run, summed over the ranks of a partitioned one
    Windows windows_;    // a partitioned run's windows between exchanges (lookahead.hpp)
    std::chrono::steady_clock::time_point last_report_;
    std::uint64_t now_ = 0;
    bool over_ = false;
    // Driven: the network empty and the port holding nothing since this cycle (as at
    // the start), and idle cycles may be skipped from this one (no feedback due).
    std::uint64_t quiet_since_ = 0, skip_from_ = 0;
    std::uint64_t feedback_reach_ = never;
};

/// Runs until the measured packets are delivered (Bernoulli: injection goes on
/// meanwhile) or, for a trace ending at `trace_end`, until the trace is injected
/// and the network is empty; the drain limit and the watchdog stop it earlier.
/// inject(now, rng) creates the workload's messages of cycle `now`.
template <class Kernel, CycleTransport Tx>
CycleResult simulate(Kernel& k, std::optional<std::uint64_t> trace_end, Injection inject, Tx& tx) {
    Run<Kernel, Tx> run(k, trace_end, inject, tx);
    run.advance();
    return run.finish();
}

}  // namespace fabric::cycle
