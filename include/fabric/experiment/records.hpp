// An experiment's results as records: every field of a record (a LoadPoint, a
// channel's load) named once, with its unit, so that CSV (here) and JSON
// (experiment/json.hpp, opt-in, with nlohmann-json) are written from the same
// description.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fabric/experiment/sweep.hpp>

namespace fabric::experiment {

/// "p50", "p99", "p99.9": the name of a latency percentile given as a fraction.
inline std::string percentile_name(double q) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "p%g", q * 100);
    return buf;
}

/// Calls f(name, unit, value) for every field of `p`, in a fixed order; an
/// estimate gives its mean under its name and its 95% half-width under name_ci95,
/// each a std::optional<double>, empty when no run measured it (no packet
/// delivered), and the half-width empty too when one run did (one seed has no
/// interval, which is not an interval of 0); the run counts are std::uint64_t.
template <class F>
void for_each_field(const LoadPoint& p, F&& f) {
    constexpr std::string_view load = "flits/cycle/terminal", cycles = "cycles";
    auto estimate = [&](const std::string& name, std::string_view unit, const Estimate& e) {
        f(name, unit, e.samples ? std::optional<double>(e.mean) : std::nullopt);
        f(name + "_ci95", unit, e.interval());
    };
    f(std::string("offered"), load, p.offered);
    estimate("accepted", load, p.accepted);
    estimate("latency_mean", cycles, p.latency);
    for (std::size_t i = 0; i < p.percentiles.size() && i < p.latency_percentile.size(); ++i)
        estimate("latency_" + percentile_name(p.percentiles[i]), cycles, p.latency_percentile[i]);
    estimate("hops", "links", p.hops);
    f(std::string("runs"), std::string_view{}, static_cast<std::uint64_t>(p.runs));
    f(std::string("saturated_runs"), std::string_view{}, static_cast<std::uint64_t>(p.saturated_runs));
    f(std::string("deadlocked_runs"), std::string_view{}, static_cast<std::uint64_t>(p.deadlocked_runs));
}

/// One CSV cell: a count in full, a measure as %.6g, a label quoted when it holds
/// a comma, quote or newline.
inline void write_csv_value(std::ostream& out, std::uint64_t v) { out << v; }
inline void write_csv_value(std::ostream& out, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    out << buf;
}
/// A measure no run gave: an empty cell.
inline void write_csv_value(std::ostream& out, const std::optional<double>& v) {
    if (v) write_csv_value(out, *v);
}
inline void write_csv_value(std::ostream& out, std::string_view v) {
    if (v.find_first_of(",\"\n") == std::string_view::npos) {
        out << v;
        return;
    }
    out << '"';
    for (const char c : v) out << (c == '"' ? "\"\"" : std::string_view(&c, 1));
    out << '"';
}

/// A record type: for_each_field(r, f) calls f(name, unit, value) for every field
/// in a fixed order, value a double or a std::optional<double> (a measure, empty
/// when not measured), a std::uint64_t (a count or an index) or a std::string_view
/// (a label); unit empty for a count or a label.
template <class R>
concept Record = requires(const R& r) {
    for_each_field(r, [](const std::string&, std::string_view, const auto&) {});
};

/// A CSV table, one row per record: the header names each column name[unit].
template <Record R>
void write_csv(std::ostream& out, std::span<const R> records) {
    if (records.empty()) return;
    bool first = true;
    for_each_field(records.front(), [&](const std::string& name, std::string_view unit, const auto&) {
        out << (first ? "" : ",") << name;
        if (!unit.empty()) out << '[' << unit << ']';
        first = false;
    });
    out << '\n';
    for (const R& r : records) {
        first = true;
        for_each_field(r, [&](const std::string&, std::string_view, const auto& v) {
            out << (first ? "" : ",");
            write_csv_value(out, v);
            first = false;
        });
        out << '\n';
    }
}

/// The same for a vector (a span is not deduced from one).
template <Record R>
void write_csv(std::ostream& out, const std::vector<R>& records) {
    write_csv(out, std::span<const R>(records));
}

}  // namespace fabric::experiment
