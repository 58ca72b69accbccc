// The saturation throughput of a fabric under a traffic pattern, found by
// bisection on the offered load: a load is sustained when every seed's run
// delivers its measured packets and accepts at least 95% of what it offers (the
// kernel's saturation test). Monotone in practice: past saturation, source
// queues grow and runs stop sustaining the load.
#pragma once

#include <cstdint>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/experiment/sweep.hpp>

namespace fabric::experiment {

struct SaturationSettings {
    double low = 0;     // a load known to be sustained (0 always is)
    double high = 1;    // at most the mean packet size; the search starts by trying it
    double tolerance = 0.005;  // stop when the bracket is this narrow (flits/cycle/node)
    SweepSettings runs{};      // seeds and percentiles of each probe

    void validate() const {
        detail::require(low >= 0 && high > low, "a saturation search needs 0 <= low < high; got ", low, " and ", high);
        detail::require(tolerance > 0, "a saturation search needs a positive tolerance; got ", tolerance);
        runs.validate();
    }
};

struct Saturation {
    double offered = 0;          // the highest load found sustained
    LoadPoint at;                // its measurement (empty when only `low` = 0 was sustained)
    double unsustained = 0;      // the lowest load found not sustained (or `high`)
    std::vector<LoadPoint> probes;  // every load tried, in order
};

template <class Sim, class P>
    requires LoadDriven<Sim, P>
Saturation saturation_search(Sim& sim, const P& pattern, PacketSizes sizes = PacketSizes::fixed(1),
                             const SaturationSettings& settings = {}) {
    settings.validate();
    auto sustained = [](const LoadPoint& p) { return p.saturated_runs == 0 && p.deadlocked_runs == 0; };
    Saturation s;
    s.offered = settings.low;
    s.unsustained = settings.high;
    s.probes.push_back(measure_validated(sim, pattern, settings.high, sizes, settings.runs));
    if (sustained(s.probes.back())) {
        s.offered = settings.high;
        s.at = s.probes.back();
        return s;
    }
    double lo = settings.low, hi = settings.high;
    while (hi - lo > settings.tolerance) {
        const double mid = (lo + hi) / 2;
        s.probes.push_back(measure_validated(sim, pattern, mid, sizes, settings.runs));
        if (sustained(s.probes.back())) {
            lo = mid;
            s.at = s.probes.back();
        } else {
            hi = mid;
        }
    }
    s.offered = lo;
    s.unsustained = hi;
    return s;
}

}  // namespace fabric::experiment
