// Traffic patterns: each source sends one unit; destinations are where the
// definitions put them; seeded patterns are reproducible.
#include <doctest/doctest.h>

#include <fabric/mapping/named_pattern.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/sim/workload.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace unit_patterns {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
template <class P>
std::vector<double> sent_per_source(const P& p) {
    std::vector<double> sent(p.task_count(), 0.0);
    p.for_each_flow([&](std::size_t s, std::size_t d, double a) {
        REQUIRE(s < p.task_count());
        REQUIRE(d < p.task_count());
        sent[s] += a;
    });
    return sent;
}
template <class P>
void each_source_sends_one_unit(const P& p) {
    for (const double s : sent_per_source(p)) CHECK(s == doctest::Approx(1.0));
}
}  // namespace

TEST_CASE("every pattern sends one unit per source") {
    each_source_sends_one_unit(UniformTraffic(10));
    each_source_sends_one_unit(HaloTraffic(Grid{4, 3, 5}));
    each_source_sends_one_unit(HaloTraffic(Grid{2, 2}));
    each_source_sends_one_unit(RowColumnAllToAllTraffic(4, 8));
    each_source_sends_one_unit(BitComplementTraffic(16));
    each_source_sends_one_unit(TornadoTraffic(Grid{8, 5}));
    each_source_sends_one_unit(RandomPermutationTraffic(100, 3));
}

TEST_CASE("halo: the 2r neighbours of a task, 1/(2r) each; open edges send less") {
    std::map<std::size_t, double> to;
    const Grid g{4, 3};
    HaloTraffic(g).for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == g.task({0, 1})) to[d] += a;
    });
    CHECK(to.size() == 4);
    CHECK(to[g.task({1, 1})] == 0.25);
    CHECK(to[g.task({3, 1})] == 0.25);
    CHECK(to[g.task({0, 0})] == 0.25);
    CHECK(to[g.task({0, 2})] == 0.25);
    const auto open = sent_per_source(HaloTraffic(g, false));
    CHECK(open[g.task({0, 0})] == doctest::Approx(0.5));
    CHECK(open[g.task({1, 1})] == doctest::Approx(1.0));
}

TEST_CASE("row-column all-to-all (the PERCS paper's transpose): 1/(2Q) to each of the row, 1/(2P) to each of the column, self included") {
    const RowColumnAllToAllTraffic t(4, 8);
    std::map<std::size_t, double> to;
    t.for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == 9) to[d] += a;  // row 1, column 1
    });
    CHECK(to[9] == doctest::Approx(1.0 / 16 + 1.0 / 8));
    CHECK(to[8] == doctest::Approx(1.0 / 16));
    CHECK(to[1] == doctest::Approx(1.0 / 8));
    CHECK(to.size() == 8 + 4 - 1);
}

TEST_CASE("all-to-all along one grid dimension: 1/(k - 1) to each other task of the line, none to itself") {
    const Grid grid{4, 3, 2};
    for (std::size_t dim = 0; dim < 3; ++dim) {
        CAPTURE(dim);
        const GridAllToAllTraffic p(grid, dim);
        each_source_sends_one_unit(p);
        const double share = 1.0 / (grid.extent(dim) - 1);
        std::size_t flows = 0;
        p.for_each_flow([&](std::size_t s, std::size_t d, double a) {
            ++flows;
            const auto cs = grid.coord(s), cd = grid.coord(d);
            for (std::size_t e = 0; e < 3; ++e) CHECK((e == dim) == (cs[e] != cd[e]));
            CHECK(a == doctest::Approx(share));
        });
        CHECK(flows == grid.size() * (grid.extent(dim) - 1));
        Random rng(3);
        for (int i = 0; i < 200; ++i) {
            const std::size_t s = static_cast<std::size_t>(rng.below(grid.size())), d = p.sample(s, rng);
            const auto cs = grid.coord(s), cd = grid.coord(d);
            for (std::size_t e = 0; e < 3; ++e) CHECK((e == dim) == (cs[e] != cd[e]));
        }
    }
    CHECK_THROWS_AS(GridAllToAllTraffic(grid, 3), config_error);
    CHECK_THROWS_AS(GridAllToAllTraffic(Grid{1, 4}, 0), config_error);
}

TEST_CASE("bit complement, tornado and permutations send where the definitions say") {
    BitComplementTraffic(8).for_each_flow([](std::size_t s, std::size_t d, double) { CHECK(d == 7 - s); });
    TornadoTraffic(Grid{8}).for_each_flow([](std::size_t s, std::size_t d, double) { CHECK(d == (s + 3) % 8); });
    TornadoTraffic(Grid{5}).for_each_flow([](std::size_t s, std::size_t d, double) { CHECK(d == (s + 2) % 5); });
    const RandomPermutationTraffic a(1000, 42), b(1000, 42), c(1000, 43);
    std::vector<std::size_t> seen;
    bool differs = false;
    for (std::size_t t = 0; t < 1000; ++t) {
        CHECK(a.destination(t) == b.destination(t));
        differs = differs || a.destination(t) != c.destination(t);
        seen.push_back(a.destination(t));
    }
    CHECK(differs);
    std::sort(seen.begin(), seen.end());
    for (std::size_t t = 0; t < 1000; ++t) CHECK(seen[t] == t);
}

TEST_CASE("patterns refuse shapes they cannot have") {
    CHECK_THROWS_WITH_AS(BitComplementTraffic(12), doctest::Contains("power-of-two"), config_error);
    CHECK_THROWS_WITH_AS(TrafficMatrix(2, {1, 0, 0}), "fabric: a traffic matrix for 2 tasks needs 4 entries; got 3",
                         config_error);
    CHECK_THROWS_WITH_AS(TrafficMatrix(2, {0, -1, 0, 0}), doctest::Contains("(0, 1) must not be negative"),
                         config_error);
    CHECK_THROWS_WITH_AS(Grid({4, 0}), "fabric: task grid extent of dimension 1 must be at least 1; got 0",
                         config_error);
}

TEST_CASE("random_pairs_trace: the count asked for, evenly spaced, never a node to itself, reproducible") {
    const auto a = random_pairs_trace(5, 1000, 3, 7, 9);
    REQUIRE(a.size() == 1000);
    std::vector<int> sent(5, 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].cycle == 3 * i);
        CHECK(a[i].source != a[i].destination);
        CHECK(a[i].destination < 5);
        CHECK(a[i].flits == 7);
        ++sent[a[i].source];
    }
    for (const int n : sent) CHECK(n > 150);  // 200 each on average
    const auto b = random_pairs_trace(5, 1000, 3, 7, 9);
    CHECK(std::equal(a.begin(), a.end(), b.begin(), [](const TraceMessage& x, const TraceMessage& y) {
        return x.cycle == y.cycle && x.source == y.source && x.destination == y.destination;
    }));
    CHECK_THROWS_WITH_AS(random_pairs_trace(1, 10, 1, 1), doctest::Contains("fabric: a random-pairs trace needs"),
                         config_error);
}

TEST_CASE("the literature's permutations: transpose, bit reverse, shuffle, neighbour, worked by hand") {
    const TransposeTraffic tr(16);  // 4 x 4, task = i * 4 + j
    CHECK(tr.destination(1) == 4);   // (0, 1) -> (1, 0)
    CHECK(tr.destination(6) == 9);   // (1, 2) -> (2, 1)
    CHECK(tr.destination(15) == 15);
    // On 64 tasks it is BookSim's swap of the address's bit halves.
    const TransposeTraffic tr64(64);
    for (std::size_t t = 0; t < 64; ++t) CHECK(tr64.destination(t) == (((t >> 3) | (t << 3)) & 63));
    const BitReverseTraffic rev(8);
    CHECK(rev.destination(1) == 4);  // 001 -> 100
    CHECK(rev.destination(3) == 6);  // 011 -> 110
    CHECK(rev.destination(6) == 3);
    const ShuffleTraffic sh(8);
    CHECK(sh.destination(1) == 2);  // 001 -> 010
    CHECK(sh.destination(4) == 1);  // 100 -> 001
    CHECK(sh.destination(5) == 3);  // 101 -> 011
    CHECK(sh.destination(7) == 7);
    const Grid g{4, 3};
    const NeighbourTraffic nb(g);
    CHECK(nb.destination(g.task({3, 2})) == g.task({0, 0}));
    CHECK(nb.destination(g.task({1, 1})) == g.task({2, 2}));
    // Each is a permutation: every task receives exactly one unit, and each source sends one.
    auto bijective = [](const auto& p) {
        std::vector<double> received(p.task_count(), 0.0);
        p.for_each_flow([&](std::size_t, std::size_t d, double a) { received[d] += a; });
        for (const double r : received) CHECK(r == 1.0);
        each_source_sends_one_unit(p);
    };
    bijective(tr64);
    bijective(BitReverseTraffic(256));
    bijective(ShuffleTraffic(256));
    bijective(NeighbourTraffic(Grid{5, 4, 3}));
}

TEST_CASE("hot spot: fraction F to the hot tasks, the rest uniform") {
    const HotSpotTraffic h(4, {2}, 0.5);
    std::map<std::size_t, double> to;
    h.for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == 0) to[d] += a;
    });
    CHECK(to[2] == doctest::Approx(0.5 + 0.125));
    CHECK(to[0] == doctest::Approx(0.125));
    CHECK(to[3] == doctest::Approx(0.125));
    each_source_sends_one_unit(h);
    // Drawn destinations follow the same shares.
    Random rng(7);
    std::size_t hot = 0;
    const std::size_t draws = 100000;
    for (std::size_t i = 0; i < draws; ++i) hot += h.sample(1, rng) == 2;
    CHECK(static_cast<double>(hot) / draws == doctest::Approx(0.625).epsilon(0.02));
    CHECK_THROWS_WITH_AS(HotSpotTraffic(4, {4}, 0.5), "fabric: hot task 4 is out of range; valid: 0 to 3", config_error);
    CHECK_THROWS_WITH_AS(HotSpotTraffic(4, {1}, 1.5), "fabric: the hot-spot fraction must be in [0, 1]; got 1.5",
                         config_error);
}

TEST_CASE("the permutations refuse task counts their definitions do not cover") {
    CHECK_THROWS_WITH_AS(TransposeTraffic(8), "fabric: transpose traffic needs a square number of tasks (m x m); got 8",
                         config_error);
    CHECK_THROWS_WITH_AS(BitReverseTraffic(12), doctest::Contains("bit-reverse traffic needs a power-of-two"), config_error);
    CHECK_THROWS_WITH_AS(ShuffleTraffic(1), doctest::Contains("shuffle traffic needs a power-of-two"), config_error);
}

TEST_CASE("patterns by name: transpose is the permutation; the PERCS one is row_column_alltoall") {
    const std::vector<long long> grid{8, 8};
    std::map<std::size_t, double> to;
    NamedPattern::make("transpose", grid, 1).for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == 1) to[d] += a;
    });
    CHECK(to.size() == 1);
    CHECK(to[8] == 1.0);
    CHECK(NamedPattern::make("row_column_alltoall", grid, 1).task_count() == 64);
    CHECK_THROWS_WITH_AS(NamedPattern::make("row_column_alltoall", {4, 4, 4}, 1),
                         "fabric: row_column_alltoall traffic needs a 2-D grid of nodes; got 3 dimensions", config_error);
    CHECK_THROWS_WITH_AS(NamedPattern::make("hotspot:x", grid, 1), "fabric: hotspot:F needs a number F in [0, 1]; got 'x'",
                         config_error);
    CHECK_THROWS_WITH_AS(NamedPattern::make("nope", grid, 1), doctest::Contains("valid: uniform, neighbour, halo, transpose"),
                         config_error);
}

TEST_CASE("group shift (the dragonfly's worst case): every task of group i uniformly to group i + shift") {
    const GroupShiftTraffic w(4, 3);  // tasks 0-3 group 0, 4-7 group 1, 8-11 group 2
    std::map<std::size_t, double> to;
    w.for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == 9) to[d] += a;  // group 2 wraps to group 0
    });
    CHECK(to == std::map<std::size_t, double>{{0, 0.25}, {1, 0.25}, {2, 0.25}, {3, 0.25}});
    each_source_sends_one_unit(w);
    Random rng(3);
    std::map<std::size_t, int> drawn;
    for (int i = 0; i < 4000; ++i) ++drawn[w.sample(5, rng)];
    CHECK(drawn.size() == 4);  // only group 2's four tasks, each about a quarter
    for (std::size_t d = 8; d < 12; ++d) CHECK(drawn[d] == doctest::Approx(1000).epsilon(0.1));
    CHECK(GroupShiftTraffic(2, 5, 3).target_group(9) == 2);  // group 4 + 3 wraps to 2
    CHECK_THROWS_WITH_AS(GroupShiftTraffic(4, 3, 3), doctest::Contains("sends every group to itself"), config_error);
    CHECK_THROWS_WITH_AS(GroupShiftTraffic(4, 1), doctest::Contains("at least 2 groups"), config_error);
    // By name on a (members, groups) grid.
    CHECK(NamedPattern::make("group_shift", {4, 3}, 1).task_count() == 12);
    CHECK_THROWS_WITH_AS(NamedPattern::make("group_shift", {12}, 1), doctest::Contains("needs a 2-D grid"), config_error);
}

}  // namespace unit_patterns
