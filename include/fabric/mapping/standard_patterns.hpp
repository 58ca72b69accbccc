// The synthetic traffic patterns under the names and definitions of the
// interconnection-network literature (Dally and Towles, ch. 3; BookSim2 uses the
// same): the permutations transpose, bit reverse, shuffle and neighbour, and the
// hot spot of Pfister and Norton, and the group shift that is the dragonfly's
// worst case (Kim, Dally, Scott and Abts, ISCA 2008). Uniform, bit complement, tornado and random
// permutation are in patterns.hpp. Each source sends one unit, as there.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/mapping/grid.hpp>

namespace fabric {

namespace detail {
/// The base-2 logarithm of a power of two, after checking it is one.
constexpr unsigned address_bits(std::size_t tasks, const char* pattern) {
    detail::require(tasks >= 2 && std::has_single_bit(tasks), pattern, " traffic needs a power-of-two number of tasks "
                    "(at least 2); got ", tasks);
    return static_cast<unsigned>(std::countr_zero(tasks));
}

/// A permutation pattern from its destination function: one unit from t to dest(t).
template <class Derived>
class PermutationPattern {
public:
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        const auto& self = static_cast<const Derived&>(*this);
        for (std::size_t t = 0; t < self.task_count(); ++t) f(t, self.destination(t), 1.0);
    }
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        f(static_cast<const Derived&>(*this).destination(t), 1.0);
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random&) const {
        return static_cast<const Derived&>(*this).destination(src);
    }
};
}  // namespace detail

/// Transpose: on m x m tasks (task = i * m + j), task (i, j) sends to (j, i). For a
/// power-of-four count this is BookSim's swap of the address's two bit halves.
class TransposeTraffic : public detail::PermutationPattern<TransposeTraffic> {
public:
    constexpr explicit TransposeTraffic(std::size_t tasks) : n_(tasks) {
        m_ = 1;
        while ((m_ + 1) * (m_ + 1) <= tasks) ++m_;
        detail::require(tasks >= 1 && m_ * m_ == tasks, "transpose traffic needs a square number of tasks (m x m); "
                        "got ", tasks);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    [[nodiscard]] constexpr std::size_t destination(std::size_t t) const { return (t % m_) * m_ + t / m_; }

private:
    std::size_t n_, m_;
};

/// Bit reverse: task t, b address bits, sends to t with its bits in reverse order.
class BitReverseTraffic : public detail::PermutationPattern<BitReverseTraffic> {
public:
    constexpr explicit BitReverseTraffic(std::size_t tasks) : n_(tasks), bits_(detail::address_bits(tasks, "bit-reverse")) {}
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    [[nodiscard]] constexpr std::size_t destination(std::size_t t) const {
        std::size_t d = 0;
        for (unsigned b = 0; b < bits_; ++b) d |= ((t >> b) & 1U) << (bits_ - 1 - b);
        return d;
    }

private:
    std::size_t n_;
    unsigned bits_;
};

/// Perfect shuffle: task t sends to t's address rotated left by one bit.
class ShuffleTraffic : public detail::PermutationPattern<ShuffleTraffic> {
public:
    constexpr explicit ShuffleTraffic(std::size_t tasks) : n_(tasks), bits_(detail::address_bits(tasks, "shuffle")) {}
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    [[nodiscard]] constexpr std::size_t destination(std::size_t t) const {
        return ((t << 1) & (n_ - 1)) | ((t >> (bits_ - 1)) & 1U);
    }

private:
    std::size_t n_;
    unsigned bits_;
};

/// Neighbour: on a task grid, every coordinate one ahead, modulo its extent. (The
/// halo exchange with all 2r neighbours is HaloTraffic.)
class NeighbourTraffic : public detail::PermutationPattern<NeighbourTraffic> {
public:
    constexpr explicit NeighbourTraffic(Grid grid) : grid_(std::move(grid)) {}
    [[nodiscard]] constexpr std::size_t task_count() const { return grid_.size(); }
    /// A shift of the grid keeps every task's next one.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        return grid_.translations_are_shifts(group);
    }
    [[nodiscard]] constexpr std::size_t destination(std::size_t t) const {
        std::size_t d = 0, stride = 1;
        for (std::size_t dim = 0; dim < grid_.rank(); ++dim) {
            const std::size_t k = grid_.extent(dim), x = (t / stride) % k;
            d += ((x + 1) % k) * stride;
            stride *= k;
        }
        return d;
    }

private:
    Grid grid_;
};

/// Hot spot (Pfister and Norton): every source sends `fraction` of its unit to the
/// hot tasks, split evenly, and the rest uniformly over all tasks (itself
/// included). fraction = 1 sends to the hot tasks only.
class HotSpotTraffic {
public:
    constexpr HotSpotTraffic(std::size_t tasks, std::vector<std::size_t> hot, double fraction)
        : n_(tasks), hot_(std::move(hot)), fraction_(fraction) {
        detail::require(tasks >= 1, "hot-spot traffic needs at least 1 task");
        detail::require(!hot_.empty(), "hot-spot traffic needs at least one hot task");
        for (const std::size_t h : hot_)
            detail::require(h < tasks, "hot task ", h, " is out of range; valid: 0 to ", tasks - 1);
        detail::require(fraction >= 0 && fraction <= 1, "the hot-spot fraction must be in [0, 1]; got ", fraction);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return n_; }
    [[nodiscard]] constexpr const std::vector<std::size_t>& hot() const { return hot_; }
    [[nodiscard]] constexpr double fraction() const { return fraction_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        const double to_hot = fraction_ / static_cast<double>(hot_.size());
        const double to_each = (1 - fraction_) / static_cast<double>(n_);
        for (std::size_t s = 0; s < n_; ++s) {
            if (to_each > 0)
                for (std::size_t d = 0; d < n_; ++d) f(s, d, to_each);
            if (to_hot > 0)
                for (const std::size_t h : hot_) f(s, h, to_hot);
        }
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t, Random& rng) const {
        if (rng.uniform() < fraction_) return hot_[static_cast<std::size_t>(rng.below(hot_.size()))];
        return static_cast<std::size_t>(rng.below(n_));
    }

private:
    std::size_t n_;
    std::vector<std::size_t> hot_;
    double fraction_;
};

/// Group shift: the tasks form `groups` groups of `group_size` (task = group *
/// group_size + member), and every task of group i sends uniformly to the tasks of
/// group (i + shift) mod groups. With a dragonfly's groups and shift 1 this is
/// the worst case of Kim et al.: minimal routing puts all of a group's traffic on
/// the one global link to the next group. The same shift is the worst case of the
/// other networks here: a k-ary n-tree's top-level subtrees as groups (k of k^(n-1)
/// terminals: every packet climbs to the roots, and full bisection loads every up
/// and down link with exactly one terminal's injection), and a HyperX's routers as
/// groups (p terminals each: the flattened butterfly's R_i to R_(i+1), all on one
/// link under minimal routing, 1/p a terminal).
class GroupShiftTraffic {
public:
    constexpr GroupShiftTraffic(std::size_t group_size, std::size_t groups, std::size_t shift = 1)
        : size_(group_size), groups_(groups), shift_(shift) {
        detail::require(group_size >= 1 && groups >= 2, "group-shift traffic needs at least 2 groups of at least 1 "
                        "task; got ", groups, " groups of ", group_size);
        detail::require(shift % groups != 0, "group-shift traffic with a shift of ", shift, " on ", groups,
                        " groups sends every group to itself; choose a shift that is not a multiple of ", groups);
    }
    [[nodiscard]] constexpr std::size_t task_count() const { return size_ * groups_; }
    [[nodiscard]] constexpr std::size_t group_size() const { return size_; }
    [[nodiscard]] constexpr std::size_t groups() const { return groups_; }
    /// The group task t's traffic goes to.
    [[nodiscard]] constexpr std::size_t target_group(std::size_t t) const { return (t / size_ + shift_) % groups_; }
    template <class F>
    constexpr void for_each_flow(F&& f) const {
        for (std::size_t t = 0; t < task_count(); ++t)
            for_each_flow_from(t, [&](std::size_t d, double each) { f(t, d, each); });
    }
    template <class F>
    constexpr void for_each_flow_from(std::size_t t, F&& f) const {
        const double each = 1.0 / static_cast<double>(size_);
        for (std::size_t m = 0; m < size_; ++m) f(target_group(t) * size_ + m, each);
    }
    /// Invariant under a shift of the groups (the target shifts with the source), and
    /// under any permutation within the groups (every member of the target gets the
    /// same): each translated digit must lie within the member number or be the
    /// upper part of the group number.
    [[nodiscard]] constexpr bool invariant_under(const Translations& group) const {
        for (std::size_t i = 0; i < group.digits(); ++i) {
            const TranslationDigit& g = group.digit(i);
            const std::size_t top = g.stride * g.extent;
            if (g.translated && !(size_ % top == 0 || (top == size_ * groups_ && g.stride % size_ == 0))) return false;
        }
        return true;
    }
    [[nodiscard]] constexpr std::size_t sample(std::size_t src, Random& rng) const {
        return target_group(src) * size_ + static_cast<std::size_t>(rng.below(size_));
    }

private:
    std::size_t size_, groups_, shift_;
};

}  // namespace fabric
