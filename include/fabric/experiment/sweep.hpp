// Latency-load sweeps with several seeds per point: the experiment BookSim users
// script by hand. A LoadPoint holds, for one offered load, the mean and 95%
// confidence interval over the seeds of what the runs accepted and of their
// latencies (mean and chosen percentiles of the exact histogram), and how many
// runs were saturated or deadlocked. Units: loads in flits/cycle/terminal (a node unless the topology is concentrated), latencies
// in cycles (creation to tail ejection), hops in links.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/experiment/estimate.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::experiment {

/// A kernel an experiment can drive: Bernoulli runs at an offered load, and a
/// seed that can change between runs (fabric::CycleSimulator is one).
template <class S, class P>
concept LoadDriven = TrafficPattern<P> && requires(S& sim, const P& pattern, PacketSizes sizes, std::uint64_t seed) {
    { sim.run(pattern, 0.1, sizes) } -> std::same_as<CycleResult>;
    sim.reseed(seed);
    { sim.config() } -> std::convertible_to<const CycleConfig&>;
};

struct SweepSettings {
    std::vector<std::uint64_t> seeds{1, 2, 3};
    std::vector<double> percentiles{0.5, 0.99};  // of the latency, each in (0, 1]
    /// Stop after the first load at which most runs saturate (the curve has ended).
    bool stop_at_saturation = true;
    /// Whether a run counts as saturated; empty: the kernel's CycleResult::saturated.
    /// (A tool may ask more of a run before it says so: cycle_sim's shows_saturation.)
    std::function<bool(const CycleResult&)> saturated{};

    void validate() const {
        detail::require(!seeds.empty(), "a sweep needs at least one seed");
        for (const double q : percentiles)
            detail::require(q > 0 && q <= 1, "latency percentiles are fractions in (0, 1]; got ", q);
    }
};

struct LoadPoint {
    double offered = 0;  // the load asked for
    Estimate accepted;   // flits/cycle/terminal ejected in the window
    Estimate latency;    // mean latency of a run
    std::vector<double> percentiles;        // which (fractions)
    std::vector<Estimate> latency_percentile;  // one per entry of `percentiles`
    Estimate hops;
    std::size_t runs = 0;
    std::size_t saturated_runs = 0;
    std::size_t deadlocked_runs = 0;
    std::optional<DeadlockReport> deadlock;  // the first run's report, when one deadlocked

    /// Most runs saturated (or any deadlocked): past the end of the curve.
    [[nodiscard]] bool saturated() const { return deadlocked_runs > 0 || 2 * saturated_runs > runs; }
};

/// Offered loads from `from` to `to` (inclusive, within rounding) in steps of `step`.
inline std::vector<double> loads(double from, double to, double step) {
    detail::require(step > 0 && from >= 0 && to >= from, "loads(from, to, step) needs 0 <= from <= to and step > 0; got ",
                    from, ", ", to, ", ", step);
    const double span = (to - from) / step;
    detail::require(std::isfinite(to) && span < 1e6, "loads(from, to, step): at most a million loads; got ",
                    from, " to ", to, " in steps of ", step);
    // Counted before the loop: a step below the loads' resolution would never reach `to`.
    const auto count = static_cast<std::size_t>(span + 1e-6) + 1;
    detail::require(count == 1 || from + step > from, "loads(from, to, step): the step ", step, " is too small to "
                    "change a load of ", from);
    std::vector<double> out;
    for (std::size_t i = 0; i < count; ++i) {
        const double r = from + static_cast<double>(i) * step;
        if (r > to + step * 1e-6) break;
        out.push_back(r);
    }
    return out;
}

/// measure_load for settings already validated (sweep and saturation_search
/// validate theirs once, not once per load).
template <class Sim, class P>
    requires LoadDriven<Sim, P>
LoadPoint measure_validated(Sim& sim, const P& pattern, double rate, PacketSizes sizes, const SweepSettings& settings) {
    const std::uint64_t seed = sim.config().seed;
    LoadPoint p;
    p.offered = rate;
    p.percentiles = settings.percentiles;
    std::vector<double> accepted, latency, hops;
    std::vector<std::vector<double>> pct(settings.percentiles.size());
    for (const std::uint64_t s : settings.seeds) {
        sim.reseed(s);
        const CycleResult r = sim.run(pattern, rate, sizes);
        ++p.runs;
        p.saturated_runs += (settings.saturated ? settings.saturated(r) : r.saturated) ? 1 : 0;
        if (r.deadlock) {
            if (!p.deadlocked_runs++) p.deadlock = r.deadlock;
            continue;
        }
        // A run stopped before its window opened (a sampler's unstable warm-up, the memory limit) measured
        // no load: no accepted rate to average (not a rate of 0).
        if (r.window_cycles > 0) accepted.push_back(r.accepted);
        if (r.measured_delivered == 0) continue;  // no latency or hops to average (not a latency of 0)
        latency.push_back(r.latency.mean);
        hops.push_back(r.hops_mean);
        for (std::size_t i = 0; i < pct.size(); ++i)
            pct[i].push_back(static_cast<double>(r.latency.percentile(settings.percentiles[i])));
    }
    sim.reseed(seed);
    p.accepted = Estimate::of(accepted);
    p.latency = Estimate::of(latency);
    p.hops = Estimate::of(hops);
    for (const auto& v : pct) p.latency_percentile.push_back(Estimate::of(v));
    return p;
}

/// Runs `sim` at one offered load once per seed.
template <class Sim, class P>
    requires LoadDriven<Sim, P>
LoadPoint measure_load(Sim& sim, const P& pattern, double rate, PacketSizes sizes, const SweepSettings& settings) {
    settings.validate();
    return measure_validated(sim, pattern, rate, sizes, settings);
}

/// A latency-load curve: one LoadPoint per offered load, in the order given,
/// ending at the first saturated point when settings.stop_at_saturation.
template <class Sim, class P>
    requires LoadDriven<Sim, P>
std::vector<LoadPoint> sweep(Sim& sim, const P& pattern, std::span<const double> rates,
                             PacketSizes sizes = PacketSizes::fixed(1), const SweepSettings& settings = {}) {
    settings.validate();
    std::vector<LoadPoint> curve;
    for (const double rate : rates) {
        curve.push_back(measure_validated(sim, pattern, rate, sizes, settings));
        if (settings.stop_at_saturation && curve.back().saturated()) break;
    }
    return curve;
}

}  // namespace fabric::experiment
