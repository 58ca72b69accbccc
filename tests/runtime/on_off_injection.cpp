// Bursty (on/off) injection, BookSim's "on_off" process: the chain worked by hand
// at its extremes, its mean rate, what it does to latency, and its refusals.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_on_off_injection {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
/// Per node, the cycles at which `a` creates a packet in `cycles` cycles.
template <class Arrivals>
std::vector<std::vector<std::uint64_t>> creations(Arrivals a, std::uint32_t nodes, std::uint64_t cycles) {
    std::vector<std::vector<std::uint64_t>> at(nodes);
    Random rng(11);
    for (std::uint64_t now = 0; now < cycles; ++now)
        a.step(now, rng, [](std::uint32_t) { return true; }, [&](std::uint32_t n) { at[n].push_back(now); });
    return at;
}
}  // namespace

TEST_CASE("on/off: alpha = beta = 1 alternates on and off; at twice the rate while on, a packet every other cycle") {
    // p = 0.5, alpha = beta = 1: the chain flips every cycle and p_on = 0.5 x 2 = 1.
    for (const auto& node : creations(cycle::OnOffArrivals(8, 0.5, 1, 1), 8, 100)) {
        CHECK(node.size() == 50);
        for (std::size_t i = 1; i < node.size(); ++i) CHECK(node[i] - node[i - 1] == 2);
    }
}

TEST_CASE("on/off: beta = 0 stays on, so it is Bernoulli; at p = 1 a packet every cycle") {
    for (const auto& node : creations(cycle::OnOffArrivals(4, 1.0, 0.3, 0), 4, 40)) CHECK(node.size() == 40);
}

TEST_CASE("on/off: the mean rate is the offered rate, in bursts") {
    // On 10% of the time (alpha / (alpha + beta) = 0.02 / 0.2), at 0.5 while on: mean 0.05.
    const auto at = creations(cycle::OnOffArrivals(64, 0.05, 0.02, 0.18), 64, 20000);
    std::size_t total = 0, adjacent = 0;
    for (const auto& node : at) {
        total += node.size();
        for (std::size_t i = 1; i < node.size(); ++i) adjacent += node[i] - node[i - 1] == 1;
    }
    CHECK(static_cast<double>(total) / (64 * 20000) == doctest::Approx(0.05).epsilon(0.05));
    // Back-to-back packets: about half of the gaps while on (p_on = 0.5), against 5% for Bernoulli at 0.05.
    CHECK(static_cast<double>(adjacent) / static_cast<double>(total) > 0.3);
}

TEST_CASE("on/off through the kernel: the load is carried, and bursts wait longer than Bernoulli arrivals") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 20000;
    const auto bernoulli = CycleSimulator<decltype(net)>(net, cfg).run(UniformTraffic(16), 0.2);
    cfg.on_off = {0.01, 0.04};  // on a fifth of the time, at 1.0 while on
    const auto bursty = CycleSimulator<decltype(net)>(net, cfg).run(UniformTraffic(16), 0.2);
    CHECK(bursty.accepted == doctest::Approx(0.2).epsilon(0.05));
    CHECK(bursty.drained);  // every measured packet delivered
    CHECK(bursty.measured_delivered == bursty.measured_packets);
    CHECK(bursty.flits_injected == bursty.flits_ejected + bursty.flits_in_flight);  // conservation
    CHECK(bursty.latency.mean > 1.5 * bernoulli.latency.mean);
}

TEST_CASE("on/off refusals name the figure") {
    CHECK_THROWS_WITH_AS(cycle::OnOffArrivals(4, 0.3, 0.1, 0.9),
                         doctest::Contains("on/off injection: while on, a node must create 2.9"),
                         config_error);
    CycleConfig cfg;
    cfg.on_off = {2, 0};
    CHECK_THROWS_WITH_AS(cfg.validate(), "fabric: on/off injection: alpha must be in [0, 1] (0: Bernoulli); got 2",
                         config_error);
}

}  // namespace unit_on_off_injection
