// An experiment's results as records: every field of a LoadPoint named once,
// with its unit, so that CSV (here) and JSON (experiment/json.hpp, opt-in, with
// nlohmann-json) are written from the same description.
#pragma once

#include <cstdio>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include <fabric/experiment/sweep.hpp>

namespace fabric::experiment {

/// "p50", "p99", "p99.9": the name of a latency percentile given as a fraction.
inline std::string percentile_name(double q) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "p%g", q * 100);
    return buf;
}

/// Calls f(name, unit, value) for every field of `p`, in a fixed order; an
/// estimate gives its mean under its name and its 95% half-width under name_ci95.
template <class F>
void for_each_field(const LoadPoint& p, F&& f) {
    constexpr std::string_view load = "flits/cycle/node", cycles = "cycles";
    auto estimate = [&](const std::string& name, std::string_view unit, const Estimate& e) {
        f(name, unit, e.mean);
        f(name + "_ci95", unit, e.half_width);
    };
    f(std::string("offered"), load, p.offered);
    estimate("accepted", load, p.accepted);
    estimate("latency_mean", cycles, p.latency);
    for (std::size_t i = 0; i < p.percentiles.size() && i < p.latency_percentile.size(); ++i)
        estimate("latency_" + percentile_name(p.percentiles[i]), cycles, p.latency_percentile[i]);
    estimate("hops", "links", p.hops);
    f(std::string("runs"), std::string_view{}, static_cast<double>(p.runs));
    f(std::string("saturated_runs"), std::string_view{}, static_cast<double>(p.saturated_runs));
    f(std::string("deadlocked_runs"), std::string_view{}, static_cast<double>(p.deadlocked_runs));
}

/// A CSV table, one row per point: the header names each column name[unit].
inline void write_csv(std::ostream& out, std::span<const LoadPoint> points) {
    if (points.empty()) return;
    bool first = true;
    for_each_field(points.front(), [&](const std::string& name, std::string_view unit, double) {
        out << (first ? "" : ",") << name;
        if (!unit.empty()) out << '[' << unit << ']';
        first = false;
    });
    out << '\n';
    for (const LoadPoint& p : points) {
        first = true;
        for_each_field(p, [&](const std::string&, std::string_view, double v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.6g", v);
            out << (first ? "" : ",") << buf;
            first = false;
        });
        out << '\n';
    }
}

}  // namespace fabric::experiment
