// The experiment API: confidence intervals worked by hand, any percentile from
// the exact histogram, reseeding, a sweep and a saturation search on the 8x8
// torus against the saturation figures docs/cycle_sim.md quotes, and the CSV records.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/experiment/records.hpp>
#include <fabric/experiment/saturation.hpp>
#include <fabric/experiment/sweep.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace unit_experiment {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric::experiment;

namespace {
using Net = Fabric<Torus<2>, DorTieSplit<>>;
/// The saturation settings of docs/cycle_sim.md (apps/torus_saturation): warm-up 1000, window 5000.
CycleConfig readme_config() {
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 5000;
    return cfg;
}
}  // namespace

TEST_CASE("Estimate: mean and 95% half-width by hand; one sample has no interval") {
    const std::vector<double> v{1, 2, 3, 4};
    const auto e = Estimate::of(v);
    CHECK(e.mean == doctest::Approx(2.5));
    // sd = sqrt(5/3) = 1.29099; t(3) = 3.182; half = 3.182 * 1.29099 / 2
    CHECK(e.half_width == doctest::Approx(3.182 * 1.2909944 / 2));
    CHECK(e.samples == 4);
    const std::vector<double> one{7};
    CHECK(Estimate::of(one).half_width == 0);
    // One sample has no interval: none, not an interval of 0 (a sweep of one seed wrote 95% intervals of 0).
    CHECK_FALSE(Estimate::of(one).interval().has_value());
    CHECK(e.interval() == e.half_width);
    CHECK(Estimate::t975(30) == doctest::Approx(2.042));
    CHECK(Estimate::t975(60) == doctest::Approx(2.000).epsilon(0.002));
}

TEST_CASE("LatencySummary::percentile equals the histogram's for any fraction") {
    LatencyHistogram h;
    for (std::uint64_t i = 0; i < 1000; ++i) h.add((i * 7919) % 301 + 10);
    const auto s = LatencySummary::of(h);
    for (const double q : {0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0}) CHECK(s.percentile(q) == h.percentile(q));
    CHECK(s.percentile(0.5) == s.p50);
}

TEST_CASE("reseed: the same seed gives the same run, another seed another") {
    const Net net{Torus<2>{{4, 4}}};
    CycleConfig cfg = readme_config();
    cfg.measure = 2000;
    CycleSimulator<Net> sim(net, cfg);
    const auto a = sim.run(UniformTraffic(16), 0.2);
    sim.reseed(9);
    const auto b = sim.run(UniformTraffic(16), 0.2);
    sim.reseed(1);
    const auto c = sim.run(UniformTraffic(16), 0.2);
    CHECK(a.latency.mean == c.latency.mean);
    CHECK(a.measured_packets == c.measured_packets);
    CHECK(a.measured_packets != b.measured_packets);
}

TEST_CASE("sweep: accepted follows offered below saturation, latency climbs, the curve ends at saturation") {
    const Net net{Torus<2>{{8, 8}}};
    CycleSimulator<Net> sim(net, readme_config());
    const auto rates = loads(0.1, 0.4, 0.1);
    REQUIRE(rates.size() == 4);
    const auto curve = sweep(sim, UniformTraffic(64), rates);
    REQUIRE(curve.size() == 4);  // 0.4 is past docs/cycle_sim.md's 0.327: saturated, and the last point
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK_FALSE(curve[i].saturated());
        CHECK(curve[i].runs == 3);
        CHECK(curve[i].accepted.mean == doctest::Approx(curve[i].offered).epsilon(0.03));
        CHECK(curve[i].accepted.half_width < 0.01);
        CHECK(curve[i].latency_percentile[1].mean >= curve[i].latency_percentile[0].mean);  // p99 >= p50
        if (i) CHECK(curve[i].latency.mean > curve[i - 1].latency.mean);
    }
    CHECK(curve[3].saturated());
    CHECK(curve[3].accepted.mean < 0.4 * 0.95);
    CHECK(sim.config().seed == 1);  // the simulator's own seed is left as it was
}

TEST_CASE("saturation search: the 8x8 torus under uniform traffic saturates where docs/cycle_sim.md says (0.327)") {
    const Net net{Torus<2>{{8, 8}}};
    CycleSimulator<Net> sim(net, readme_config());
    SaturationSettings settings;
    settings.runs.seeds = {1};
    const auto s = saturation_search(sim, UniformTraffic(64), PacketSizes::fixed(1), settings);
    MESSAGE("saturation: sustained ", s.offered, " accepted ", s.at.accepted.mean, ", not sustained ", s.unsustained);
    CHECK(s.unsustained - s.offered <= settings.tolerance);
    // docs/cycle_sim.md: 0.327, the largest accepted load on a grid of step 0.02; bisection brackets it to 0.005.
    CHECK(s.at.accepted.mean == doctest::Approx(0.327).epsilon(0.02 / 0.327));
    CHECK(s.probes.size() >= 8);
}

TEST_CASE("write_csv: a header of name[unit] columns and one row per point") {
    LoadPoint p;
    p.offered = 0.25;
    p.accepted = Estimate{0.2499, 0.001, 3};
    p.latency = Estimate{30.5, 0.5, 3};
    p.percentiles = {0.5, 0.999};
    p.latency_percentile = {Estimate{29, 1, 3}, Estimate{80, 4, 3}};
    p.hops = Estimate{4, 0, 3};
    p.runs = 3;
    const std::vector<LoadPoint> points{p, p};
    std::ostringstream out;
    write_csv(out, points);
    std::istringstream in(out.str());
    std::string header, row, extra, none;
    std::getline(in, header);
    std::getline(in, row);
    std::getline(in, extra);
    CHECK_FALSE(std::getline(in, none));
    CHECK(header == "offered[flits/cycle/terminal],accepted[flits/cycle/terminal],accepted_ci95[flits/cycle/terminal],"
                    "latency_mean[cycles],latency_mean_ci95[cycles],latency_p50[cycles],latency_p50_ci95[cycles],"
                    "latency_p99.9[cycles],latency_p99.9_ci95[cycles],hops[links],hops_ci95[links],runs,"
                    "saturated_runs,deadlocked_runs");
    CHECK(row == "0.25,0.2499,0.001,30.5,0.5,29,1,80,4,4,0,3,0,0");
    CHECK(row == extra);
    // One seed a point: every interval an empty cell.
    LoadPoint single = p;
    for (Estimate* e : {&single.accepted, &single.latency, &single.latency_percentile[0], &single.latency_percentile[1],
                        &single.hops})
        e->samples = 1, e->half_width = 0;
    single.runs = 1;
    std::ostringstream one;
    write_csv(one, std::vector<LoadPoint>{single});
    CHECK(one.str().substr(one.str().find('\n') + 1) == "0.25,0.2499,,30.5,,29,,80,,4,,1,0,0\n");
}

}  // namespace unit_experiment
