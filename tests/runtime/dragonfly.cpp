// The dragonfly and its minimal routing: wiring laws, routes (end at the
// destination, at most 3 hops, levels climb), the deadlock check from the
// policy's turns equal to the check from every route, a cyclic variant caught,
// loads worked by hand, and the cycle kernel.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/dragonfly.hpp>

#include <array>
#include <cstdint>
#include <vector>
#include <span>

#include "../support/cycle_laws.hpp"

namespace unit_dragonfly {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Df = Dragonfly<5>;  // a = 4, h = 2: 3 local + 2 global ports

/// Minimal routing without its turn list: the deadlock check walks every route.
struct Walked : DragonflyMinimal {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};

/// Every hop on VC 0: local -> global -> local chains close into cycles.
struct OneVc : DragonflyMinimal {
    static constexpr bool vc_levels_increase = false;
    template <class T>
    static constexpr std::array<std::size_t, 2> vcs_required{1, 1};
    template <class T>
    std::size_t select_route(const T& t, NodeId s, NodeId d, std::uint64_t c, Hop* out) const {
        const std::size_t len = DragonflyMinimal::select_route(t, s, d, c, out);
        for (std::size_t i = 0; i < len; ++i) out[i].vc = 0;
        return len;
    }
    template <class T, class F>
    void for_each_route(const T& t, NodeId s, NodeId d, F&& f) const {
        std::array<Hop, 3> hops{};
        f(std::span<const Hop>(hops.data(), select_route(t, s, d, 0, hops.data())), 1.0);
    }
    template <class T, class F>
    void for_each_turn(const T& t, F&& f) const {
        DragonflyMinimal::for_each_turn(t, [&](Hop a, Hop b) {
            a.vc = b.vc = 0;
            f(a, b);
        });
    }
};
struct OneVcWalked : OneVc {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};
}  // namespace

TEST_CASE("dragonfly wiring: every link has its reverse; each group has one global link to each other group") {
    for (const std::uint32_t g : {9U, 5U}) {  // the largest (a h + 1) and one with spare global ports
        const Df t(4, 2, g);
        CHECK(t.node_count() == 4 * g);
        std::size_t global = 0, spare = 0;
        for (std::uint32_t n = 0; n < t.node_count(); ++n)
            for (std::uint32_t p = 0; p < Df::ports_per_node; ++p) {
                const NodeId m = t.neighbour(NodeId{n}, PortId{p});
                if (!m.valid()) {
                    ++spare;
                    continue;
                }
                const PortId back = t.reverse_port(NodeId{n}, PortId{p});
                CHECK(t.neighbour(m, back) == NodeId{n});
                CHECK(t.reverse_port(m, back) == PortId{p});
                CHECK(t.link_class(m, back) == t.link_class(NodeId{n}, PortId{p}));
                if (t.link_class(NodeId{n}, PortId{p}) == Df::global_class) {
                    ++global;
                    CHECK(t.group_of(m) != t.group_of(NodeId{n}));
                } else {
                    CHECK(t.group_of(m) == t.group_of(NodeId{n}));
                }
            }
        CHECK(global == static_cast<std::size_t>(g) * (g - 1));  // one each way between each pair of groups
        CHECK(spare == static_cast<std::size_t>(g) * (8 - (g - 1)));
    }
    CHECK_THROWS_AS(Df(4, 2, 10), config_error);  // more groups than a h + 1
    CHECK_THROWS_AS(Dragonfly<4>(4, 2), config_error);  // 5 ports needed
}

TEST_CASE("dragonfly minimal routes: end at the destination, at most 3 hops, at most one global, levels climb") {
    const Df t(4, 2);
    const DragonflyMinimal r;
    for (std::uint32_t s = 0; s < t.node_count(); ++s)
        for (std::uint32_t d = 0; d < t.node_count(); ++d)
            r.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double w) {
                CHECK(w == 1.0);
                CHECK(hops.size() <= DragonflyMinimal::max_hops(t));
                NodeId at{s};
                std::size_t globals = 0;
                for (const Hop& h : hops) {
                    CHECK(h.node == at);
                    globals += t.link_class(h.node, h.port) == Df::global_class;
                    at = t.neighbour(h.node, h.port);
                }
                CHECK(at == NodeId{d});
                CHECK(globals == (t.group_of(NodeId{s}) != t.group_of(NodeId{d}) ? 1U : 0U));
            });
    CHECK(check_vc_levels(t, r).increasing);
}

TEST_CASE("dragonfly deadlock check: the policy's turns give exactly the dependencies of all routes") {
    const Df t(4, 2);
    const auto turns = channel_dependencies(t, DragonflyMinimal{});
    const auto walked = channel_dependencies(t, Walked{});
    CHECK(turns.acyclic);
    CHECK(walked.acyclic);
    CHECK(turns.dependencies == walked.dependencies);
    CHECK(turns.channels <= walked.channels);  // single-hop routes use channels no turn names
    // By hand: each of the g (g - 1) global links has a - 1 = 3 channels into it and 3 out of it.
    CHECK(turns.dependencies == 9 * 8 * (3 + 3));
    const Fabric<Df, DragonflyMinimal> fab{t};
    CHECK(fab.topology().groups() == 9);
}

TEST_CASE("dragonfly deadlock check: one VC everywhere is cyclic, by turns and by routes, and the cycle is named") {
    const Df t(4, 2);
    const auto turns = channel_dependencies(t, OneVc{});
    const auto walked = channel_dependencies(t, OneVcWalked{});
    CHECK_FALSE(turns.acyclic);
    CHECK_FALSE(walked.acyclic);
    CHECK(turns.dependencies == walked.dependencies);
    CHECK_FALSE(turns.cycle.empty());
    CHECK(turns.describe_cycle().find("-> (node") != std::string::npos);
    CHECK_THROWS_WITH_AS((Fabric<Df, OneVc>{t}), doctest::Contains("can deadlock"), config_error);
    // A cycle alternates local and global channels: check it is a chain of real dependencies.
    for (std::size_t i = 0; i < turns.cycle.size(); ++i) {
        const auto& c = turns.cycle[i];
        const auto& next = turns.cycle[(i + 1) % turns.cycle.size()];
        CHECK(t.neighbour(c.node, c.port) == next.node);
    }
}

TEST_CASE("dragonfly minimal routing on one VC deadlocks in the kernel, where 2 local VCs do not") {
    using Df1 = Dragonfly<5, BasicLink<1>, BasicLink<1>>;
    const Fabric<Df1, OneVc> fab(Df1(4, 2), allow_deadlock);
    const CycleConfig cfg = deadlock_watch_config();
    check_deadlock_reported(simulate_cycles(fab, UniformTraffic(36), 0.8, PacketSizes::fixed(16), cfg));
    const auto ok = simulate_cycles(Fabric<Df, DragonflyMinimal>{Df(4, 2)}, UniformTraffic(36), 0.8,
                                    PacketSizes::fixed(16), cfg);
    CHECK_FALSE(ok.deadlock);
}

TEST_CASE("dragonfly loads under uniform traffic, worked by hand: a global link carries a^2 / N") {
    const Fabric<Df, DragonflyMinimal> fab{Df(4, 2)};
    const auto loads = link_load(fab, UniformTraffic(36));
    // Group G sends 16 pairs x 1/36 to group T, all over the one G -> T link.
    CHECK(loads.link_class(Df::global_class).max_load == doctest::Approx(16.0 / 36));
    CHECK(loads.link_class(Df::global_class).channels == 72);
}

TEST_CASE("dragonfly worst case under minimal routing, worked by hand: one global link carries a group's a routers") {
    const Fabric<Df, DragonflyMinimal> fab{Df(4, 2)};
    const auto loads = link_load(fab, GroupShiftTraffic(4, 9));
    // Group G's 4 routers send 1 unit each to group G + 1, all over the one G -> G + 1
    // link: a load of a = 4, so a router can inject 1/a (Kim et al.'s 1/(a p), p = 1).
    CHECK(loads.link_class(Df::global_class).max_load == doctest::Approx(4.0));
    std::size_t busy = 0;
    for (std::uint32_t n = 0; n < 36; ++n)
        for (std::uint32_t p = 3; p < 5; ++p) busy += loads.load(NodeId{n}, PortId{p}) > 0;  // the global ports
    CHECK(busy == 9);  // one link out of each group
    CHECK(loads.link_class(Df::global_class).total_load == doctest::Approx(36.0));
    // A local link carries at most the unit to the global link's owner plus the unit
    // from the landing router: 2.
    CHECK(loads.link_class(Df::local_class).max_load == doctest::Approx(2.0));
}

TEST_CASE("dragonfly zero-load latency by the kernel's formula (h + 1) P + h L + S - 1, for 1, 2 and 3 hops") {
    const Df t(4, 2);
    const Fabric<Df, DragonflyMinimal> fab{t};
    CycleConfig cfg;  // P = 4 pipeline cycles, L = 1
    cfg.warmup = 0;
    cfg.measure = 10;
    // Group 0 -> 1 is global slot 0, router 0's first global port; it lands on the
    // router of group 1 owning slot g - 2 = 7, router 3.
    CHECK(t.neighbour(t.node(0, 0), t.slot_port(0)) == t.node(1, 3));
    struct Case {
        NodeId src, dst;
        std::uint64_t hops;
    };
    for (const Case c : {Case{t.node(0, 1), t.node(0, 2), 1},    // local
                         Case{t.node(0, 0), t.node(1, 3), 1},    // the global link alone
                         Case{t.node(0, 2), t.node(1, 3), 2},    // local, global
                         Case{t.node(0, 0), t.node(1, 1), 2},    // global, local
                         Case{t.node(0, 2), t.node(1, 1), 3}}) {  // local, global, local
        CycleSimulator<decltype(fab)> sim(fab, cfg);
        const std::uint32_t S = 4;
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, c.src.value, c.dst.value, S}});
        CAPTURE(c.src.value);
        CAPTURE(c.dst.value);
        CHECK(r.hops_mean == doctest::Approx(static_cast<double>(c.hops)));
        CHECK(r.latency.max == (c.hops + 1) * 4 + c.hops * 1 + S - 1);
    }
}

TEST_CASE("dragonfly in the cycle kernel: every measured packet arrives, in order, within 3 hops") {
    const Fabric<Df, DragonflyMinimal> fab{Df(4, 2)};
    CycleConfig cfg;
    cfg.warmup = 500;
    cfg.measure = 3000;
    const auto r = simulate_cycles(fab, UniformTraffic(36), 0.2, PacketSizes::fixed(2), cfg);
    CHECK(r.drained);
    CHECK(r.measured_delivered == r.measured_packets);
    CHECK(r.out_of_order == 0);
    CHECK(r.misdelivered == 0);
    CHECK(r.hops_mean <= 3.0);
    CHECK(r.hops_mean > 1.0);
}

}  // namespace unit_dragonfly
