// The k-ary n-tree and nearest-common-ancestor routing: wiring laws, routes (end at
// the destination, climb to the common ancestor and no further, up then down), the
// deadlock check's dependencies counted by hand, the full bisection (every up link
// out of level l carries (N - k^(l+1)) / N of uniform traffic, worked by hand),
// and the cycle kernel (zero-load latency by the formula, loaded runs conserved).
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/fat_tree.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_fat_tree {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Ft = FatTree<4>;

/// NCA without its turn list: the deadlock check walks every route of every pair.
struct Walked : FatTreeNca {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};
}  // namespace

TEST_CASE("fat tree wiring: every link has its reverse; adjacent levels differ in one digit; k^n terminals") {
    for (const auto& kn : {std::array<std::uint32_t, 2>{2, 3}, {4, 3}, {3, 4}, {4, 1}}) {
        const std::uint32_t k = kn[0], n = kn[1];
        const Ft t(k, n);
        CAPTURE(k);
        CAPTURE(n);
        std::size_t up_links = 0;
        for (std::uint32_t s = 0; s < t.node_count(); ++s) {
            for (std::uint32_t p = 0; p < Ft::ports_per_node; ++p) {
                const NodeId to = t.neighbour(NodeId{s}, PortId{p});
                if (!to.valid()) continue;
                CHECK(t.neighbour(to, t.reverse_port(NodeId{s}, PortId{p})) == NodeId{s});
                const bool up = Ft::is_up(PortId{p});
                CHECK(t.level(to) == (up ? t.level(NodeId{s}) + 1 : t.level(NodeId{s}) - 1));
                up_links += up;
            }
        }
        std::uint32_t width = 1;
        for (std::uint32_t l = 1; l < n; ++l) width *= k;
        CHECK(t.node_count() == std::size_t{width} * n);
        CHECK(t.terminal_count() == std::size_t{width} * k);
        CHECK(up_links == std::size_t{n - 1} * width * k);  // every switch below the roots has k up links
    }
}

TEST_CASE("fat tree NCA routes: reach the destination leaf, 2 x (highest differing digit + 1) hops, up then down") {
    const Ft t(4, 3);
    const FatTreeNca nca;
    std::array<Hop, 4> hops{};
    for (std::uint32_t a = 0; a < t.width(); ++a) {
        for (std::uint32_t b = 0; b < t.width(); ++b) {
            const std::uint32_t climb = a == b ? 0 : (a / 4 != b / 4 ? 2 : 1);  // digit 1 differs: to the roots
            double weights = 0;
            nca.for_each_route(t, t.node(0, a), t.node(0, b), [&](std::span<const Hop> r, double w) {
                weights += w;
                CHECK(r.size() == 2 * climb);
                CHECK(route_end(t, t.node(0, a), r) == t.node(0, b));
                for (std::size_t i = 0; i < r.size(); ++i) CHECK(Ft::is_up(r[i].port) == (i < climb));
            });
            if (a != b) CHECK(weights == doctest::Approx(1.0));
            for (std::uint64_t c : {0ULL, 7ULL, 12345ULL})
                CHECK(route_end(t, t.node(0, a),
                                std::span<const Hop>(hops.data(), nca.select_route(t, t.node(0, a), t.node(0, b), c,
                                                                                   hops.data()))) == t.node(0, b));
        }
    }
    // Switches above the leaves have no terminals, so no routes.
    CHECK(nca.select_route(t, t.node(1, 0), t.node(0, 3), 0, hops.data()) == 0);
}

TEST_CASE("fat tree deadlock check: one VC is acyclic; its turns are the routes' dependencies, counted by hand") {
    // Up -> up and down -> down turns at each of the n - 2 middle levels: width x k^2
    // each; up -> down at every level above the leaves: width x k (k - 1) (a packet
    // never goes back down the child it came up from).
    for (const auto& kn : {std::array<std::uint32_t, 2>{2, 3}, {4, 3}, {2, 4}}) {
        const std::uint32_t k = kn[0], n = kn[1];
        const Ft t(k, n);
        const auto report = channel_dependencies(t, FatTreeNca{});
        const auto walked = channel_dependencies(t, Walked{});
        CAPTURE(k);
        CAPTURE(n);
        CHECK(report.acyclic);
        CHECK(walked.acyclic);
        CHECK(report.dependencies == walked.dependencies);  // the turns are exactly the routes' dependencies
        const std::size_t w = t.width();
        CHECK(report.dependencies == 2 * (n - 2) * w * k * k + (n - 1) * w * k * (k - 1));
    }
    CHECK(channel_dependencies(Ft(2, 3), FatTreeNca{}).dependencies == 48);  // 16 + 16 + 8 + 8
    const Fabric<Ft, FatTreeNca> fab{Ft(4, 3)};
    CHECK(fab.topology().terminal_count() == 64);
}

TEST_CASE("fat tree full bisection, worked by hand: an up link out of level l carries (N - k^(l+1)) / N") {
    // Uniform traffic (every terminal sends 1/N to each of the N, itself included),
    // N = 64 terminals of a 4-ary 3-tree: a subtree of k^(l+1) terminals sends
    // k^(l+1) (N - k^(l+1)) / N out over its k^(l+1) up links, spread evenly by NCA
    // routing: 60/64 out of the leaves, 48/64 out of level 1. As N grows, 1: full bisection.
    const Fabric<Ft, FatTreeNca> fab{Ft(4, 3)};
    const auto loads = link_load(fab, UniformTraffic(64));
    const Ft& t = fab.topology();
    for (std::uint32_t s = 0; s < t.node_count(); ++s) {
        for (std::uint32_t j = 0; j < 4; ++j) {
            const NodeId sw{s};
            if (t.level(sw) == 2) continue;
            const double expect = t.level(sw) == 0 ? 60.0 / 64 : 48.0 / 64;
            CHECK(loads.load(sw, Ft::up_port(j)) == doctest::Approx(expect));
            // Down links mirror them: into level l from above, the same.
            CHECK(loads.load(t.neighbour(sw, Ft::up_port(j)), t.reverse_port(sw, Ft::up_port(j))) ==
                  doctest::Approx(expect));
        }
    }
    // A terminal can inject bandwidth / max load: just above one link's worth.
    CHECK(loads.throughput_per_task() == doctest::Approx(loads.link_class(0).bandwidth.count * 64 / 60));
}

TEST_CASE("fat tree zero-load latency by the kernel's formula (h + 1) P + h L + S - 1, for 0, 2 and 4 hops") {
    const Fabric<Ft, FatTreeNca> fab{Ft(4, 3)};
    CycleConfig cfg;  // P = 4 pipeline cycles, L = 1
    cfg.warmup = 0;
    cfg.measure = 100;
    struct Case {
        std::uint32_t src, dst;  // terminals: leaf = terminal / 4
        std::uint64_t hops;
    };
    for (const Case c : {Case{0, 3, 0}, Case{1, 6, 2}, Case{2, 63, 4}}) {
        CycleSimulator<decltype(fab)> sim(fab, cfg);
        const std::uint32_t S = 3;
        const auto r = sim.run_trace(std::vector<TraceMessage>{{0, c.src, c.dst, S}});
        CAPTURE(c.dst);
        REQUIRE(r.packets_delivered == 1);
        CHECK(r.misdelivered == 0);
        CHECK(r.hops_mean == doctest::Approx(static_cast<double>(c.hops)));
        CHECK(r.latency.max == (c.hops + 1) * 4 + c.hops * 1 + S - 1);
    }
}

TEST_CASE("fat tree in the cycle kernel: oblivious and adaptive up paths deliver every packet, conserved") {
    CycleConfig cfg;
    cfg.warmup = 500;
    cfg.measure = 3000;
    const Fabric<Ft, FatTreeNca> oblivious{Ft(4, 3)};
    const Fabric<Ft, FatTreeAdaptiveUp> adaptive{Ft(4, 3)};
    static_assert(HopAdaptive<FatTreeAdaptiveUp, Ft> && !HopAdaptive<FatTreeNca, Ft> && !SourceAdaptive<FatTreeAdaptiveUp, Ft>);
    for (const auto& r : {simulate_cycles(oblivious, UniformTraffic(64), 0.4, PacketSizes::fixed(2), cfg),
                          simulate_cycles(adaptive, UniformTraffic(64), 0.4, PacketSizes::fixed(2), cfg)}) {
        check_delivered_and_conserved(r);
        CHECK(r.accepted == doctest::Approx(0.4).epsilon(0.05));
        CHECK(r.hops_mean <= 4.0);
        CHECK(r.terminals == 64);
    }
}

}  // namespace unit_fat_tree
