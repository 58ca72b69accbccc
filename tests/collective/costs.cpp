// Each algorithm's graph, timed in the alpha-beta model with no network
// (collective/timing.hpp), takes exactly the time its formula gives
// (collective/alpha_beta.hpp: Thakur, Rabenseifner and Gropp 2005; Chan et al.
// 2007), wherever the formula is exact: sizes in whole blocks, p a power of two
// for the recursive and tree algorithms. So the graphs are the algorithms the
// formulas are about; the flit-level tests (runs.cpp) then compare a network.
#include <doctest/doctest.h>

#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/timing.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace unit_costs {

using namespace fabric::collective;

// alpha 100 cycles, 16 bytes a cycle, a reduction 2 cycles every 4 bytes: values whose sums are exact in a double.
const AlphaBeta model{100, 1.0 / 16};
const double reduction = 0.5;  // gamma: cycles a byte reduced

double simulated(Operation op, Algorithm a, const Shape& shape, const Size& size, const AlphaBeta& m = model,
                 Algorithm inner = Algorithm::ring) {
    return model_times(build(op, a, shape, size, inner), m).finish();
}

void check(Operation op, Algorithm a, std::uint32_t p, std::uint64_t n, std::uint32_t pieces = 1) {
    const Size size{n, pieces, reducing(op) ? reduction : 0, rooted(op) ? p - 1 : 0};
    const double t = simulated(op, a, Shape::line(p), size);
    const double c = cost(op, a, Shape::line(p), size, model);
    CHECK_MESSAGE(t == c, name(op), " by ", name(a), ", p = ", p, ", n = ", n, ", ", pieces, " pieces: model ", t,
                  ", formula ", c);
}

TEST_CASE("the graphs take their formulas' time in the alpha-beta model, exactly") {
    const std::uint64_t n = 3 * 5 * 7 * 16 * 64;  // whole blocks for every p below
    // Ring allreduce: 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma (Chan et al.), any p.
    for (const std::uint32_t p : {2U, 3U, 5U, 7U, 8U, 16U}) {
        check(Operation::allreduce, Algorithm::ring, p, n);
        check(Operation::allgather, Algorithm::ring, p, n);
        check(Operation::reduce_scatter, Algorithm::ring, p, n);
        // Bruck's allgather: ceil(lg p) alpha + (p-1)/p n beta, any p (the last round sends only what is missing).
        check(Operation::allgather, Algorithm::bruck, p, n);
        check(Operation::alltoall, Algorithm::pairwise, p, n);
        check(Operation::alltoall, Algorithm::direct, p, n);
        check(Operation::barrier, Algorithm::dissemination, p, 0);
        // A pipelined chain: (p-1)(alpha + n/k beta) + (k-1) n/k beta; with a reduction, n/k gamma more a step.
        check(Operation::broadcast, Algorithm::chain, p, n, 1);
        check(Operation::broadcast, Algorithm::chain, p, n, 8);
        check(Operation::reduce, Algorithm::chain, p, n, 8);
    }
    // The recursive and tree algorithms: p a power of two (Thakur et al.).
    for (const std::uint32_t p : {2U, 4U, 8U, 16U}) {
        check(Operation::allreduce, Algorithm::recursive_doubling, p, n);  // lg p (alpha + n beta + n gamma)
        check(Operation::allreduce, Algorithm::rabenseifner, p, n);        // 2 lg p alpha + 2(p-1)/p n beta + ...
        check(Operation::allgather, Algorithm::recursive_doubling, p, n);  // lg p alpha + (p-1)/p n beta
        check(Operation::reduce_scatter, Algorithm::recursive_halving, p, n);
        check(Operation::alltoall, Algorithm::bruck, p, n);                // lg p alpha + lg p n/2 beta
        check(Operation::broadcast, Algorithm::binomial, p, n);            // lg p (alpha + n beta)
        check(Operation::reduce, Algorithm::binomial, p, n);               // lg p (alpha + n beta + n gamma)
        check(Operation::broadcast, Algorithm::scatter_allgather, p, n);   // (lg p + p - 1) alpha + 2(p-1)/p n beta
        check(Operation::reduce, Algorithm::scatter_allgather, p, n);      // 2 lg p alpha + 2(p-1)/p n beta + ...
    }
    // Folded (p not a power of two): the textbook's q = 2^floor(lg p) rounds plus the fold's in and out bound the
    // time from above; the ranks the fold leaves alone start at once. For 3 ranks, worked by hand: rank 1 has rank
    // 0's vector (alpha + n beta + n gamma), reduces rank 2's, which came at once (n gamma), and hands the result to
    // rank 0 (alpha + n beta); rank 2 gets rank 1's in time for the same end.
    for (const std::uint32_t p : {3U, 5U, 6U, 12U}) {
        const Size size{n, 1, reduction};
        CHECK(simulated(Operation::allreduce, Algorithm::recursive_doubling, Shape::line(p), size) <=
              cost(Operation::allreduce, Algorithm::recursive_doubling, Shape::line(p), size, model));
    }
    const double nb = n * model.beta, ng = n * reduction;
    CHECK(simulated(Operation::allreduce, Algorithm::recursive_doubling, Shape::line(3), Size{n, 1, reduction}) ==
          (model.alpha + nb + ng) + ng + (model.alpha + nb));
}

TEST_CASE("alpha given per round: partners at different distances add their own alphas") {
    // Recursive doubling over 8 ranks whose rounds' partners are 2, 4 and 6 hops away (a fat tree's levels).
    AlphaBeta m = model;
    m.round_alpha = {30, 50, 70};
    const Size size{1 << 12, 1, reduction};
    const CollectiveGraph g = build(Operation::allreduce, Algorithm::recursive_doubling, Shape::line(8), size);
    // The model with one alpha can only check one: time each round's alpha by hand, worked as the formula says.
    const double by_hand = (30 + 50 + 70) + 3 * (4096 / 16.0 + 4096 * 0.5);
    CHECK(cost(Operation::allreduce, Algorithm::recursive_doubling, Shape::line(8), size, m) == by_hand);
    // Rabenseifner: its 3 halving rounds at distances 4, 2, 1 and its 3 doubling rounds at 1, 2, 4.
    m.round_alpha = {70, 50, 30, 30, 50, 70};
    const double rab = 2 * (30 + 50 + 70) + 2 * 7 / 8.0 * 4096 / 16 + 7 / 8.0 * 4096 * 0.5;
    CHECK(cost(Operation::allreduce, Algorithm::rabenseifner, Shape::line(8), size, m) == rab);
    CHECK(g.size() == 3 * 8 * 2);  // a message and its reduction, each round and rank
}

TEST_CASE("composed: dimension-wise and multi-ported costs add their phases (Chan et al., meshes)") {
    const std::uint64_t n = 4 * 4 * 4 * 64;
    const Shape torus{{4, 4}, {}, 4};
    // Dimension-wise ring allreduce on 4 x 4: along x, 2(3)(alpha + n/4 beta); along y on n/4, 2(3)(alpha + n/16 beta).
    const Size size{n};
    const double want = 6 * model.alpha + 6 * (n / 4.0) * model.beta + 6 * model.alpha + 6 * (n / 16.0) * model.beta;
    CHECK(cost(Operation::allreduce, Algorithm::dimension_wise, torus, size, model) == want);
    CHECK(simulated(Operation::allreduce, Algorithm::dimension_wise, torus, size) == want);
    // Multi-ported: four lanes of n/4 side by side, one rail each: a quarter of the bandwidth term.
    const double multi = 12 * model.alpha + 6 * (n / 16.0) * model.beta + 6 * (n / 64.0) * model.beta;
    CHECK(cost(Operation::allreduce, Algorithm::multiported, torus, size, model) == multi);
    CHECK(simulated(Operation::allreduce, Algorithm::multiported, torus, size) == multi);
    // Hierarchical over 4 ranks a group and 3 groups: the same sum over (4, 3).
    const Shape groups{{4, 3}, {}, 1};
    CHECK(simulated(Operation::allreduce, Algorithm::hierarchical, groups, Size{4 * 3 * 64}) ==
          cost(Operation::allreduce, Algorithm::hierarchical, groups, Size{4 * 3 * 64}, model));
    CHECK(simulated(Operation::barrier, Algorithm::dimension_wise, torus, Size{}) ==
          cost(Operation::barrier, Algorithm::dimension_wise, torus, Size{}, model));
}

TEST_CASE("the critical path of a ring allreduce runs round the ring, one message a round") {
    const CollectiveGraph g = build(Operation::allreduce, Algorithm::ring, Shape::line(4), Size{4 * 64});
    const ModelTimes t = model_times(g, model);
    const auto path = critical_path(g, t);
    CHECK(path.size() == 2 * 3);
    for (std::size_t k = 0; k + 1 < path.size(); ++k) CHECK(g.node(path[k]).peer == g.node(path[k + 1]).rank);
    CHECK(t.done[path.back()] == t.finish());
}

}  // namespace unit_costs
