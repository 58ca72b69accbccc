// The k-ary n-tree (Petrini and Vanneschi, 1997): a fat tree of k^n terminals and n
// levels of k^(n-1) switches, each switch of 2k ports. Levels count from the leaves
// (level 0, which serve the terminals, k each) to the roots (level n - 1).
//
// A switch is (level l, word w), w < k^(n-1) read as n - 1 base-k digits w_0 ..
// w_{n-2}; its node id is l * k^(n-1) + w, so the leaves come first and terminal t
// is on leaf t / k (topology/concentrated.hpp's numbering: the switches above have
// no terminal). Up port k + j of (l, w) leads to (l + 1, w with digit l set to j),
// arriving at that switch's down port w_l; so two switches of adjacent levels are
// linked iff their words differ at most in the lower one's level digit. A leaf's
// down ports and a root's up ports answer no_node: the leaves' terminals have ports
// of their own in the cycle kernel.
//
// Every subtree of k^(l+1) terminals has k^(l+1) up links out of level l: the tree
// has full bisection bandwidth, and nearest-common-ancestor routing (routing/
// fat_tree.hpp) that spreads its up paths evenly loads them all alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include <boost/hana/tuple.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/link/basic.hpp>

namespace fabric {

/// MaxK: the largest arity this type takes (ports are sized 2 MaxK, terminal ports
/// MaxK, so it is best exact: FatTree<4> for a 4-ary n-tree).
template <std::size_t MaxK, class Link = BasicLink<1>>
class FatTree {
    static_assert(MaxK >= 2 && MaxK <= 32, "fabric: FatTree<MaxK> takes arity 2 to 32; choose MaxK in that range");

public:
    using link_types = boost::hana::tuple<Link>;
    static constexpr std::size_t ports_per_node = 2 * MaxK;
    static constexpr std::size_t max_terminals_per_node = MaxK;
    static constexpr bool is_fat_tree = true;

    /// The k-ary n-tree, k from 2 to MaxK, n levels from 1 (one switch) up.
    constexpr FatTree(std::uint32_t k, std::uint32_t n, Link link = {}) : k_(k), n_(n), links_(link) {
        detail::require(k_ >= 2 && k_ <= MaxK, "FatTree<", MaxK, "> takes arity k = 2 to ", MaxK, "; got k = ", k_,
                        k_ > MaxK ? "; use a larger MaxK" : "");
        detail::require(n_ >= 1 && n_ <= 16, "a k-ary n-tree has 1 to 16 levels; got n = ", n_);
        std::uint64_t width = 1;
        for (std::uint32_t l = 0; l + 1 < n_; ++l) {
            width *= k_;
            detail::require(width * n_ <= (std::uint64_t{1} << 28), "a fat tree of at most 2^28 switches; k = ", k_,
                            ", n = ", n_, " makes more");
        }
        width_ = static_cast<std::uint32_t>(width);
        for (std::uint32_t l = 0, p = 1; l < n_; ++l, p *= k_) power_[l] = p;
    }

    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr std::uint32_t arity() const { return k_; }
    [[nodiscard]] constexpr std::uint32_t levels() const { return n_; }
    /// Switches a level, k^(n-1).
    [[nodiscard]] constexpr std::uint32_t width() const { return width_; }
    [[nodiscard]] constexpr std::size_t node_count() const { return std::size_t{width_} * n_; }
    [[nodiscard]] constexpr std::uint32_t terminals_per_node() const { return k_; }
    /// k^n: k on each leaf, none above.
    [[nodiscard]] constexpr std::size_t terminal_count() const { return std::size_t{width_} * k_; }

    [[nodiscard]] constexpr std::uint32_t level(NodeId s) const { return s.value / width_; }
    [[nodiscard]] constexpr std::uint32_t word(NodeId s) const { return s.value % width_; }
    [[nodiscard]] constexpr NodeId node(std::uint32_t level, std::uint32_t word) const {
        return NodeId{level * width_ + word};
    }
    /// Digit d of word w (base k).
    [[nodiscard]] constexpr std::uint32_t digit(std::uint32_t w, std::uint32_t d) const { return w / power_[d] % k_; }
    [[nodiscard]] constexpr std::uint32_t with_digit(std::uint32_t w, std::uint32_t d, std::uint32_t v) const {
        return w - digit(w, d) * power_[d] + v * power_[d];
    }
    [[nodiscard]] static constexpr PortId down_port(std::uint32_t i) { return PortId{i}; }
    [[nodiscard]] static constexpr PortId up_port(std::uint32_t j) { return PortId{static_cast<std::uint32_t>(MaxK) + j}; }
    [[nodiscard]] static constexpr bool is_up(PortId p) { return p.value >= MaxK; }

    [[nodiscard]] constexpr NodeId neighbour(NodeId s, PortId p) const {
        if (s.value >= node_count()) return no_node;
        const std::uint32_t l = level(s), w = word(s);
        if (is_up(p)) {
            const std::uint32_t j = p.value - static_cast<std::uint32_t>(MaxK);
            if (j >= k_ || l + 1 >= n_) return no_node;
            return node(l + 1, with_digit(w, l, j));
        }
        if (p.value >= k_ || l == 0) return no_node;
        return node(l - 1, with_digit(w, l - 1, p.value));
    }
    [[nodiscard]] constexpr PortId reverse_port(NodeId s, PortId p) const {
        const std::uint32_t l = level(s), w = word(s);
        return is_up(p) ? down_port(digit(w, l)) : up_port(digit(w, l - 1));
    }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId) const { return 0; }

    /// Adding to the digits of every switch word (each modulo k) keeps the tree: the
    /// link from (l, w) up port j, to (l + 1, w with digit l = j), becomes the link
    /// from (l, w + delta) up port j + delta_l. The level is fixed: a level's
    /// switches are one orbit. The translation taking (l, w) to (l, 0) maps up port
    /// j to j - w_l and down port i to i - w_(l-1).
    [[nodiscard]] constexpr Translations translations() const {
        Translations group;
        for (std::uint32_t d = 0; d + 1 < n_; ++d) group.then(k_, true);
        return group.then(n_, false);
    }
    [[nodiscard]] constexpr PortId port_at_representative(NodeId s, PortId p) const {
        const std::uint32_t l = level(s), w = word(s);
        if (is_up(p)) {
            const std::uint32_t j = p.value - static_cast<std::uint32_t>(MaxK);
            if (j >= k_ || l + 1 >= n_) return p;
            return up_port((j + k_ - digit(w, l)) % k_);
        }
        if (p.value >= k_ || l == 0) return p;
        return down_port((p.value + k_ - digit(w, l - 1)) % k_);
    }

private:
    std::uint32_t k_, n_, width_ = 1;
    std::uint32_t power_[16]{};
    link_types links_;
};

namespace detail {
template <class T>
inline constexpr bool is_fat_tree_v = requires { requires T::is_fat_tree; };
}  // namespace detail

}  // namespace fabric
