// The cycle kernel's parts, each alone: queues, the event calendar, pools, route
// slots, reassembly and reordering, link wiring, and the allocators (matching and
// round-robin fairness), with cases worked by hand.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace unit_cycle_components {  // the unit's own names: tests/CMakeLists.txt builds units in batches

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
    auto due = [&](std::uint64_t at) { return std::vector<int>(w.due(at).begin(), w.due(at).end()); };
    CHECK(w.due(now).empty());
    CHECK(due(now + 1) == std::vector<int>{2});
    CHECK(due(now + 5) == std::vector<int>{1, 3});
    w.reset(5);
    CHECK(w.due(now + 5).empty());
    // A bucket grows past its first storage and keeps it once cleared.
    for (int i = 0; i < 40; ++i) w.schedule(now + 2, i);
    CHECK(w.due(now + 2).size() == 40);
    CHECK(w.due(now + 2)[39] == 39);
    w.due(now + 2).clear();
    CHECK(w.due(now + 2).empty());
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

TEST_CASE("TerminalLinks: 2.5 cycles a flit, whole cycles 2 and 3 in turn, streaming ahead of the switch") {
    cycle::TerminalLinks t;
    t.reset(1, 2560, 4);  // 2.5 cycles a flit (2560 / 1024), input VCs of 4 flits
    CHECK(t.limited());
    // Into the router: the first flit exists at 0 and is across at 2.5, so the
    // switch takes it in cycle 3; each next is across 2.5 cycles after the last.
    CHECK(t.in_ready(0, 0, 0) == 3);
    std::vector<std::uint64_t> took;
    for (std::uint64_t at = t.in_ready(0, 0, 0); took.size() < 5;) {
        took.push_back(at);
        at = t.in_took(0, 0, at);
    }
    CHECK(took == std::vector<std::uint64_t>{3, 5, 8, 10, 13});
    // A switch late by 20 cycles finds the link 4 flits (a buffer) ahead, not more:
    // those leave at once, then one each 2.5 cycles again.
    const std::uint64_t late = 40;
    const std::uint64_t next = t.in_took(0, 0, late);  // carried from 40 - 10 = 30 on: across at 32.5
    CHECK(next == 35);  // the next, across at 35.0
    CHECK(t.in_ready(0, 100, 0) == 103);  // a flit that exists only from 100: across at 102.5
    // Out of the router: the link is busy 2.5 cycles a flit from when it is free.
    std::vector<std::uint64_t> out_at, across;
    for (std::uint64_t at = 0; out_at.size() < 4;) {
        const auto c = t.out(0, at);
        out_at.push_back(at);
        across.push_back(c.across);
        at = c.next;
    }
    CHECK(out_at == std::vector<std::uint64_t>{0, 2, 5, 7});
    CHECK(across == std::vector<std::uint64_t>{2, 4, 7, 9});  // across by the end of cycles 2 (2.5), 4 (5.0), ...
    cycle::TerminalLinks none;
    none.reset(1, 0, 4);
    CHECK_FALSE(none.limited());
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

TEST_CASE("SeparableSwitch: one input per output, output turns rotate, an input's VCs alternate") {
    SeparableSwitch::stage sw;
    sw.reset(2, 4, 2);  // two routers of 4 ports, 2 VCs
    std::vector<std::uint32_t> wins;
    for (int round = 0; round < 3; ++round) {  // inputs 0, 1, 3 want output 2
        sw.begin(1);
        CHECK_FALSE(sw.any());
        sw.request(0, 0, 2);
        sw.request(1, 1, 2);
        sw.request(3, 0, 2);
        CHECK(sw.any());
        std::uint32_t granted = 0;
        sw.allocate([&](std::uint32_t in, std::uint32_t, std::uint32_t out) {
            CHECK(out == 2);
            wins.push_back(in);
            ++granted;
        });
        CHECK(granted == 1);
    }
    CHECK(wins == std::vector<std::uint32_t>{0, 1, 3});  // from the output's pointer at 0, then past each winner
    // Input 2 has VC 0 for output 1 and VC 1 for output 3: its pointer picks VC 0, then VC 1.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> picked;
    for (int round = 0; round < 2; ++round) {
        sw.begin(0);
        sw.request(2, 0, 1);
        sw.request(2, 1, 3);
        sw.allocate([&](std::uint32_t, std::uint32_t vc, std::uint32_t out) { picked.emplace_back(vc, out); });
    }
    CHECK(picked == std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}, {1, 3}});
    // Inputs wanting different outputs are all matched, in output order.
    sw.begin(0);
    for (std::uint32_t in = 0; in < 4; ++in) sw.request(in, 0, 3 - in);
    std::vector<std::uint32_t> outs;
    sw.allocate([&](std::uint32_t in, std::uint32_t, std::uint32_t out) {
        CHECK(in == 3 - out);
        outs.push_back(out);
    });
    CHECK(outs == std::vector<std::uint32_t>{0, 1, 2, 3});
}

namespace {
/// Rounds of iSLIP on a 4 x 4 switch whose every input wants every output; the
/// number of pairs matched per round, and how often each pair was served.
template <unsigned I>
std::vector<std::uint32_t> islip_rounds(int rounds, std::array<std::array<int, 4>, 4>& served) {
    typename Islip<I>::stage sw;  // input VC v wants output v
    sw.reset(1, 4, 4);
    std::vector<std::uint32_t> matched;
    for (int r = 0; r < rounds; ++r) {
        sw.begin(0);
        for (std::uint32_t in = 0; in < 4; ++in)
            for (std::uint32_t out = 0; out < 4; ++out) sw.request(in, out, out);
        std::uint32_t m = 0, in_used = 0, out_used = 0;
        sw.allocate([&](std::uint32_t in, std::uint32_t, std::uint32_t out) {
            CHECK(((in_used >> in) & 1U) == 0U);  // a matching: each input and output at most once
            CHECK(((out_used >> out) & 1U) == 0U);
            in_used |= 1U << in;
            out_used |= 1U << out;
            ++served[in][out];
            ++m;
        });
        matched.push_back(m);
    }
    return matched;
}
}  // namespace

TEST_CASE("Islip: pointers fall out of step, then every round is a full matching, every pair served alike") {
    std::array<std::array<int, 4>, 4> served{};
    const auto matched = islip_rounds<1>(4 + 4 * 25, served);
    // Worked by hand: all outputs grant input 0 first (1 match), then 2, then 3, then 4 for ever.
    CHECK(matched[0] == 1);
    CHECK(matched[1] == 2);
    CHECK(matched[2] == 3);
    for (std::size_t r = 3; r < matched.size(); ++r) CHECK(matched[r] == 4);
    std::array<std::array<int, 4>, 4> first{};
    islip_rounds<1>(4, first);
    for (std::size_t in = 0; in < 4; ++in)
        for (std::size_t out = 0; out < 4; ++out) CHECK(served[in][out] - first[in][out] == 25);
    // A second iteration matches what the first left unmatched: 2 pairs in the first round.
    std::array<std::array<int, 4>, 4> more{};
    CHECK(islip_rounds<2>(1, more)[0] == 2);
}

TEST_CASE("Islip and SeparableSwitch in the kernel: same zero-load latency, both deliver every packet") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>{{4, 4}}};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 2000;
    const std::vector<TraceMessage> one{{0, 0, 10, 4}};  // node 0 to node 10: 4 hops on the 4 x 4 torus
    CycleSimulator<Net> separable(net, cfg);
    CycleSimulator<Net, Islip<1>> islip(net, cfg);
    const auto a = separable.run_trace(one), b = islip.run_trace(one);
    CHECK(a.packets_delivered == 1);
    CHECK(b.packets_delivered == 1);
    CHECK(a.latency.mean == b.latency.mean);
    CHECK(a.latency.mean == doctest::Approx(5 * 4 + 4 * 1 + 4 - 1));  // (h + 1) P + h L + S - 1, h = 4, P = 4, L = 1
    const auto loaded = simulate_cycles(net, UniformTraffic(16), 0.3, PacketSizes::fixed(4), cfg, Islip<1>{});
    CHECK(loaded.drained);
    CHECK(loaded.measured_delivered == loaded.measured_packets);
    CHECK(loaded.out_of_order == 0);
    CHECK(loaded.accepted == doctest::Approx(loaded.offered).epsilon(0.05));
}

TEST_CASE("InputBuffers: a ring per VC, front masks in index order, blocked VCs skipped, an overflow named") {
    cycle::Shape shape;
    shape.routers = 2;
    shape.ports = 2;  // 2 network ports + injection, 2 VCs
    shape.vcs = 2;
    cycle::InputBuffers in;
    in.reset(shape, 2);
    const std::uint32_t local = 1 * 2 + 0;  // port 1, VC 0
    const auto iv = in.index(1, local);
    CHECK(in.node_of(iv) == 1);
    CHECK(in.local_of(iv) == local);
    CHECK_FALSE(in.any_front(1));
    CHECK(in.push(1, local, cycle::Flit{7, 0, 1}));
    CHECK_FALSE(in.push(1, local, cycle::Flit{7, 1, 1}));
    CHECK_THROWS_WITH_AS(in.push(1, local, cycle::Flit{7, 2, 1}),
                         doctest::Contains("buffer overflow at node 1 port 1 vc 0"), std::logic_error);
    in.mark(1, 2 * 2 + 1, true);  // the injection port's VC 1
    in.mark(1, 0 * 2 + 1, true);
    std::vector<std::uint32_t> fronts;
    in.for_each_front(1, [&](std::uint32_t l) { fronts.push_back(l); });
    CHECK(fronts == std::vector<std::uint32_t>{1, 2, 5});
    // A blocked VC is not live until its router is unblocked.
    in.block(1, 2);
    std::vector<std::uint32_t> live;
    in.for_each_live(1, [&](std::uint32_t l) { live.push_back(l); });
    CHECK(live == std::vector<std::uint32_t>{1, 5});
    in.unblock(1);
    live.clear();
    in.for_each_live(1, [&](std::uint32_t l) { live.push_back(l); });
    CHECK(live == fronts);
    CHECK(in.front(1, local).index == 0);
    CHECK(in.pop(1, local));
    CHECK(in.front(1, local).index == 1);
    CHECK(in.buffered() == 1);
    CHECK_FALSE(in.pop(1, local));
    CHECK_FALSE(in.has_front(1, local));
    CHECK_FALSE(in.any_front(0));
}

TEST_CASE("OutputQueues: first in, first out per queue; ports with flits visited once each") {
    cycle::Shape shape;
    shape.routers = 1;
    shape.ports = 3;
    shape.vcs = 2;
    cycle::OutputQueues out;
    out.reset(shape, 0);
    CHECK_FALSE(out.enabled());
    CHECK(out.size() == 0);
    shape.routers = 2;
    out.reset(shape, 2);
    const std::size_t q = (1 * 3 + 2) * 2 + 1;  // node 1, port 2, vc 1
    out.push(1, q, cycle::Flit{3, 0, 0}, 10);
    out.push(1, q, cycle::Flit{3, 1, 0}, 11);
    out.push(1, (1 * 3 + 2) * 2, cycle::Flit{4, 0, 0}, 12);
    out.push(1, (1 * 3 + 0) * 2, cycle::Flit{5, 0, 0}, 13);
    CHECK(out.full(q));
    CHECK(out.node_flits(1) == 4);
    CHECK(out.wake(1) == 0);  // never later than it was
    std::vector<std::uint32_t> ports;
    out.for_each_port(1, [&](std::uint32_t p) { ports.push_back(p); });
    CHECK(ports == std::vector<std::uint32_t>{0, 2});
    CHECK(out.front_ready(q) == 10);
    CHECK(out.pop(1, q, 20).index == 0);
    CHECK(out.since(q) == 20);
    CHECK(out.front(q).index == 1);
    CHECK(out.queued() == 3);
}

TEST_CASE("PortOccupancy: backlog routed minus sent, plus credits out on every VC of a network port") {
    // Two routers, 2 network ports and 1 terminal port each, 2 VCs; credit flow with 8 slots.
    const Credit flow{8, 1};
    cycle::Shape shape;
    shape.routers = 2;
    shape.ports = 2;
    shape.vcs = 2;
    cycle::PortOccupancy occ;
    occ.reset(shape);
    std::vector<Credit::sender_vc> sender(2 * 2 * 2);
    for (auto& s : sender) flow.init(s);
    occ.routed(1, 0, 5);  // a 5-flit packet routed to port 0 of router 1
    occ.sent(1, 0);
    occ.sent(1, 0);       // two of its flits left: each took a credit of channel (1, 0)
    Credit::on_send(sender[(1 * 2 + 0) * 2 + 1]);
    Credit::on_send(sender[(1 * 2 + 0) * 2 + 1]);
    Credit::on_send(sender[(1 * 2 + 1) * 2 + 0]);  // a flit sent earlier on port 1, VC 0
    occ.routed(1, 2, 4);  // the terminal port: backlog only
    const auto net = occ.network(flow, sender);
    CHECK(net.occupancy(NodeId{1}, PortId{0}) == 3 + 2);
    CHECK(net.occupancy(NodeId{1}, PortId{1}) == 1);
    CHECK(net.occupancy(NodeId{1}, PortId{2}) == 4);
    CHECK(net.occupancy(NodeId{0}, PortId{0}) == 0);
    const auto here = occ.router(flow, sender, 1);
    CHECK(here.occupancy(PortId{0}) == 5);
    CHECK(occ.router(flow, sender, 0).occupancy(PortId{0}) == 0);
}

TEST_CASE("Losses: a cycle's notices settle per packet, whatever their order; the first counts the loss") {
    using cycle::LossNotice;
    cycle::Losses losses;
    losses.reset();
    CHECK(losses.next_number() == 0);
    CHECK(losses.next_number() == 1);
    auto drop = [](std::uint64_t packet, std::uint16_t index, std::uint16_t past, bool cuts) {
        LossNotice n;
        n.packet = packet;
        n.size = 8;
        n.index = index;
        n.past = past;
        n.flags = static_cast<std::uint8_t>(LossNotice::dropped | (cuts ? LossNotice::cuts : 0));
        return n;
    };
    // Packet 7: flits 3 and 4 lost on the wire into hop 2 (past 3), flits 5 and 6 at the switch of hop 1
    // (past 2), posted in any order; packet 2: its head on a wire (nothing got across), flit 1 at a switch.
    losses.post(drop(7, 5, 2, true));
    losses.post(drop(2, 0, 4, true));
    losses.post(drop(7, 4, 3, true));
    losses.post(drop(2, 1, 3, true));
    losses.post(drop(7, 3, 3, true));
    losses.post(drop(7, 6, 2, true));
    losses.settle();
    CHECK(losses.pending().empty());
    REQUIRE(losses.settled().size() == 2);
    CHECK(losses.settled()[0].packet == 2);  // in packet order
    const cycle::SettledLoss* seven = losses.find(7);
    REQUIRE(seven != nullptr);
    CHECK(seven->new_loss);
    CHECK(seven->cut == 3);  // the lowest flit lost at a failed link: 0 .. 2 got across
    CHECK(seven->dropped_total == 4);
    // A copy from hop 0 or 1 saw all four; one from hop 2 never saw 5 and 6; one from hop 3 or later, none.
    CHECK(losses.dropped_before(*seven, 1) == 0);
    CHECK(losses.dropped_before(*seven, 2) == 2);
    CHECK(losses.dropped_before(*seven, 3) == 4);
    CHECK(losses.find(2)->cut == 1);  // the head's loss cuts nothing; flit 1's cut stands
    CHECK(losses.find(5) == nullptr);
    // The next cycle: flit 7 of packet 7 arrives for a lost packet; an ejection drop cuts nothing and every copy saw it.
    losses.post(drop(7, 7, LossNotice::at_the_end, false));
    losses.settle();
    REQUIRE(losses.settled().size() == 1);
    CHECK_FALSE(losses.settled()[0].new_loss);
    CHECK(losses.settled()[0].cut == 0);
    CHECK(losses.settled()[0].dropped_total == 5);
    CHECK(losses.dropped_before(*losses.find(7), 40) == 0);
    // A copy made later learns of the drops of earlier cycles before its stretch.
    CHECK(losses.dropped_before(7, 2) == 2);
    CHECK(losses.dropped_before(7, 3) == 4);
    CHECK(losses.dropped_before(9, 3) == 0);
    // A packet without a route: counted lost with no flit dropped.
    LossNotice unroutable;
    unroutable.packet = 11;
    unroutable.size = 8;
    losses.post(unroutable);
    losses.settle();
    CHECK(losses.find(11)->new_loss);
    CHECK(losses.find(11)->dropped_total == 0);
    losses.settle();  // nothing posted: nothing settles
    CHECK(losses.settled().empty());
}

TEST_CASE("LinkFailures: a failure breaks both directions once; a restore mends them") {
    cycle::LinkFailures f;
    CHECK_FALSE(f.active());
    f.fail(2, 5);
    f.restore(2, 9);
    f.reset(8);
    auto reverse = [](std::size_t c) { return c ^ 1U; };
    std::vector<std::uint32_t> failed;
    for (std::uint64_t now = 0; now < 12; ++now) {
        f.step(now, reverse, [&](std::uint32_t c) { failed.push_back(c); });
        const bool down = now >= 5 && now < 9;
        CHECK(f.broken(2) == down);
        CHECK(f.broken(3) == down);
    }
    CHECK(failed == std::vector<std::uint32_t>{2});
    CHECK(f.any());
    CHECK(f.scheduled());
}

TEST_CASE("BernoulliArrivals: the rate of successes is p, and p = 1 succeeds every cycle") {
    Random rng(3);
    cycle::BernoulliArrivals half(4, 0.25);
    std::uint64_t successes = 0;
    for (std::uint64_t now = 0; now < 40000; ++now)
        half.step(now, rng, [](std::uint32_t n) { return n != 2; }, [&](std::uint32_t n) {
            CHECK(n != 2);
            ++successes;
        });
    CHECK(static_cast<double>(successes) / (3 * 40000.0) == doctest::Approx(0.25).epsilon(0.02));
    cycle::BernoulliArrivals always(2, 1.0);
    std::uint64_t every = 0;
    for (std::uint64_t now = 0; now < 10; ++now) always.step(now, rng, [](std::uint32_t) { return true; }, [&](std::uint32_t) { ++every; });
    CHECK(every == 20);
    const std::vector<TraceMessage> unsorted{{5, 0, 1, 1}, {4, 1, 0, 1}};
    CHECK_THROWS_AS(cycle::validate_trace(unsorted, 2), config_error);
    CHECK(cycle::validate_trace(std::vector<TraceMessage>{{0, 0, 1, 3}, {1, 1, 0, 9}}, 2) == 9);
}

namespace {
struct FramedFlow {
    [[nodiscard]] constexpr std::uint32_t frame_data_slots() const { return 3; }
    [[nodiscard]] constexpr std::uint32_t frame_credit_slots() const { return 2; }
};
}  // namespace

TEST_CASE("Framing: data slots 0-2 of every 5 cycles; a framed link ticks at slot 3") {
    const FramedFlow flow;
    using Fr = cycle::Framing<FramedFlow>;
    CHECK(Fr::frame(flow) == 5);
    CHECK(Fr::next_data_slot(flow, 2) == 2);
    CHECK(Fr::next_data_slot(flow, 3) == 5);
    CHECK(Fr::next_data_slot(flow, 4) == 5);
    CHECK(Fr::next_data_slot(flow, 11) == 11);
}

TEST_CASE("Watchdog: looks every patience / 4 cycles; finds a cycle of waits, not a chain") {
    cycle::Watchdog w;
    w.reset(40);
    int looks = 0;
    for (int c = 0; c < 100; ++c) looks += w.due() ? 1 : 0;
    CHECK(looks == 10);
    CHECK(w.stuck(10, 50));
    CHECK_FALSE(w.stuck(11, 50));
    const auto chain = cycle::Watchdog::find(4, [](auto&& wait) {
        wait(0, 1);
        wait(1, 2);
        wait(2, 3);
    });
    CHECK(chain.empty());
    const auto loop = cycle::Watchdog::find(4, [](auto&& wait) {
        wait(0, 1);
        wait(1, 3);
        wait(3, 1);
    });
    CHECK(loop == std::vector<std::uint32_t>{1, 3});
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

TEST_CASE("memory_need: each part worked by hand; a shape too large to count saturates instead of wrapping") {
    using namespace fabric::cycle;
    // 2 nodes, 2 network ports (+ injection), 1 VC, 4-flit input buffers, no output queues,
    // routes of 1 hop, 8 bytes of flow-control state per (channel, VC).
    const MemoryNeed m = memory_need({2, 2, 1, 4, 0, 1, 8});
    const std::uint64_t input_vcs = 2 * 3 * 1, output_vcs = 2 * 2 * 1;
    // Each input VC: its state with the front flit in it, 3 more flits in its ring, its owner and pointer.
    CHECK(m.buffers == input_vcs * (3 * sizeof(Flit) + sizeof(InputVc) + 8) + output_vcs * 8);
    CHECK(m.in_network == input_vcs * 4 * (sizeof(Packet) + sizeof(RouteStep)));
    CHECK(m.per_queued_packet == 2 * (sizeof(Packet) + 8));  // twice: the vectors double as they grow
    CHECK(m.fixed() == m.buffers + m.in_network);
    const MemoryNeed huge = memory_need({std::uint64_t{1} << 40, 64, 64, std::uint64_t{1} << 32, 0, 65535, 64});
    CHECK(huge.fixed() == ~std::uint64_t{0});
    CHECK_THROWS_WITH_AS(check_memory(huge, 4096), doctest::Contains("memory_limit_mb is 4096"), config_error);
    // Within the limit: what is left, in queued packets.
    CHECK(check_memory(m, 1) == ((std::uint64_t{1} << 20) - m.fixed()) / m.per_queued_packet);
}

TEST_CASE("the memory limit: a huge buffer is refused with its figure; a saturated run stops at the limit") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    Credit deep;
    deep.buffer_flits_per_vc = 1000000;
    const Net big{Torus<2>({8, 8}), {}, deep};
    CycleSimulator<Net> refused(big, CycleConfig{});
    // 64 nodes x 5 ports x 2 VCs x 10^6 flits x 8 bytes: 4.8 GiB of input buffers alone.
    CHECK_THROWS_WITH_AS(refused.run(UniformTraffic(64), 0.1), doctest::Contains("this configuration needs"),
                         config_error);
    const Net net{Torus<2>({8, 8})};
    CycleConfig cfg;
    cfg.memory_limit_mb = 2;  // about ten thousand queued packets, at twice their size (memory.hpp)
    cfg.source_queue_packets = 0;  // unbounded: the memory limit, not the queue bound, stops it
    cfg.warmup = 100;
    cfg.measure = 20000;
    CycleSimulator<Net> sim(net, cfg);
    const auto r = sim.run(UniformTraffic(64), 0.9);
    CHECK(r.source_limit_reached);
    CHECK(r.saturated);
    CHECK_FALSE(r.drained);
    CHECK(r.cycles < cfg.warmup + cfg.measure);
    CHECK(r.accepted < r.offered);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
    // The same run with room to spare runs its whole window.
    cfg.memory_limit_mb = 4096;
    CHECK_FALSE(CycleSimulator<Net>(net, cfg).run(UniformTraffic(64), 0.1).source_limit_reached);
}

TEST_CASE("bounded source queues: past the bound a message is refused, counted in the offered load") {
    // A ring of 4, every node sending to the next: 2-flit packets at 2 flits a cycle
    // (a packet every cycle). Worked by hand: the source's one injection VC passes
    // a packet every 3 cycles (its 2 flits, then the next head's routing and VC
    // allocation cycles overlap the tail's switch cycle by one), so once the
    // queues hold their bound, 2 of every 3 packets are refused: the window
    // offers 2, accepts 2/3 and refuses 4/3 flits a cycle. A packet accepted into
    // the queue waits behind at most bound - 1 others (3 cycles each), so its
    // latency is at most 3 (bound - 1) plus the zero-load 10 cycles
    // ((h + 1) 4 + h + S - 1 with h = 1, S = 2), and at saturation some wait
    // behind more than bound - 2.
    using Net = Fabric<Torus<1>, DorTieSplit<>>;
    const Net net{Torus<1>({4})};
    CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = 1000;
    cfg.source_queue_packets = 4;
    const auto r = CycleSimulator<Net>(net, cfg).run(NeighbourTraffic(Grid({4})), 2.0, PacketSizes::fixed(2));
    CHECK(r.offered == doctest::Approx(2.0));
    CHECK(r.refused == doctest::Approx(4.0 / 3).epsilon(0.005));
    CHECK(r.accepted == doctest::Approx(2.0 / 3).epsilon(0.005));
    CHECK(r.flits_created_in_window + r.flits_refused_in_window == 4 * 2 * cfg.measure);
    CHECK(r.saturated);  // accepted a third of what was offered
    CHECK(r.drained);    // but every packet created got through
    CHECK(r.latency.max <= 3 * (cfg.source_queue_packets - 1) + 10);
    CHECK(r.latency.max > 3 * (cfg.source_queue_packets - 2) + 10);
    // Unbounded, nothing is refused and the queues (and latency) grow with the run.
    cfg.source_queue_packets = 0;
    const auto u = CycleSimulator<Net>(net, cfg).run(NeighbourTraffic(Grid({4})), 2.0, PacketSizes::fixed(2));
    CHECK(u.refused == 0);
    CHECK(u.offered == doctest::Approx(2.0));
    CHECK(u.latency.max > 500);
}

TEST_CASE("delays past 2^20 cycles are refused: link latency, a pipeline stage, a slowed link") {
    CycleConfig cfg;
    cfg.link_latency = max_delay_cycles + 1;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("link_latency must be at most 1048576 cycles"), config_error);
    cfg = CycleConfig{};
    cfg.pipeline.switch_traversal = 4294967295U;
    CHECK_THROWS_WITH_AS(cfg.validate(), doctest::Contains("a router pipeline stage may take at most"), config_error);
    using Net = Fabric<Torus<1>, DorTieSplit<>>;
    const Net ring{Torus<1>({8})};
    CycleSimulator<Net> sim(ring, CycleConfig{});
    CHECK_THROWS_WITH_AS(sim.slow_link(NodeId{0}, PortId{0}, 5e9), doctest::Contains("at most 1048576 are allowed"),
                         config_error);
    CHECK_THROWS_AS(sim.slow_link(NodeId{0}, PortId{0}, std::numeric_limits<double>::infinity()), config_error);
}

}  // namespace unit_cycle_components
