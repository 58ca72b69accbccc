// The opt-in JSON serialiser: the same fields and units as the CSV, and a curve
// written and read back gives the same numbers.
#include <doctest/doctest.h>

#include <fabric/experiment/json.hpp>

#include <vector>

using namespace fabric::experiment;

TEST_CASE("to_json: fields, units and a round trip through text") {
    LoadPoint p;
    p.offered = 0.3;
    p.accepted = Estimate{0.2998, 0.0004, 3};
    p.latency = Estimate{41.25, 0.75, 3};
    p.percentiles = {0.99};
    p.latency_percentile = {Estimate{120, 6, 3}};
    p.runs = 3;
    p.saturated_runs = 1;
    const std::vector<LoadPoint> curve{p};
    const auto j = to_json(std::span<const LoadPoint>(curve));
    CHECK(j["units"]["latency_p99"] == "cycles");
    CHECK(j["units"]["offered"] == "flits/cycle/terminal");
    CHECK_FALSE(j["units"].contains("runs"));
    const auto back = nlohmann::json::parse(j.dump());
    CHECK(back["points"][0]["accepted"].get<double>() == 0.2998);
    CHECK(back["points"][0]["latency_mean_ci95"].get<double>() == 0.75);
    CHECK(back["points"][0]["saturated_runs"].get<double>() == 1);
    CHECK(back == j);
}

TEST_CASE("to_json of channel loads: labels as strings, numbers as numbers, units named once") {
    std::vector<ChannelLoadRecord> channels(2);
    channels[0] = {3, 9, 40, "LR", 0.125, 5};
    channels[1] = {3, 33, 70, "D", 2.5, 10};
    const auto j = to_json(std::span<const ChannelLoadRecord>(channels));
    CHECK(j["units"] == nlohmann::json{{"load", "units"}, {"bandwidth", "GB/s"}});
    CHECK(j["channels"].size() == 2);
    CHECK(j["channels"][0]["link"] == "LR");
    CHECK(j["channels"][1]["to"].get<double>() == 70);
    CHECK(j["channels"][1]["load"].get<double>() == 2.5);
}
