// Traffic patterns. Each source task sends one unit in total, split over its
// destinations as the pattern says (see concepts/traffic.hpp). A pattern visits
// its flows through a callback f(source, destination, amount); flows are not
// stored, so a 4096-task all-to-all costs no memory.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/mapping/grid.hpp>

namespace fabric {

/// Uniform all-to-all: every task sends 1/n to every task, itself included (Dally
/// and Towles's convention), or 1/(n - 1) to every other task (Self::excluded, the
/// convention of an MPI all-to-all and of the PERCS all-to-all model).
class UniformTraffic {
public:
    enum class Self : bool { excluded = false, included = true };

    constexpr explicit UniformTraffic(std::size_t tasks, Self self = Self::included) : n_(tasks), self_(self) {
        detail::require(tasks >= (self == Self::included ? 1U : 2U), "uniform traffic needs at least ",
                        self == Self::included ? 1 : 2, " tasks; got ", tasks);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t s = 0; s < n_; ++s)
            for_each_flow_from(s, [&](std::size_t d, double share) { f(s, d, share); });
    }
    /// The flows of source s: f(destination, amount).
    template <class F>
    constexpr void for_each_flow_from(std::size_t s, F&& f) const {
        const bool with_self = self_ == Self::included;
        const double share = 1.0 / static_cast<double>(with_self ? n_ : n_ - 1);
        for (std::size_t d = 0; d < n_; ++d)
            if (with_self || d != s) f(d, share);
    }
    /// The same amount between every two tasks: invariant under any permutation.
    [[nodiscard]] constexpr bool invariant_under(const Translations&) const { return true; }
    /// A destination drawn with the pattern's probabilities.
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random& rng) const {
        if (self_ == Self::included) return static_cast<std::size_t>(rng.below(n_));
        const auto d = static_cast<std::size_t>(rng.below(n_ - 1));
        return d >= src ? d + 1 : d;
    }

private:
    std::size_t n_;
    Self self_;
};

/// Nearest neighbour (halo) on a task grid: each task sends 1/(2r) to each of its
/// 2r neighbours (+1 and -1 in each of the r dimensions of extent > 1). With
/// periodic boundaries the grid wraps; without, a task on an edge sends only to
/// the neighbours it has, still 1/(2r) each (the PERCS mapping paper's convention).
class HaloTraffic {
public:
    constexpr explicit HaloTraffic(Grid grid, bool periodic = true) : grid_(std::move(grid)), periodic_(periodic) {
        for (std::size_t d = 0; d < grid_.rank(); ++d) active_ += grid_.extent(d) > 1 ? 1 : 0;
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return grid_.size(); }
    [[nodiscard]] constexpr const Grid& grid() const { return grid_; }
    /// Dimension by dimension, every task in turn (the order the flow kernel's
    /// pair-by-pair walk adds them in).
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        if (active_ == 0) return;
        const double share = 1.0 / static_cast<double>(2 * active_);
        for (std::size_t d = 0, stride = 1; d < grid_.rank(); stride *= grid_.extent(d++))
            for (std::size_t t = 0; t < grid_.size() && grid_.extent(d) > 1; ++t)
                neighbours_in(d, stride, t, [&](std::size_t to) { f(t, to, share); });
    }
    /// The flows of task t: f(neighbour, share).
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        if (active_ == 0) return;
        const double share = 1.0 / static_cast<double>(2 * active_);
        for (std::size_t d = 0, stride = 1; d < grid_.rank(); stride *= grid_.extent(d++))
            neighbours_in(d, stride, t, [&](std::size_t to) { f(to, share); });
    }
    /// With periodic boundaries a shift of the grid keeps every neighbour; without,
    /// the edges differ.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        return periodic_ && grid_.translations_are_shifts(group);
    }

    /// One of the task's neighbours, each with its share (all shares are equal).
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random& rng) const {
        std::size_t to[16];
        std::size_t count = 0;
        for_each_flow_from(src, [&](std::size_t d, double) { to[count++] = d; });
        return count == 0 ? src : to[rng.below(count)];
    }

private:
    /// f(neighbour) for the + and the - neighbour of t in dimension d (none past an
    /// edge unless periodic).
    template <class F>
    constexpr void neighbours_in(std::size_t d, std::size_t stride, std::size_t t, F&& f) const {
        const std::size_t k = grid_.extent(d);
        if (k < 2) return;
        const std::size_t x = (t / stride) % k;
        if (x + 1 < k) f(t + stride);
        else if (periodic_) f(t - x * stride);
        if (x > 0) f(t - stride);
        else if (periodic_) f(t + (k - 1) * stride);
    }

    Grid grid_;
    bool periodic_;
    std::size_t active_ = 0;
};

/// What the PERCS mapping paper calls "transpose" (the communication of a matrix
/// transpose done by row and column all-to-alls), on a P x Q grid (P rows, Q
/// columns, task = row * Q + column): each task sends 1/(2Q) to every task of its
/// row and 1/(2P) to every task of its column, itself included in both. Named
/// apart from TransposeTraffic (standard_patterns.hpp), the permutation
/// (i, j) -> (j, i) that "transpose" means everywhere else.
class RowColumnAllToAllTraffic {
public:
    constexpr RowColumnAllToAllTraffic(std::size_t rows, std::size_t cols) : p_(rows), q_(cols) {
        detail::require(rows >= 1 && cols >= 1, "row-column all-to-all traffic needs a grid of at least 1 x 1; got ", rows, " x ",
                        cols);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return p_ * q_; }
    [[nodiscard]] constexpr std::size_t rows() const { return p_; }
    [[nodiscard]] constexpr std::size_t cols() const { return q_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < p_ * q_; ++t)
            for_each_flow_from(t, [&](std::size_t d, double share) { f(t, d, share); });
    }
    /// The flows of task t: its row, then its column.
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        const double row_share = 0.5 / static_cast<double>(q_);
        const double col_share = 0.5 / static_cast<double>(p_);
        const std::size_t r = t / q_, c = t % q_;
        for (std::size_t c2 = 0; c2 < q_; ++c2) f(r * q_ + c2, row_share);
        for (std::size_t r2 = 0; r2 < p_; ++r2) f(r2 * q_ + c, col_share);
    }
    /// A shift of rows or of columns keeps every row and column.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        return Grid{static_cast<long long>(q_), static_cast<long long>(p_)}.translations_are_shifts(group);
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random& rng) const {
        const std::size_t r = src / q_, c = src % q_;
        if (rng.below(2) == 0) return r * q_ + static_cast<std::size_t>(rng.below(q_));
        return static_cast<std::size_t>(rng.below(p_)) * q_ + c;
    }

private:
    std::size_t p_, q_;
};

/// All-to-all along one dimension of a task grid, as in a pencil-decomposed 3-D FFT
/// (Arimilli et al., section VII.B): every task sends 1/(k - 1) to each of the
/// other k - 1 tasks whose coordinates differ from its own in dimension `dim`
/// alone (k its extent); MPI's convention, no unit to itself. On a grid of
/// extents {32, 256} placed one task a PERCS hub, dimension 0 stays inside a
/// supernode and dimension 1 crosses the supernodes.
class GridAllToAllTraffic {
public:
    constexpr GridAllToAllTraffic(Grid grid, std::size_t dim) : grid_(std::move(grid)), dim_(dim) {
        detail::require(dim < grid_.rank(), "all-to-all along dimension ", dim, ": the grid has ", grid_.rank(),
                        " dimensions");
        detail::require(grid_.extent(dim) >= 2, "all-to-all along dimension ", dim, " needs an extent of at least "
                        "2; got ", grid_.extent(dim));
        for (std::size_t d = 0; d < dim; ++d) stride_ *= grid_.extent(d);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return grid_.size(); }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < grid_.size(); ++t)
            for_each_flow_from(t, [&](std::size_t d, double share) { f(t, d, share); });
    }
    /// The flows of task t: the other tasks of its line along the dimension, in order.
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        const std::size_t k = grid_.extent(dim_);
        const double share = 1.0 / static_cast<double>(k - 1);
        const std::size_t own = t / stride_ % k, first = t - own * stride_;
        for (std::size_t i = 0; i < k; ++i)
            if (i != own) f(first + i * stride_, share);
    }
    /// A shift of the grid keeps every line.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        return grid_.translations_are_shifts(group);
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random& rng) const {
        const std::size_t k = grid_.extent(dim_);
        const std::size_t own = src / stride_ % k;
        auto i = static_cast<std::size_t>(rng.below(k - 1));
        if (i >= own) ++i;
        return src - own * stride_ + i * stride_;
    }

private:
    Grid grid_;
    std::size_t dim_;
    std::size_t stride_ = 1;
};

/// Bit complement: task t sends its unit to ~t (n a power of two).
class BitComplementTraffic {
public:
    constexpr explicit BitComplementTraffic(std::size_t tasks) : n_(tasks) {
        detail::require(tasks >= 1 && std::has_single_bit(tasks), "bit-complement traffic needs a power-of-two "
                        "number of tasks; got ", tasks);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < n_; ++t) for_each_flow_from(t, [&](std::size_t d, double a) { f(t, d, a); });
    }
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        f((~t) & (n_ - 1), 1.0);
    }
    /// Complementing commutes with flipping bits, and adding 1 modulo 2 to a digit
    /// of extent 2 flips one bit: invariant when every translated digit is one bit
    /// (a hypercube's translations), not under longer shifts.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        for (std::size_t i = 0; i < group.digits(); ++i)
            if (group.digit(i).translated && group.digit(i).extent != 2) return false;
        return true;
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random&) const { return (~src) & (n_ - 1); }

private:
    std::size_t n_;
};

/// Tornado on a task grid: in every dimension of extent k, the destination is
/// ceil(k/2) - 1 positions ahead (k/2 - 1 for even k), the worst case for
/// minimal routing on a ring (Dally and Towles).
class TornadoTraffic {
public:
    constexpr explicit TornadoTraffic(Grid grid) : grid_(std::move(grid)) {}
    [[nodiscard]] constexpr std::size_t task_count() const { return grid_.size(); }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < grid_.size(); ++t) f(t, destination(t), 1.0);
    }
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        f(destination(t), 1.0);
    }
    /// A shift of the grid keeps every task's offset to its destination.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        return grid_.translations_are_shifts(group);
    }
    [[nodiscard]] constexpr std::size_t destination(std::size_t src) const {
        std::size_t t = 0, stride = 1;
        for (std::size_t d = 0; d < grid_.rank(); ++d) {
            const std::size_t k = grid_.extent(d), x = (src / stride) % k;
            t += ((x + (k + 1) / 2 - 1) % k) * stride;
            stride *= k;
        }
        return t;
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random&) const { return destination(src); }

private:
    Grid grid_;
};

/// A random permutation, drawn from fabric::Random with the given seed.
class RandomPermutationTraffic {
public:
    constexpr RandomPermutationTraffic(std::size_t tasks, std::uint64_t seed) : dest_(tasks) {
        detail::require(tasks >= 1, "a random permutation needs at least 1 task");
        std::iota(dest_.begin(), dest_.end(), std::size_t{0});
        Random rng(seed);
        rng.shuffle(std::span<std::size_t>(dest_));
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return dest_.size(); }
    [[nodiscard]] constexpr std::size_t destination(std::size_t t) const { return dest_[t]; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < dest_.size(); ++t) f(t, dest_[t], 1.0);
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random&) const { return dest_[src]; }

private:
    std::vector<std::size_t> dest_;
};

/// An explicit traffic matrix: amount[s * n + d] is what task s sends to d.
/// Amounts are taken as given (not normalised); negative amounts are refused.
class TrafficMatrix {
public:
    constexpr TrafficMatrix(std::size_t tasks, std::vector<double> amounts) : n_(tasks), amount_(std::move(amounts)) {
        detail::require(amount_.size() == n_ * n_, "a traffic matrix for ", n_, " tasks needs ", n_ * n_,
                        " entries; got ", amount_.size());
        for (std::size_t i = 0; i < amount_.size(); ++i)
            detail::require(amount_[i] >= 0, "traffic matrix entry (", i / n_, ", ", i % n_,
                            ") must not be negative");
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t s = 0; s < n_; ++s)
            for (std::size_t d = 0; d < n_; ++d)
                if (const double a = amount_[s * n_ + d]; a != 0) f(s, d, a);
    }

private:
    std::size_t n_;
    std::vector<double> amount_;
};

}  // namespace fabric
