// The hypercube and e-cube routing: wiring laws, routes minimal and in
// increasing dimension order, the same links as a mesh of extents 2, the
// deadlock check from the policy's turns equal to the check from every route
// (and acyclic with one VC), loads worked by hand, and the cycle kernel's
// zero-load latency.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/ecube.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/hypercube.hpp>
#include <fabric/topology/torus.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace unit_hypercube {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Cube = Hypercube<6>;

/// E-cube without its turn list: the deadlock check walks every route.
struct Walked : ECube {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};

/// Under-provisioned: odd sources cross their dimensions highest first, still
/// on one VC, so turns run both ways and close into cycles.
struct MixedOrder : Walked {
    template <class T>
    std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t c, Hop* out) const {
        const std::size_t len = ECube::select_route(t, src, dst, c, out);
        if (src.value % 2 == 0) return len;
        std::uint32_t at = src.value;
        for (std::size_t i = 0; i < len; ++i) {  // the same dimensions, in the reverse order
            const PortId d = out[len - 1 - i].port;
            out[i] = Hop{NodeId{at}, d, 0};
            at ^= std::uint32_t{1} << d.value;
        }
        return len;
    }
    template <class T, class F>
    void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::array<Hop, T::ports_per_node> hops{};
        f(std::span<const Hop>(hops.data(), select_route(t, src, dst, 0, hops.data())), 1.0);
    }
    template <class T, class F>
    void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
    }
};
}  // namespace

TEST_CASE("hypercube wiring: n links a node, each with its reverse, to the node one bit away") {
    for (const std::uint32_t n : {1U, 4U, 6U}) {
        CAPTURE(n);
        const Cube t(n);
        CHECK(t.node_count() == (std::size_t{1} << n));
        CHECK(t.diameter() == n);
        std::size_t links = 0;
        for (std::uint32_t a = 0; a < t.node_count(); ++a)
            for (std::uint32_t p = 0; p < Cube::ports_per_node; ++p) {
                const NodeId b = t.neighbour(NodeId{a}, PortId{p});
                if (p >= n) {
                    CHECK_FALSE(b.valid());
                    continue;
                }
                ++links;
                CHECK(std::popcount(a ^ b.value) == 1);
                CHECK(t.neighbour(b, t.reverse_port(NodeId{a}, PortId{p})) == NodeId{a});
                CHECK(t.distance(NodeId{a}, b) == 1);
            }
        CHECK(links == n * t.node_count());
    }
    CHECK_THROWS_WITH_AS(Cube(7), doctest::Contains("use a larger MaxDims"), config_error);
    CHECK_THROWS_AS(Cube(0), config_error);
}

TEST_CASE("e-cube routes: minimal, lowest dimension first, at the destination") {
    const Cube t(6);
    const ECube r;
    for (std::uint32_t s = 0; s < t.node_count(); ++s)
        for (std::uint32_t d = 0; d < t.node_count(); ++d)
            r.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double w) {
                CHECK(w == 1.0);
                CHECK(hops.size() == t.distance(NodeId{s}, NodeId{d}));
                NodeId at{s};
                std::uint32_t last = 0;
                for (std::size_t i = 0; i < hops.size(); ++i) {
                    CHECK(hops[i].node == at);
                    CHECK((i == 0 || hops[i].port.value > last));
                    last = hops[i].port.value;
                    at = t.neighbour(at, hops[i].port);
                }
                CHECK(at == NodeId{d});
            });
}

TEST_CASE("the hypercube has the links of a mesh of extents 2, and e-cube the routes of its dimension order") {
    // Mesh<4> of 2x2x2x2: node ids agree (dimension 0 varies fastest); each
    // node's one link in a dimension is the hypercube's.
    using M = Mesh<4>;
    const M mesh({2, 2, 2, 2});
    const Hypercube<4> cube;
    for (std::uint32_t a = 0; a < 16; ++a) {
        std::vector<std::uint32_t> via_mesh, via_cube;
        for (std::uint32_t p = 0; p < M::ports_per_node; ++p)
            if (const NodeId b = mesh.neighbour(NodeId{a}, PortId{p}); b.valid()) via_mesh.push_back(b.value);
        for (std::uint32_t p = 0; p < 4; ++p) via_cube.push_back(cube.neighbour(NodeId{a}, PortId{p}).value);
        std::sort(via_mesh.begin(), via_mesh.end());
        std::sort(via_cube.begin(), via_cube.end());
        CHECK(via_mesh == via_cube);
    }
}

TEST_CASE("e-cube deadlock check: its turns give exactly the dependencies of all routes, acyclic with one VC") {
    const Cube t(5);
    const auto turns = channel_dependencies(t, ECube{});
    const auto walked = channel_dependencies(t, Walked{});
    CHECK(turns.acyclic);
    CHECK(walked.acyclic);
    CHECK(turns.dependencies == walked.dependencies);
    // By hand: at each of the 32 nodes, a channel of dimension d arriving turns
    // into each of the 4 - d higher ones: 4 + 3 + 2 + 1 = 10 turns a node.
    CHECK(turns.dependencies == 32 * 10);
    const Fabric<Cube, ECube> fab{Cube(6)};
    CHECK(fab.topology().node_count() == 64);
}

TEST_CASE("a mixed dimension order on one VC is cyclic, refused, and deadlocks in the kernel") {
    const Cube t(4);
    const auto deps = channel_dependencies(t, MixedOrder{});
    CHECK_FALSE(deps.acyclic);
    CHECK_THROWS_WITH_AS((Fabric<Cube, MixedOrder>{t}), doctest::Contains("can deadlock"), config_error);
    const Fabric<Cube, MixedOrder> fab(t, allow_deadlock);
    CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = 2000;
    cfg.watchdog = 200;
    const auto r = simulate_cycles(fab, UniformTraffic(16), 0.9, PacketSizes::fixed(16), cfg);
    REQUIRE(r.deadlock);
    CHECK_FALSE(r.deadlock->waiting.empty());
}

TEST_CASE("e-cube loads, worked by hand: uniform traffic puts 1/2 on every channel") {
    // Of a node's 2^n destinations, half differ in dimension d, and each such
    // packet crosses dimension d exactly once, out of the node of its source's
    // d-bit side. Per channel: (2^n / 2) pairs x 1/2^n = 1/2.
    const Fabric<Cube, ECube> fab{Cube(6)};
    const auto loads = link_load(fab, UniformTraffic(64));
    CHECK(loads.max_load() == doctest::Approx(0.5));
    // Bit complement: every packet crosses every dimension; dimension d's
    // channel out of a node carries exactly one packet (the one whose earlier
    // bits have been corrected to this node's).
    const auto complement = link_load(fab, BitComplementTraffic(64));
    CHECK(complement.max_load() == doctest::Approx(1.0));
}

TEST_CASE("hypercube in the cycle kernel: zero-load latency by the kernel's formula, and a loaded run drains") {
    const Fabric<Cube, ECube> fab{Cube(6)};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 10;
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    // 0 -> 63 crosses 6 links: (6 + 1) 4 + 6 + S - 1 with S = 3: 36 cycles.
    const auto r = sim.run_trace(std::vector<TraceMessage>{{0, 0, 63, 3}});
    CHECK(r.latency.max == 36);
    CycleConfig loaded;
    loaded.warmup = 500;
    loaded.measure = 3000;
    const auto u = simulate_cycles(fab, UniformTraffic(64), 0.3, PacketSizes::fixed(4), loaded);
    CHECK(u.drained);
    CHECK_FALSE(u.deadlock);
    CHECK(u.measured_delivered == u.measured_packets);
    CHECK(u.hops_mean == doctest::Approx(3.0).epsilon(0.05));  // n/2 in expectation (self-sends included, 0 hops)
}

}  // namespace unit_hypercube
