// The channel-dependency check: a torus with wraparound links and one VC has a
// cycle; the dateline with two VCs removes it; meshes and short rings have none.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

namespace unit_deadlock {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("one virtual channel on a torus: the check reports a cycle round a ring") {
    const Torus<2> t{{4, 5}};
    const auto report = channel_dependencies(t, DorTieSplit<NoDateline>{}, 1);
    REQUIRE_FALSE(report.acyclic);
    REQUIRE(report.cycle.size() >= 2);
    // The cycle is a closed walk: each channel ends where the next one starts.
    for (std::size_t i = 0; i < report.cycle.size(); ++i) {
        const auto& c = report.cycle[i];
        const auto& next = report.cycle[(i + 1) % report.cycle.size()];
        CHECK(t.neighbour(c.node, c.port) == next.node);
    }
    CHECK(report.describe_cycle().find("(node 0, port 0, vc 0) -> (node 1, port 0, vc 0)") != std::string::npos);
}

TEST_CASE("the dateline with two virtual channels makes dimension order deadlock free") {
    for (const auto& shape : std::vector<std::vector<long long>>{{4, 4}, {8, 3}, {5, 6}, {2, 9}}) {
        const Torus<2> t(shape);
        CHECK(channel_dependencies(t, DorTieSplit<Dateline>{}, 2).acyclic);
        CHECK(channel_dependencies(t, DorTiePositive<Dateline>{}, 2).acyclic);
        CHECK(channel_dependencies(t, DorTieSplit<DatelineWholeRing>{}, 2).acyclic);
        CHECK(channel_dependencies(t, DorTiePositive<DatelineWholeRing>{}, 2).acyclic);
        CHECK(channel_dependencies(Mesh<2>(shape), DorTieSplit<NoDateline>{}, 1).acyclic);
    }
    // Rings of 3 or fewer have routes of one hop: no dependency at all.
    CHECK(channel_dependencies(Torus<2>({3, 3}), DorTieSplit<NoDateline>{}, 1).acyclic);
    CHECK(channel_dependencies(Torus<1>({3}), DorTieSplit<NoDateline>{}, 1).dependencies == 0);
}

TEST_CASE("the per-ring check of dimension order agrees with the full check") {
    for (const auto& shape : std::vector<std::vector<long long>>{{4, 4}, {3, 5}, {2, 2}, {6, 2}, {3, 3}}) {
        const Torus<2> t(shape);
        for (std::size_t vcs : {1, 2}) {
            const auto fast = channel_dependencies(t, DorTieSplit<NoDateline>{}, vcs);
            const auto full = detail::full_dependency_check(t, DorTieSplit<NoDateline>{}, vcs);
            CHECK(fast.acyclic == full.acyclic);
            CHECK(fast.dependencies <= full.dependencies);  // the ring check omits cross-dimension edges
            const auto fast_d = channel_dependencies(t, DorTieSplit<Dateline>{}, 2);
            const auto full_d = detail::full_dependency_check(t, DorTieSplit<Dateline>{}, 2);
            CHECK(fast_d.acyclic == full_d.acyclic);
        }
    }
}

TEST_CASE("a fabric with run-time extents checks deadlock freedom once, at construction") {
    using OneVc = Torus<2, BasicLink<1>>;
    CHECK_THROWS_WITH_AS((Fabric<OneVc, DorTieSplit<NoDateline>>{OneVc({4, 4})}),
                         doctest::Contains("fabric: the routing policy can deadlock on this topology"), config_error);
    CHECK_NOTHROW((Fabric<OneVc, DorTieSplit<NoDateline>>{OneVc({4, 4}), allow_deadlock}));
    CHECK_NOTHROW((Fabric<OneVc, DorTieSplit<NoDateline>>{OneVc({3, 2})}));
    CHECK_NOTHROW((Fabric<Torus<2>, DorTieSplit<Dateline>>{Torus<2>({16, 16})}));
}

TEST_CASE("credit flow control is validated when the fabric is built") {
    CHECK_THROWS_WITH_AS((Fabric<Torus<1>, DorTieSplit<>>{Torus<1>({4}), DorTieSplit<>{}, Credit{0, 1}}),
                         "fabric: Credit flow control needs at least 1 buffer slot per virtual channel; got 0",
                         config_error);
}

namespace {
/// The same policy without its turns: the check walks every pair's routes.
template <class Dor>
struct WalkedDor : Dor {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};

template <class Top, class Dor>
void same_graph(const Top& t, std::size_t vcs) {
    const auto turns = detail::full_dependency_check(t, Dor{}, vcs);
    const auto walked = detail::full_dependency_check(t, WalkedDor<Dor>{}, vcs);
    CHECK(turns.dependencies == walked.dependencies);
    CHECK(turns.acyclic == walked.acyclic);
    CHECK(turns.cycle == walked.cycle);
    CHECK(turns.channels <= walked.channels);  // a channel only single-hop routes use is named by no turn
}
}  // namespace

TEST_CASE("dimension order's turns give exactly the dependencies of all routes, on tori, meshes and rings") {
    for (const auto& shape : std::vector<std::vector<long long>>{{4, 4}, {5, 3}, {2, 6}, {8, 3}, {7, 2}}) {
        CAPTURE(shape[0]);
        CAPTURE(shape[1]);
        same_graph<Torus<2>, DorTieSplit<Dateline>>(Torus<2>(shape), 2);
        same_graph<Torus<2>, DorTiePositive<Dateline>>(Torus<2>(shape), 2);
        same_graph<Torus<2>, DorTieSplit<NoDateline>>(Torus<2>(shape), 1);
        same_graph<Torus<2>, DorTiePositive<NoDateline>>(Torus<2>(shape), 1);
        same_graph<Mesh<2>, DorTieSplit<NoDateline>>(Mesh<2>(shape), 1);
    }
    same_graph<Torus<3>, DorTieSplit<Dateline>>(Torus<3>({3, 4, 2}), 2);
    same_graph<Torus<3>, DorTiePositive<NoDateline>>(Torus<3>({4, 3, 5}), 1);
    for (const long long k : {2, 3, 4, 7, 8, 9}) {
        CAPTURE(k);
        same_graph<Torus<1>, DorTieSplit<Dateline>>(Torus<1>({k}), 2);
        same_graph<Torus<1>, DorTieSplit<NoDateline>>(Torus<1>({k}), 1);
        same_graph<Mesh<1>, DorTiePositive<NoDateline>>(Mesh<1>({k}), 1);
    }
}

TEST_CASE("the deadlock check of a 2,048-node ring and a 1000 x 2 torus is quadratic, not cubic: both are built") {
    // Walking all 4 million pairs' routes of up to 1,024 hops took minutes; the turns are 2 N k / 2.
    const Fabric<Torus<1>, DorTieSplit<>> ring{Torus<1>({2048})};
    CHECK(ring.topology().node_count() == 2048);
    const auto report = channel_dependencies(Torus<2>({1000, 2}), DorTieSplit<>{}, 2);
    CHECK(report.acyclic);
    CHECK_FALSE(channel_dependencies(Torus<1>({2048}), DorTieSplit<NoDateline>{}, 1).acyclic);
}

}  // namespace unit_deadlock
