// PERCS at packet level: virtual channels by hop position (and what fewer do),
// the hub's route modes, the cycle kernel on PERCS (conservation, no deadlock,
// reordering), failed and degraded links, and the Collective Acceleration Unit.
#include <doctest/doctest.h>

#include <fabric/collective/cau.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/percs_modes.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

namespace unit_percs_packet {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("hop-position VCs: 3 on L and 2 on D are deadlock free, fewer are not") {
    const PercsTopology t(4, 8);
    CHECK(channel_dependencies(t, PercsVcCap<Direct, 2, 1>{}, 3).acyclic);
    CHECK_FALSE(channel_dependencies(t, PercsVcCap<Direct, 1, 1>{}, 3).acyclic);
    CHECK(channel_dependencies(t, PercsVcCap<Indirect, 3, 2>{}, 3).acyclic);
    CHECK_FALSE(channel_dependencies(t, PercsVcCap<Indirect, 2, 2>{}, 3).acyclic);
    CHECK_FALSE(channel_dependencies(t, PercsVcCap<Indirect, 3, 1>{}, 3).acyclic);
    const auto cycle = channel_dependencies(t, PercsVcCap<Indirect, 2, 2>{}, 3);
    CHECK(cycle.describe_cycle().find("(node ") == 0);
}

TEST_CASE("route modes per packet: direct, software-named intermediate, round robin, random indirect") {
    const PercsTopology t(8, 4);
    const NodeId src = PercsTopology::node(0, 3), dst = PercsTopology::node(5, 20);
    std::vector<Hop> out(8);
    // Direct: L-D-L, one D hop.
    const PercsHubRouting<> direct(PercsModeMix::only(PercsMode::direct));
    const std::size_t n = direct.select_route(t, src, dst, 12345, out.data());
    CHECK(n <= 3);
    CHECK(route_end(t, src, {out.data(), n}) == dst);
    // Software: through the supernode the chooser names (NextSupernode: 6).
    const PercsHubRouting<> software(PercsModeMix::only(PercsMode::software));
    for (std::uint64_t c = 0; c < 20; ++c) {
        const std::size_t m = software.select_route(t, src, dst, c << 45, out.data());
        REQUIRE(route_end(t, src, {out.data(), m}) == dst);
        bool via = false;
        for (std::size_t i = 0; i < m; ++i) via = via || PercsTopology::supernode_of(out[i].node) == 6;
        CHECK(via);
    }
    // Random indirect: two D hops, at most five hops.
    const PercsHubRouting<> random(PercsModeMix::only(PercsMode::random_indirect));
    for (std::uint64_t c = 0; c < 50; ++c) {
        const std::size_t m = random.select_route(t, src, dst, c * 0x9e3779b97f4a7c15ULL, out.data());
        CHECK(m <= 5);
        std::size_t d = 0;
        for (std::size_t i = 0; i < m; ++i) d += t.link_class(out[i].node, out[i].port) == PercsTopology::D;
        CHECK(d == 2);
    }
    // Round robin: the pair's 4 direct and 32 indirect routes in turn, then again.
    const PercsHubRouting<> rr(PercsModeMix::only(PercsMode::round_robin));
    std::vector<std::vector<Hop>> seen;
    for (int k = 0; k < 72; ++k) {
        const std::size_t m = rr.select_route(t, src, dst, 0, out.data());
        seen.emplace_back(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m));
    }
    for (int k = 0; k < 36; ++k) CHECK(seen[k] == seen[k + 36]);
    std::size_t direct_routes = 0;
    for (int k = 0; k < 36; ++k) direct_routes += seen[k].size() <= 3;
    CHECK(direct_routes >= 4);
    // The mix picks modes in proportion.
    const PercsHubRouting<> mixed(PercsModeMix{{1, 0, 0, 3}});
    Random rng(3);
    int indirect = 0;
    for (int k = 0; k < 20000; ++k) indirect += mixed.mode_of(rng.next()) == PercsMode::random_indirect;
    CHECK(indirect / 20000.0 == doctest::Approx(0.75).epsilon(0.03));
}

namespace {
template <class R>
CycleResult run_percs(const PercsTopology& t, R routing, double rate, std::uint64_t measure, bool reorder = false) {
    const PercsFabric<R> net{t, routing, Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = measure / 5;
    cfg.measure = measure;
    cfg.track_reorder = reorder;
    return simulate_cycles(net, UniformTraffic(t.node_count(), UniformTraffic::Self::excluded), rate,
                           PacketSizes::fixed(percs_packet_flits), cfg);
}
}  // namespace

TEST_CASE("the hub in the cycle kernel: conservation, no deadlock, routes within L-D-L-D-L, reordering reported") {
    const PercsTopology t(4, 8);
    for (const double rate : {0.01, 0.05}) {
        CAPTURE(rate);
        const auto d = run_percs(t, Direct{}, rate, 6000, true);
        const auto i = run_percs(t, PercsHubRouting<>(PercsModeMix{{1, 1, 1, 1}}), rate, 6000, true);
        for (const auto& r : {d, i}) {
            CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
            CHECK(r.out_of_order == 0);
            CHECK(r.misdelivered == 0);
            CHECK_FALSE(r.deadlock);
        }
        CHECK(d.hops_mean <= 3.0);
        CHECK(i.hops_mean <= 5.0);
        CHECK(i.hops_mean > d.hops_mean);
        if (rate > 0.02) {  // at the heavier load, packets of a pair take different routes and overtake
            CHECK(i.packets_overtaking > 0);
            CHECK(i.reorder_depth >= 1);
        }
    }
}

TEST_CASE("messages of many packets through two HFIs: reassembled at the destination, reorder depth reported") {
    // 16 KB messages (8 packets of 2 KB) between random pairs of a 4-supernode
    // system, under random indirect routing: packets of one message take
    // different intermediate supernodes and arrive out of order; the destination
    // holds them until the missing ones come.
    const PercsTopology t(4, 8);
    const PercsFabric<PercsHubRouting<>> net{t, PercsHubRouting<>(PercsModeMix::only(PercsMode::random_indirect)),
                                             Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    REQUIRE(cfg.injection_queues == 2);
    REQUIRE(cfg.max_packet_flits == percs_packet_flits);
    cfg.warmup = 0;
    cfg.measure = 4000;
    const auto trace = random_pairs_trace(static_cast<std::uint32_t>(t.node_count()), 400, 10, 8 * percs_packet_flits, 11);
    CycleSimulator sim(net, cfg);
    const auto r = sim.run_trace(trace);
    CHECK(r.messages_delivered == trace.size());
    CHECK(r.packets_delivered == 8 * trace.size());
    CHECK(r.flits_ejected == r.flits_injected);
    CHECK(r.out_of_order == 0);  // flits within a packet never reorder
    CHECK(r.packets_early > 0);  // packets within a message do
    CHECK(r.message_reorder_depth >= 1);
    CHECK(r.message_reorder_depth <= 7);  // the first packet of a message is never held
    CHECK(r.message_latency.max >= r.latency.max);
    // A D link fails under the same trace: every message is delivered or reported lost.
    CycleSimulator faulty(net, cfg);
    const NodeId a = PercsTopology::node(0, t.d_source_local(0, 1, 0));
    faulty.fail_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 1500);
    const auto f = faulty.run_trace(trace);
    CHECK(f.messages_delivered + f.messages_lost == trace.size());
    CHECK(f.flits_injected == f.flits_ejected + f.flits_in_flight + f.flits_dropped);
    CHECK(f.flits_in_flight == 0);
    CHECK_FALSE(f.deadlock);
}

TEST_CASE("links failing and coming back under load: no deadlock, every packet delivered or reported") {
    const PercsTopology t(4, 8);
    const PercsFabric<PercsHubRouting<>> net{t, PercsHubRouting<>(PercsModeMix{{1, 0, 1, 1}}), Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 1000;
    cfg.measure = 8000;
    CycleSimulator sim(net, cfg);
    // Two D links and an LR link fail, one D link comes back.
    const NodeId a = PercsTopology::node(0, t.d_source_local(0, 1, 0));
    sim.fail_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 2000);
    const NodeId b = PercsTopology::node(2, t.d_source_local(2, 3, 1));
    sim.fail_link(b, t.d_port(2, t.d_source_local(2, 3, 1), 3), 3000);
    sim.fail_link(PercsTopology::node(1, 0), PercsTopology::l_port(0, 9), 2500);
    sim.restore_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 6000);
    const auto r = sim.run(UniformTraffic(t.node_count(), UniformTraffic::Self::excluded), 0.03,
                           PacketSizes::fixed(percs_packet_flits));
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
    CHECK_FALSE(r.deadlock);
    CHECK(r.out_of_order == 0);
    CHECK(r.packets_unroutable == 0);  // other routes remain for every pair
    CHECK(r.hops_mean <= 5.0);
    CHECK(r.drained);  // every measured packet delivered or reported lost: none stuck behind a cut
    CHECK(r.packets_lost > 0);
}

TEST_CASE("a fault that cuts a pair of supernodes off is reported, not hidden") {
    // One D link per pair (n_d = 1) and direct routing: losing the link between
    // supernodes 0 and 1 leaves their pairs no route.
    const PercsTopology t(32, 1);
    const PercsFabric<Direct> net{t, Direct{}, Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 200;
    cfg.measure = 3000;
    CycleSimulator sim(net, cfg);
    const std::uint32_t u = t.d_source_local(0, 1, 0);
    sim.fail_link(PercsTopology::node(0, u), t.d_port(0, u, 1), 0);
    std::vector<double> m(64 * 64, 0.0);  // supernode 0's 32 hubs to supernode 1's, one to one
    std::vector<double> matrix(t.node_count() * t.node_count(), 0.0);
    for (std::uint32_t k = 0; k < 32; ++k) matrix[k * t.node_count() + 32 + k] = 1;
    const auto r = sim.run(TrafficMatrix(t.node_count(), matrix), 0.002, PacketSizes::fixed(4));
    CHECK(r.packets_unroutable > 0);
    CHECK(r.packets_lost == r.packets_unroutable);
    CHECK(r.packets_delivered == 0);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
}

// The paper: bandwidth "gracefully degrades" with failed lanes, no lane count.
// 10 lanes and 2 spares are the library's assumption (link/percs.hpp); this
// tests the rule as the library states it, not a figure of the paper.
TEST_CASE("D links, the library's lane assumption (10 and 2 spares): bandwidth drops a tenth per lane past the spares") {
    const PercsD d;
    for (unsigned failed = 0; failed <= 2; ++failed) CHECK(d.bandwidth_with_failed_lanes(failed).count == 10.0);
    CHECK(d.bandwidth_with_failed_lanes(3).count == doctest::Approx(9.0));
    CHECK(d.bandwidth_with_failed_lanes(7).count == doctest::Approx(5.0));
    CHECK(d.bandwidth_with_failed_lanes(11).count == doctest::Approx(1.0));
    CHECK(d.bandwidth_with_failed_lanes(12).count == 0.0);
    // In the cycle kernel: one hub streaming to the far side of a D link with 5 lanes
    // failed (7 working) moves 7/10 of what it moves over a whole link.
    const PercsTopology t(32, 1);
    std::vector<double> matrix(t.node_count() * t.node_count(), 0.0);
    const std::uint32_t u = t.d_source_local(0, 1, 0), v = t.d_landing_local(0, 1, 0);
    matrix[u * t.node_count() + 32 + v] = 1;  // the D link's ends: no L hop
    auto stream = [&](double factor) {
        const PercsFabric<Direct> net{t, Direct{}, Credit{64, 1}};
        CycleConfig cfg = percs_cycle_config(t);
        cfg.warmup = 2000;
        cfg.measure = 40000;
        cfg.drain_limit = 1;
        CycleSimulator sim(net, cfg);
        if (factor > 1) sim.slow_link(PercsTopology::node(0, u), t.d_port(0, u, 1), factor);
        return sim.run(TrafficMatrix(t.node_count(), matrix), 0.5, PacketSizes::fixed(16)).accepted;
    };
    const double whole = stream(1), degraded = stream(10.0 / 7.0);
    CHECK(degraded / whole == doctest::Approx(24.0 / 35.0).epsilon(0.03));  // 24 cycles a flit, then ceil(24 * 10/7) = 35
}

TEST_CASE("CAU reductions equal the serial fold in the tree's order, bit for bit, for every operation and type") {
    const auto tree = cau::Tree::k_ary([] {
        std::vector<std::uint32_t> hubs(40);
        for (std::uint32_t i = 0; i < 40; ++i) hubs[i] = i * 7 % 64;
        return hubs;
    }(), 3);
    auto hops = [](std::uint32_t a, std::uint32_t b) { return a / 32 == b / 32 ? 1 : 3; };
    Random rng(5);
    auto check_type = [&](auto zero, std::initializer_list<cau::Op> ops) {
        using V = decltype(zero);
        std::vector<V> values(tree.size());
        for (auto& x : values) {
            if constexpr (std::is_floating_point_v<V>) x = static_cast<V>((rng.uniform() - 0.3) * 1e3);
            else x = static_cast<V>(rng.next() >> 8);
        }
        for (const auto op : ops) {
            const auto r = cau::reduce<V>({tree}, op, {values}, hops);
            const V expect = cau::serial(tree, op, values);
            if constexpr (std::is_floating_point_v<V>) CHECK(std::memcmp(&r[0].value, &expect, sizeof(V)) == 0);
            else CHECK(r[0].value == expect);
            // The same again: the fixed order gives the same bits.
            const auto again = cau::reduce<V>({tree}, op, {values}, hops);
            CHECK(std::memcmp(&again[0].value, &r[0].value, sizeof(V)) == 0);
        }
    };
    using enum cau::Op;
    check_type(std::int64_t{}, {nop, sum, min, max, bit_or, bit_and, bit_xor});
    check_type(std::uint64_t{}, {nop, sum, min, max, bit_or, bit_and, bit_xor});
    check_type(float{}, {sum, min, max, prod});
    check_type(double{}, {sum, min, max, prod});
    CHECK_THROWS_WITH_AS(cau::reduce<double>({tree}, bit_xor, {std::vector<double>(40)}, hops),
                         doctest::Contains("does not offer this operation"), config_error);
}

TEST_CASE("CAU: a lost packet is retransmitted and the result is still exact; trees share CAUs up to the CAM") {
    const auto tree = cau::Tree::k_ary({0, 1, 2, 3, 4, 5, 6}, 2);
    auto hops = [](std::uint32_t, std::uint32_t) { return 2; };
    const std::vector<double> values{1.5, 2.25, 3.125, 4.0625, 5.5, 6.75, 7.875};
    const cau::Timing timing;
    const auto clean = cau::reduce<double>({tree}, cau::Op::sum, {values}, hops, timing);
    // Child 3's first packet and child 1's first two are lost.
    const auto lossy = cau::reduce<double>({tree}, cau::Op::sum, {values}, hops, timing,
                                           {{0, 3, 0}, {0, 1, 0}, {0, 1, 1}});
    CHECK(lossy[0].value == clean[0].value);
    CHECK(lossy[0].resends == 3);
    CHECK(lossy[0].done_ns > clean[0].done_ns + 2 * timing.ack_timeout_ns - 1);
    // Timing with no loss: up the depth-2 tree and back down, each level a 2-hop edge and a CAU.
    const double level = 2 * timing.per_hop_ns + timing.cau_ns;
    CHECK(clean[0].done_ns == doctest::Approx(timing.cau_ns + 2 * level + 2 * level));
    // Two trees at once; the CAM limit is enforced.
    const auto other = cau::Tree::k_ary({6, 5, 4}, 2);
    const auto both = cau::reduce<double>({tree, other}, cau::Op::max, {values, {1, 9, 3}}, hops);
    CHECK(both[0].value == 7.875);
    CHECK(both[1].value == 9);
    cau::Timing small = timing;
    small.cam_entries = 1;
    CHECK_THROWS_WITH_AS(cau::reduce<double>({tree, other}, cau::Op::max, {values, {1, 9, 3}}, hops, small),
                         doctest::Contains("more trees than its CAU has CAM entries"), config_error);
}

}  // namespace unit_percs_packet
