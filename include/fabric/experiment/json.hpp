// JSON for experiment results, opt-in: include this header and link
// nlohmann_json (Debian nlohmann-json3-dev); no other header of the library needs
// it. Fields and units come from the same description as the CSV
// (experiment/records.hpp): a point is an object of its fields, a curve is
// {"units": {field: unit}, "points": [...]}.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <fabric/experiment/records.hpp>
#include <fabric/experiment/saturation.hpp>
#include <fabric/experiment/sweep.hpp>

namespace fabric::experiment {

inline nlohmann::json to_json(const LoadPoint& p) {
    nlohmann::json j = nlohmann::json::object();
    for_each_field(p, [&](const std::string& name, std::string_view, double v) { j[name] = v; });
    if (p.deadlock) j["deadlock"] = p.deadlock->describe();
    return j;
}

inline nlohmann::json units_of(const LoadPoint& p) {
    nlohmann::json j = nlohmann::json::object();
    for_each_field(p, [&](const std::string& name, std::string_view unit, double) {
        if (!unit.empty()) j[name] = std::string(unit);
    });
    return j;
}

inline nlohmann::json to_json(std::span<const LoadPoint> curve) {
    nlohmann::json j{{"units", curve.empty() ? nlohmann::json::object() : units_of(curve.front())},
                     {"points", nlohmann::json::array()}};
    for (const LoadPoint& p : curve) j["points"].push_back(to_json(p));
    return j;
}

inline nlohmann::json to_json(const Saturation& s) {
    nlohmann::json j = to_json(std::span<const LoadPoint>(s.probes));
    j["saturation_offered"] = s.offered;
    j["lowest_unsustained"] = s.unsustained;
    j["saturation_accepted"] = s.at.accepted.mean;
    return j;
}

}  // namespace fabric::experiment
