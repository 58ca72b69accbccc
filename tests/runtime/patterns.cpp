// Traffic patterns: each source sends one unit; destinations are where the
// definitions put them; seeded patterns are reproducible.
#include <doctest/doctest.h>

#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/workload.hpp>

#include <algorithm>
#include <map>
#include <vector>

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
    each_source_sends_one_unit(TransposeTraffic(4, 8));
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

TEST_CASE("transpose: 1/(2Q) to each of the row, 1/(2P) to each of the column, self included") {
    const TransposeTraffic t(4, 8);
    std::map<std::size_t, double> to;
    t.for_each_flow([&](std::size_t s, std::size_t d, double a) {
        if (s == 9) to[d] += a;  // row 1, column 1
    });
    CHECK(to[9] == doctest::Approx(1.0 / 16 + 1.0 / 8));
    CHECK(to[8] == doctest::Approx(1.0 / 16));
    CHECK(to[1] == doctest::Approx(1.0 / 8));
    CHECK(to.size() == 8 + 4 - 1);
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
