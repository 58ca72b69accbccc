// The catalogue: each algorithm of each operation as lanes of phases of kernels
// (collective/phases.hpp), built into its workload graph (collective/graph.hpp).
//
// Flat algorithms see the ranks as one line, whatever the network. The composed
// ones see them as a grid:
// - dimension-wise (Chan et al. 2007, multidimensional meshes; Sack and Gropp
//   2012): one algorithm along each dimension in turn, every line at once. An
//   allreduce is a reduce-scatter along each dimension (each shrinking the blocks
//   the line's ranks still share) and then an allgather along each in reverse; an
//   allgather the latter half, a reduce-scatter the former; a broadcast reaches one
//   line, then every line through it along the next dimension, and a reduce is
//   the broadcast reversed; a barrier disseminates along each dimension.
// - multi-ported (Sack and Gropp): the data cut into 2d shares, one per direction
//   of each dimension of a torus, each share dimension-wise on its own rail, its
//   dimensions in turn from its own (d, d + 1, ...) and its rings all run its
//   way, so that at every phase the 2d shares use 2d different directions of every
//   router: 2d times the single-ported bandwidth where links are the limit.
// - hierarchical: dimension-wise over (ranks of a group) x (groups), the grid a
//   dragonfly's groups or PERCS's supernodes make: within each group, then across
//   the groups among the ranks of the same place in theirs, then within again. A
//   broadcast goes across first (from the root's place), then within every group;
//   a reduce within and then across.
// Which inner algorithm runs along each dimension is the `inner` argument (Ring
// by default; for a broadcast or reduce a ring is a chain, for a barrier every
// inner algorithm disseminates).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fabric/collective/graph.hpp>
#include <fabric/core/error.hpp>

namespace fabric::collective {

enum class Algorithm : std::uint8_t {
    ring, recursive_doubling, recursive_halving, rabenseifner, double_binary_tree, bruck, pairwise, direct,
    binomial, scatter_allgather, chain, dissemination, dimension_wise, multiported, hierarchical
};

inline constexpr std::array<Algorithm, 15> algorithms{
    Algorithm::ring, Algorithm::recursive_doubling, Algorithm::recursive_halving, Algorithm::rabenseifner,
    Algorithm::double_binary_tree, Algorithm::bruck, Algorithm::pairwise, Algorithm::direct, Algorithm::binomial,
    Algorithm::scatter_allgather, Algorithm::chain, Algorithm::dissemination, Algorithm::dimension_wise,
    Algorithm::multiported, Algorithm::hierarchical};

[[nodiscard]] constexpr std::string_view name(Algorithm a) {
    constexpr std::array<std::string_view, 15> names{
        "ring", "recursive-doubling", "recursive-halving", "rabenseifner", "double-binary-tree", "bruck", "pairwise",
        "direct", "binomial", "scatter-allgather", "chain", "dissemination", "dimension-wise", "multiported",
        "hierarchical"};
    return names[static_cast<std::size_t>(a)];
}

/// Whether the composed forms lay the ranks out by the topology's dimensions or groups.
[[nodiscard]] constexpr bool composed(Algorithm a) {
    return a == Algorithm::dimension_wise || a == Algorithm::multiported || a == Algorithm::hierarchical;
}

/// The catalogue: which algorithms each operation has.
[[nodiscard]] constexpr bool supports(Operation op, Algorithm a) {
    using enum Algorithm;
    switch (op) {
    case Operation::allreduce:
        return a == ring || a == recursive_doubling || a == rabenseifner || a == double_binary_tree || composed(a);
    case Operation::allgather:
        return a == ring || a == recursive_doubling || a == bruck || composed(a);
    case Operation::reduce_scatter:
        return a == ring || a == recursive_halving || composed(a);
    case Operation::broadcast:
    case Operation::reduce:
        return a == binomial || a == scatter_allgather || a == chain || a == dimension_wise || a == hierarchical;
    case Operation::alltoall: return a == pairwise || a == bruck || a == direct;
    case Operation::barrier: return a == dissemination || a == dimension_wise || a == hierarchical;
    }
    return false;
}

/// The algorithms `op` has, named and separated by ", " (for refusals and help).
inline std::string supported_names(Operation op) {
    std::string out;
    for (const Algorithm a : algorithms)
        if (supports(op, a)) out += (out.empty() ? "" : ", ") + std::string(name(a));
    return out;
}

/// How the ranks lie for a composed algorithm: a grid of extents (dimension 0
/// fastest; their product is the rank count), grid point i being rank rank_at[i]
/// (empty: rank i), and the rails each rank has (the multi-ported form takes 2 a dimension).
struct Shape {
    std::vector<std::uint32_t> grid;
    std::vector<std::uint32_t> rank_at;
    std::uint32_t rails = 1;

    /// p ranks in a line (what a flat algorithm sees).
    static Shape line(std::uint32_t p) { return Shape{{p}, {}, 1}; }
    [[nodiscard]] std::uint64_t ranks() const {
        std::uint64_t n = 1;
        for (const std::uint32_t k : grid) n *= k;
        return n;
    }
};

namespace detail {

/// Roles of the grid's dimensions for a phase along order[i] (see phases.hpp): the
/// dimensions before it in `order` fixed (`earlier_fixed`) or free, those after the other way.
inline std::vector<BlockRole> roles(const std::vector<std::uint32_t>& order, std::size_t i, bool earlier_fixed,
                                    std::size_t dims) {
    std::vector<BlockRole> r(dims, BlockRole::free);
    for (std::size_t k = 0; k < order.size(); ++k)
        if (k != i) r[order[k]] = (k < i) == earlier_fixed ? BlockRole::fixed : BlockRole::free;
    r[order[i]] = BlockRole::inner;
    return r;
}

inline Phase along(Kernel k, std::uint32_t d, std::vector<BlockRole> r = {}, std::vector<std::int64_t> pins = {}) {
    return Phase{std::move(k), d, std::move(pins), std::move(r)};
}

/// The phases of one dimension-wise lane: dimensions in `order`, rings run `dir`.
inline std::vector<Phase> dimension_wise(Operation op, Algorithm inner, const Grid& g,
                                         const std::vector<std::uint32_t>& order, std::uint32_t root, int dir) {
    using enum Algorithm;
    const std::size_t dims = g.dimensions();
    std::vector<Phase> out;
    const std::uint32_t root_point = g.point_of(root);
    auto rs = [&](std::uint32_t k) -> Kernel {
        if (inner == ring) return RingReduceScatter(k, dir);
        return RecursiveExchange(RecursiveExchange::Mode::reduce_scatter, k);
    };
    auto ag = [&](std::uint32_t k) -> Kernel {
        if (inner == ring) return RingAllgather(k, dir);
        return RecursiveExchange(RecursiveExchange::Mode::allgather, k);
    };
    switch (op) {
    case Operation::allreduce:
        if (inner == recursive_doubling) {  // the whole vector along each dimension
            for (std::size_t i = 0; i < order.size(); ++i)
                out.push_back(along(RecursiveExchange(RecursiveExchange::Mode::allreduce, g.extent(order[i])),
                                    order[i], std::vector<BlockRole>(dims, BlockRole::free)));
            return out;
        }
        [[fallthrough]];
    case Operation::reduce_scatter:
        for (std::size_t i = 0; i < order.size(); ++i)
            out.push_back(along(rs(g.extent(order[i])), order[i], roles(order, i, true, dims)));
        if (op == Operation::reduce_scatter) return out;
        [[fallthrough]];
    case Operation::allgather:
        for (std::size_t i = order.size(); i-- > 0;)
            out.push_back(along(ag(g.extent(order[i])), order[i], roles(order, i, true, dims)));
        return out;
    case Operation::broadcast:
    case Operation::reduce: {
        // A broadcast along order[0] on the root's line, then along order[1] on every line
        // through the ranks reached, ...; a reduce the same reversed.
        const bool down = op == Operation::broadcast;
        for (std::size_t n = 0; n < order.size(); ++n) {
            const std::size_t i = down ? n : order.size() - 1 - n;
            const std::uint32_t d = order[i];
            std::vector<std::int64_t> pins(dims, -1);
            for (std::size_t k = i + 1; k < order.size(); ++k) pins[order[k]] = g.coordinate(root_point, order[k]);
            const std::uint32_t at = g.coordinate(root_point, d);
            Kernel k = inner == ring || inner == chain
                           ? Kernel(ChainPipeline(g.extent(d), at, !down))
                           : Kernel(BinomialTree(down ? BinomialTree::Kind::broadcast : BinomialTree::Kind::reduce, g.extent(d), at));
            out.push_back(along(std::move(k), d, {}, std::move(pins)));
        }
        return out;
    }
    case Operation::barrier:
        for (std::size_t i = 0; i < order.size(); ++i)
            out.push_back(along(Circulant(g.extent(order[i]), dir), order[i], roles(order, i, false, dims)));
        return out;
    case Operation::alltoall: break;
    }
    fabric::detail::throw_config_error({fabric::detail::message_part("the all-to-all has no dimension-wise form here "
                                                                     "(its algorithms: "),
                                        fabric::detail::message_part(supported_names(Operation::alltoall)),
                                        fabric::detail::message_part(")")});
}

}  // namespace detail

/// The workload graph of `op` by `a` over the ranks of `shape`, of `size`. `inner`:
/// the algorithm along each dimension of a composed one (ring, recursive-doubling,
/// rabenseifner, binomial, chain; see the top of the file). Refused with a
/// fabric: config_error where the catalogue lacks the pair or the shape does not fit.
inline CollectiveGraph build(Operation op, Algorithm a, const Shape& shape, const Size& size,
                             Algorithm inner = Algorithm::ring) {
    using enum Algorithm;
    fabric::detail::require(supports(op, a), name(op), " has no algorithm '", name(a), "'; it has ",
                            supported_names(op));
    fabric::detail::require(!shape.grid.empty(), "a collective needs its ranks' shape (at least one dimension)");
    const auto grid = std::make_shared<const Grid>(composed(a) ? shape.grid : std::vector{
                                                                    static_cast<std::uint32_t>(shape.ranks())},
                                                   composed(a) ? shape.rank_at : std::vector<std::uint32_t>{});
    const std::uint32_t p = grid->points();
    Size s = size;
    if (op == Operation::barrier) s.bytes = 0;
    if (!rooted(op)) s.root = 0;
    fabric::detail::require(s.root < p, "the root ", s.root, " is past the ", p, " ranks (0 to ", p - 1, ")");
    auto lane = [](std::vector<Phase> phases, std::uint64_t blocks, std::uint64_t first = 0, std::uint32_t rail = 0) {
        return Lane{std::move(phases), rail, first, blocks};
    };
    auto one = [&](std::vector<Phase> phases, std::uint64_t blocks, std::uint64_t rows = 1) {
        std::vector<Lane> lanes;
        lanes.push_back(lane(std::move(phases), blocks));
        return CollectiveGraph(op, grid, std::move(lanes), s, rows);
    };
    using Mode = RecursiveExchange::Mode;
    const std::uint32_t root = s.root;
    switch (a) {
    case ring:
        if (op == Operation::allreduce) return one({detail::along(RingReduceScatter(p), 0), detail::along(RingAllgather(p), 0)}, p);
        return one({detail::along(op == Operation::allgather ? Kernel(RingAllgather(p)) : Kernel(RingReduceScatter(p)), 0)}, p);
    case recursive_doubling:
        if (op == Operation::allreduce) return one({detail::along(RecursiveExchange(Mode::allreduce, p), 0)}, 1);
        return one({detail::along(RecursiveExchange(Mode::allgather, p), 0)}, p);
    case recursive_halving: return one({detail::along(RecursiveExchange(Mode::reduce_scatter, p), 0)}, p);
    case rabenseifner:
        return one({detail::along(RecursiveExchange(Mode::reduce_scatter, p, true, false), 0),
                    detail::along(RecursiveExchange(Mode::allgather, p, false, true, true), 0)},
                   p);
    case double_binary_tree: {
        std::vector<Lane> lanes;
        for (std::uint64_t t = 0; t < 2; ++t) {
            const auto layout = t == 0 ? InOrderTree::Layout::plain : InOrderTree::second(p);
            lanes.push_back(lane({detail::along(InOrderTree(p, layout, true), 0),
                                  detail::along(InOrderTree(p, layout, false), 0)},
                                 1, t));
        }
        return CollectiveGraph(op, grid, std::move(lanes), s);
    }
    case bruck:
        if (op == Operation::alltoall) return one({detail::along(BruckAlltoall(p), 0)}, std::uint64_t{p} * p, p);
        return one({detail::along(Circulant(p, -1), 0)}, p);
    case pairwise: return one({detail::along(PairwiseAlltoall(p), 0)}, std::uint64_t{p} * p, p);
    case direct: return one({detail::along(DirectAlltoall(p), 0)}, std::uint64_t{p} * p, p);
    case binomial:
        return one({detail::along(BinomialTree(op == Operation::broadcast ? BinomialTree::Kind::broadcast : BinomialTree::Kind::reduce,
                                           p, root),
                                  0)},
                   1);
    case scatter_allgather:
        // Broadcast: van de Geijn's binomial scatter, then a ring allgather (Thakur et al., on broadcast).
        // Reduce: Rabenseifner's, a reduce-scatter by recursive halving, then a binomial gather (Thakur et al., on reduce).
        if (op == Operation::broadcast)
            return one({detail::along(BinomialTree(BinomialTree::Kind::scatter, p, root), 0), detail::along(RingAllgather(p), 0)}, p);
        return one({detail::along(RecursiveExchange(Mode::reduce_scatter, p), 0),
                    detail::along(BinomialTree(BinomialTree::Kind::gather, p, root), 0)},
                   p);
    case chain: return one({detail::along(ChainPipeline(p, root, op == Operation::reduce), 0)}, 1);
    case dissemination: return one({detail::along(Circulant(p, +1), 0), }, p);
    case dimension_wise:
    case hierarchical: {
        std::vector<std::uint32_t> order(grid->dimensions());
        for (std::uint32_t d = 0; d < order.size(); ++d) order[d] = d;
        // Hierarchical broadcast: across the groups first (the grid's last dimension), then within.
        if (a == hierarchical && op == Operation::broadcast) std::reverse(order.begin(), order.end());
        const bool whole = op == Operation::broadcast || op == Operation::reduce ||
                           (op == Operation::allreduce && inner == recursive_doubling);
        return one(detail::dimension_wise(op, inner, *grid, order, root, +1),
                   whole && op != Operation::allreduce ? 1 : p);
    }
    case multiported: {
        const auto dims = static_cast<std::uint32_t>(grid->dimensions());
        fabric::detail::require(shape.rails >= 2 * dims, "the multi-ported form sends in both directions of each of "
                                "the ", dims, " dimensions at once: it needs ranks of ", 2 * dims, " rails (all the "
                                "terminals of a router concentrated ", 2 * dims, " to a router); the ranks have ",
                                shape.rails);
        fabric::detail::require(inner == ring, "the multi-ported form runs rings (its inner algorithm is ring); got ",
                                name(inner));
        std::vector<Lane> lanes;
        for (std::uint32_t d = 0; d < dims; ++d)
            for (const int dir : {+1, -1}) {
                std::vector<std::uint32_t> order;
                for (std::uint32_t k = 0; k < dims; ++k) order.push_back((d + k) % dims);
                const auto n = static_cast<std::uint32_t>(lanes.size());
                lanes.push_back(lane(detail::dimension_wise(op, inner, *grid, order, root, dir), p,
                                     std::uint64_t{n} * p, 2 * d + (dir < 0 ? 1 : 0)));
            }
        return CollectiveGraph(op, grid, std::move(lanes), s);
    }
    }
    fabric::detail::throw_config_error({fabric::detail::message_part("unknown collective algorithm")});
}

}  // namespace fabric::collective
