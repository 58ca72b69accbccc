// Laws of the k-ary n-cube, checked over many shapes: ranks 1 to 6, odd and even
// extents, extent 2 and extent 1 included, torus and mesh.
#include <doctest/doctest.h>

#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/topology/torus.hpp>

#include <algorithm>
#include <deque>
#include <vector>

namespace unit_torus_laws {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

template <class T>
std::vector<std::size_t> bfs_distances(const T& topo, NodeId from) {
    std::vector<std::size_t> dist(topo.node_count(), ~std::size_t{0});
    std::deque<std::uint32_t> queue{from.value};
    dist[from.value] = 0;
    while (!queue.empty()) {
        const auto v = queue.front();
        queue.pop_front();
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p) {
            const NodeId w = topo.neighbour(NodeId{v}, PortId{p});
            if (w.valid() && dist[w.value] == ~std::size_t{0}) {
                dist[w.value] = dist[v] + 1;
                queue.push_back(w.value);
            }
        }
    }
    return dist;
}

template <class T>
void check_laws(const T& topo) {
    CAPTURE(T::kind);
    CAPTURE(T::rank);
    const auto n = static_cast<std::uint32_t>(topo.node_count());
    std::size_t expected_nodes = 1, diameter = 0;
    for (std::size_t d = 0; d < T::rank; ++d) {
        expected_nodes *= topo.extent(d);
        diameter += T::wraparound ? topo.extent(d) / 2 : topo.extent(d) - 1;
    }
    CHECK(topo.node_count() == expected_nodes);
    CHECK(topo.diameter() == diameter);

    std::size_t links = 0, crossing = 0;
    const std::size_t cut = topo.bisection_dimension();
    const std::uint32_t half = topo.extent(cut) / 2;
    std::size_t max_distance = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
        // Node id <-> coordinates.
        const auto c = topo.coord(NodeId{v});
        REQUIRE(topo.node(c) == NodeId{v});
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p) {
            const NodeId w = topo.neighbour(NodeId{v}, PortId{p});
            const std::size_t d = T::port_dimension(PortId{p});
            if (!w.valid()) {
                // Only a mesh edge or an extent-1 dimension lacks a link.
                CHECK((topo.extent(d) == 1 || !T::wraparound));
                continue;
            }
            ++links;
            REQUIRE(w.value < n);
            // Neighbour symmetry: the opposite port of the neighbour leads back.
            const PortId back = T::port(d, -T::port_direction(PortId{p}));
            CHECK(topo.neighbour(w, back) == NodeId{v});
            // A link changes one coordinate by one step (mod k).
            const auto cw = topo.coord(w);
            for (std::size_t e = 0; e < T::rank; ++e) {
                if (e != d) CHECK(cw[e] == c[e]);
            }
            CHECK(T::ring_distance(c[d], cw[d], topo.extent(d)) == 1);
            if ((c[cut] < half) != (cw[cut] < half)) ++crossing;
        }
        // Minimal distance equals breadth-first search over the links.
        const auto dist = bfs_distances(topo, NodeId{v});
        for (std::uint32_t w = 0; w < n; ++w) {
            REQUIRE(dist[w] == topo.distance(NodeId{v}, NodeId{w}));
            CHECK(topo.distance(NodeId{w}, NodeId{v}) == dist[w]);
            max_distance = std::max(max_distance, dist[w]);
        }
    }
    CHECK(links == topo.channel_count());
    CHECK(max_distance == topo.diameter());
    CHECK(crossing == topo.bisection_channels());
}

template <std::size_t R, Boundary B>
void sweep(const std::vector<std::vector<long long>>& shapes) {
    for (const auto& shape : shapes) {
        CAPTURE(shape.size());
        check_laws(KAryNCube<R, BasicLink<2>, DynamicExtents, B>(shape));
    }
}

}  // namespace

TEST_CASE("k-ary n-cube laws: neighbour symmetry, distances, diameter, bisection") {
    for (long long k = 1; k <= 9; ++k) {
        sweep<1, Boundary::wrap>({{k}});
        sweep<1, Boundary::open>({{k}});
    }
    const std::vector<std::vector<long long>> two{{2, 2}, {3, 3}, {4, 4}, {5, 3}, {8, 2}, {6, 7}, {1, 4}};
    sweep<2, Boundary::wrap>(two);
    sweep<2, Boundary::open>(two);
    const std::vector<std::vector<long long>> three{{2, 2, 2}, {3, 4, 5}, {4, 4, 4}, {2, 3, 2}, {5, 1, 3}};
    sweep<3, Boundary::wrap>(three);
    sweep<3, Boundary::open>(three);
    const std::vector<std::vector<long long>> four{{2, 2, 2, 2}, {3, 2, 4, 2}, {4, 3, 2, 3}};
    sweep<4, Boundary::wrap>(four);
    sweep<4, Boundary::open>(four);
    sweep<5, Boundary::wrap>({{2, 3, 2, 2, 3}, {2, 2, 2, 2, 2}});
    sweep<5, Boundary::open>({{2, 3, 2, 2, 3}});
    sweep<6, Boundary::wrap>({{4, 2, 2, 2, 2, 2}, {3, 2, 2, 2, 2, 3}});
    sweep<6, Boundary::open>({{4, 2, 2, 2, 2, 2}});
}

TEST_CASE("bisection and diameter by the textbook formulas") {
    // Dally and Towles: a k-ary n-cube torus has 4 k^(n-1) unidirectional bisection
    // channels, a mesh 2 k^(n-1); diameters n floor(k/2) and n (k - 1).
    const Torus<3> torus{{8, 8, 8}};
    CHECK(torus.bisection_channels() == 4 * 64);
    CHECK(torus.diameter() == 12);
    const Mesh<3> mesh{{8, 8, 8}};
    CHECK(mesh.bisection_channels() == 2 * 64);
    CHECK(mesh.diameter() == 21);
    const Torus<6, QcdocScu> qcdoc{{8, 4, 4, 2, 2, 2}};
    CHECK(qcdoc.node_count() == 1024);
    CHECK(qcdoc.diameter() == 4 + 2 + 2 + 1 + 1 + 1);
}

TEST_CASE("static extents give the same topology as run-time extents") {
    constexpr Torus<3, BasicLink<2>, StaticExtents<4, 3, 2>> fixed{};
    static_assert(fixed.node_count() == 24);
    static_assert(fixed.diameter() == 2 + 1 + 1);
    const Torus<3> dynamic{{4, 3, 2}};
    for (std::uint32_t v = 0; v < 24; ++v)
        for (std::uint32_t p = 0; p < 6; ++p) CHECK(fixed.neighbour(NodeId{v}, PortId{p}) == dynamic.neighbour(NodeId{v}, PortId{p}));
}

TEST_CASE("run-time validation: extents, rank and node ids") {
    using fabric::config_error;
    CHECK_THROWS_WITH_AS(Torus<2>({4, 0}), "fabric: extent of dimension 1 must be at least 1; got 0", config_error);
    CHECK_THROWS_WITH_AS(Torus<2>({-3, 4}), "fabric: extent of dimension 0 must be at least 1; got -3", config_error);
    CHECK_THROWS_WITH_AS(Torus<3>({4, 4}), "fabric: a rank-3 torus needs 3 extents; got 2", config_error);
    CHECK_THROWS_WITH_AS(Mesh<2>(std::vector<int>{4, 4, 4}), "fabric: a rank-2 mesh needs 2 extents; got 3", config_error);
    const Torus<2> t{{4, 4}};
    CHECK_THROWS_WITH_AS((void)t.coord(NodeId{16}), "fabric: node id 16 is out of range; valid: 0 to 15", config_error);
    CHECK_THROWS_WITH_AS((void)t.neighbour(NodeId{0}, PortId{4}), "fabric: port 4 is out of range; valid: 0 to 3",
                         config_error);
    CHECK_THROWS_AS((void)t.node({4, 0}), config_error);
}

}  // namespace unit_torus_laws
