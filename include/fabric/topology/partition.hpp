// Partitions of a torus machine into lower-dimensional logical machines by
// folding dimensions (QCDOC, Boyle et al., sections 2.2 and 3: the qdaemon remaps
// a partition of the native 6-D mesh to 1 to 6 dimensions "without moving
// cables").
//
// A logical dimension is a group of physical dimensions walked in reflected
// mixed-radix Gray order (a boustrophedon: the first dimension of the group runs
// fastest, and reverses whenever a later one steps). Consecutive logical
// coordinates then differ in one physical coordinate by one, so they are
// physical neighbours. The logical ring also closes, from its last coordinate back
// to 0, exactly when the walk ends one physical step from where it began; a
// folding that cannot close a ring is refused, with the reason.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric {

class Partition {
public:
    /// `native`: the physical torus extents; `groups[i]`: the physical dimensions
    /// that make logical dimension i, fastest first. Every physical dimension is
    /// used exactly once.
    constexpr Partition(std::vector<std::uint32_t> native, std::vector<std::vector<std::size_t>> groups)
        : native_(std::move(native)), groups_(std::move(groups)) {
        detail::require(!native_.empty(), "a partition needs a machine with at least one dimension");
        detail::require(!groups_.empty() && groups_.size() <= native_.size(), "a partition of a ", native_.size(),
                        "-D machine has 1 to ", native_.size(), " logical dimensions; got ", groups_.size());
        std::vector<int> used(native_.size(), 0);
        for (std::size_t g = 0; g < groups_.size(); ++g) {
            detail::require(!groups_[g].empty(), "logical dimension ", g, " has no physical dimension");
            std::uint32_t extent = 1;
            for (const auto d : groups_[g]) {
                detail::require(d < native_.size(), "logical dimension ", g, " names physical dimension ", d,
                                ", but the machine has ", native_.size());
                detail::require(used[d]++ == 0, "physical dimension ", d, " is used twice");
                detail::require(native_[d] >= 1, "physical extent of dimension ", d, " must be at least 1");
                extent *= native_[d];
            }
            logical_.push_back(extent);
            check_ring_closes(g);
        }
        for (std::size_t d = 0; d < native_.size(); ++d)
            detail::require(used[d] == 1 || native_[d] == 1, "physical dimension ", d, " (extent ", native_[d],
                            ") belongs to no logical dimension; every dimension must be folded into one");
    }

    /// Folds `native` into `rank` logical dimensions: the first rank - 1 physical
    /// dimensions stay, the rest form the last logical dimension, walked with its
    /// odd extents first (a reflected walk closes when the extents above the first
    /// multiply to an even number, so odd extents must not come last).
    static constexpr Partition fold(std::vector<std::uint32_t> native, std::size_t rank) {
        detail::require(rank >= 1 && rank <= native.size(), "a ", native.size(), "-D machine folds into 1 to ",
                        native.size(), " dimensions; got ", rank);
        std::vector<std::vector<std::size_t>> groups(rank);
        for (std::size_t d = 0; d < native.size(); ++d) groups[std::min(d, rank - 1)].push_back(d);
        // Odd extents first, each kind in its order (a stable partition; std::stable_partition is not constexpr).
        std::vector<std::size_t> last;
        for (const bool odd : {true, false})
            for (const std::size_t d : groups.back())
                if ((native[d] % 2 == 1) == odd) last.push_back(d);
        groups.back() = std::move(last);
        return Partition(std::move(native), std::move(groups));
    }

    [[nodiscard]] constexpr std::size_t rank() const { return logical_.size(); }
    [[nodiscard]] constexpr const std::vector<std::uint32_t>& extents() const { return logical_; }
    [[nodiscard]] constexpr const std::vector<std::uint32_t>& native() const { return native_; }
    [[nodiscard]] constexpr const std::vector<std::vector<std::size_t>>& groups() const { return groups_; }
    [[nodiscard]] constexpr std::size_t node_count() const {
        std::size_t n = 1;
        for (const auto k : logical_) n *= k;
        return n;
    }

    /// Physical coordinates of a logical coordinate.
    [[nodiscard]] constexpr std::vector<std::uint32_t> physical(const std::vector<std::uint32_t>& logical) const {
        detail::require(logical.size() == rank(), "a logical coordinate of this partition has ", rank(),
                        " components; got ", logical.size());
        std::vector<std::uint32_t> p(native_.size(), 0);
        for (std::size_t g = 0; g < rank(); ++g) {
            detail::require(logical[g] < logical_[g], "logical coordinate ", logical[g], " of dimension ", g,
                            " is out of range; valid: 0 to ", logical_[g] - 1);
            const auto digits = gray(g, logical[g]);
            for (std::size_t i = 0; i < groups_[g].size(); ++i) p[groups_[g][i]] = digits[i];
        }
        return p;
    }

    /// True when two physical coordinates are neighbours on the native torus.
    [[nodiscard]] constexpr bool physical_neighbours(const std::vector<std::uint32_t>& a,
                                           const std::vector<std::uint32_t>& b) const {
        std::size_t differ = 0;
        bool one_step = true;
        for (std::size_t d = 0; d < native_.size(); ++d) {
            if (a[d] == b[d]) continue;
            ++differ;
            const std::uint32_t k = native_[d];
            const std::uint32_t up = (a[d] + 1) % k, down = (a[d] + k - 1) % k;
            one_step = one_step && (b[d] == up || b[d] == down);
        }
        return differ == 1 && one_step;
    }

    /// The physical dimensions and extents as a string, "8x4x4x2x2x2 -> 8x4x4x8".
    [[nodiscard]] std::string describe() const {
        auto join = [](const std::vector<std::uint32_t>& v) {
            std::string s;
            for (std::size_t i = 0; i < v.size(); ++i) {
                if (i) s += 'x';
                s += std::to_string(v[i]);
            }
            return s;
        };
        return join(native_) + " -> " + join(logical_);
    }

private:
    /// Digits (one per physical dimension of group g) of logical position x.
    [[nodiscard]] constexpr std::vector<std::uint32_t> gray(std::size_t g, std::uint32_t x) const {
        const auto& dims = groups_[g];
        std::vector<std::uint32_t> digits(dims.size(), 0);
        // Reflected mixed-radix Gray code: digit i runs up or down as the higher
        // part (x divided by the extents below and at i) is even or odd.
        std::uint32_t rest = x;
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const std::uint32_t k = native_[dims[i]];
            digits[i] = rest % k;
            rest /= k;
        }
        // Reflect from the top down: digit i runs backwards when the sum of the
        // higher digits, as finally placed, is odd.
        std::uint32_t parity = 0;
        for (std::size_t i = dims.size(); i-- > 0;) {
            const std::uint32_t k = native_[dims[i]];
            if (parity & 1U) digits[i] = k - 1 - digits[i];
            parity += digits[i];
        }
        return digits;
    }

    constexpr void check_ring_closes(std::size_t g) const {
        const std::uint32_t k = logical_[g];
        if (k <= 2) return;  // 0 and 1 are neighbours
        std::vector<std::uint32_t> first(native_.size(), 0), last(native_.size(), 0);
        const auto a = gray(g, 0), b = gray(g, k - 1);
        for (std::size_t i = 0; i < groups_[g].size(); ++i) {
            first[groups_[g][i]] = a[i];
            last[groups_[g][i]] = b[i];
        }
        if (!physical_neighbours(first, last)) ring_cannot_close(g, k);
    }

    [[noreturn]] void ring_cannot_close(std::size_t g, std::uint32_t k) const {
        std::string dims, ext;
        for (const auto d : groups_[g]) {
            if (!dims.empty()) {
                dims += ',';
                ext += 'x';
            }
            dims += std::to_string(d);
            ext += std::to_string(native_[d]);
        }
        throw config_error(detail::message(
            "folding physical dimensions {", dims, "} (extents ", ext, ") into logical dimension ", g, " of ", k,
            " nodes cannot close its ring: logical neighbours ", k - 1, " and 0 would not be physical neighbours; "
            "put the dimensions with odd extents first in the group, or fold fewer of them"));
    }

    std::vector<std::uint32_t> native_;
    std::vector<std::vector<std::size_t>> groups_;
    std::vector<std::uint32_t> logical_;
};

}  // namespace fabric
