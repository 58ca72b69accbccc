// A task grid of any rank: the logical arrangement of a job's tasks. Task ids run
// with dimension 0 fastest, like node ids on a k-ary n-cube, so that a grid with
// the extents of a torus maps task i to node i coordinate for coordinate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/translations.hpp>

namespace fabric {

class Grid {
public:
    constexpr Grid(std::initializer_list<long long> extents) : Grid(std::vector<long long>(extents)) {}
    constexpr explicit Grid(const std::vector<long long>& extents) {
        detail::require(!extents.empty() && extents.size() <= 8, "a task grid has 1 to 8 dimensions; got ",
                        extents.size());
        std::uint64_t size = 1;
        for (std::size_t d = 0; d < extents.size(); ++d) {
            detail::require(extents[d] >= 1, "task grid extent of dimension ", d, " must be at least 1; got ",
                            extents[d]);
            size *= static_cast<std::uint64_t>(extents[d]);
            detail::require(size < (1ULL << 31), "a task grid may have at most 2^31 - 1 tasks");
            extents_.push_back(static_cast<std::uint32_t>(extents[d]));
        }
        size_ = static_cast<std::size_t>(size);
    }

    [[nodiscard]] constexpr std::size_t rank() const { return extents_.size(); }
    [[nodiscard]] constexpr std::size_t size() const { return size_; }
    [[nodiscard]] constexpr std::uint32_t extent(std::size_t d) const { return extents_[d]; }
    [[nodiscard]] constexpr const std::vector<std::uint32_t>& extents() const { return extents_; }

    /// Coordinates of task t (dimension 0 fastest).
    [[nodiscard]] constexpr std::vector<std::uint32_t> coord(std::size_t t) const {
        std::vector<std::uint32_t> c(rank(), 0);
        for (std::size_t d = 0; d < rank(); ++d) {
            c[d] = static_cast<std::uint32_t>(t % extents_[d]);
            t /= extents_[d];
        }
        return c;
    }

    [[nodiscard]] constexpr std::size_t task(const std::vector<std::uint32_t>& c) const {
        std::size_t t = 0;
        for (std::size_t d = rank(); d-- > 0;) t = t * extents_[d] + c[d];
        return t;
    }

    /// Whether every translation of `group` (on these task ids) moves every task by
    /// one translation of the grid, so that a pattern defined by differences of
    /// coordinates with wraparound (tornado, neighbour, a periodic halo) is invariant
    /// under it: each translated digit must be the upper part of one dimension, the
    /// same top and a stride that is a multiple of the dimension's (adding 1 to the
    /// digit adds stride / dimension stride to that coordinate, modulo its extent).
    [[nodiscard]] constexpr bool translations_are_shifts(const Translations& group) const {
        for (std::size_t i = 0; i < group.digits(); ++i) {
            const TranslationDigit& g = group.digit(i);
            if (!g.translated) continue;
            bool within = false;
            for (std::size_t d = 0, stride = 1; d < rank() && !within; stride *= extents_[d++])
                within = g.stride * g.extent == stride * extents_[d] && g.stride % stride == 0;
            if (!within) return false;
        }
        return true;
    }

private:
    std::vector<std::uint32_t> extents_;
    std::size_t size_ = 0;
};

}  // namespace fabric
