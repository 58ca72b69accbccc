// Alpha-beta(-gamma) costs beside every algorithm: a message of b bytes takes
// alpha + b beta, a reduction of b bytes b gamma (Hockney's model, as Thakur,
// Rabenseifner and Gropp 2005 and Chan et al. 2007 state it in their sections on
// the cost model). n is nccl-tests' size (collective/operation.hpp), p the ranks,
// lg p = log2 p. The source of each formula is named by the paper and its section
// on the operation.
//
//   allreduce   ring                 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma     Chan et al.: bucket
//                                                                                       reduce-scatter + allgather
//               recursive doubling   lg p (alpha + n beta + n gamma)                      Thakur et al., allreduce
//               Rabenseifner         2 lg p alpha + 2(p-1)/p n beta + (p-1)/p n gamma     Thakur et al., allreduce
//               double binary tree   (2 floor(lg p) + 2(k-1)) (alpha + n/k beta), k pieces: an estimate after
//                                    Sanders, Speck and Träff 2009 (an inner node moves 2n in all)
//   allgather   ring                 (p-1) alpha + (p-1)/p n beta                          Thakur et al., allgather
//               recursive doubling   lg p alpha + (p-1)/p n beta                           Thakur et al., allgather
//               Bruck                ceil(lg p) alpha + (p-1)/p n beta                     Thakur et al., allgather
//   reduce-     ring                 (p-1) alpha + (p-1)/p n (beta + gamma)                Chan et al.: bucket
//   scatter     recursive halving    lg p alpha + (p-1)/p n (beta + gamma)                 Thakur et al., reduce-scatter
//   broadcast   binomial             ceil(lg p) (alpha + n beta)                           Thakur et al., broadcast
//               scatter + allgather  (lg p + p - 1) alpha + 2(p-1)/p n beta                Thakur et al., broadcast
//                                                                                       (van de Geijn's)
//               chain, k pieces      (p-1)(alpha + n/k beta) + (k-1) n/k beta              the pipeline: pieces leave
//                                                                                       back to back (k = 1: the
//                                                                                       textbook (p-1)(alpha + n beta))
//   reduce      binomial             ceil(lg p) (alpha + n beta + n gamma)                 Thakur et al., reduce
//               scatter + gather     2 lg p alpha + 2(p-1)/p n beta + (p-1)/p n gamma      Thakur et al., reduce
//                                                                                       (Rabenseifner's)
//               chain, k pieces      (p-1)(alpha + n/k (beta + gamma)) + (k-1) n/k max(beta, gamma)
//                                                                                       (a rank's one CPU reduces
//                                                                                       the pieces one at a time)
//   alltoall    pairwise             (p-1) alpha + (p-1)/p n beta                          Thakur et al., all-to-all
//               direct               alpha + (p-1)/p n beta (one round; the queue sends them back to back)
//               Bruck                ceil(lg p) alpha + lg p n/2 beta                      Thakur et al., all-to-all
//   barrier     dissemination        ceil(lg p) alpha                                      Thakur et al., barrier;
//                                                                                       Hensgen, Finkel, Manber 1988
//
// Where p is not a power of two, the folded algorithms (collective/recursive.hpp)
// add their first and last rounds (alpha + n beta + n gamma in, alpha + n beta out,
// less for an allgather's and reduce-scatter's blocks) to the cost of the q =
// 2^floor(lg p) that remain, as the textbook does: an upper bound, since the ranks
// the fold leaves alone start at once and a run can beat it (and a Rabenseifner's
// halving rounds then carry unequal shares). The composed forms add their phases:
// along dimension d of extent k_d, the data still shared entering it is n_d = n /
// (k_0 ... k_(d-1)) (Chan et al., on multidimensional meshes); a multi-ported
// form runs 2d lanes of n / 2d each side by side and costs one lane's.
//
// The time the model gives is exact for a run without contention where each
// round's critical path is one message of that round, its partners all at one
// distance (or alpha given per round), and sizes whole flits: the tests fit alpha
// and beta from two single-message runs and check the simulated time to the
// cycle. A message's bytes count at least `floor_bytes` (a network sends a flit at
// least), which is what a barrier's empty messages cost.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include <fabric/collective/algorithms.hpp>

namespace fabric::collective {

/// The network's side of the model; gamma, the reduction's cycles a byte, is the
/// collective's own (Size::reduce_per_byte), as its graph's compute nodes have it.
struct AlphaBeta {
    double alpha = 0;        // cycles a message takes before its first byte (its zero-load latency, empty)
    double beta = 0;         // cycles a byte (1 / bytes a cycle of the link)
    double floor_bytes = 0;  // the least a message costs, in bytes (a flit)
    /// Per round of a flat algorithm, its alpha (partners at different distances); empty: alpha throughout.
    std::vector<double> round_alpha{};

    [[nodiscard]] double alpha_of(std::uint32_t round) const {
        return round < round_alpha.size() ? round_alpha[round] : alpha;
    }
    /// The alphas of rounds [first, first + count).
    [[nodiscard]] double alphas(std::uint32_t first, std::uint32_t count) const {
        double a = 0;
        for (std::uint32_t k = first; k < first + count; ++k) a += alpha_of(k);
        return a;
    }
    [[nodiscard]] double message(double bytes) const { return beta * std::max(bytes, floor_bytes); }
};

namespace detail {

/// The power-of-two rounds of a folded algorithm.
inline std::uint32_t fold_rounds(std::uint32_t p) { return floor_log2(p); }

/// A flat algorithm's cost on p ranks, n bytes, reductions of G cycles a byte, the rounds counted from `first`.
inline double flat_cost(Operation op, Algorithm a, std::uint32_t p, double n, const AlphaBeta& m, double G,
                        std::uint32_t first = 0) {
    using enum Algorithm;
    if (p <= 1) return 0;
    const double P = p, lg = floor_log2(p), clg = ceil_log2(p);
    const Fold fold(p);
    const double q = fold.q;
    const bool folded = fold.folds();
    const double B = m.beta;
    switch (a) {
    case ring:
        if (op == Operation::allreduce)
            return m.alphas(first, 2 * (p - 1)) + 2 * (P - 1) / P * n * B + (P - 1) / P * n * G;
        return m.alphas(first, p - 1) + (P - 1) / P * n * (B + (op == Operation::reduce_scatter ? G : 0));
    case recursive_doubling:
        if (op == Operation::allreduce)  // the fold's rounds: in, alpha + n (beta + gamma); out, alpha + n beta
            return (folded ? m.alpha_of(first) + n * (B + G) + m.alpha_of(first + 1 + fold_rounds(p)) + n * B : 0) +
                   m.alphas(first + folded, fold_rounds(p)) + lg * n * (B + G);
        return (folded ? m.alpha_of(first) + n / P * B + m.alpha_of(first + 1 + fold_rounds(p)) + (P - 1) / P * n * B : 0) +
               m.alphas(first + folded, fold_rounds(p)) + (q - 1) / q * n * B;
    case recursive_halving:
        return (folded ? m.alpha_of(first) + n * (B + G) + m.alpha_of(first + 1 + fold_rounds(p)) + n / P * B : 0) +
               m.alphas(first + folded, fold_rounds(p)) + (q - 1) / q * n * (B + G);
    case rabenseifner:
        return (folded ? m.alpha_of(first) + n * (B + G) + m.alpha_of(first + 1 + 2 * fold_rounds(p)) + n * B : 0) +
               m.alphas(first + folded, 2 * fold_rounds(p)) + 2 * (q - 1) / q * n * B + (q - 1) / q * n * G;
    case double_binary_tree: return 0;  // collective_cost: it depends on the pieces
    case bruck:
        if (op == Operation::alltoall) return m.alphas(first, ceil_log2(p)) + clg * n / 2 * B;
        return m.alphas(first, ceil_log2(p)) + (P - 1) / P * n * B;
    case pairwise:
    case direct: return m.alphas(first, a == pairwise ? p - 1 : 1) + (P - 1) / P * n * B;
    case binomial:
        return m.alphas(first, ceil_log2(p)) + clg * n * (B + (op == Operation::reduce ? G : 0));
    case scatter_allgather:
        if (op == Operation::broadcast) return m.alphas(first, ceil_log2(p) + p - 1) + 2 * (P - 1) / P * n * B;
        return flat_cost(Operation::reduce_scatter, recursive_halving, p, n, m, G, first) +
               m.alphas(first + static_cast<std::uint32_t>(clg), ceil_log2(p)) + (P - 1) / P * n * B;
    case chain: return 0;  // collective_cost: it depends on the pieces
    case dissemination: return m.alphas(first, ceil_log2(p)) + clg * m.message(0);
    case dimension_wise:
    case multiported:
    case hierarchical: break;
    }
    return 0;
}

}  // namespace detail

/// The alpha-beta cost, in cycles, of `op` by `a` over `shape` of `size` (see the
/// top of the file); `inner` as collective::build takes it.
inline double cost(Operation op, Algorithm a, const Shape& shape, const Size& size, const AlphaBeta& m,
                   Algorithm inner = Algorithm::ring) {
    using enum Algorithm;
    const double n = static_cast<double>(size.bytes);
    const auto p = static_cast<std::uint32_t>(shape.ranks());
    const double k = size.segments;
    const double G = reducing(op) ? size.reduce_per_byte : 0;
    const double pieces_cost = m.alpha + m.message(n / k) + n / k * G;
    if (a == chain) return p <= 1 ? 0 : (p - 1) * pieces_cost + (k - 1) * std::max(m.message(n / k), n / k * G);
    if (a == double_binary_tree) {
        if (p <= 1) return 0;
        const double h = floor_log2(p);  // up the tree and down: 2 h steps, then the pipeline's k - 1 more each way
        return (2 * h + 2 * (k - 1)) * (m.alpha + m.message(n / k)) + (h + k - 1) * n / k * G;
    }
    if (!composed(a)) return detail::flat_cost(op, a, p, n, m, G);
    // Dimension by dimension: along d, the data the line's ranks still share.
    const bool multi = a == multiported;
    const double share = multi ? n / (2.0 * static_cast<double>(shape.grid.size())) : n;
    std::vector<std::uint32_t> order(shape.grid.size());
    for (std::uint32_t d = 0; d < order.size(); ++d) order[d] = d;
    AlphaBeta one = m;
    one.round_alpha.clear();
    double total = 0, left = share;
    switch (op) {
    case Operation::allreduce:
        if (inner == recursive_doubling) {
            for (const std::uint32_t d : order) total += detail::flat_cost(op, inner, shape.grid[d], share, one, G);
            return total;
        }
        [[fallthrough]];
    case Operation::reduce_scatter:
    case Operation::allgather: {
        const Algorithm rs = inner == ring ? ring : recursive_halving;
        const Algorithm ag = inner == ring ? ring : recursive_doubling;
        for (const std::uint32_t d : order) {
            const std::uint32_t kd = shape.grid[d];
            if (op != Operation::allgather) total += detail::flat_cost(Operation::reduce_scatter, rs, kd, left, one, G);
            if (op != Operation::reduce_scatter) total += detail::flat_cost(Operation::allgather, ag, kd, left, one, G);
            left /= kd;
        }
        return total;
    }
    case Operation::broadcast:
    case Operation::reduce:
        for (const std::uint32_t d : order) {
            Size s = size;
            s.bytes = static_cast<std::uint64_t>(share);
            total += cost(op, inner == ring || inner == chain ? chain : binomial, Shape::line(shape.grid[d]), s, one);
        }
        return total;
    case Operation::barrier:
        for (const std::uint32_t d : order) total += detail::flat_cost(op, dissemination, shape.grid[d], 0, one, 0);
        return total;
    case Operation::alltoall: break;
    }
    return total;
}

}  // namespace fabric::collective
