// The range-v3 views over topologies: what they list, counted by hand, and the
// neighbour-symmetry law checked through them.
#include <doctest/doctest.h>

#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/topology/views.hpp>

#include <range/v3/algorithm/all_of.hpp>
#include <range/v3/algorithm/count_if.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>

#include "../../examples/own/chord_ring.hpp"

#include <vector>

namespace unit_views {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("views::channels lists the links there are: torus 2n per node, mesh fewer at the edges") {
    const Torus<3> torus{{4, 3, 2}};
    CHECK(ranges::distance(views::channels(torus)) == 24 * 6);
    // A 4x3 mesh: 2 (4 - 1) 3 + 2 (3 - 1) 4 = 34 directed channels.
    const Mesh<2> mesh{{4, 3}};
    CHECK(ranges::distance(views::channels(mesh)) == 34);
    CHECK(ranges::distance(views::ports(mesh, NodeId{0})) == 2);   // a corner
    CHECK(ranges::distance(views::ports(mesh, NodeId{5})) == 4);   // inside
    CHECK(ranges::distance(views::nodes(mesh)) == 12);
    CHECK(ranges::distance(views::node_pairs(mesh)) == 144);
    auto all = views::channels(mesh);
    const Channel first = *ranges::begin(all);
    CHECK(first.node == NodeId{0});
    CHECK(first.index == channel_index<Mesh<2>>(first.node, first.port));
}

TEST_CASE("every channel's far end leads back through reverse_port: torus, mesh, PERCS, an own topology") {
    auto symmetric = [](const auto& t) {
        return ranges::all_of(views::channels(t), [&](const Channel& c) {
            return t.neighbour(c.to, t.reverse_port(c.node, c.port)) == c.node;
        });
    };
    CHECK(symmetric(Torus<2>{{5, 3}}));
    CHECK(symmetric(Mesh<3>{{3, 2, 2}}));
    CHECK(symmetric(PercsTopology(16, 2)));
    CHECK(symmetric(own::ChordRing<8>{}));
}

TEST_CASE("views::channels by class on the chord ring: 16 ring channels, 8 chords") {
    const own::ChordRing<8> t;
    const auto by_class = [&](std::size_t cls) {
        return ranges::count_if(views::channels(t), [cls](const Channel& c) { return c.link_class == cls; });
    };
    CHECK(by_class(own::ChordRing<8>::ring_class) == 16);
    CHECK(by_class(own::ChordRing<8>::chord_class) == 8);
    const auto chords = views::channels(t) |
                        ranges::views::filter([](const Channel& c) { return c.port == PortId{2}; }) |
                        ranges::to<std::vector>();
    REQUIRE(chords.size() == 8);
    CHECK(chords[3].to == NodeId{7});
}

TEST_CASE("views::for_each_channel visits what views::channels lists, in the same order, also at compile time") {
    auto same = [](const auto& t) {
        const auto listed = views::channels(t) | ranges::to<std::vector>();
        std::vector<Channel> visited;
        views::for_each_channel(t, [&](const Channel& c) { visited.push_back(c); });
        return visited == listed;
    };
    CHECK(same(Mesh<2>{{4, 3}}));
    CHECK(same(Torus<3>{{4, 3, 2}}));
    CHECK(same(PercsTopology(16, 2)));
    CHECK(same(own::ChordRing<8>{}));
    // 34 directed channels of a 4x3 mesh (above), counted in constant evaluation.
    static_assert([] {
        std::size_t n = 0;
        views::for_each_channel(Mesh<2, BasicLink<1>, StaticExtents<4, 3>>{}, [&](const Channel&) { ++n; });
        return n;
    }() == 34);
}

}  // namespace unit_views
