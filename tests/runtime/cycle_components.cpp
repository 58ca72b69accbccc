// The cycle kernel's parts, each alone: queues, the event calendar, pools, route
// slots, reassembly and reordering, link wiring, and the allocators (matching and
// round-robin fairness), with cases worked by hand.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace fabric;

TEST_CASE("RingQueue: first in, first out across growth and wrap-around") {
    cycle::RingQueue<int> q;
    CHECK(q.empty());
    CHECK(q.capacity() == 8);
    for (int i = 0; i < 5; ++i) q.push(i);
    for (int i = 0; i < 3; ++i) {
        CHECK(q.front() == i);
        q.pop();
    }
    for (int i = 5; i < 20; ++i) q.push(i);  // wraps, then doubles twice (8 -> 16 -> 32)
    CHECK(q.capacity() == 32);
    CHECK(q.size() == 17);
    for (int i = 3; i < 20; ++i) {
        CHECK(q.front() == i);
        q.pop();
    }
    CHECK(q.empty());
}

TEST_CASE("EventWheel: a power-of-two horizon past the longest delay; events come due at their cycle") {
    CHECK(cycle::EventWheel<int>::horizon_for(0) == 1);
    CHECK(cycle::EventWheel<int>::horizon_for(1) == 2);
    CHECK(cycle::EventWheel<int>::horizon_for(7) == 8);
    CHECK(cycle::EventWheel<int>::horizon_for(8) == 16);
    cycle::EventWheel<int> w;
    w.reset(5);
    CHECK(w.horizon() == 8);
    const std::uint64_t now = 13;
    w.schedule(now + 5, 1);
    w.schedule(now + 1, 2);
    w.schedule(now + 5, 3);
    CHECK(w.due(now).empty());
    CHECK(w.due(now + 1) == std::vector<int>{2});
    CHECK(w.due(now + 5) == std::vector<int>{1, 3});
    w.reset(5);
    CHECK(w.due(now + 5).empty());
}

TEST_CASE("SlotPool and RouteStore: a released slot is reused first; storage grows only past the peak") {
    cycle::SlotPool<int> pool;
    CHECK(pool.take() == 0);
    CHECK(pool.take() == 1);
    CHECK(pool.take() == 2);
    pool.release(1);
    CHECK(pool.in_use() == 2);
    CHECK(pool.take() == 1);
    CHECK(pool.size() == 3);

    cycle::RouteStore routes;
    routes.reset(3);
    const auto a = routes.take(), b = routes.take();
    CHECK(a != b);
    for (std::uint16_t h = 0; h < 3; ++h) {
        routes.steps(a)[h] = {h, 0};
        routes.steps(b)[h] = {static_cast<std::uint16_t>(10 + h), 1};
    }
    CHECK(routes.step(a, 2).port == 2);
    CHECK(routes.step(b, 0).port == 10);
    CHECK(routes.step(b, 0).vc == 1);
    routes.release(a);
    CHECK(routes.take() == a);
}

TEST_CASE("MessageTable: parts arriving 2, 0, 1 are reassembled with one early packet and a depth of 1") {
    cycle::MessageTable table;
    CycleResult r;
    LatencyHistogram latency;
    const auto id = table.open(3, 100, true);
    table.part_done(id, 2, 150, true, r, latency);  // ahead of part 0: held
    CHECK(r.packets_early == 1);
    CHECK(r.message_reorder_depth == 1);
    table.part_done(id, 0, 160, true, r, latency);  // 0 in place; 2 still waits for 1
    CHECK(r.message_reorder_depth == 1);
    CHECK(r.messages_delivered == 0);
    table.part_done(id, 1, 170, true, r, latency);
    CHECK(r.packets_early == 1);
    CHECK(r.messages_delivered == 1);
    CHECK(r.measured_messages_delivered == 1);
    CHECK(latency.max() == 70);  // created at 100, last part at 170
    CHECK(table.open_messages() == 0);
    // A message with a lost part is lost, once, when its last part is accounted for.
    const auto lost = table.open(2, 200, false);
    table.part_done(lost, 0, 0, false, r, latency);
    CHECK(r.messages_lost == 0);
    table.part_done(lost, 1, 230, true, r, latency);
    CHECK(r.messages_lost == 1);
    CHECK(r.messages_delivered == 1);
}

TEST_CASE("ReorderTracker: arrivals 1, 2, 0 of one pair: two overtaking packets, a depth of 2") {
    cycle::ReorderTracker t(4);
    CycleResult r;
    for (std::uint32_t s = 0; s < 3; ++s) CHECK(t.next_sequence(1, 3) == s);
    CHECK(t.next_sequence(3, 1) == 0);  // pairs are directed
    t.arrived(1, 3, 1, r);
    t.arrived(1, 3, 2, r);
    CHECK(r.packets_overtaking == 2);
    CHECK(r.reorder_depth == 2);
    t.arrived(1, 3, 0, r);
    t.arrived(3, 1, 0, r);
    CHECK(r.packets_overtaking == 2);
    CHECK(r.reorder_depth == 2);
}

TEST_CASE("Links: a ring's wiring is symmetric, timing follows the configuration, slowing is checked") {
    const Torus<1> ring{{4}};
    CycleConfig cfg;
    cfg.link_latency = 3;
    cycle::Links links(ring, cfg);
    CHECK(links.channels() == 8);
    for (std::uint32_t n = 0; n < 4; ++n)
        for (std::uint32_t p = 0; p < 2; ++p) {
            const auto c = links.channel(n, p);
            CHECK(links.connected(c));
            CHECK(links.down(c) == ring.neighbour(NodeId{n}, PortId{p}).value);
            CHECK(links.reverse(links.reverse(c)) == c);
            CHECK(links.down(links.reverse(c)) == n);
            CHECK(links.up(links.channel(links.down(c), links.down_port(c))) == c);
            CHECK(links.latency(c) == 3);
            CHECK(links.serialisation(c) == 1);
        }
    CHECK(links.max_latency() == 3);
    const auto c = links.channel(0, 0);
    links.slow(c, 2.5);
    CHECK(links.serialisation(c) == 3);  // ceil(1 x 2.5), both directions
    CHECK(links.serialisation(links.reverse(c)) == 3);
    CHECK(links.max_serialisation() == 3);
    CHECK_THROWS_AS(links.slow(c, 0.5), config_error);
    CHECK_THROWS_AS(links.slow(c, std::numeric_limits<double>::infinity()), config_error);
}

TEST_CASE("VC allocation: the requester nearest at or after the output VC's pointer wins, and turns alternate") {
    std::vector<std::uint32_t> owner(4, cycle::RoundRobinVcAllocator::free), pointer(4, 0);
    const std::vector<std::pair<std::size_t, std::size_t>> both{{3, 0}, {5, 0}};
    std::vector<std::size_t> winners;
    int lost = 0;
    auto run = [&] {
        cycle::RoundRobinVcAllocator::allocate(both, owner, pointer, 8,
                                               [&](std::size_t w) { winners.push_back(w); }, [&] { ++lost; });
    };
    pointer[0] = 4;
    run();
    CHECK(winners == std::vector<std::size_t>{5});
    CHECK(owner[0] == 5);
    CHECK(pointer[0] == 6);
    CHECK(lost == 1);  // the second request found the VC taken this cycle
    owner[0] = cycle::RoundRobinVcAllocator::free;  // the tail left
    run();
    CHECK(winners == std::vector<std::size_t>{5, 3});  // from 6, 3 comes before 5 on the ring of 8
    owner[0] = cycle::RoundRobinVcAllocator::free;
    run();
    CHECK(winners == std::vector<std::size_t>{5, 3, 5});
    // Requests for different output VCs are all granted.
    std::vector<std::uint32_t> owner2(4, cycle::RoundRobinVcAllocator::free), pointer2(4, 0);
    const std::vector<std::pair<std::size_t, std::size_t>> apart{{1, 0}, {2, 1}, {3, 2}};
    int granted = 0;
    cycle::RoundRobinVcAllocator::allocate(apart, owner2, pointer2, 8, [&](std::size_t) { ++granted; }, [] {});
    CHECK(granted == 3);
}

TEST_CASE("Switch allocation, output stage: a matching, and each of three contending inputs wins once in three") {
    constexpr std::uint32_t ports = 4;
    const std::uint32_t out_of[ports] = {2, 2, 0, 2};
    std::uint32_t choice[ports] = {0, 1, cycle::no_port, 0};  // inputs 0, 1, 3 want output 2
    std::uint32_t pointer[ports] = {0, 0, 1, 0};
    std::vector<std::uint32_t> wins;
    for (int round = 0; round < 3; ++round) {
        std::uint32_t granted = 0;
        cycle::RoundRobinSwitchOutputStage<ports>::allocate(
            choice, [&](std::uint32_t p) { return out_of[p]; }, pointer, [&](std::uint32_t in, std::uint32_t out) {
                CHECK(out == 2);
                wins.push_back(in);
                ++granted;
            });
        CHECK(granted == 1);  // one input per output
    }
    CHECK(wins == std::vector<std::uint32_t>{1, 3, 0});
    // Inputs wanting different outputs are all matched.
    const std::uint32_t spread[ports] = {0, 1, 2, 3};
    std::uint32_t all[ports] = {0, 0, 0, 0};
    std::uint32_t matched = 0;
    cycle::RoundRobinSwitchOutputStage<ports>::allocate(
        all, [&](std::uint32_t p) { return spread[p]; }, pointer, [&](std::uint32_t, std::uint32_t) { ++matched; });
    CHECK(matched == 4);
}

TEST_CASE("progress: off by default; when given, the callback sees the run advance") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>{{4, 4}}};
    CycleConfig cfg;
    CHECK_FALSE(cfg.on_progress);
    cfg.warmup = 0;
    cfg.measure = 40000;
    cfg.progress_seconds = 1e-9;
    std::vector<std::uint64_t> seen;
    cfg.on_progress = [&](const CycleProgress& p) {
        CHECK(p.cycle <= p.last_cycle);
        CHECK(p.measured_delivered <= p.measured_packets);
        seen.push_back(p.cycle);
    };
    CycleSimulator<Net> sim(net, cfg);
    const auto r = sim.run(UniformTraffic(16), 0.05);
    CHECK(r.drained);
    REQUIRE(seen.size() >= 2);
    for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] > seen[i - 1]);
    cfg.progress_seconds = 0;
    CHECK_THROWS_AS(cfg.validate(), config_error);
}
