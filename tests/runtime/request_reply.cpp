// Request-reply traffic in the cycle kernel (CycleConfig::request_reply,
// BookSim's use_read_write): a transaction worked by hand on an idle ring, the
// limit on outstanding requests held to its law on a loaded torus, and the
// settings' validation.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_request_reply {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("request-reply: one transaction on an idle ring, worked by hand") {
    // Pipeline 1+1+1+1, 1-cycle links. The request, 1 flit 0 -> 2 at cycle 0:
    // (2 + 1) 4 + 2 = 14 cycles, delivered at 14. Node 2 answers then with 3
    // flits: (2 + 1) 4 + 2 + 2 = 16 cycles, delivered at 30, the transaction's latency.
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> ring{Ring({16})};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    cfg.request_reply.reply_flits = 3;
    CycleSimulator<decltype(ring)> sim(ring, cfg);
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 2, 1}});
    CHECK(r.packets_delivered == 2);
    CHECK(r.replies_delivered == 1);
    CHECK(r.measured_packets == 2);  // the reply is measured with its request
    CHECK(r.measured_delivered == 2);
    CHECK(r.flits_ejected == 4);
    CHECK(r.latency.max == 16);
    CHECK(r.latency.mean == doctest::Approx((14.0 + 16.0) / 2));
    CHECK(r.transaction_latency.max == 30);
    CHECK(r.transaction_latency.mean == doctest::Approx(30.0));

    // Off: the same trace is one packet.
    cfg.request_reply = {};
    CycleSimulator<decltype(ring)> plain(ring, cfg);
    const auto p = plain.run_trace(std::vector<TraceMessage>{{0, 0, 2, 1}});
    CHECK(p.packets_delivered == 1);
    CHECK(p.replies_delivered == 0);
    CHECK(p.transaction_latency.histogram.empty());
}

TEST_CASE("request-reply on a loaded torus: every request answered, and at most max_outstanding awaiting replies") {
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({4, 4})};
    CycleConfig cfg;
    cfg.warmup = 500;
    cfg.measure = 3000;
    cfg.request_reply.reply_flits = 4;
    for (const std::uint32_t limit : {0U, 1U, 2U}) {
        CAPTURE(limit);
        cfg.request_reply.max_outstanding = limit;
        CycleSimulator<decltype(net)> sim(net, cfg);
        // Without a limit, 0.05 requests of 1 flit and their 4-flit replies (0.25 flits a
        // cycle a node); with one, 0.5 offered, far past what the limit lets through.
        const auto r = sim.run(UniformTraffic(16), limit ? 0.5 : 0.05, PacketSizes::fixed(1));
        REQUIRE_FALSE(r.deadlock);
        CHECK(r.drained);
        CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
        CHECK(r.misdelivered == 0);
        // Every measured request has its measured reply, each pair one transaction.
        std::uint64_t transactions = 0;
        for (const auto n : r.transaction_latency.histogram) transactions += n;
        CHECK(transactions > 0);
        CHECK(2 * transactions == r.measured_packets);
        CHECK(r.measured_delivered == r.measured_packets);
        CHECK(r.transaction_latency.mean > r.latency.mean);
        if (limit == 0) {
            CHECK_FALSE(r.saturated);
            continue;
        }
        // A source holds at most `limit` transactions open, each lasting at least
        // the shortest one seen: that bounds its requests in the window, and the
        // replies created there answer those or the at most `limit` open before it.
        std::uint64_t shortest = 0;
        while (r.transaction_latency.histogram.at(shortest) == 0) ++shortest;
        const std::uint64_t requests = 16 * limit * (cfg.measure / shortest + 1);
        CHECK(r.flits_created_in_window <= requests + 4 * (requests + 16 * limit));
        CHECK(r.flits_created_in_window > 0);
    }
}

TEST_CASE("request-reply settings are validated") {
    CycleConfig cfg;
    cfg.request_reply.max_outstanding = 4;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("request_reply: max_outstanding limits requests"),
                         config_error);
    cfg.request_reply.reply_flits = 70000;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("a reply has at most 65535 flits"), config_error);
    cfg.request_reply.reply_flits = 2;
    cfg.max_packet_flits = 8;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("set max_packet_flits to 0"), config_error);
}

}  // namespace unit_request_reply
