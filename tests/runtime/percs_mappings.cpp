// PERCS mappings: every mapping is a bijection of tasks onto processors, the
// mod-colour colouring is perfect (Lemma 4.1), and mappings the grid does not
// allow are refused.
#include <doctest/doctest.h>

#include <fabric/mapping/percs_mappings.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace unit_percs_mappings {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("the default task grid: P <= Q, Q a power of two, as square as possible") {
    CHECK(default_task_grid(4096) == TaskGrid{64, 64});
    CHECK(default_task_grid(2048) == TaskGrid{32, 64});
    CHECK(default_task_grid(65536) == TaskGrid{256, 256});
    CHECK(default_task_grid(128 * 48) == TaskGrid{48, 128});
    CHECK_THROWS_WITH_AS(default_task_grid(7), doctest::Contains("give the grid explicitly"), config_error);
}

TEST_CASE("every mapping places each task on its own processor") {
    for (const auto& [ns, nd] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{16, 2}, {32, 4}, {64, 1}}) {
        const PercsTopology t(ns, nd);
        const auto grid = default_task_grid(128 * ns);
        for (std::size_t m = 0; m < percs_mapping_names.size(); ++m) {
            CAPTURE(percs_mapping_names[m]);
            auto proc = percs_processors(t, grid, static_cast<PercsMapping>(m), 5);
            std::sort(proc.begin(), proc.end());
            for (std::size_t i = 0; i < proc.size(); ++i) REQUIRE(proc[i] == i);
        }
    }
}

TEST_CASE("blocking puts each block on one node, drawer or supernode") {
    const PercsTopology t(32, 1);
    const TaskGrid g{64, 64};
    const std::vector<std::tuple<PercsMapping, std::size_t, std::size_t, std::size_t>> schemes{
        {PercsMapping::node_seq, 2, 2, 4},
        {PercsMapping::drawer_rnd, 4, 8, 32},
        {PercsMapping::sn_seq, 8, 16, 128}};
    for (const auto& [mapping, alpha, beta, procs] : schemes) {
        const auto proc = percs_processors(t, g, mapping, 9);
        for (std::size_t r = 0; r < g.rows; ++r)
            for (std::size_t c = 0; c < g.cols; ++c) {
                const std::size_t corner = (r / alpha * alpha) * g.cols + c / beta * beta;
                CHECK(proc[r * g.cols + c] / procs == proc[corner] / procs);
            }
    }
}

TEST_CASE("mod-colour: every supernode holds two 8x8 blocks whose 8 neighbour blocks are in 8 distinct supernodes") {
    for (const auto& [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{64, 64}, {32, 64}, {96, 128},
                                                                                     {128, 256}, {64, 512}}) {
        CAPTURE(rows);
        CAPTURE(cols);
        const std::uint32_t ns = static_cast<std::uint32_t>(rows * cols / 128);
        const PercsTopology t(ns, ns >= 32 ? 1 : 32 / ns);
        const auto proc = percs_processors(t, TaskGrid{rows, cols}, PercsMapping::modcolor);
        const std::size_t p = rows / 8, q = cols / 8;
        auto colour = [&](std::size_t bi, std::size_t bj) { return proc[(bi * 8) * cols + bj * 8] / 128; };
        std::map<std::uint32_t, std::vector<std::uint32_t>> neighbours;
        for (std::size_t bi = 0; bi < p; ++bi)
            for (std::size_t bj = 0; bj < q; ++bj) {
                auto& n = neighbours[colour(bi, bj)];
                n.push_back(colour((bi + 1) % p, bj));
                n.push_back(colour((bi + p - 1) % p, bj));
                n.push_back(colour(bi, (bj + 1) % q));
                n.push_back(colour(bi, (bj + q - 1) % q));
            }
        CHECK(neighbours.size() == ns);
        for (const auto& [c, n] : neighbours) {
            CHECK(n.size() == 8);
            CHECK(std::set<std::uint32_t>(n.begin(), n.end()).size() == 8);
        }
    }
}

TEST_CASE("mappings the grid does not allow are refused with the rule") {
    const PercsTopology t(32, 1);
    CHECK_THROWS_WITH_AS(percs_processors(t, TaskGrid{16, 256}, PercsMapping::modcolor),
                         "fabric: mod-colour mapping needs P a multiple of 32 and Q a power of two of at least 64; "
                         "got 16 x 256",
                         config_error);
    CHECK_THROWS_WITH_AS(percs_processors(t, TaskGrid{64, 32}, PercsMapping::def),
                         doctest::Contains("128 tasks per supernode (4096 here)"), config_error);
    CHECK_THROWS_WITH_AS(percs_processors(t, TaskGrid{4, 1024}, PercsMapping::sn_seq),
                         doctest::Contains("needs P a multiple of 8"), config_error);
    CHECK_THROWS_WITH_AS(parse_percs_mapping("zigzag"), doctest::Contains("valid: default, node-seq"), config_error);
}

TEST_CASE("the supernode hot spot: hub k of one supernode to hub k of the other, 32 flows of one unit") {
    const PercsTopology t(4, 8);
    const auto hot = percs_supernode_hotspot(t, 2, 1);
    CHECK(hot.task_count() == t.node_count());
    std::size_t flows = 0;
    hot.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
        ++flows;
        CHECK(amount == 1.0);
        CHECK(PercsTopology::supernode_of(NodeId{static_cast<std::uint32_t>(s)}) == 2);
        CHECK(PercsTopology::supernode_of(NodeId{static_cast<std::uint32_t>(d)}) == 1);
        CHECK(PercsTopology::local_of(NodeId{static_cast<std::uint32_t>(s)}) ==
              PercsTopology::local_of(NodeId{static_cast<std::uint32_t>(d)}));
    });
    CHECK(flows == 32);
    CHECK_THROWS_WITH_AS(percs_supernode_hotspot(t, 1, 1), doctest::Contains("two different supernodes below 4"),
                         config_error);
    CHECK_THROWS_AS(percs_supernode_hotspot(t, 0, 4), config_error);
}

}  // namespace unit_percs_mappings
