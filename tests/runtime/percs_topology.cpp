// The PERCS (n_s, n_d) topology and its routing: link counts, the bucket
// template, route shapes and fractions, VC levels, and the aggregated indirect
// loads against the pair-by-pair walk.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>

#include <deque>
#include <map>
#include <vector>

namespace unit_percs_topology {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
const std::vector<std::pair<std::uint32_t, std::uint32_t>> small_systems{{1, 32}, {2, 16}, {4, 8}, {8, 4}, {16, 2},
                                                                         {32, 1}, {16, 4}, {64, 1}};
}

TEST_CASE("link counts per supernode: 112 LL, 384 LR, n_s n_d D ends") {
    for (const auto& [ns, nd] : small_systems) {
        CAPTURE(ns);
        CAPTURE(nd);
        const PercsTopology t(ns, nd);
        CHECK(t.d_ports_used() == ns * nd / 32);
        for (std::uint32_t a = 0; a < ns; ++a) {
            std::size_t ll = 0, lr = 0, d = 0, self_ll = 0;
            for (std::uint32_t u = 0; u < 32; ++u)
                for (std::uint32_t p = 0; p < PercsTopology::ports_per_node; ++p) {
                    const NodeId from = PercsTopology::node(a, u);
                    const NodeId to = t.neighbour(from, PortId{p});
                    if (!to.valid()) continue;
                    switch (t.link_class(from, PortId{p})) {
                        case PercsTopology::LL: (to == from ? self_ll : ll) += 1; break;
                        case PercsTopology::LR: ++lr; break;
                        default: ++d; break;
                    }
                }
            CHECK(ll == 2 * 112);  // directed channels: both directions of 112 links
            CHECK(self_ll == 32);
            CHECK(lr == 2 * 384);
            CHECK(d == ns * nd);   // D link ends leaving the supernode, self-loops included
        }
    }
}

TEST_CASE("every D link follows the bucket template and has a reverse link") {
    for (const auto& [ns, nd] : small_systems) {
        const PercsTopology t(ns, nd);
        const std::uint32_t W = 32 / nd;
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> pair_links;
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t u = 0; u < 32; ++u)
                for (std::uint32_t p = PercsTopology::first_d_port; p < PercsTopology::ports_per_node; ++p) {
                    const NodeId to = t.neighbour(PercsTopology::node(a, u), PortId{p});
                    if (!to.valid()) continue;
                    const std::uint32_t b = PercsTopology::supernode_of(to), v = PercsTopology::local_of(to);
                    const std::uint32_t j = u / W;
                    CHECK(u == j * W + b % W);  // leaves node jW + (b mod W) of a
                    CHECK(v == j * W + a % W);  // lands on node jW + (a mod W) of b
                    CHECK(t.d_port(a, u, b) == PortId{p});
                    // The reverse link of the same bucket joins the same two nodes.
                    CHECK(t.neighbour(to, t.d_port(b, v, a)) == PercsTopology::node(a, u));
                    ++pair_links[{a, b}];
                }
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t b = 0; b < ns; ++b) CHECK(pair_links[{a, b}] == static_cast<int>(nd));
    }
}

TEST_CASE("the paper's wiring example: (32, 2) and (16, 8)") {
    const PercsTopology t(32, 2);
    // Supernode 1 is incident on nodes 1 and 17 of every supernode.
    CHECK(t.d_source_local(5, 1, 0) == 1);
    CHECK(t.d_source_local(5, 1, 1) == 17);
    // Between supernodes 2 and 11: node 11 of 2 to node 2 of 11, and node 27 to node 18.
    CHECK(t.neighbour(PercsTopology::node(2, 11), t.d_port(2, 11, 11)) == PercsTopology::node(11, 2));
    CHECK(t.neighbour(PercsTopology::node(2, 27), t.d_port(2, 27, 11)) == PercsTopology::node(11, 18));
    const PercsTopology t2(16, 8);
    CHECK(t2.bucket_width() == 4);
    CHECK(t2.bucket_of_local(3) == 0);
    CHECK(t2.bucket_of_local(28) == 7);
}

TEST_CASE("graph distance and diameter agree with breadth-first search") {
    for (const auto& [ns, nd] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 16}, {4, 8}, {1, 32}, {2, 32}}) {
        const PercsTopology t(ns, nd);
        std::size_t far = 0;
        for (std::uint32_t s = 0; s < t.node_count(); s += 5) {
            std::vector<std::size_t> dist(t.node_count(), 99);
            std::deque<std::uint32_t> q{s};
            dist[s] = 0;
            while (!q.empty()) {
                const auto x = q.front();
                q.pop_front();
                for (std::uint32_t p = 0; p < PercsTopology::ports_per_node; ++p) {
                    const NodeId y = t.neighbour(NodeId{x}, PortId{p});
                    if (y.valid() && dist[y.value] == 99) {
                        dist[y.value] = dist[x] + 1;
                        q.push_back(y.value);
                    }
                }
            }
            for (std::uint32_t d = 0; d < t.node_count(); ++d) {
                REQUIRE(t.distance(NodeId{s}, NodeId{d}) == dist[d]);
                far = std::max(far, dist[d]);
            }
        }
        CHECK(far == t.diameter());
    }
}

namespace {
template <class R>
void check_percs_routes(const PercsTopology& t, const R& routing, std::size_t max_hops) {
    for (std::uint32_t s = 0; s < t.node_count(); s += 3)
        for (std::uint32_t d = 0; d < t.node_count(); d += 7) {
            double total = 0;
            routing.for_each_route(t, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double w) {
                total += w;
                REQUIRE(route_end(t, NodeId{s}, hops) == NodeId{d});
                CHECK(hops.size() <= max_hops);
                int level = -1;
                std::size_t d_hops = 0;
                for (const Hop& h : hops) {
                    const std::size_t cls = t.link_class(h.node, h.port);
                    d_hops += cls == PercsTopology::D;
                    CHECK(R::level(cls, h.vc) > level);  // levels increase: acyclic by construction
                    level = R::level(cls, h.vc);
                    CHECK(h.vc < R::template vcs_required<PercsTopology>[cls]);
                }
                if (PercsTopology::supernode_of(NodeId{s}) != PercsTopology::supernode_of(NodeId{d}))
                    CHECK(d_hops == max_hops / 2);
                else
                    CHECK(d_hops == 0);
            });
            if (s != d) CHECK(total == doctest::Approx(1.0));
        }
}
}  // namespace

TEST_CASE("direct routes have at most 3 hops, indirect at most 5, fractions sum to 1") {
    for (const auto& [ns, nd] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 8}, {16, 2}, {32, 1}}) {
        const PercsTopology t(ns, nd);
        check_percs_routes(t, Direct{}, 3);
        check_percs_routes(t, Indirect{}, 5);
        check_percs_routes(t, PercsDirect<IntraRoute::striped, ZeroHop::self_loop>{}, 3);
        check_percs_routes(t, PercsIndirect<IntraRoute::single_hop, ZeroHop::self_loop>{}, 5);
        check_percs_routes(t, PercsIndirectVia<>{}, 5);
    }
}

TEST_CASE("hop-position virtual channels: the full channel-dependency check finds no cycle") {
    const PercsTopology t(4, 8);
    CHECK(channel_dependencies(t, Direct{}, 3).acyclic);
    CHECK(channel_dependencies(t, Indirect{}, 3).acyclic);
    CHECK(channel_dependencies(t, PercsIndirect<IntraRoute::striped, ZeroHop::self_loop>{}, 3).acyclic);
}

namespace {
/// A policy seen only through its routes: the deadlock check walks every pair.
template <class R>
struct RoutesOnly {
    R routing;
    template <class F>
    void for_each_route(const PercsTopology& t, NodeId s, NodeId d, F&& f) const {
        routing.for_each_route(t, s, d, f);
    }
};
}  // namespace

TEST_CASE("direct routing's turns, named without the pair walk, give the walk's dependency graph") {
    // `channels` counts the channels of some dependency when turns are named: under
    // single-hop intra routing a hop u -> v onto a hub holding no D link to another
    // supernode is a route of its own and in no dependency (the walk counts it).
    const auto same = [](const PercsTopology& t, const auto& routing) {
        using R = std::remove_cvref_t<decltype(routing)>;
        const DependencyReport turns = full_dependency_check(t, routing, 3);
        const DependencyReport walked = full_dependency_check(t, RoutesOnly<R>{routing}, 3);
        CHECK(turns.acyclic == walked.acyclic);
        CHECK(turns.dependencies == walked.dependencies);
        if constexpr (R::intra == IntraRoute::striped) CHECK(turns.channels == walked.channels);
        CHECK(turns.dependencies > 0);
        return turns.acyclic;
    };
    for (const auto& [ns, nd] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 8}, {8, 4}, {17, 1}, {3, 2}}) {
        CAPTURE(ns);
        CAPTURE(nd);
        const PercsTopology t(ns, nd);
        CHECK(same(t, Direct{}));
        CHECK(same(t, PercsDirect<IntraRoute::single_hop>{}));
        CHECK(same(t, PercsVcCap<Direct, 2, 1>{}));
        CHECK_FALSE(same(t, PercsVcCap<Direct, 1, 1>{}));
    }
}

TEST_CASE("aggregated indirect loads equal the pair-by-pair walk") {
    for (const auto& [ns, nd] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 8}, {16, 4}, {32, 1}}) {
        const PercsTopology t(ns, nd);
        const auto grid = default_task_grid(128 * ns);
        const RowColumnAllToAllTraffic pattern(grid.rows, grid.cols);
        const auto placement = percs_placement(t, grid, PercsMapping::drawer_rnd, 3);
        const auto check_policy = [&](const auto& routing) {
            using R = std::remove_cvref_t<decltype(routing)>;
            const auto aggregated = link_load(PercsFabric<R>{t}, pattern, placement);
            std::vector<double> walked(t.node_count() * PercsTopology::ports_per_node, 0.0);
            pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
                if (placement.node_of(s) == placement.node_of(d)) return;
                routing.for_each_hop(t, NodeId{placement.node_of(s)}, NodeId{placement.node_of(d)},
                                     [&](NodeId n, PortId p, double w) {
                                         walked[n.value * PercsTopology::ports_per_node + p.value] += amount * w;
                                     });
            });
            for (std::size_t c = 0; c < walked.size(); ++c)
                REQUIRE(aggregated.per_channel()[c] == doctest::Approx(walked[c]).epsilon(1e-9));
        };
        check_policy(Indirect{});
        check_policy(PercsIndirect<IntraRoute::striped, ZeroHop::self_loop>{});
        check_policy(PercsIndirect<IntraRoute::single_hop, ZeroHop::skip>{});
    }
}

TEST_CASE("PERCS rules are checked when the system is built") {
    CHECK_THROWS_WITH_AS(PercsTopology(32, 3), "fabric: PERCS n_d must divide 32 (1, 2, 4, 8, 16 or 32); got 3",
                         config_error);
    CHECK_THROWS_WITH_AS(PercsTopology(64, 16), doctest::Contains("at most 16 D ports"), config_error);
    CHECK_NOTHROW(PercsTopology(512, 1));
    // Dealt: ceil((n_s - 1) / W) ports; 513 supernodes with n_d = 1 (16 each), not 514.
    CHECK_NOTHROW(PercsTopology(513, 1));
    CHECK_THROWS_WITH_AS(PercsTopology(514, 1), doctest::Contains("at most 16 D ports"), config_error);
    CHECK_THROWS_WITH_AS(PercsTopology(300, 2), doctest::Contains("needs 19"), config_error);
    CHECK_THROWS_WITH_AS(PercsTopology(0, 1), doctest::Contains("at least 1 supernode"), config_error);
    // n_s n_d = 2^32 + 32 wraps to 32 in 32 bits: refused, not built with repeating node numbers.
    CHECK_THROWS_WITH_AS(PercsTopology(134217729, 32), doctest::Contains("at most 16 D ports"), config_error);
}

TEST_CASE("the all-to-all model's system: every hub has d D links out and d in, no self-loops") {
    for (std::uint32_t d : {1U, 2U, 3U}) {
        const auto t = PercsTopology::alltoall_model(d);
        CHECK(t.supernodes() == 32 * d + 1);
        std::vector<int> in(t.node_count(), 0);
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> pair_links;
        for (std::uint32_t n = 0; n < t.node_count(); ++n) {
            int out = 0;
            for (std::uint32_t p = PercsTopology::first_d_port; p < PercsTopology::ports_per_node; ++p) {
                const NodeId to = t.neighbour(NodeId{n}, PortId{p});
                if (!to.valid()) continue;
                ++out;
                ++in[to.value];
                CHECK(PercsTopology::supernode_of(to) != PercsTopology::supernode_of(NodeId{n}));
                ++pair_links[{PercsTopology::supernode_of(NodeId{n}), PercsTopology::supernode_of(to)}];
            }
            CHECK(out == static_cast<int>(d));
        }
        for (const int i : in) CHECK(i == static_cast<int>(d));
        CHECK(pair_links.size() == (32 * d + 1) * 32 * d);
    }
}

TEST_CASE("any size (section VII): the D links dealt round each bucket, hubs differing by at most one, no "
          "self-loops, n_d links a pair") {
    // Section VII: "the number of D links in an SN may not be an integral multiple
    // of the number of other SNs in the system, the Hubs in an SN can differ in their
    // D-link connections by one". Where h = n_s n_d / 32 is not whole, each bucket
    // of W hubs holds its n_s - 1 links in turn: ceil or floor of (n_s - 1) / W.
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes{{17, 1}, {40, 1}, {33, 2}, {100, 2},
                                                                    {3, 8},  {300, 1}, {513, 1}};
    for (const auto& [ns, nd] : sizes) {
        CAPTURE(ns);
        CAPTURE(nd);
        const PercsTopology t(ns, nd);
        REQUIRE(t.wiring() == PercsTopology::Wiring::circulant);
        const std::uint32_t W = 32 / nd;
        const std::uint32_t most = (ns - 1 + W - 1) / W, least = (ns - 1) / W;
        CHECK(t.d_ports_used() == most);
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> pair_links;
        for (std::uint32_t a = 0; a < ns; ++a) {
            std::uint32_t lo = 99, hi = 0, total = 0;
            for (std::uint32_t u = 0; u < 32; ++u) {
                std::uint32_t count = 0;
                for (std::uint32_t p = PercsTopology::first_d_port; p < PercsTopology::ports_per_node; ++p) {
                    const NodeId from = PercsTopology::node(a, u), to = t.neighbour(from, PortId{p});
                    if (!to.valid()) continue;
                    ++count;
                    const std::uint32_t b = PercsTopology::supernode_of(to), v = PercsTopology::local_of(to);
                    REQUIRE(b != a);                          // no self-loops
                    CHECK(v / W == u / W);                    // the link stays in its bucket
                    CHECK(t.d_port(a, u, b) == PortId{p});    // the port the routing names for it
                    CHECK(t.neighbour(to, t.reverse_port(from, PortId{p})) == from);  // one link, both ways
                    CHECK(t.d_source_local(a, b, u / W) == u);
                    CHECK(t.d_landing_local(a, b, u / W) == v);
                    ++pair_links[{a, b}];
                }
                CHECK(count == t.d_links_of_local(u));
                lo = std::min(lo, count);
                hi = std::max(hi, count);
                total += count;
            }
            CHECK(total == (ns - 1) * nd);  // every other supernode, n_d times
            CHECK(hi - lo <= 1);            // section VII's rule
            CHECK(hi == most);
            CHECK(lo == least);
        }
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t b = 0; b < ns; ++b)
                if (a != b) CHECK(pair_links[{a, b}] == static_cast<int>(nd));
    }
    // The bucket template with a whole h keeps its self-loops; dealt() drops them:
    // (32, 1) dealt gives 31 hubs one link each and one hub none.
    const auto t = PercsTopology::dealt(32, 1);
    CHECK(t.d_ports_used() == 1);
    std::uint32_t with_link = 0;
    for (std::uint32_t u = 0; u < 32; ++u) with_link += t.d_links_of_local(u);
    CHECK(with_link == 31);
}

TEST_CASE("a 300-supernode system (9,600 hubs): routed, deadlock free with hop-position VCs, link loads") {
    const PercsTopology t(300, 1);
    // Every route ends where it should, within L-D-L (direct) and L-D-L-D-L (indirect).
    std::vector<Hop> out(8);
    Random rng(57);
    for (int k = 0; k < 2000; ++k) {
        const NodeId s{static_cast<std::uint32_t>(rng.below(t.node_count()))};
        const NodeId d{static_cast<std::uint32_t>(rng.below(t.node_count()))};
        if (s == d) continue;
        const std::size_t n = Direct{}.select_route(t, s, d, rng.next(), out.data());
        REQUIRE(route_end(t, s, {out.data(), n}) == d);
        CHECK(n <= 3);
        const std::size_t m = Indirect{}.select_route(t, s, d, rng.next(), out.data());
        REQUIRE(route_end(t, s, {out.data(), m}) == d);
        CHECK(m <= 5);
    }
    // Direct routing's channel dependencies, every pair's every route (its turns):
    // acyclic with the hop-position VCs (2 on L, 1 on D), not with one VC on L.
    CHECK(channel_dependencies(t, PercsVcCap<Direct, 2, 1>{}, 3).acyclic);
    CHECK_FALSE(channel_dependencies(t, PercsVcCap<Direct, 1, 1>{}, 3).acyclic);
    // Uniform traffic, one task a hub, direct routing: the one D link from a to b
    // carries what the 32 hubs of a send to the 32 of b, 32 x 32 flows of 1/9,600
    // (self included), and every D channel the same.
    const PercsFabric<Direct> net{t};
    const LinkLoads loads = link_load(net, UniformTraffic(t.node_count()));
    const ClassLoad& d = loads.link_class(PercsTopology::D);
    CHECK(d.channels == 300 * 299);
    CHECK(d.max_load == 1024.0 / 9600);
    CHECK(d.total_load == doctest::Approx(d.max_load * static_cast<double>(d.channels)));
}

}  // namespace unit_percs_topology
