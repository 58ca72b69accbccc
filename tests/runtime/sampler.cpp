// BookSim's converging sampler: its decisions worked by hand period by period,
// and the kernel's window chosen by it (below saturation it converges on the
// fixed window's latency; past it the latency threshold stops the run), the same
// on the stage-list kernel as on the wake kernel.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_sampler {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using Step = cycle::ConvergenceSampler::Step;

TEST_CASE("ConvergenceSampler: warm-up by threshold, then three stable periods in a row") {
    ConvergingSampling s;
    s.sample_period = 1000;
    cycle::ConvergenceSampler c(s);
    CHECK(c.observe(10, 0.1) == Step::warming);       // the first period is a full change
    CHECK_FALSE(c.clear_next());                      // cleared before periods 1, 3, 5, ... only
    CHECK(c.observe(10.2, 0.1) == Step::start_window);  // 0.2 / 10.2 = 2% and 0%: warm
    CHECK(c.clear_next());
    CHECK(c.observe(10.3, 0.1) == Step::measuring);   // stable 1
    CHECK(c.observe(10.3, 0.1) == Step::measuring);   // stable 2
    CHECK(c.observe(12.0, 0.1) == Step::measuring);   // 1.7 / 12 = 14%: the count starts again
    CHECK(c.observe(12.1, 0.1) == Step::measuring);
    CHECK(c.observe(12.1, 0.1) == Step::measuring);
    CHECK(c.observe(12.1, 0.1) == Step::converged);
    CHECK(c.periods() == 8);
}

TEST_CASE("ConvergenceSampler: warm-up clears every other period, and a limit for everything") {
    ConvergingSampling s;
    s.sample_period = 100;
    s.max_samples = 3;
    cycle::ConvergenceSampler warm(s);
    CHECK(warm.observe(1, 0.1) == Step::warming);
    CHECK(warm.observe(2, 0.1) == Step::warming);  // 50%
    CHECK(warm.clear_next());                      // before the third period
    CHECK(warm.observe(4, 0.1) == Step::unstable); // max_samples, still warming
    cycle::ConvergenceSampler limit(s);
    CHECK(limit.observe(1, 0.1) == Step::warming);
    CHECK(limit.observe(1, 0.1) == Step::start_window);
    CHECK(limit.observe(2, 0.1) == Step::window_at_limit);  // measuring, not converged
    s.max_samples = 10;
    s.warmup_periods = 2;
    cycle::ConvergenceSampler fixed(s);
    CHECK(fixed.observe(1, 1) == Step::warming);
    CHECK(fixed.observe(100, 5) == Step::start_window);  // by count, whatever the change
    CHECK(fixed.observe(600, 5) == Step::unstable);      // past latency_threshold = 500
    s.sample_period = 0;
    CHECK_NOTHROW(s.validate());
    s.sample_period = 10;
    s.max_samples = 0;
    CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("max_samples"), config_error);
}

namespace {
using Net = Fabric<Torus<2>, DorTieSplit<>>;
const Net& torus8() {
    static const Net net{Torus<2>({8, 8})};
    return net;
}
}  // namespace

TEST_CASE("the sampler chooses the window: below saturation it converges on the fixed window's latency") {
    CycleConfig fixed;
    fixed.warmup = 1000;
    fixed.measure = 20000;
    const auto reference = simulate_cycles(torus8(), UniformTraffic(64), 0.2, PacketSizes::fixed(1), fixed);
    CycleConfig cfg;
    cfg.sampling.sample_period = 1000;
    CycleSimulator<Net> sim(torus8(), cfg);
    const auto r = sim.run(UniformTraffic(64), 0.2, PacketSizes::fixed(1));
    CHECK(r.sampling_converged);
    CHECK(r.drained);
    CHECK_FALSE(r.saturated);
    CHECK(r.window_start % 1000 == 0);
    CHECK(r.window_start >= 2000);             // warm-up compares two periods at least
    CHECK(r.window_cycles >= 3000);            // three stable periods at least
    CHECK(r.window_cycles % 1000 == 0);
    CHECK(r.sample_periods <= cfg.sampling.max_samples);
    CHECK(r.latency.mean == doctest::Approx(reference.latency.mean).epsilon(0.03));
    CHECK(r.accepted == doctest::Approx(0.2).epsilon(0.03));
    CHECK(r.measured_delivered == r.measured_packets);
    CHECK(sim.config().warmup == cfg.warmup);  // the run's window is its own: the settings stay
    CHECK(sim.config().measure == cfg.measure);
    CHECK(reference.window_start == 1000);
    CHECK(reference.window_cycles == 20000);
}

TEST_CASE("past saturation the latency threshold stops a sampled run, reported saturated") {
    CycleConfig cfg;
    cfg.sampling.sample_period = 1000;
    cfg.sampling.latency_threshold = 200;
    const auto r = simulate_cycles(torus8(), UniformTraffic(64), 0.8, PacketSizes::fixed(1), cfg);
    CHECK(r.saturated);
    CHECK_FALSE(r.drained);
    CHECK_FALSE(r.sampling_converged);
    CHECK(r.cycles == 1000ULL * r.sample_periods);  // stopped at the end of the period that passed it
    CHECK(r.sample_periods < cfg.sampling.max_samples);
    CycleSimulator<Net> sim(torus8(), cfg);
    CHECK_THROWS_WITH_AS(sim.run_trace(std::vector<TraceMessage>{{0, 0, 1, 1}}), doctest::Contains("sampler"),
                         config_error);
}

TEST_CASE("a sample period in which a full source queue refused a message is unstable") {
    // The rule alone: a refusal ends the run whatever the latency.
    ConvergingSampling s;
    s.sample_period = 100;
    cycle::ConvergenceSampler rule(s);
    CHECK(rule.observe(20, 0.1, false) == Step::warming);
    CHECK(rule.observe(20, 0.1, true) == Step::unstable);
    // In a run past saturation with no latency threshold: the bounded source queues
    // fill, and the period in which the first message is refused stops the run.
    CycleConfig cfg;
    cfg.sampling.sample_period = 1000;
    cfg.sampling.latency_threshold = 0;
    cfg.source_queue_packets = 32;
    const auto r = simulate_cycles(torus8(), UniformTraffic(64), 0.8, PacketSizes::fixed(1), cfg);
    CHECK(r.flits_refused > 0);
    CHECK(r.saturated);
    CHECK_FALSE(r.sampling_converged);
    CHECK(r.sample_periods < cfg.sampling.max_samples);
    // Unbounded queues refuse nothing: the same run goes on to max_samples.
    cfg.source_queue_packets = 0;
    const auto u = simulate_cycles(torus8(), UniformTraffic(64), 0.8, PacketSizes::fixed(1), cfg);
    CHECK(u.flits_refused == 0);
    CHECK(u.sample_periods == cfg.sampling.max_samples);
}

TEST_CASE("the stage-list kernel's sampler chooses the wake kernel's window: converged, unstable, refused") {
    const auto both = [](const CycleConfig& cfg, double rate) {
        const auto a = run_on_both_kernels(torus8(), cfg, UniformTraffic(64), rate, PacketSizes::fixed(2));
        CHECK(a.sample_periods > 0);
        return a;
    };
    CycleConfig cfg;
    cfg.sampling.sample_period = 500;
    const auto converged = both(cfg, 0.3);
    CHECK(converged.sampling_converged);
    CHECK(converged.window_start % 500 == 0);
    CHECK(converged.window_cycles % 500 == 0);
    cfg.sampling.latency_threshold = 100;
    const auto unstable = both(cfg, 0.9);
    CHECK_FALSE(unstable.sampling_converged);
    CHECK(unstable.saturated);
    cfg.sampling.latency_threshold = 0;
    cfg.source_queue_packets = 8;
    const auto refused = both(cfg, 0.9);
    CHECK(refused.flits_refused > 0);
    CHECK(refused.saturated);
}

}  // namespace unit_sampler
