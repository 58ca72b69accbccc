// The flow-level kernel against the textbook channel loads of Dally and Towles,
// "Principles and Practices of Interconnection Networks", for dimension-order
// routing: uniform traffic with every node sending one unit spread over all k^n
// nodes, itself included.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#include <cmath>
#include <vector>

namespace unit_link_load_textbook {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

template <std::size_t R, Boundary B, class Routing>
LinkLoads loads_for(const std::vector<long long>& shape, const auto& pattern) {
    using T = KAryNCube<R, BasicLink<2>, DynamicExtents, B>;
    const Fabric<T, Routing> net{T(shape)};
    return link_load(net, pattern);
}

template <std::size_t R>
std::vector<long long> cube(long long k) {
    return std::vector<long long>(R, k);
}

template <std::size_t R>
void torus_uniform(long long k) {
    CAPTURE(R);
    CAPTURE(k);
    const auto n = static_cast<std::size_t>(std::pow(k, R));
    const auto split = loads_for<R, Boundary::wrap, DorTieSplit<>>(cube<R>(k), UniformTraffic(n));
    const auto positive = loads_for<R, Boundary::wrap, DorTiePositive<>>(cube<R>(k), UniformTraffic(n));
    for (std::size_t c = 0; c < split.per_channel().size(); ++c) {
        const double kd = static_cast<double>(k);
        // Tie split evenly: every channel carries k/8.
        CHECK(split.per_channel()[c] == doctest::Approx(kd / 8));
        // Tie always +: k/8 + 1/4 on + channels, k/8 - 1/4 on - channels.
        const bool plus = (c % (2 * R)) % 2 == 0;
        CHECK(positive.per_channel()[c] == doctest::Approx(plus ? kd / 8 + 0.25 : kd / 8 - 0.25));
    }
    CHECK(split.max_load() == doctest::Approx(static_cast<double>(k) / 8));
}

template <std::size_t R>
void mesh_uniform(long long k) {
    CAPTURE(R);
    CAPTURE(k);
    const auto n = static_cast<std::size_t>(std::pow(k, R));
    const auto loads = loads_for<R, Boundary::open, DorTieSplit<>>(cube<R>(k), UniformTraffic(n));
    // k/4 on the busiest channels, those that cross the bisection.
    CHECK(loads.max_load() == doctest::Approx(static_cast<double>(k) / 4));
    const Mesh<R> mesh(cube<R>(k));
    const auto busiest = loads.link_class(0).busiest;
    const NodeId from{static_cast<std::uint32_t>(busiest.value / (2 * R))};
    const PortId port{static_cast<std::uint32_t>(busiest.value % (2 * R))};
    const auto a = mesh.coord(from)[Mesh<R>::port_dimension(port)];
    const auto b = mesh.coord(mesh.neighbour(from, port))[Mesh<R>::port_dimension(port)];
    CHECK(std::min(a, b) == static_cast<std::uint32_t>(k / 2 - 1));
}

}  // namespace

TEST_CASE("uniform traffic on an even-k torus: k/8 per channel with the tie split, k/8 +- 1/4 with it positive") {
    for (long long k : {2, 4, 6, 8, 10}) torus_uniform<1>(k);
    for (long long k : {2, 4, 6, 8}) torus_uniform<2>(k);
    for (long long k : {2, 4, 6}) torus_uniform<3>(k);
    torus_uniform<4>(4);
    torus_uniform<5>(2);
}

TEST_CASE("uniform traffic on an even-k mesh: k/4 on the bisection channels") {
    for (long long k : {2, 4, 6, 8, 12}) mesh_uniform<1>(k);
    for (long long k : {4, 6, 8}) mesh_uniform<2>(k);
    mesh_uniform<3>(4);
}

TEST_CASE("tornado on an even k-ring: k/2 - 1 on every + channel, 0 on every - channel") {
    for (long long k : {4, 6, 8, 10, 16}) {
        CAPTURE(k);
        for (const auto& loads : {loads_for<1, Boundary::wrap, DorTieSplit<>>({k}, TornadoTraffic(Grid{k})),
                                  loads_for<1, Boundary::wrap, DorTiePositive<>>({k}, TornadoTraffic(Grid{k}))}) {
            for (std::size_t c = 0; c < loads.per_channel().size(); ++c)
                CHECK(loads.per_channel()[c] == doctest::Approx(c % 2 == 0 ? static_cast<double>(k) / 2 - 1 : 0.0));
        }
    }
}

TEST_CASE("conservation: the loads add up to every flow's amount times its route length") {
    const Torus<3> t{{4, 3, 5}};
    const Fabric<Torus<3>, DorTieSplit<>> net{t};
    const RandomPermutationTraffic perm(t.node_count(), 7);
    const auto loads = link_load(net, perm);
    double expected = 0;
    perm.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
        expected += amount * static_cast<double>(t.distance(NodeId{static_cast<std::uint32_t>(s)},
                                                            NodeId{static_cast<std::uint32_t>(d)}));
    });
    double total = 0;
    for (const double l : loads.per_channel()) total += l;
    CHECK(total == doctest::Approx(expected));
    CHECK(loads.link_class(0).total_load == doctest::Approx(expected));
}

TEST_CASE("throughput per node is bandwidth over the maximum load") {
    using T = Torus<2, BasicLink<2>>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8}, BasicLink<2>(GBps{10.0}))};
    const auto loads = link_load(net, UniformTraffic(64));
    CHECK(loads.max_load() == doctest::Approx(1.0));
    CHECK(loads.throughput() == doctest::Approx(10.0));
    CHECK(loads.link_class(0).channels == 256);
    CHECK(loads.link_class(0).link_name == "basic");
    // Two tasks per node halve each task's share and double the node's count: the
    // per-node throughput is the same.
    const auto twice = link_load(net, UniformTraffic(128), Placement::blocked(128, 64));
    CHECK(twice.throughput() == doctest::Approx(10.0 * 2 / twice.max_load()));
}

TEST_CASE("the kernel refuses a placement that does not fit") {
    const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({4, 4})};
    CHECK_THROWS_WITH_AS(link_load(net, UniformTraffic(16), Placement::blocked(16, 8)),
                         "fabric: the placement is for 8 nodes but the topology has 16", config_error);
    CHECK_THROWS_WITH_AS(link_load(net, UniformTraffic(12)), doctest::Contains("positive multiple"), config_error);
    CHECK_THROWS_WITH_AS(Placement({0, 16}, 16), "fabric: task 1 is placed on node 16, which is out of range; valid: 0 to 15",
                         config_error);
}

}  // namespace unit_link_load_textbook
