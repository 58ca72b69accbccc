// The policy types on real topologies: where their ranks lie (a terminal each, a
// router of 2d rails each, a placement given), the grids the composed forms see,
// and their graphs keeping the law (collective/verify.hpp) on each.
#include <doctest/doctest.h>

#include <fabric/fabric.hpp>  // everything at once: the collectives' names beside every other layer's

#include <fabric/collective/policies.hpp>
#include <fabric/collective/verify.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/hyperx.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

namespace unit_policies {

using namespace fabric;
using collective::Algorithm;

TEST_CASE("a terminal a rank by default; a router of 2d rails a multi-ported rank") {
    const Torus<2> torus({4, 4});
    CHECK(collective::rank_count(torus, {}) == 16);
    const Concentrated<Torus<2>, 4> quad(Torus<2>({4, 4}), 4);
    CHECK(collective::rank_count(quad, {}) == 64);
    CollectiveRequest rails{.bytes = 4096, .rails = 4};
    CHECK(collective::rank_count(quad, rails) == 16);
    const auto terminals = collective::rank_terminals(quad, rails);
    CHECK(terminals[5] == std::vector<std::uint32_t>{20, 21, 22, 23});
    // A placement given: rank r on router routers[r]; two ranks on one router take its next terminals.
    CollectiveRequest placed{.bytes = 64, .routers = {3, 3, 0}};
    CHECK(collective::rank_terminals(quad, placed) ==
          std::vector<std::vector<std::uint32_t>>{{12}, {13}, {0}});
    CHECK_THROWS_WITH_AS(collective::rank_terminals(quad, CollectiveRequest{.rails = 4, .routers = {1, 1}}),
                         "fabric: router 1 has 4 terminals; ranks of 4 rails placed on it need 8", config_error);
}

TEST_CASE("the grids the composed forms see: a torus's extents, a router's terminals first, a dragonfly's groups") {
    const Concentrated<Torus<2>, 4> quad(Torus<2>({4, 3}), 2);
    CHECK(collective::shape_of(quad, {}, Algorithm::dimension_wise).grid == std::vector<std::uint32_t>{2, 4, 3});
    CHECK(collective::shape_of(quad, {.rails = 2}, Algorithm::dimension_wise).grid == std::vector<std::uint32_t>{4, 3});
    CHECK(collective::shape_of(quad, {}, Algorithm::ring).grid == std::vector<std::uint32_t>{24});
    const Dragonfly<> dragonfly(4, 2);  // 4 routers a group, 9 groups
    CHECK(collective::shape_of(dragonfly, {}, Algorithm::hierarchical).grid == std::vector<std::uint32_t>{4, 9});
    const Concentrated<Dragonfly<>, 4> df(Dragonfly<>(2, 1), 2);  // 2 routers a group, 3 groups, 2 terminals a router
    CHECK(collective::shape_of(df, {}, Algorithm::hierarchical).grid == std::vector<std::uint32_t>{4, 3});
    const HyperX<2, 8> hx({3, 4});
    CHECK(collective::shape_of(hx, {}, Algorithm::dimension_wise).grid == std::vector<std::uint32_t>{3, 4});
    // A placement the grid cannot follow is refused.
    CHECK_THROWS_AS(collective::shape_of(Torus<2>({2, 2}), {.routers = {0, 0, 1, 2}}, Algorithm::dimension_wise),
                    config_error);
    CHECK_THROWS_AS(collective::shape_of(Torus<2>({2, 2}), {.routers = {0, 1}}, Algorithm::dimension_wise),
                    config_error);
}

TEST_CASE("the policy types' graphs keep the law on their topologies") {
    const Torus<2> torus({4, 3});
    CHECK(collective::verify(Allreduce<Ring>{}.graph(torus, {.bytes = 1200})).empty());
    CHECK(collective::verify(Allreduce<DimensionWise<>>{}.graph(torus, {.bytes = 1200, .segments = 2})).empty());
    CHECK(collective::verify(Allgather<DimensionWise<Rabenseifner>>{}.graph(torus, {.bytes = 1200})).empty());
    CHECK(collective::verify(Broadcast<DimensionWise<Binomial>>{}.graph(torus, {.bytes = 64, .root = 7})).empty());
    const Concentrated<Torus<2>, 4> quad(Torus<2>({3, 3}), 4);
    const auto multi = Allreduce<Multiported<>>{}.graph(quad, {.bytes = 3600, .rails = 4});
    CHECK(multi.lanes() == 4);
    CHECK(collective::verify(multi).empty());
    // Each lane on its own rail: rail 2d + (0 for +, 1 for -).
    for (std::uint64_t i = 0; i < multi.size(); ++i) CHECK(multi.node(i).rail == multi.where(i).lane);
    const Concentrated<Dragonfly<>, 4> df(Dragonfly<>(2, 1), 2);
    CHECK(collective::verify(Allreduce<Hierarchical<>>{}.graph(df, {.bytes = 1200})).empty());
    CHECK(collective::verify(Reduce<Hierarchical<Binomial>>{}.graph(df, {.bytes = 64, .root = 5})).empty());
    CHECK(collective::verify(Barrier<Hierarchical<>>{}.graph(df, {})).empty());
    const FatTree<4> tree(4, 2);
    CHECK(collective::verify(Alltoall<Bruck>{}.graph(tree, {.bytes = 1600})).empty());
    // The cost beside the graph: a ring allreduce on 12 ranks, alpha 10, 1 byte a cycle.
    CHECK(Allreduce<Ring>{}.cost(torus, {.bytes = 1200}, collective::AlphaBeta{10, 1}) == 22 * 10 + 2 * 11 * 100);
}

}  // namespace unit_policies
