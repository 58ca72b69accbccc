// The figures a cycle-kernel run derives from its counts once it stops: rates
// per terminal cycle over the measurement window, latency summaries, channel
// utilisation. Run (run.hpp) calls it at the end of every run, serial or not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

/// The figures a run derives from its counts once it stops after `cycles` cycles,
/// `sent` being each channel's flits sent in the window: one function for every
/// kernel (the stage-list kernel's run calls it too).
inline CycleResult derive_figures(const CycleConfig& cfg, const Shape& shape, Observer& obs,
                                  const std::vector<std::uint64_t>& sent, std::uint64_t cycles) {
    CycleResult& res = obs.res;
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
    res.channel_utilisation.resize(sent.size());
    for (std::size_t c = 0; c < sent.size(); ++c) res.channel_utilisation[c] = static_cast<double>(sent[c]) / window;
    return std::move(res);
}

/// The figures of a run of `k` (a wake kernel) once it stops after `cycles` cycles.
template <class Kernel>
CycleResult finish_run(Kernel& k, std::uint64_t cycles) {
    return derive_figures(k.cfg(), k.shape(), k.observer(), k.channels().sent_in_window(), cycles);
}

}  // namespace fabric::cycle
