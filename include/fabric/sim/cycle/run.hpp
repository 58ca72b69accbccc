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
#include <fabric/sim/cycle/sampler.hpp>
#include <fabric/sim/cycle/watchdog.hpp>

namespace fabric::cycle {

/// The figures a run derives from its counts once it stops after `cycles` cycles.
template <class Kernel>
CycleResult finish_run(Kernel& k, std::uint64_t cycles) {
    const CycleConfig& cfg = k.cfg();
    Observer& obs = k.observer();
    CycleResult& res = obs.res;
    const Shape& shape = k.shape();
    res.cycles = cycles;
    res.window_start = std::min(cfg.warmup, cycles);
    res.window_cycles = std::min(cfg.measure, cycles - res.window_start);
    // A run stopped early (the memory limit) measured only part of its window.
    const auto window = static_cast<double>(
        std::max<std::uint64_t>(1, std::min(cfg.measure, cycles > cfg.warmup ? cycles - cfg.warmup : 0)));
    const double window_node_cycles = window * shape.terminals;  // per terminal (a node, unless concentrated)
    res.offered = static_cast<double>(res.flits_created_in_window + res.flits_refused_in_window) / window_node_cycles;
    res.refused = static_cast<double>(res.flits_refused_in_window) / window_node_cycles;
    res.accepted = static_cast<double>(res.flits_ejected_in_window) / window_node_cycles;
    res.saturated = !res.drained || res.accepted < 0.95 * res.offered;
    res.latency = LatencySummary::of(obs.latency);
    res.network_latency = LatencySummary::of(obs.network);
    res.hops_mean = res.measured_delivered
                        ? static_cast<double>(res.measured_hops) / static_cast<double>(res.measured_delivered)
                        : 0.0;
    res.message_latency = LatencySummary::of(obs.message);
    res.transaction_latency = LatencySummary::of(obs.transaction);
    res.ports_per_node = shape.ports;
    res.terminals_per_node = shape.per_node;
    res.terminals = shape.terminals;
    res.classes = obs.classes.finish(window_node_cycles);
    const auto& sent = k.channels().sent_in_window();
    res.channel_utilisation.resize(sent.size());
    for (std::size_t c = 0; c < sent.size(); ++c) res.channel_utilisation[c] = static_cast<double>(sent[c]) / window;
    return std::move(res);
}

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

/// Runs until the measured packets are delivered (Bernoulli: injection goes on
/// meanwhile) or, for a trace ending at `trace_end`, until the trace is injected
/// and the network is empty; the watchdog, the memory limit and the drain limit (for
/// a trace, only when one is set) stop it earlier.
/// inject(now, rng) creates the workload's messages of cycle `now`.
template <class Kernel, CycleTransport Tx>
CycleResult simulate(Kernel& k, std::optional<std::uint64_t> trace_end, Injection inject, Tx& tx) {
    CycleConfig& cfg = k.settings();
    constexpr bool alone = std::is_same_v<Tx, Alone>;  // nothing crosses ranks: no exchange, no sums
    const bool split = !alone && k.split();
    k.reset();
    Watchdog watchdog;
    watchdog.reset(cfg.watchdog);
    Random rng(cfg.seed);
    const std::uint64_t fixed_warmup = cfg.warmup, fixed_measure = cfg.measure;
    SampledWindow sampled;
    sampled.start(cfg);
    CycleResult& res = k.observer().res;
    std::uint64_t window_end = 0, stop = 0;
    // A trace drains until every message is delivered: its work is what its messages carry, not a multiple
    // of its window (one message of 65,535 flits outlasts any such bound); only a deadlock (the watchdog),
    // the memory limit or a drain_limit set stops it earlier, each reported.
    constexpr std::uint64_t unbounded = std::uint64_t{1} << 62;
    auto bounds = [&] {
        window_end = cfg.warmup + cfg.measure;
        if (trace_end && !cfg.drain_limit) {
            stop = unbounded;
            return;
        }
        const auto drain = cfg.drain_limit ? cfg.drain_limit : std::max<std::uint64_t>(3 * window_end, 20000);
        stop = std::max(window_end, trace_end.value_or(0) + 1) + drain;
    };
    bounds();
    // What ends the run, summed over the ranks of a partitioned one (RunTotals).
    RunTotals total{};
    auto empty = [&] { return total[2] == 0 && total[3] == 0 && total[4] == 0 && k.sinks().replies().empty(); };
    LinkFailures& failures = k.failures();
    const bool replies = cfg.request_reply.enabled();
    auto& routers = k.routers();
    auto& channels = k.channels();
    std::uint64_t now = 0;
    // A partitioned run's windows between exchanges (lookahead.hpp).
    Windows windows;
    if (split)
        windows.start(channels.remote().lookahead(),
                      {window_end, stop, trace_end, k.shape().terminals, inject.most_packets, k.source_packet_cap(),
                       cfg.max_queued_per_node * k.shape().terminals,
                       cfg.sampling.enabled() ? cfg.sampling.sample_period : 0},
                      watchdog.cycles_to_look());
    auto last_report = std::chrono::steady_clock::now();
    for (;; ++now) {
        if (failures.active())
            failures.step(
                now, [&](std::size_t c) { return channels.links().reverse(c); },
                [&](std::uint32_t channel) { k.link_failed(channel, now); });
        if (replies) k.sources().create_replies(now, rng, k);
        if (!trace_end || now <= *trace_end) inject(now, rng);
        channels.tick_receivers(now);
        channels.deliver(
            now, [&](std::uint32_t n) { routers.feedback(n, now); },
            [&](const Arrival& a) {
                k.crossed_link(a.node, a.local, a.flit);
                routers.arrive(a, now, k);
            });
        routers.step_all(now, k);
        bool window_ends = true;  // whether the ranks exchange this cycle
        if constexpr (!alone) {
            if (split) {
                window_ends = windows.ends(now);
                if (window_ends) channels.exchange(now, tx, k.losses(), k.packets());
                else if (!k.losses().pending().empty())
                    throw std::logic_error("fabric: a packet was lost inside a window of a partitioned run that "
                                           "schedules no link failure; the ranks could not hear of it in time");
            }
        }
        k.sinks().settle_losses(k);
        const bool watchdog_looks = watchdog.due();
        if (cfg.on_progress && (now & 0x3fff) == 0) {
            const auto t = std::chrono::steady_clock::now();
            if (std::chrono::duration<double>(t - last_report).count() >= cfg.progress_seconds) {
                last_report = t;
                cfg.on_progress(CycleProgress{now, stop, res.measured_packets, res.measured_delivered});
            }
        }
        if (!window_ends) continue;
        if (split && !windows.needs_totals(now, watchdog_looks)) {  // nothing can end the run here
            windows.next(now, nullptr, watchdog.cycles_to_look());
            continue;
        }
        total = {res.measured_packets, res.measured_delivered + res.measured_lost, k.sources().queues().packets(),
                 routers.buffered(), channels.in_flight()};
        if constexpr (!alone) {
            if (split) {
                windows.put_reach(total, k.run_goes_on(now, !trace_end));
                tx.sum(total);
            }
        }
        if (sampled.due(cfg, now + 1)) {
            auto seen = SampledWindow::Seen::of(res);
            if constexpr (!alone) {
                if (split) {
                    std::array<std::uint64_t, 4> sums{seen.packets_delivered, seen.delivered_latency_sum,
                                                      seen.flits_ejected, seen.flits_refused};
                    tx.sum(sums);
                    seen = {sums[0], sums[1], sums[2], sums[3]};
                }
            }
            if (!sampled.period_over(now + 1, k.shape().terminals, cfg, seen, res)) {
                res.drained = false;  // unstable: reported saturated, not drained
                break;
            }
            bounds();
            windows.limits().window_end = window_end;
            windows.limits().stop = stop;
        }
        const bool measured_in = total[0] == total[1];
        if (trace_end ? now >= *trace_end && empty() : now + 1 >= window_end && measured_in) break;
        if (now + 1 >= stop ||
            (!trace_end && now >= window_end && total[2] > cfg.max_queued_per_node * k.shape().terminals)) {
            res.drained = measured_in && !(trace_end && !empty());
            break;
        }
        if (total[2] >= k.source_packet_cap()) {  // the memory limit: stop rather than grow
            res.source_limit_reached = true;
            res.drained = false;
            break;
        }
        if (watchdog_looks && total[3] > 0) {
            if (auto report = find_deadlock(k, watchdog, now, tx, total[3])) {
                res.deadlock = std::move(report);
                res.drained = false;
                break;
            }
        }
        if (split) windows.next(now, &total, watchdog.cycles_to_look());
    }
    res.flits_in_flight = k.count_in_flight();
    if constexpr (!alone) {
        if (split) {
            Observer& obs = k.observer();
            std::vector<LatencyHistogram*> hists{&obs.latency, &obs.network, &obs.message, &obs.transaction};
            std::vector<std::uint64_t*> per_class;
            obs.classes.for_each_counted([&](std::uint64_t& c) { per_class.push_back(&c); },
                                         [&](LatencyHistogram& h) { hists.push_back(&h); });
            sum_over_ranks(tx, res, hists, channels.sent_in_window(), per_class);
        }
    }
    CycleResult r = finish_run(k, now + 1);
    cfg.warmup = fixed_warmup;
    cfg.measure = fixed_measure;
    return r;
}

}  // namespace fabric::cycle
