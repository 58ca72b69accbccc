// dist/partitioned.hpp under mpirun (CTest runs it at 1, 2, 3 and 4 ranks): the
// cycle kernel with its routers dealt over the ranks gives, on every rank, the
// serial kernel's result for the same seed, every field of it: counters,
// latency histograms, per-channel utilisation, per-terminal counters and the
// deadlock report. On a torus (Slabs), on PERCS (whole supernodes), with links
// failing under load, under a trace, and on a torus that deadlocks; what it
// cannot split is refused alike on every rank before the ranks first talk.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/dist/partitioned.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/topology/torus.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace fabric;

namespace {

/// Every field of a result as (name, exact text): doubles in hexadecimal, so
/// that "equal" means equal to the last bit.
class Fields {
public:
    explicit Fields(const CycleResult& r) {
        add("offered", r.offered);
        add("accepted", r.accepted);
        add("refused", r.refused);
        add("latency", r.latency);
        add("network_latency", r.network_latency);
        add("hops_mean", r.hops_mean);
        add("cycles", r.cycles);
        add("window_start", r.window_start);
        add("window_cycles", r.window_cycles);
        add("sample_periods", r.sample_periods);
        add("sampling_converged", r.sampling_converged);
        add("saturated", r.saturated);
        add("drained", r.drained);
        add("source_limit_reached", r.source_limit_reached);
        // Every count and maximum, by the names the result declares them with.
        cycle::for_each_count(static_cast<const CycleCounts&>(r), [&](const char* name, std::uint64_t c) { add(name, c); });
        cycle::for_each_count(static_cast<const CycleMaxima&>(r), [&](const char* name, std::uint64_t c) { add(name, c); });
        add("message_latency", r.message_latency);
        add("transaction_latency", r.transaction_latency);
        add("ports_per_node", r.ports_per_node);
        add("terminals_per_node", r.terminals_per_node);
        add("terminals", r.terminals);
        std::ostringstream u;
        for (double x : r.channel_utilisation) u << std::hexfloat << x << ' ';
        list_.emplace_back("channel_utilisation", u.str());
        std::ostringstream n;
        for (const auto& c : r.nodes) {
            cycle::for_each_count(c, [&](const char*, std::uint64_t x) { n << x << ','; });
            n << ' ';
        }
        list_.emplace_back("nodes", n.str());
        list_.emplace_back("classes", std::to_string(r.classes.size()));
        for (const ClassResult& c : r.classes) {
            add("class offered", c.offered);
            add("class accepted", c.accepted);
            add("class refused", c.refused);
            add("class latency", c.latency);
            add("class measured_packets", c.measured_packets);
            add("class measured_delivered", c.measured_delivered);
            add("class flits_created_in_window", c.flits_created_in_window);
            add("class flits_ejected_in_window", c.flits_ejected_in_window);
            add("class flits_refused_in_window", c.flits_refused_in_window);
        }
        std::ostringstream d;
        if (r.deadlock) {
            d << r.deadlock->describe() << " |";
            for (const auto& v : r.deadlock->waiting) d << ' ' << *v.node << '.' << *v.port << '.' << unsigned{v.vc};
        }
        list_.emplace_back("deadlock", d.str());
    }
    [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& list() const { return list_; }

private:
    template <class T>
    void add(const char* name, const T& v) {
        std::ostringstream s;
        s << std::hexfloat << v;
        list_.emplace_back(name, s.str());
    }
    void add(const char* name, const LatencySummary& l) {
        std::ostringstream s;
        s << std::hexfloat << l.mean << ' ' << l.p50 << ' ' << l.p99 << ' ' << l.max << " |";
        for (auto b : l.histogram) s << ' ' << b;
        list_.emplace_back(name, s.str());
    }
    std::vector<std::pair<std::string, std::string>> list_;
};

/// Every field of the partitioned run's result is the serial one's.
void check_identical(const CycleResult& partitioned, const CycleResult& serial) {
    const Fields p(partitioned), s(serial);
    REQUIRE(p.list().size() == s.list().size());
    for (std::size_t i = 0; i < p.list().size(); ++i) {
        const std::string& a = p.list()[i].second;
        const std::string& b = s.list()[i].second;
        if (a == b) continue;
        // Where the two first part, not the whole of a per-channel list.
        std::size_t at = 0;
        while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
        const std::size_t from = at > 40 ? at - 40 : 0;
        FAIL_CHECK("field " << p.list()[i].first << " differs at character " << at << ": partitioned ..."
                               << a.substr(from, 80) << "... serial ..." << b.substr(from, 80) << "...");
    }
}

int ranks_of_world() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

using Net = Fabric<Torus<2>, DorTieSplit<Dateline>>;

CycleConfig torus_config() {
    CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = 800;
    cfg.node_statistics = true;
    return cfg;
}

}  // namespace

TEST_CASE("an 8x8 torus in slabs: every field of the result is the serial kernel's, at low load and saturated") {
    const Net net{Torus<2>({8, 8})};
    const UniformTraffic uniform(64);
    for (const double rate : {0.1, 0.9}) {
        CAPTURE(rate);
        CycleSimulator serial(net, torus_config());
        dist::PartitionedCycle split(net, torus_config(), MPI_COMM_WORLD, Slabs{});
        const CycleResult s = serial.run(uniform, rate, PacketSizes::fixed(4));
        const CycleResult p = split.run(uniform, rate, PacketSizes::fixed(4));
        REQUIRE(s.flits_ejected > 1000);
        CHECK(s.saturated == (rate > 0.5));
        check_identical(p, s);
        // One exchange a cycle between ranks; alone, none.
        const bool alone = ranks_of_world() == 1;
        CHECK(split.transport().stats().windows == (alone ? 0 : p.cycles));
        CHECK((split.transport().stats().messages > 0) == !alone);
    }
}

TEST_CASE("PERCS in whole supernodes, all four route modes, the hub's preset (messages of at most 2 KB packets)") {
    const PercsTopology t(4, 8);
    // Two fabrics, each with its own routing: round-robin routes keep per-source counters that a run advances.
    auto make = [&] { return PercsFabric<PercsHubRouting<>>{t, PercsHubRouting<>(PercsModeMix{{1, 1, 1, 1}}), Credit{32, 1}}; };
    const auto net = make(), net2 = make();
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 500;
    cfg.measure = 2500;
    const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
    CycleSimulator serial(net, cfg);
    dist::PartitionedCycle split(net2, cfg, MPI_COMM_WORLD, Groups{PercsTopology::nodes_per_supernode});
    const CycleResult s = serial.run(uniform, 0.05, PacketSizes::fixed(percs_packet_flits));
    const CycleResult p = split.run(uniform, 0.05, PacketSizes::fixed(percs_packet_flits));
    REQUIRE(s.measured_delivered > 100);
    check_identical(p, s);
}

TEST_CASE("a trace: the same messages delivered at the same cycles") {
    const Net net{Torus<2>({6, 6})};
    std::vector<TraceMessage> trace;
    for (std::uint32_t i = 0; i < 400; ++i) {
        const std::uint32_t src = (i * 7) % 36, dst = (i * 13 + 5) % 36;
        trace.push_back({i * 3 / 2, src, dst == src ? (dst + 1) % 36 : dst, 1 + i % 6, 0});
    }
    CycleConfig cfg = torus_config();
    CycleSimulator serial(net, cfg);
    dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
    const CycleResult s = serial.run_trace(trace);
    const CycleResult p = split.run_trace(trace);
    REQUIRE(s.packets_delivered == 400);
    check_identical(p, s);
}

TEST_CASE("PERCS messages of 8 packets under random indirect routes: reassembled, reordering tracked, alike") {
    const PercsTopology t(8, 4);
    const PercsHub hub{t, PercsHubRouting<>(PercsModeMix::only(PercsMode::random_indirect)), Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 0;
    cfg.measure = 3000;
    cfg.track_reorder = true;
    const auto trace = random_pairs_trace(static_cast<std::uint32_t>(t.node_count()), 300, 9, 8 * percs_packet_flits, 5);
    CycleSimulator serial(hub, cfg);
    dist::PartitionedCycle split(hub, cfg, MPI_COMM_WORLD, Groups{PercsTopology::nodes_per_supernode});
    const CycleResult s = serial.run_trace(trace);
    const CycleResult p = split.run_trace(trace);
    REQUIRE(s.messages_delivered == 300);
    REQUIRE(s.packets_early > 0);  // packets do overtake one another: the reorder counters are exercised
    REQUIRE(s.message_reorder_depth > 1);
    REQUIRE(s.packets_overtaking > 0);
    check_identical(p, s);
}

TEST_CASE("PERCS with links failing and coming back under load: the same flits dropped, packets lost and cut") {
    const PercsTopology t(4, 8);
    auto make = [&] { return PercsFabric<PercsHubRouting<>>{t, PercsHubRouting<>(PercsModeMix{{1, 0, 1, 1}}), Credit{32, 1}}; };
    const auto net = make(), net2 = make();
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 500;
    cfg.measure = 3000;
    cfg.node_statistics = true;
    CycleSimulator serial(net, cfg);
    dist::PartitionedCycle split(net2, cfg, MPI_COMM_WORLD, Groups{PercsTopology::nodes_per_supernode});
    // D links between supernodes that share a rank at 2 ranks and not at 3 or 4, one between ranks at
    // every count, and an LR link inside a supernode; one D link comes back.
    auto schedule = [&](auto* sim) {
        const NodeId a = PercsTopology::node(0, t.d_source_local(0, 1, 0));
        sim->fail_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 900);
        const NodeId b = PercsTopology::node(1, t.d_source_local(1, 3, 0));
        sim->fail_link(b, t.d_port(1, t.d_source_local(1, 3, 0), 3), 1200);
        sim->fail_link(PercsTopology::node(2, 0), PercsTopology::l_port(0, 9), 1500);
        sim->restore_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 2500);
    };
    schedule(&serial);
    schedule(&split);
    const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
    const CycleResult s = serial.run(uniform, 0.1, PacketSizes::fixed(percs_packet_flits));
    const CycleResult p = split.run(uniform, 0.1, PacketSizes::fixed(percs_packet_flits));
    REQUIRE(s.flits_dropped > 0);
    REQUIRE(s.packets_lost > 0);
    REQUIRE(s.flits_ejected > 10000);
    CHECK(s.flits_injected == s.flits_ejected + s.flits_in_flight + s.flits_dropped);
    check_identical(p, s);
}

TEST_CASE("PERCS messages across a D link that fails, and a pair cut off: the same messages lost, alike") {
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 3000;
    // Supernode 0's first `links` D links to supernode 1 fail at cycle `when`.
    auto same = [&](const auto& fabric, std::uint32_t links, std::uint64_t when) {
        const PercsTopology& t = fabric.topology();
        CycleConfig c = percs_cycle_config(t);
        c.warmup = cfg.warmup;
        c.measure = cfg.measure;
        const auto trace = random_pairs_trace(static_cast<std::uint32_t>(t.node_count()), 300, 9, 8 * percs_packet_flits, 5);
        CycleSimulator serial(fabric, c);
        dist::PartitionedCycle split(fabric, c, MPI_COMM_WORLD, Groups{PercsTopology::nodes_per_supernode});
        for (std::uint32_t k = 0; k < links; ++k) {
            const std::uint32_t u = t.d_source_local(0, 1, k);
            serial.fail_link(PercsTopology::node(0, u), t.d_port(0, u, 1), when);
            split.fail_link(PercsTopology::node(0, u), t.d_port(0, u, 1), when);
        }
        const CycleResult s = serial.run_trace(trace);
        const CycleResult p = split.run_trace(trace);
        CHECK(s.messages_delivered + s.messages_lost == trace.size());
        CHECK(s.flits_injected == s.flits_ejected + s.flits_in_flight + s.flits_dropped);
        check_identical(p, s);
        return s;
    };
    // Under load: messages lose packets to the failure; later ones are routed round it.
    const PercsHub hub{PercsTopology(4, 8), PercsHubRouting<>(PercsModeMix::only(PercsMode::random_indirect)),
                       Credit{32, 1}};
    const CycleResult cut = same(hub, 1, 400);
    CHECK(cut.flits_dropped > 0);
    CHECK(cut.messages_lost > 0);
    // Direct routes, every D link between supernodes 0 and 1 gone from the start: their pairs have no route.
    const PercsTopology four(8, 4);
    const PercsFabric<Direct> direct{four, Direct{}, Credit{32, 1}};
    const CycleResult unroutable = same(direct, four.d_links_per_pair(), 0);
    CHECK(unroutable.packets_unroutable > 0);
    CHECK(unroutable.packets_lost == unroutable.packets_unroutable);
    CHECK(unroutable.messages_lost > 0);
}

TEST_CASE("a torus that deadlocks: the same report, at the same cycle, on every rank") {
    using OneVc = Torus<2, BasicLink<1>>;
    const Fabric<OneVc, DorTieSplit<NoDateline>> locked{OneVc({8, 8}), allow_deadlock};
    CycleConfig cfg;
    cfg.warmup = 300;
    cfg.measure = 1000;
    cfg.watchdog = 1000;
    CycleSimulator serial(locked, cfg);
    dist::PartitionedCycle split(locked, cfg, MPI_COMM_WORLD);
    const CycleResult s = serial.run(UniformTraffic(64), 0.8, PacketSizes::fixed(8));
    const CycleResult p = split.run(UniformTraffic(64), 0.8, PacketSizes::fixed(8));
    REQUIRE(s.deadlock);
    REQUIRE_FALSE(s.deadlock->waiting.empty());
    check_identical(p, s);
}

/// The lookahead every rank computes: the window, the cut and this rank's neighbours (slabs of a ring of ranks).
void check_slab_plan(const cycle::Lookahead& plan, std::uint32_t window, std::uint64_t cut_per_boundary) {
    const int ranks = ranks_of_world();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (ranks == 1) {
        CHECK(plan.cut_channels == 0);
        CHECK(plan.neighbours.empty());
        return;
    }
    CHECK(plan.window == window);
    CHECK_FALSE(plan.everyone);
    if (ranks == 2) {
        CHECK(plan.cut_channels == 2 * cut_per_boundary);  // the torus wraps: two boundaries between the slabs
        CHECK(plan.neighbours == std::vector<std::uint32_t>{static_cast<std::uint32_t>(1 - rank)});
    }
    if (ranks == 4 && cut_per_boundary % 16 == 0) {  // slabs of whole rows of 8: four boundaries
        CHECK(plan.cut_channels == 4 * cut_per_boundary);
        CHECK(plan.neighbours.size() == 2);  // the slabs before and after
    }
}

TEST_CASE("windows as long as the links allow: an 8x8 torus with links and credits of 10 cycles, alike") {
    Credit credit;
    credit.credit_delay = 10;
    const Net net{Torus<2>({8, 8}), {}, credit};
    CycleConfig cfg = torus_config();
    cfg.link_latency = 10;
    for (const double rate : {0.1, 0.9}) {
        CAPTURE(rate);
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD, Slabs{});
        // A flit takes switch allocation and traversal (1 + 1) and the link (10): 12; a credit 10.
        check_slab_plan(split.lookahead(), 10, 2 * 8);
        const CycleResult s = serial.run(UniformTraffic(64), rate, PacketSizes::fixed(4));
        const CycleResult p = split.run(UniformTraffic(64), rate, PacketSizes::fixed(4));
        REQUIRE(s.flits_ejected > 1000);
        check_identical(p, s);
        const auto& stats = split.transport().stats();
        if (ranks_of_world() > 1 && rate > 0.5) {
            // Saturated: it drains until its queues outgrow their bound, in windows while many measured
            // packets are left.
            CHECK(stats.windows * 3 < p.cycles);
        }
        if (ranks_of_world() > 1 && rate < 0.5) {
            // A window of 10 cycles to the end of the measurement, then one a cycle while it drains.
            CHECK(stats.windows * 5 < p.cycles);
            CHECK(stats.windows > (cfg.warmup + cfg.measure) / 10);
            // Sums over the ranks only where the run could end, where the watchdog looks, and the end's:
            // most windows of the measured stretch need none.
            CHECK(stats.reductions + (cfg.warmup + cfg.measure) / 20 < stats.windows);
        }
    }
}

TEST_CASE("windows under other timings: credits over the link, output queues, a trace, a deadlock, the memory "
          "limit") {
    const int ranks = ranks_of_world();
    SUBCASE("feedback that crosses the link back: a credit takes its delay (1) and the link's (4)") {
        const Net net{Torus<2>({8, 8})};
        CycleConfig cfg = torus_config();
        cfg.link_latency = 4;
        cfg.feedback_over_link = true;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD, Slabs{});
        check_slab_plan(split.lookahead(), 5, 2 * 8);  // flits 1 + 1 + 4 = 6, credits 1 + 4 = 5
        const CycleResult s = serial.run(UniformTraffic(64), 0.3, PacketSizes::fixed(4));
        check_identical(split.run(UniformTraffic(64), 0.3, PacketSizes::fixed(4)), s);
        // Credits that take longer to come back slow a saturated torus down.
        CycleConfig near = cfg;
        near.feedback_over_link = false;
        CHECK(CycleSimulator(net, near).run(UniformTraffic(64), 0.9, PacketSizes::fixed(4)).accepted >
              CycleSimulator(net, cfg).run(UniformTraffic(64), 0.9, PacketSizes::fixed(4)).accepted);
    }
    SUBCASE("output queues: a flit goes onto its link the cycle it leaves its queue") {
        Credit credit;
        credit.credit_delay = 12;
        const Net net{Torus<2>({8, 8}), {}, credit};
        CycleConfig cfg = torus_config();
        cfg.link_latency = 6;
        cfg.output_buffer_flits = 8;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD, Slabs{});
        check_slab_plan(split.lookahead(), 6, 2 * 8);  // flits 6 (no switch stages counted), credits 12
        check_identical(split.run(UniformTraffic(64), 0.4, PacketSizes::fixed(4)),
                        serial.run(UniformTraffic(64), 0.4, PacketSizes::fixed(4)));
    }
    SUBCASE("a trace: windows up to its last message, then one a cycle") {
        Credit credit;
        credit.credit_delay = 5;
        const Net net{Torus<2>({6, 6}), {}, credit};
        std::vector<TraceMessage> trace;
        for (std::uint32_t i = 0; i < 400; ++i) {
            const std::uint32_t src = (i * 7) % 36, dst = (i * 13 + 5) % 36;
            trace.push_back({i * 3 / 2, src, dst == src ? (dst + 1) % 36 : dst, 1 + i % 6, 0});
        }
        CycleConfig cfg = torus_config();
        cfg.link_latency = 5;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
        check_slab_plan(split.lookahead(), 5, 2 * 6);
        const CycleResult s = serial.run_trace(trace);
        REQUIRE(s.packets_delivered == 400);
        check_identical(split.run_trace(trace), s);
    }
    SUBCASE("a torus that deadlocks: the watchdog looks at the end of a window") {
        using OneVc = Torus<2, BasicLink<1>>;
        using Locked = Fabric<OneVc, DorTieSplit<NoDateline>>;
        Credit credit;
        credit.credit_delay = 3;
        const Locked locked{OneVc({8, 8}), allow_deadlock, {}, credit};
        CycleConfig cfg;
        cfg.warmup = 300;
        cfg.measure = 1000;
        cfg.watchdog = 1000;
        cfg.link_latency = 3;
        CycleSimulator serial(locked, cfg);
        dist::PartitionedCycle split(locked, cfg, MPI_COMM_WORLD);
        check_slab_plan(split.lookahead(), 3, 2 * 8);
        const CycleResult s = serial.run(UniformTraffic(64), 0.8, PacketSizes::fixed(8));
        REQUIRE(s.deadlock);
        REQUIRE(s.cycles < cfg.warmup + cfg.measure);  // found inside the windowed stretch
        check_identical(split.run(UniformTraffic(64), 0.8, PacketSizes::fixed(8)), s);
    }
    SUBCASE("the memory limit: windows shorten as the queues near it, and the run stops where the serial one does") {
        Credit credit;
        credit.credit_delay = 8;
        const Net net{Torus<2>({8, 8}), {}, credit};
        CycleConfig cfg;
        cfg.memory_limit_mb = 1;
        cfg.warmup = 100;
        cfg.measure = 20000;
        cfg.link_latency = 8;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
        const CycleResult s = serial.run(UniformTraffic(64), 0.9);
        REQUIRE(s.source_limit_reached);
        check_identical(split.run(UniformTraffic(64), 0.9), s);
    }
    SUBCASE("PERCS with D links of 150 ns whose credits cross them back: windows of hundreds of cycles") {
        // 30 m of fibre at 5 ns a metre: D links "several tens of meters in length" (Arimilli et al.).
        const PercsTopology t(8, 4, PercsLL{}, PercsLR{}, PercsD{GBps{10.0}, Nanoseconds{150.0}});
        auto make = [&] { return PercsFabric<PercsHubRouting<>>{t, PercsHubRouting<>(PercsModeMix{{1, 1, 1, 1}}), Credit{32, 1}}; };
        const auto net = make(), net2 = make();
        CycleConfig cfg = percs_cycle_config(t);
        cfg.feedback_over_link = true;
        cfg.warmup = 1000;
        cfg.measure = 4000;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net2, cfg, MPI_COMM_WORLD, Groups{PercsTopology::nodes_per_supernode});
        const cycle::Lookahead plan = split.lookahead();
        if (ranks > 1) {
            // The D links alone are cut; a credit over one takes 1 cycle and the link's latency, 150 ns in
            // cycles rounded up; a flit takes more (its serialisation too).
            const auto d_cycles = static_cast<std::uint32_t>(std::ceil(150.0 / cfg.cycle_ns));
            CHECK(plan.window == 1 + d_cycles);
            CHECK(plan.feedback_delay == 1 + d_cycles);
            CHECK(plan.flit_delay > plan.feedback_delay);
            CHECK(plan.window > 200);
        }
        const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
        const CycleResult s = serial.run(uniform, 0.02, PacketSizes::fixed(percs_packet_flits));
        REQUIRE(s.measured_delivered > 100);
        REQUIRE(s.drained);
        check_identical(split.run(uniform, 0.02, PacketSizes::fixed(percs_packet_flits)), s);
        // Windows of `window` cycles (and the watchdog's, every 1,024) up to the end of the measurement, then
        // one a cycle in the drain once fewer measured packets are left than there are terminals.
        if (ranks > 1)
            CHECK(split.transport().stats().windows <
                  (s.cycles - cfg.warmup - cfg.measure) + (cfg.warmup + cfg.measure) / plan.window + 10);
    }
    SUBCASE("links failing: every rank hears of every cycle's losses") {
        Credit credit;
        credit.credit_delay = 8;
        const Net net{Torus<2>({8, 8}), {}, credit};
        CycleConfig cfg = torus_config();
        cfg.link_latency = 8;
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
        serial.fail_link(NodeId{27}, PortId{2}, 400);
        split.fail_link(NodeId{27}, PortId{2}, 400);
        const cycle::Lookahead plan = split.lookahead();
        if (ranks > 1) {
            CHECK(plan.everyone);
            CHECK(plan.window == 1);
            CHECK(plan.neighbours.size() == static_cast<std::size_t>(ranks - 1));
        }
        const CycleResult s = serial.run(UniformTraffic(64), 0.3, PacketSizes::fixed(4));
        REQUIRE(s.flits_dropped > 0);
        check_identical(split.run(UniformTraffic(64), 0.3, PacketSizes::fixed(4)), s);
    }
}

TEST_CASE("lifted with the windows: traffic classes, the converging sampler, UGAL-L; each alike") {
    Credit credit;
    credit.credit_delay = 4;
    const Net net{Torus<2>({8, 8}), {}, credit};
    CycleConfig cfg = torus_config();
    cfg.link_latency = 4;
    SUBCASE("two traffic classes of different priorities, each with its own load and sizes") {
        cfg.class_priority = {1, 0};
        const OfferedLoad loads[] = {{0.15, PacketSizes::fixed(4)}, {0.25, PacketSizes::fixed(1)}};
        CycleSimulator serial(net, cfg);
        dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
        const CycleResult s = serial.run(UniformTraffic(64), loads);
        REQUIRE(s.classes.size() == 2);
        REQUIRE(s.classes[0].measured_delivered > 100);
        REQUIRE(s.classes[1].measured_delivered > 100);
        check_identical(split.run(UniformTraffic(64), loads), s);
    }
    SUBCASE("the converging sampler: the same window chosen, and the same stop past saturation") {
        cfg.sampling.sample_period = 300;
        for (const double rate : {0.2, 0.9}) {
            CAPTURE(rate);
            cfg.sampling.latency_threshold = 150;
            CycleSimulator serial(net, cfg);
            dist::PartitionedCycle split(net, cfg, MPI_COMM_WORLD);
            const CycleResult s = serial.run(UniformTraffic(64), rate, PacketSizes::fixed(2));
            CHECK(s.sampling_converged == (rate < 0.5));
            CHECK(s.saturated == (rate > 0.5));
            check_identical(split.run(UniformTraffic(64), rate, PacketSizes::fixed(2)), s);
        }
    }
    SUBCASE("UGAL-L on a dragonfly in whole groups: it reads only its source's router, on the source's rank") {
        using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;
        const Df t(4, 2);
        Credit deep;
        deep.buffer_flits_per_vc = 16;
        const Fabric<Df, DragonflyUgalL> local(t, {}, deep);
        CycleConfig d;
        d.warmup = 300;
        d.measure = 1500;
        d.link_latency = 3;
        d.feedback_over_link = true;
        const GroupShiftTraffic worst(4, 9);  // minimal routes fill: UGAL-L sends packets round
        CycleSimulator serial(local, d);
        dist::PartitionedCycle split(local, d, MPI_COMM_WORLD, Groups{4});
        const CycleResult s = serial.run(worst, 0.3, PacketSizes::fixed(4));
        REQUIRE(s.hops_mean > 3.0);  // minimal routes take at most 3 hops: many took Valiant's
        check_identical(split.run(worst, 0.3, PacketSizes::fixed(4)), s);
        if (ranks_of_world() > 1) CHECK(split.lookahead().window == 4);  // credits 1 + 3, flits 1 + 1 + 3
        // UGAL-G reads routers of other ranks: refused, alike at every rank count.
        const Fabric<Df, DragonflyUgalG> seeing(t, {}, deep);
        dist::PartitionedCycle global(seeing, d, MPI_COMM_WORLD, Groups{4});
        CHECK_THROWS_WITH_AS(global.run(worst, 0.3), doctest::Contains("UGAL-G"), config_error);
    }
}

TEST_CASE("what a partitioned run cannot split is refused on every rank, and the simulator still runs after") {
    const Net net{Torus<2>({4, 4})};
    CycleConfig cfg = torus_config();
    cfg.source_queue_packets = 4;
    dist::PartitionedCycle refused(net, cfg, MPI_COMM_WORLD);
    CHECK_THROWS_WITH_AS(refused.run(UniformTraffic(16), 0.1), doctest::Contains("fabric: a partitioned run"),
                         config_error);
    CHECK_THROWS_WITH_AS(refused.run(UniformTraffic(16), 0.1), doctest::Contains("cannot use source_queue_packets"),
                         config_error);
    CycleSimulator serial(net, torus_config());
    dist::PartitionedCycle after(net, torus_config(), MPI_COMM_WORLD);
    check_identical(after.run(UniformTraffic(16), 0.2), serial.run(UniformTraffic(16), 0.2));
}
