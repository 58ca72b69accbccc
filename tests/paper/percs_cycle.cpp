// Arimilli et al., section VII.A, from the flit-level kernel: the all-to-all
// bound is an upper bound the simulation never exceeds; direct routing beats
// random indirect on all-to-all; random indirect beats direct on the 32-to-32
// hot spot between two supernodes. The system is the model's (d = 1: 33
// supernodes, one D link per pair and per hub), routes shortest (single-hop L).
//
// What we measure against what the paper argues (stated, not tuned): direct
// routing reaches about 55% of the bound (our routers queue each input virtual
// channel in one FIFO, and a packet leaving a D link's FIFO over a 5 GB/s LR link
// holds up those behind it), so direct beats indirect by about 1.25x here, not
// the factor of two of the paper's counting argument.
#include <doctest/doctest.h>

#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/analytic/percs_alltoall.hpp>
#include <fabric/systems/percs.hpp>

#include <vector>

using namespace fabric;

namespace {
using ShortestDirect = PercsDirect<IntraRoute::single_hop, ZeroHop::skip>;
using RandomIndirect = PercsIndirect<IntraRoute::single_hop, ZeroHop::skip>;

template <class R, class Pattern>
double gbps_per_node(const PercsTopology& t, const Pattern& pattern, double gbps_offered, std::uint64_t window) {
    const PercsFabric<R> net{t, R{}, Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.progress = false;
    cfg.warmup = window / 4;
    cfg.measure = window;
    cfg.drain_limit = 1;  // saturated on purpose: the accepted rate is what is measured
    const auto r = simulate_cycles(net, pattern, percs_flits_per_cycle(t, gbps_offered),
                                   PacketSizes::fixed(percs_packet_flits), cfg);
    REQUIRE(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
    REQUIRE_FALSE(r.deadlock);
    return percs_gbps(t, r.accepted);
}
}  // namespace

TEST_CASE("all-to-all: the VII.A bound is never exceeded; direct beats random indirect") {
    const auto t = PercsTopology::alltoall_model(1);
    const double bound = analytic::PercsAlltoall{}.direct_bandwidth(1);  // 10.3 GB/s per node
    const UniformTraffic all(t.node_count(), UniformTraffic::Self::excluded);
    const double direct = gbps_per_node<ShortestDirect>(t, all, 1.3 * bound, 8000);
    const double indirect = gbps_per_node<RandomIndirect>(t, all, 1.3 * bound, 8000);
    CAPTURE(bound);
    CAPTURE(direct);
    CAPTURE(indirect);
    CHECK(direct <= bound);
    CHECK(indirect <= bound / 2 * 1.02);  // indirect crosses two D links: half the bound
    CHECK(direct > 0.45 * bound);
    CHECK(direct > indirect);
}

TEST_CASE("the 32-to-32 hot spot between two supernodes: random indirect beats direct") {
    const auto t = PercsTopology::alltoall_model(1);
    std::vector<double> m(t.node_count() * t.node_count(), 0.0);
    for (std::uint32_t k = 0; k < 32; ++k) m[k * t.node_count() + 32 + k] = 1;  // supernode 0 to supernode 1
    const TrafficMatrix hot(t.node_count(), m);
    // Offer 1 GB/s per node of the whole machine: 33 GB/s from each of supernode 0's hubs.
    const double direct = gbps_per_node<ShortestDirect>(t, hot, 1.0, 8000);
    const double indirect = gbps_per_node<RandomIndirect>(t, hot, 1.0, 8000);
    CAPTURE(direct);
    CAPTURE(indirect);
    // Direct: 32 hubs share one 10 GB/s D link: 10 GB/s over the machine's 1056 hubs, per 32 senders.
    CHECK(direct <= 10.0 * 32 / static_cast<double>(t.node_count()) * 1.02);
    CHECK(indirect > 3 * direct);
}
