// Where a collective's kernels run: on a grid of ranks, in phases, in lanes.
//
// The ranks are laid out as a grid (a torus's extents; a dragonfly's ranks per
// group by groups; one dimension of p for an algorithm that knows no topology). A
// phase runs one kernel (collective/kernel.hpp) on every line of one dimension of
// the grid at once, the line's ranks its participants in coordinate order, or only
// on the lines whose coordinates in some dimensions are pinned (a broadcast that
// has so far reached one line). Its blocks are either the lane's own (a broadcast's
// vector, a flat algorithm's blocks: local block j is block j) or grid blocks, one
// per rank, seen through roles per dimension: the kernel's dimension (the block's
// coordinate there is the local block's index), fixed (the line's own coordinate)
// or free (every coordinate). So a dimension-wise reduce-scatter phase along d,
// after the dimensions before it, has those fixed and the ones after it free: each
// line scatters the blocks its ranks still share (Chan et al. 2007, section on
// multidimensional meshes). A lane is phases one after another; lanes run side by
// side, each on a rail of its own and a share of the data (the multi-ported forms;
// the two trees of the double binary tree).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include <fabric/collective/exchange.hpp>
#include <fabric/collective/kernel.hpp>
#include <fabric/collective/recursive.hpp>
#include <fabric/collective/ring.hpp>
#include <fabric/collective/trees.hpp>
#include <fabric/core/error.hpp>

namespace fabric::collective {

/// Every kernel a phase can run.
using Kernel = std::variant<RingReduceScatter, RingAllgather, ChainPipeline, RecursiveExchange, Circulant, BruckAlltoall,
                            PairwiseAlltoall, DirectAlltoall, BinomialTree, InOrderTree, LineAllgather>;

/// The ranks as a grid: extents, dimension 0 fastest; grid point i is rank i unless
/// a permutation is given (rank_at[i], for ranks placed out of the grid's order).
class Grid {
public:
    Grid() = default;
    explicit Grid(std::vector<std::uint32_t> extents, std::vector<std::uint32_t> rank_at = {})
        : extents_(std::move(extents)), rank_at_(std::move(rank_at)) {
        std::uint64_t n = 1;
        for (const std::uint32_t k : extents_) {
            fabric::detail::require(k >= 1, "a collective's grid of ranks needs extents of at least 1");
            strides_.push_back(static_cast<std::uint32_t>(n));
            n *= k;
        }
        fabric::detail::require(n >= 1 && n < (std::uint64_t{1} << 32), "a collective over ", n,
                                " ranks: give between 1 and 2^32 - 1");
        points_ = static_cast<std::uint32_t>(n);
        if (!rank_at_.empty()) {
            fabric::detail::require(rank_at_.size() == points_, "a grid of ", points_, " points places ",
                                    rank_at_.size(), " ranks");
            index_of_.assign(points_, points_);
            for (std::uint32_t i = 0; i < points_; ++i) {
                const std::uint32_t r = rank_at_[i];
                fabric::detail::require(r < points_ && index_of_[r] == points_, "a grid of ranks must hold each of "
                                        "the ", points_, " ranks once; rank ", r, " is out of range or twice");
                index_of_[r] = i;
            }
        }
    }
    [[nodiscard]] std::size_t dimensions() const { return extents_.size(); }
    [[nodiscard]] std::uint32_t extent(std::size_t d) const { return extents_[d]; }
    [[nodiscard]] const std::vector<std::uint32_t>& extents() const { return extents_; }
    [[nodiscard]] std::uint32_t stride(std::size_t d) const { return strides_[d]; }
    [[nodiscard]] std::uint32_t points() const { return points_; }
    [[nodiscard]] std::uint32_t coordinate(std::uint32_t point, std::size_t d) const {
        return point / strides_[d] % extents_[d];
    }
    [[nodiscard]] std::uint32_t rank_at(std::uint32_t point) const { return rank_at_.empty() ? point : rank_at_[point]; }
    [[nodiscard]] std::uint32_t point_of(std::uint32_t rank) const { return index_of_.empty() ? rank : index_of_[rank]; }

private:
    std::vector<std::uint32_t> extents_, strides_;
    std::vector<std::uint32_t> rank_at_, index_of_;
    std::uint32_t points_ = 1;
};

/// How a grid block relates to a phase's line, per dimension (see the top of the file).
enum class BlockRole : std::uint8_t { inner, fixed, free };

/// A kernel placed on the lines of one dimension of the grid.
struct Phase {
    Kernel kernel;
    std::uint32_t dimension = 0;
    std::vector<std::int64_t> pinned;  // per dimension: -1, every coordinate; else only lines at this one (empty: none)
    std::vector<BlockRole> roles;      // per dimension (empty: the kernel's blocks are the lane's own)

    [[nodiscard]] std::uint32_t rounds() const {
        return std::visit([](const auto& k) { return static_cast<std::uint32_t>(k.rounds()); }, kernel);
    }
};

/// Phases one after another on one rail and a share of the collective's blocks.
struct Lane {
    std::vector<Phase> phases;
    std::uint32_t rail = 0;
    std::uint64_t first_block = 0;  // the lane's blocks are first_block .. first_block + blocks - 1
    std::uint64_t blocks = 0;
};

/// A phase on a grid, answered in ranks and in the phase's own message numbering
/// (line g's message i of round t is message g * kernel.messages(t) + i).
class PlacedPhase {
public:
    PlacedPhase(std::shared_ptr<const Grid> on, Phase phase) : grid_(std::move(on)), phase_(std::move(phase)) {
        const Grid& grid = *grid_;
        const std::size_t dims = grid.dimensions();
        fabric::detail::require(phase_.dimension < dims, "a collective phase runs along dimension ", phase_.dimension,
                                " of a grid of ", dims);
        fabric::detail::require(phase_.pinned.empty() || phase_.pinned.size() == dims,
                                "a collective phase pins every dimension or none");
        fabric::detail::require(phase_.roles.empty() || phase_.roles.size() == dims,
                                "a collective phase gives every dimension's block role or none");
        for (std::size_t d = 0; d < dims; ++d) {
            if (d != phase_.dimension && !pinned(d)) groups_ *= grid.extent(d);
            if (!phase_.roles.empty() && phase_.roles[d] == BlockRole::free) {
                free_.push_back(static_cast<std::uint32_t>(d));
                free_count_ *= grid.extent(d);
            }
        }
        const std::uint32_t m =
            std::visit([](const auto& k) { return static_cast<std::uint32_t>(k.participants()); }, phase_.kernel);
        fabric::detail::require(m == grid.extent(phase_.dimension), "a collective phase's kernel has ", m,
                                " participants on lines of ", grid.extent(phase_.dimension));
    }

    [[nodiscard]] const Kernel& kernel() const { return phase_.kernel; }
    [[nodiscard]] const Phase& phase() const { return phase_; }
    [[nodiscard]] std::uint32_t rounds() const { return phase_.rounds(); }
    [[nodiscard]] std::uint64_t groups() const { return groups_; }
    [[nodiscard]] std::uint64_t messages(std::uint32_t t) const {
        return groups_ * std::visit([&](const auto& k) { return static_cast<std::uint64_t>(k.messages(t)); }, kernel());
    }
    [[nodiscard]] bool reduces(std::uint32_t t) const {
        return std::visit([&](const auto& k) { return static_cast<bool>(k.reduces(t)); }, kernel());
    }
    /// Ranks of message i of round t.
    [[nodiscard]] Step step(std::uint32_t t, std::uint64_t i) const {
        const std::uint64_t per = per_line(t);
        const Step s = std::visit([&](const auto& k) { return k.step(t, i % per); }, kernel());
        const std::uint64_t g = i / per;
        return {rank_of(g, s.from), rank_of(g, s.to)};
    }
    /// The rail (of its sender's, beyond the lane's) message i of round t goes by.
    [[nodiscard]] std::uint32_t rail(std::uint32_t t, std::uint64_t i) const {
        const std::uint64_t per = per_line(t);
        return std::visit([&](const auto& k) { return rail_of(k, t, i % per); }, kernel());
    }
    /// The lane's blocks message i of round t carries (as block numbers of the lane).
    template <class F>
    void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        const std::uint64_t per = per_line(t);
        const std::uint64_t g = i / per;
        std::visit([&](const auto& k) { k.for_each_block(t, i % per, [&](std::uint64_t j) { grid_blocks(g, j, f); }); },
                   kernel());
    }
    template <class F>
    void for_each_send(std::uint32_t t, std::uint32_t rank, F&& f) const {
        each(rank, t, f, [](const auto& k, std::uint32_t u, std::uint32_t c, auto&& g) { k.for_each_send(u, c, g); });
    }
    template <class F>
    void for_each_receive(std::uint32_t t, std::uint32_t rank, F&& f) const {
        each(rank, t, f, [](const auto& k, std::uint32_t u, std::uint32_t c, auto&& g) { k.for_each_receive(u, c, g); });
    }
    /// The rounds `rank` sends (receives) in; empty where it is on no line of the phase.
    [[nodiscard]] RoundSet send_rounds(std::uint32_t rank) const {
        const std::uint32_t c = locate(rank).participant;
        if (c == no_participant) return {};
        return std::visit([&](const auto& k) { return k.send_rounds(c); }, kernel());
    }
    [[nodiscard]] RoundSet receive_rounds(std::uint32_t rank) const {
        const std::uint32_t c = locate(rank).participant;
        if (c == no_participant) return {};
        return std::visit([&](const auto& k) { return k.receive_rounds(c); }, kernel());
    }

private:
    struct Where {
        std::uint64_t group;
        std::uint32_t participant;  // no_participant: on no line of this phase
    };

    [[nodiscard]] bool pinned(std::size_t d) const { return !phase_.pinned.empty() && phase_.pinned[d] >= 0; }
    [[nodiscard]] std::uint64_t per_line(std::uint32_t t) const {
        return std::visit([&](const auto& k) { return static_cast<std::uint64_t>(k.messages(t)); }, kernel());
    }
    /// The grid point of participant c of line g.
    [[nodiscard]] std::uint32_t point(std::uint64_t g, std::uint32_t c) const {
        std::uint64_t at = 0;
        for (std::size_t d = 0; d < grid_->dimensions(); ++d) {
            std::uint64_t x = 0;
            if (d == phase_.dimension) x = c;
            else if (pinned(d)) x = static_cast<std::uint64_t>(phase_.pinned[d]);
            else {
                x = g % grid_->extent(d);
                g /= grid_->extent(d);
            }
            at += x * grid_->stride(d);
        }
        return static_cast<std::uint32_t>(at);
    }
    [[nodiscard]] std::uint32_t rank_of(std::uint64_t g, std::uint32_t c) const { return grid_->rank_at(point(g, c)); }
    [[nodiscard]] Where locate(std::uint32_t rank) const {
        const std::uint32_t p = grid_->point_of(rank);
        std::uint64_t g = 0, scale = 1;
        for (std::size_t d = 0; d < grid_->dimensions(); ++d) {
            const std::uint32_t x = grid_->coordinate(p, d);
            if (d == phase_.dimension) continue;
            if (pinned(d)) {
                if (x != static_cast<std::uint64_t>(phase_.pinned[d])) return {0, no_participant};
                continue;
            }
            g += x * scale;
            scale *= grid_->extent(d);
        }
        return {g, grid_->coordinate(p, phase_.dimension)};
    }
    template <class F, class Call>
    void each(std::uint32_t rank, std::uint32_t t, F& f, Call call) const {
        const Where at = locate(rank);
        const std::uint32_t c = at.participant;
        const std::uint64_t g = at.group;
        if (c == no_participant) return;
        const std::uint64_t per = per_line(t);
        std::visit([&](const auto& k) { call(k, t, c, [&](std::uint64_t i) { f(g * per + i); }); }, kernel());
    }
    /// The lane's blocks local block j of line g stands for.
    template <class F>
    void grid_blocks(std::uint64_t g, std::uint64_t j, F& f) const {
        if (phase_.roles.empty()) return f(j);
        // The line's own point, with the kernel's coordinate j; then every coordinate of the free dimensions.
        const std::uint32_t base = point(g, static_cast<std::uint32_t>(j));
        for (std::uint64_t n = 0; n < free_count_; ++n) {
            std::uint64_t at = base, rest = n;
            for (const std::uint32_t d : free_) {
                const std::uint32_t k = grid_->extent(d);
                at = at - std::uint64_t{grid_->coordinate(base, d)} * grid_->stride(d) + (rest % k) * grid_->stride(d);
                rest /= k;
            }
            f(std::uint64_t{grid_->rank_at(static_cast<std::uint32_t>(at))});
        }
    }

    std::shared_ptr<const Grid> grid_;
    Phase phase_;
    std::uint64_t groups_ = 1;
    std::vector<std::uint32_t> free_;  // the dimensions whose blocks' coordinates are free
    std::uint64_t free_count_ = 1;
};

}  // namespace fabric::collective
