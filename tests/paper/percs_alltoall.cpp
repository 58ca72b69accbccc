// Arimilli et al., "The PERCS High-Performance Interconnect", section VII.A: the
// effective all-to-all bandwidth per compute node, in closed form and from the
// flow-level kernel on a system built to the model's assumptions (32 d + 1
// supernodes, d D links on every hub to d distinct supernodes, shortest-path
// routing with single-hop L links).
#include <doctest/doctest.h>

#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/analytic/percs_alltoall.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>

using namespace fabric;

TEST_CASE("the model's path counts: 31 + 1024 d destinations, c(LL) = c(LR) = 1 + 64 d, c(D) = 1024") {
    for (double d = 1; d <= 16; ++d) {
        CHECK(analytic::PercsAlltoall::destinations(d) == 31 + 1024 * d);
        CHECK(analytic::PercsAlltoall::c_ll(d) == 1 + 64 * d);
        CHECK(analytic::PercsAlltoall::c_lr(d) == 1 + 64 * d);
        CHECK(analytic::PercsAlltoall::c_d(d) == 1024);
    }
}

TEST_CASE("D links limit below d = 8, LR links from d = 8: (155 + 5120 d) / (1 + 64 d) GB/s per node") {
    const analytic::PercsAlltoall model;
    for (double d = 1; d < 8; ++d) {
        CHECK(model.bottleneck(d) == 2);
        CHECK(model.direct_bandwidth(d) == doctest::Approx((31 + 1024 * d) * 10.0 / 1024));
    }
    for (double d = 8; d <= 16; ++d) {
        CHECK(model.bottleneck(d) == 1);
        CHECK(model.direct_bandwidth(d) == doctest::Approx((155 + 5120 * d) / (1 + 64 * d)));
        // "close to the injection bandwidth of a CN (4 * 24 GiB/s = 96 GiB/s)"
        CHECK(model.direct_bandwidth(d) < 96);
        CHECK(model.direct_bandwidth(d) > 75);
    }
}

TEST_CASE("the flow-level kernel on the model's system gives the model's loads") {
    using Shortest = PercsDirect<IntraRoute::single_hop, ZeroHop::skip>;
    const analytic::PercsAlltoall model;
    for (std::uint32_t d : {1U, 2U}) {
        CAPTURE(d);
        const auto t = PercsTopology::alltoall_model(d);
        const auto loads = link_load(PercsFabric<Shortest>{t},
                                     UniformTraffic(t.node_count(), UniformTraffic::Self::excluded));
        const double dests = model.destinations(d);
        // Every link of a class carries exactly c(class) of the node's paths.
        CHECK(loads.link_class(PercsTopology::LL).max_load == doctest::Approx(model.c_ll(d) / dests));
        CHECK(loads.link_class(PercsTopology::LR).max_load == doctest::Approx(model.c_lr(d) / dests));
        CHECK(loads.link_class(PercsTopology::D).max_load == doctest::Approx(model.c_d(d) / dests));
        CHECK(loads.throughput() == doctest::Approx(model.direct_bandwidth(d)));
        // Indirect random routing "would essentially half the alltoall bandwidth".
        const auto indirect = link_load(PercsFabric<PercsIndirect<IntraRoute::single_hop, ZeroHop::skip>>{t},
                                        UniformTraffic(t.node_count(), UniformTraffic::Self::excluded));
        CHECK(indirect.throughput() / loads.throughput() == doctest::Approx(0.5).epsilon(0.02));
    }
}
