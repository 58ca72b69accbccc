// Every algorithm of the catalogue, executed symbolically (collective/verify.hpp):
// for p from 1 to 17, powers of two and not, with and without pieces (segments)
// and reduction costs, each graph is well formed and leaves every rank with what
// its operation promises. And the messages and bytes each rank sends, against
// each algorithm's known totals.
#include <doctest/doctest.h>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/verify.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace unit_laws {

using namespace fabric::collective;

/// Messages and payload bytes each rank sends.
struct Sent {
    std::vector<std::uint64_t> messages, bytes;
    std::uint64_t computes = 0;
};
Sent sent(const CollectiveGraph& g) {
    Sent s{std::vector<std::uint64_t>(g.ranks()), std::vector<std::uint64_t>(g.ranks())};
    for (std::uint64_t i = 0; i < g.size(); ++i) {
        const auto n = g.node(i);
        if (!n.is_message()) {
            ++s.computes;
            continue;
        }
        ++s.messages[n.rank];
        s.bytes[n.rank] += n.bytes;
    }
    return s;
}

std::string law(Operation op, Algorithm a, const Shape& shape, const Size& size, Algorithm inner = Algorithm::ring) {
    const CollectiveGraph g = build(op, a, shape, size, inner);
    std::string what = verify(g);
    if (!what.empty())
        what = std::string(name(op)) + " by " + std::string(name(a)) + " over " + std::to_string(shape.ranks()) +
               " ranks, " + std::to_string(size.segments) + " segments: " + what;
    return what;
}

const std::vector<std::uint32_t> counts{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17};

TEST_CASE("every flat algorithm of the catalogue does what its operation promises, for p = 1 to 17") {
    for (const Operation op : operations)
        for (const Algorithm a : algorithms) {
            if (!supports(op, a) || composed(a)) continue;
            for (const std::uint32_t p : counts)
                for (const std::uint32_t segments : {1U, 3U}) {
                    const std::uint32_t root = rooted(op) ? p / 2 : 0;
                    const double gamma = reducing(op) && segments == 3 ? 0.5 : 0;
                    CHECK_MESSAGE(law(op, a, Shape::line(p), Size{1000, segments, gamma, root}).empty(),
                                  law(op, a, Shape::line(p), Size{1000, segments, gamma, root}));
                }
        }
}

TEST_CASE("the composed forms: dimension-wise and multi-ported on tori, hierarchical over groups") {
    const std::vector<std::vector<std::uint32_t>> grids{{4, 4}, {3, 5}, {2, 3, 2}, {5}, {1, 4}};
    for (const Operation op : operations)
        for (const auto& grid : grids) {
            const std::uint32_t dims = static_cast<std::uint32_t>(grid.size());
            Shape shape{grid, {}, 2 * dims};
            const std::uint32_t root = rooted(op) ? static_cast<std::uint32_t>(shape.ranks() - 2) : 0;
            for (const Algorithm a : {Algorithm::dimension_wise, Algorithm::hierarchical, Algorithm::multiported}) {
                if (!supports(op, a)) continue;
                if (a == Algorithm::hierarchical && grid.size() != 2) continue;
                for (const Algorithm inner : {Algorithm::ring, Algorithm::recursive_doubling, Algorithm::rabenseifner}) {
                    if (a == Algorithm::multiported && inner != Algorithm::ring) continue;
                    const Size size{997, 2, reducing(op) ? 1.0 : 0.0, root};
                    CHECK_MESSAGE(law(op, a, shape, size, inner).empty(), law(op, a, shape, size, inner));
                }
            }
        }
    // Ranks placed out of the grid's order: the lines follow the placement.
    Shape shuffled{{3, 4}, {5, 0, 7, 2, 11, 9, 1, 3, 4, 10, 8, 6}, 4};
    CHECK(law(Operation::allreduce, Algorithm::dimension_wise, shuffled, Size{480}).empty());
    CHECK(law(Operation::broadcast, Algorithm::dimension_wise, shuffled, Size{480, 1, 0, 7}).empty());
    CHECK(law(Operation::allgather, Algorithm::multiported, shuffled, Size{480}).empty());
}

TEST_CASE("the law can fail: an allreduce without its allgather half, a reduction that counts twice") {
    const auto grid = std::make_shared<const Grid>(std::vector<std::uint32_t>{4});
    std::vector<Lane> half{Lane{{Phase{RingReduceScatter(4), 0, {}, {}}}, 0, 0, 4}};
    const std::string missing = verify(CollectiveGraph(Operation::allreduce, grid, half, Size{400}));
    CHECK(missing.find("ends with block") != std::string::npos);
    // Two reduce-scatters in a row: the second adds partial sums the receivers already hold.
    std::vector<Lane> twice{Lane{{Phase{RingReduceScatter(4), 0, {}, {}}, Phase{RingReduceScatter(4), 0, {}, {}}}, 0, 0, 4}};
    CHECK(verify(CollectiveGraph(Operation::reduce_scatter, grid, twice, Size{400})).find("already holds") !=
          std::string::npos);
    // An allgather that forwards a block before it has it: a ring run the wrong way round for its blocks.
    std::vector<Lane> backwards{Lane{{Phase{RingReduceScatter(4), 0, {}, {}}}, 0, 0, 4}};
    CHECK(verify(CollectiveGraph(Operation::allgather, grid, backwards, Size{400})).find("does not hold") !=
          std::string::npos);
    // Two lanes that gather the same blocks at once: each rank receives each block in both.
    std::vector<Lane> race{Lane{{Phase{RingAllgather(4), 0, {}, {}}}, 0, 0, 4},
                           Lane{{Phase{RingAllgather(4), 0, {}, {}}}, 1, 0, 4}};
    CHECK(verify(CollectiveGraph(Operation::allgather, grid, race, Size{400})).find("which run in no order") !=
          std::string::npos);
}

TEST_CASE("messages and bytes each rank sends, against the algorithms' totals (Thakur et al. 2005)") {
    const std::uint64_t n = 1 << 16;  // divisible by every p below
    for (const std::uint32_t p : {2U, 4U, 8U, 16U}) {
        const std::uint32_t lg = floor_log2(p);
        auto each = [&](Operation op, Algorithm a, std::uint64_t messages, std::uint64_t bytes) {
            const Sent s = sent(build(op, a, Shape::line(p), Size{n}));
            for (std::uint32_t r = 0; r < p; ++r) {
                CHECK_MESSAGE(s.messages[r] == messages, name(op), " by ", name(a), " p = ", p, " rank ", r);
                CHECK_MESSAGE(s.bytes[r] == bytes, name(op), " by ", name(a), " p = ", p, " rank ", r);
            }
        };
        // Allreduce: ring 2(p-1) messages of n/p; recursive doubling lg p of n; Rabenseifner 2 lg p, 2(p-1)/p n.
        each(Operation::allreduce, Algorithm::ring, 2 * (p - 1), 2 * (p - 1) * n / p);
        each(Operation::allreduce, Algorithm::recursive_doubling, lg, lg * n);
        each(Operation::allreduce, Algorithm::rabenseifner, 2 * lg, 2 * (p - 1) * n / p);
        // Allgather and reduce-scatter: (p-1)/p n each, in p - 1 or lg p messages.
        each(Operation::allgather, Algorithm::ring, p - 1, (p - 1) * n / p);
        each(Operation::allgather, Algorithm::recursive_doubling, lg, (p - 1) * n / p);
        each(Operation::allgather, Algorithm::bruck, lg, (p - 1) * n / p);
        each(Operation::reduce_scatter, Algorithm::ring, p - 1, (p - 1) * n / p);
        each(Operation::reduce_scatter, Algorithm::recursive_halving, lg, (p - 1) * n / p);
        // All-to-all: pairwise and direct p - 1 blocks of n/p; Bruck lg p messages of n/2 (p/2 blocks each).
        each(Operation::alltoall, Algorithm::pairwise, p - 1, (p - 1) * n / p);
        each(Operation::alltoall, Algorithm::direct, p - 1, (p - 1) * n / p);
        each(Operation::alltoall, Algorithm::bruck, lg, lg * n / 2);
        each(Operation::barrier, Algorithm::dissemination, lg, 0);
        // Rooted: a binomial tree sends p - 1 messages of n in all, the root lg p of them.
        const Sent b = sent(build(Operation::broadcast, Algorithm::binomial, Shape::line(p), Size{n, 1, 0, 1}));
        std::uint64_t total = 0;
        for (const auto x : b.messages) total += x;
        CHECK(total == p - 1);
        CHECK(b.messages[1] == lg);
        CHECK(b.bytes[1] == lg * n);
        // The double binary tree: each tree moves half the vector up and down its p - 1 edges.
        const Sent t = sent(build(Operation::allreduce, Algorithm::double_binary_tree, Shape::line(p), Size{n, 4}));
        std::uint64_t tree_messages = 0, tree_bytes = 0;
        for (std::uint32_t r = 0; r < p; ++r) {
            tree_messages += t.messages[r];
            tree_bytes += t.bytes[r];
        }
        CHECK(tree_messages == 2 * 2 * (p - 1) * 4);
        CHECK(tree_bytes == 2 * (p - 1) * n);
    }
    // A chain of 5 in 8 pieces: 4 links, 8 messages each; a reduction of 3 cycles a byte adds one compute node each.
    const Sent c = sent(build(Operation::reduce, Algorithm::chain, Shape::line(5), Size{800, 8, 3.0, 2}));
    std::uint64_t total = 0;
    for (const auto x : c.messages) total += x;
    CHECK(total == 4 * 8);
    CHECK(c.computes == 4 * 8);
}

TEST_CASE("the catalogue refuses what it lacks, by name") {
    CHECK_THROWS_WITH_AS(build(Operation::alltoall, Algorithm::ring, Shape::line(4), Size{64}),
                         "fabric: alltoall has no algorithm 'ring'; it has bruck, pairwise, direct",
                         fabric::config_error);
    CHECK_THROWS_AS(build(Operation::allreduce, Algorithm::multiported, Shape{{4, 4}, {}, 2}, Size{64}),
                    fabric::config_error);
    CHECK_THROWS_AS(build(Operation::broadcast, Algorithm::binomial, Shape::line(4), Size{64, 1, 0, 4}),
                    fabric::config_error);
}

}  // namespace unit_laws
