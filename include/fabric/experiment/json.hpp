// JSON for experiment results, opt-in: include this header and link
// nlohmann_json (Debian nlohmann-json3-dev); no other header of the library needs
// it. Fields and units come from the same description as the CSV
// (experiment/records.hpp): a point is an object of its fields, a curve is
// {"units": {field: unit}, "points": [...]}, channel loads
// {"units": {...}, "channels": [...]}.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include <fabric/experiment/channel_loads.hpp>
#include <fabric/experiment/records.hpp>
#include <fabric/experiment/saturation.hpp>
#include <fabric/experiment/sweep.hpp>
#include <fabric/sim/cycle/result.hpp>

namespace fabric::experiment {

/// A record's fields as an object (labels as strings, the rest as numbers).
template <Record R>
nlohmann::json fields_to_json(const R& r) {
    nlohmann::json j = nlohmann::json::object();
    for_each_field(r, [&](const std::string& name, std::string_view, const auto& v) {
        using V = std::remove_cvref_t<decltype(v)>;
        if constexpr (std::is_convertible_v<V, std::string_view>) j[name] = std::string(v);
        else if constexpr (std::is_same_v<V, std::optional<double>>) j[name] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
        else j[name] = v;
    });
    return j;
}

/// {field: unit} for the fields that have a unit.
template <Record R>
nlohmann::json units_of(const R& r) {
    nlohmann::json j = nlohmann::json::object();
    for_each_field(r, [&](const std::string& name, std::string_view unit, const auto&) {
        if (!unit.empty()) j[name] = std::string(unit);
    });
    return j;
}

inline nlohmann::json to_json(const LoadPoint& p) {
    nlohmann::json j = fields_to_json(p);
    if (p.deadlock) j["deadlock"] = p.deadlock->describe();
    return j;
}

inline nlohmann::json to_json(const ChannelLoadRecord& c) { return fields_to_json(c); }

/// {"units": {field: unit}, key: [one object per record]}.
template <Record R>
nlohmann::json table_to_json(std::span<const R> records, const char* key) {
    nlohmann::json j{{"units", records.empty() ? nlohmann::json::object() : units_of(records.front())},
                     {key, nlohmann::json::array()}};
    for (const R& r : records) j[key].push_back(to_json(r));
    return j;
}

/// {"units": {...}, "channels": [{node, port, to, link, load, bandwidth}, ...]}.
inline nlohmann::json to_json(std::span<const ChannelLoadRecord> channels) {
    return table_to_json(channels, "channels");
}

inline nlohmann::json to_json(std::span<const LoadPoint> curve) { return table_to_json(curve, "points"); }

inline nlohmann::json to_json(const Saturation& s) {
    nlohmann::json j = to_json(std::span<const LoadPoint>(s.probes));
    j["saturation_offered"] = s.offered;
    j["lowest_unsustained"] = s.unsustained;
    j["saturation_accepted"] = s.at.accepted.mean;
    return j;
}

/// One run's figures: loads in flits/cycle/terminal, latencies in cycles (creation to
/// tail ejection; network: from leaving the source queue), every count and maximum
/// the result declares (CycleCounts, CycleMaxima, by their names), the per-class
/// figures (an empty list without traffic classes), the deadlock report (null when
/// none) and the units of the figures that have one. A latency or hop count that no
/// packet measured is null, not 0.
inline nlohmann::json to_json(const CycleResult& r) {
    // A mean over `n` measured things, or null when there were none.
    auto measured = [](std::uint64_t n, auto value) { return n ? nlohmann::json(value) : nlohmann::json(nullptr); };
    const std::uint64_t transactions = r.transaction_latency.count();
    const std::uint64_t delivered = r.measured_delivered;
    nlohmann::json classes = nlohmann::json::array();  // with traffic classes: each one's figures
    for (const ClassResult& c : r.classes)
        classes.push_back({{"offered", c.offered},
                           {"accepted", c.accepted},
                           {"refused", c.refused},
                           {"latency_mean", measured(c.measured_delivered, c.latency.mean)},
                           {"latency_p99", measured(c.measured_delivered, c.latency.p99)},
                           {"measured_packets", c.measured_packets},
                           {"measured_delivered", c.measured_delivered}});
    nlohmann::json j{{"offered", r.offered},
                     {"accepted", r.accepted},
                     {"refused", r.refused},
                     {"latency_mean", measured(delivered, r.latency.mean)},
                     {"latency_p50", measured(delivered, r.latency.p50)},
                     {"latency_p99", measured(delivered, r.latency.p99)},
                     {"latency_max", measured(delivered, r.latency.max)},
                     {"network_latency_mean", measured(delivered, r.network_latency.mean)},
                     {"hops_mean", measured(delivered, r.hops_mean)},
                     {"terminals", r.terminals},
                     {"terminals_per_node", r.terminals_per_node},
                     {"cycles", r.cycles},
                     {"window_start", r.window_start},
                     {"window_cycles", r.window_cycles},
                     {"sample_periods", r.sample_periods},
                     {"sampling_converged", r.sampling_converged},
                     {"saturated", r.saturated},
                     {"source_limit_reached", r.source_limit_reached},
                     {"drained", r.drained},
                     {"transaction_latency_mean", measured(transactions, r.transaction_latency.mean)},
                     {"message_latency_mean", measured(r.measured_messages_delivered, r.message_latency.mean)},
                     {"classes", classes},
                     {"deadlock", r.deadlock ? nlohmann::json(r.deadlock->describe()) : nlohmann::json(nullptr)}};
    cycle::for_each_count(static_cast<const CycleCounts&>(r), [&](const char* name, std::uint64_t c) { j[name] = c; });
    cycle::for_each_count(static_cast<const CycleMaxima&>(r), [&](const char* name, std::uint64_t c) { j[name] = c; });
    const std::string load = "flits/cycle/terminal", cycles = "cycles";
    j["units"] = {{"offered", load},           {"accepted", load},
                  {"refused", load},           {"latency_mean", cycles},
                  {"latency_p50", cycles},     {"latency_p99", cycles},
                  {"latency_max", cycles},     {"network_latency_mean", cycles},
                  {"hops_mean", "links"},      {"cycles", cycles},
                  {"window_start", cycles},    {"window_cycles", cycles},
                  {"transaction_latency_mean", cycles}, {"message_latency_mean", cycles}};
    return j;
}

}  // namespace fabric::experiment
