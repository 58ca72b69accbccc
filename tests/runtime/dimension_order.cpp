// Dimension-order routes: they end at the destination in exactly the minimal hop
// count, their fractions sum to one, for_each_hop agrees with for_each_route, and
// the dateline VC rule switches VCs exactly at the wraparound.
#include <doctest/doctest.h>

#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/torus.hpp>

#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace unit_dimension_order {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

template <class T, class R>
void check_routes(const T& topo, const R& routing) {
    const auto n = static_cast<std::uint32_t>(topo.node_count());
    for (std::uint32_t s = 0; s < n; ++s) {
        for (std::uint32_t d = 0; d < n; ++d) {
            const std::size_t minimal = topo.distance(NodeId{s}, NodeId{d});
            double total = 0;
            std::map<std::pair<std::uint32_t, std::uint32_t>, double> from_routes, from_hops;
            routing.for_each_route(topo, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double fraction) {
                total += fraction;
                REQUIRE(hops.size() == minimal);
                REQUIRE(route_end(topo, NodeId{s}, hops) == NodeId{d});
                CHECK(hops.size() <= topo.diameter());
                // Dimensions are visited in increasing order: the reason the deadlock
                // check may examine each ring alone.
                for (std::size_t i = 1; i < hops.size(); ++i)
                    CHECK(T::port_dimension(hops[i - 1].port) <= T::port_dimension(hops[i].port));
                for (const Hop& h : hops) {
                    CHECK(h.port.value < T::ports_per_node);
                    CHECK(h.vc < R::template vcs_required<T>);
                    from_routes[{h.node.value, h.port.value}] += fraction;
                }
            });
            CHECK(total == doctest::Approx(1.0));
            routing.for_each_hop(topo, NodeId{s}, NodeId{d},
                                 [&](NodeId v, PortId p, double w) { from_hops[{v.value, p.value}] += w; });
            REQUIRE(from_routes.size() == from_hops.size());
            for (const auto& [channel, w] : from_routes) CHECK(from_hops[channel] == doctest::Approx(w));
        }
    }
}

}  // namespace

TEST_CASE("dimension-order routes are minimal and end at the destination") {
    for (const auto& shape : std::vector<std::vector<long long>>{{2, 2, 2}, {4, 4, 2}, {3, 5, 2}, {6, 3, 4}, {1, 4, 5}}) {
        check_routes(Torus<3>(shape), DorTieSplit<>{});
        check_routes(Torus<3>(shape), DorTiePositive<>{});
        check_routes(Mesh<3>(shape), DorTieSplit<>{});
    }
    check_routes(Torus<4>({2, 2, 2, 2}), DorTieSplit<>{});
    check_routes(Torus<6>({4, 2, 2, 2, 2, 3}), DorTieSplit<>{});
    check_routes(Torus<1>({8}), DorTiePositive<NoDateline>{});
}

TEST_CASE("a tie on an even ring is split in two routes or taken the + way") {
    const Torus<2> t{{4, 4}};
    int routes = 0;
    DorTieSplit<>{}.for_each_route(t, NodeId{0}, t.node({2, 2}), [&](std::span<const Hop> hops, double f) {
        ++routes;
        CHECK(f == 0.25);
        CHECK(hops.size() == 4);
    });
    CHECK(routes == 4);
    routes = 0;
    DorTiePositive<>{}.for_each_route(t, NodeId{0}, t.node({2, 2}), [&](std::span<const Hop> hops, double f) {
        ++routes;
        CHECK(f == 1.0);
        for (const Hop& h : hops) CHECK(Torus<2>::port_direction(h.port) == +1);
    });
    CHECK(routes == 1);
}

TEST_CASE("the dateline moves a packet to VC 1 where it crosses the wraparound") {
    const Torus<1> ring{{8}};
    // 6 -> 1 going + : hops 6->7 (vc 0), 7->0 wraps (vc 1), 0->1 (vc 1).
    std::vector<Hop> seen;
    DorTieSplit<>{}.for_each_route(ring, NodeId{6}, NodeId{1}, [&](std::span<const Hop> hops, double) {
        seen.assign(hops.begin(), hops.end());
    });
    REQUIRE(seen.size() == 3);
    CHECK(seen[0] == Hop{NodeId{6}, PortId{0}, 0});
    CHECK(seen[1] == Hop{NodeId{7}, PortId{0}, 1});
    CHECK(seen[2] == Hop{NodeId{0}, PortId{0}, 1});
    // 1 -> 6 goes - and wraps at node 0.
    DorTieSplit<>{}.for_each_route(ring, NodeId{1}, NodeId{6}, [&](std::span<const Hop> hops, double) {
        seen.assign(hops.begin(), hops.end());
    });
    REQUIRE(seen.size() == 3);
    CHECK(seen[0] == Hop{NodeId{1}, PortId{1}, 0});
    CHECK(seen[1] == Hop{NodeId{0}, PortId{1}, 1});
    CHECK(seen[2] == Hop{NodeId{7}, PortId{1}, 1});
    // Without a dateline everything stays on VC 0.
    DorTieSplit<NoDateline>{}.for_each_route(ring, NodeId{6}, NodeId{1}, [&](std::span<const Hop> hops, double) {
        for (const Hop& h : hops) CHECK(h.vc == 0);
    });
}

TEST_CASE("the whole-ring dateline (BookSim's): a leg that will wrap is on VC 1 from its first hop") {
    const Torus<1> ring{{8}};
    std::vector<std::vector<Hop>> seen;
    auto routes = [&](std::uint32_t s, std::uint32_t d) {
        seen.clear();
        DorTieSplit<DatelineWholeRing>{}.for_each_route(ring, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double) {
            seen.emplace_back(hops.begin(), hops.end());
        });
    };
    routes(6, 1);  // + : 6->7, 7->0 (the wrap), 0->1: all on VC 1
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == std::vector<Hop>{{NodeId{6}, PortId{0}, 1}, {NodeId{7}, PortId{0}, 1}, {NodeId{0}, PortId{0}, 1}});
    routes(1, 3);  // no wrap: VC 0
    CHECK(seen[0] == std::vector<Hop>{{NodeId{1}, PortId{0}, 0}, {NodeId{2}, PortId{0}, 0}});
    routes(2, 6);  // a tie: + 2..6 stays on VC 0; - 2->1->0->7->6 wraps, all on VC 1
    REQUIRE(seen.size() == 2);
    for (const auto& r : seen) {
        const bool minus = r[0].port == PortId{1};
        for (const Hop& h : r) CHECK(h.vc == (minus ? 1 : 0));
    }
    routes(7, 0);  // the wrap hop alone
    CHECK(seen[0] == std::vector<Hop>{{NodeId{7}, PortId{0}, 1}});
    // select_route, which the cycle kernel uses, writes the same VCs.
    std::array<Hop, 8> out{};
    const std::size_t n = DorTieSplit<DatelineWholeRing>{}.select_route(ring, NodeId{6}, NodeId{1}, 0, out.data());
    REQUIRE(n == 3);
    for (std::size_t i = 0; i < n; ++i) CHECK(out[i].vc == 1);
}

}  // namespace unit_dimension_order
