// Nearest-common-ancestor routing on the k-ary n-tree (topology/fat_tree.hpp).
// From leaf s to leaf d, let m be the highest digit in which their words differ:
// the packet climbs m + 1 levels, by any up ports (each climb from level l sets
// digit l to the port taken), then descends, taking at level l + 1 the down port
// d_l; it reaches d by the shortest route, 2 (m + 1) hops. Routes only go up, then
// down: a down channel never waits on an up one, so one virtual channel is deadlock
// free (the check confirms it from every route).
//
// FatTreeNca: the up ports are oblivious, drawn from the packet's `choice` (the
// flow kernel spreads a pair's traffic over all k^(m+1) up paths alike), the way
// down deterministic. FatTreeAdaptiveUp (HopAdaptive): each switch the head climbs
// through takes the up port with the shortest queue there, seeing that switch's
// state alone; ties go to the oblivious choice. Switches above the leaves have no
// terminals, so routes are between leaves only; any other pair has none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/topology/fat_tree.hpp>

namespace fabric {

namespace detail {
/// The level a route from a switch of level l (word a) to leaf word b must climb to:
/// 1 + the highest digit at or above l in which a and b differ (l: none, go down).
template <class T>
constexpr std::uint32_t fat_tree_top(const T& t, std::uint32_t l, std::uint32_t a, std::uint32_t b) {
    std::uint32_t top = l;
    for (std::uint32_t d = l; d + 1 < t.levels(); ++d)
        if (t.digit(a, d) != t.digit(b, d)) top = d + 1;
    return top;
}
}  // namespace detail

struct FatTreeNca {
    template <class T>
    static constexpr bool fits = detail::is_fat_tree_v<T>;
    /// The climb depends on where the words differ, the up paths are spread over
    /// every up port alike and the way down follows the destination's digits, so
    /// adding to the words' digits moves every hop with them (concepts/symmetry.hpp).
    template <class T>
    static constexpr bool commutes_with_translations = true;
    template <class T>
    static constexpr std::size_t vcs_required = 1;

    template <class T>
    static constexpr std::size_t max_hops(const T& t) {
        return 2 * (t.levels() - 1);
    }

    /// The route from switch `from` (a leaf, or a switch some route from a leaf to
    /// dst passes) to leaf dst whose up ports `pick(level, switch)` names; its length.
    /// On the way up the digits of `from` at and above its level are the source's,
    /// on the way down the destination's, so one rule finds how far is left to climb.
    template <class T, class Pick>
    static constexpr std::size_t route(const T& t, NodeId from, NodeId dst, Hop* out, Pick&& pick) {
        if (t.level(dst) != 0) return 0;
        const std::uint32_t l0 = t.level(from), top = detail::fat_tree_top(t, l0, t.word(from), t.word(dst));
        std::size_t len = 0;
        std::uint32_t w = t.word(from);
        for (std::uint32_t l = l0; l < top; ++l) {
            const std::uint32_t j = pick(l, t.node(l, w));
            out[len++] = Hop{t.node(l, w), T::up_port(j), 0};
            w = t.with_digit(w, l, j);
        }
        for (std::uint32_t l = top; l > 0; --l) {
            const std::uint32_t i = t.digit(t.word(dst), l - 1);
            out[len++] = Hop{t.node(l, w), T::down_port(i), 0};
            w = t.with_digit(w, l - 1, i);
        }
        return len;
    }

    /// The route with up ports drawn from `choice` (base-k digits of it, one a level).
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        if (t.level(src) != 0) return 0;
        return route(t, src, dst, out, [&](std::uint32_t l, NodeId) { return oblivious(t, choice, l); });
    }

    /// Every up path of the pair, each with weight 1 / k^climb.
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        if (t.level(src) != 0 || t.level(dst) != 0) return;
        const std::uint32_t climb = detail::fat_tree_top(t, 0, t.word(src), t.word(dst));
        std::uint64_t paths = 1;
        for (std::uint32_t l = 0; l < climb; ++l) paths *= t.arity();
        Hop hops[2 * 16];
        for (std::uint64_t c = 0; c < paths; ++c)
            f(std::span<const Hop>(hops, select_route(t, src, dst, c, hops)), 1.0 / static_cast<double>(paths));
    }

    /// f(node, port, fraction) for the pair's traffic, level by level: going up, each
    /// switch of level l the paths reach carries 1/k^l of it, split evenly over its
    /// up ports; going down, each of the k^l switches at level l carries 1/k^l.
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        if (t.level(src) != 0 || t.level(dst) != 0) return;
        const std::uint32_t k = t.arity(), ws = t.word(src), wd = t.word(dst);
        const std::uint32_t climb = detail::fat_tree_top(t, 0, ws, wd);
        std::uint32_t reach = 1;  // switches a level reached: k^l, their digits 0 .. l-1 free
        for (std::uint32_t l = 0; l < climb; ++l, reach *= k) {
            const double each = 1.0 / (static_cast<double>(reach) * k);
            for (std::uint32_t free = 0; free < reach; ++free) {
                const std::uint32_t w = ws - ws % (reach) + free;  // digits below l from `free`, the rest the source's
                for (std::uint32_t j = 0; j < k; ++j) f(t.node(l, w), T::up_port(j), each);
            }
        }
        for (std::uint32_t l = climb; l > 0; --l) {
            std::uint32_t below = 1;  // k^l: switches at level l on the way down, digits 0 .. l-1 free
            for (std::uint32_t i = 0; i < l; ++i) below *= k;
            const std::uint32_t i = t.digit(wd, l - 1);
            for (std::uint32_t free = 0; free < below; ++free)
                f(t.node(l, wd - wd % below + free), T::down_port(i), 1.0 / static_cast<double>(below));
        }
    }

    /// Every dependency f(from, to) some route creates, each once (the deadlock check
    /// is then linear in the switches, not in pairs of leaves): at a switch of level l,
    /// from the up channel of each child to each up port (l < n - 1) and to each down
    /// port but that child's; from the down channel of each parent to each down port
    /// (0 < l < n - 1).
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        const std::uint32_t k = t.arity(), n = t.levels();
        for (std::uint32_t l = 1; l < n; ++l) {
            for (std::uint32_t w = 0; w < t.width(); ++w) {
                const NodeId at = t.node(l, w);
                for (std::uint32_t c = 0; c < k; ++c) {  // arriving from child c, going up or down
                    const Hop in{t.node(l - 1, t.with_digit(w, l - 1, c)), T::up_port(t.digit(w, l - 1)), 0};
                    if (l + 1 < n)
                        for (std::uint32_t j = 0; j < k; ++j) f(in, Hop{at, T::up_port(j), 0});
                    for (std::uint32_t i = 0; i < k; ++i)
                        if (i != c) f(in, Hop{at, T::down_port(i), 0});
                }
                if (l + 1 < n)
                    for (std::uint32_t j = 0; j < k; ++j) {  // arriving from parent j, going down
                        const Hop in{t.node(l + 1, t.with_digit(w, l, j)), T::down_port(t.digit(w, l)), 0};
                        for (std::uint32_t i = 0; i < k; ++i) f(in, Hop{at, T::down_port(i), 0});
                    }
            }
        }
    }

protected:
    template <class T>
    static constexpr std::uint32_t oblivious(const T& t, std::uint64_t choice, std::uint32_t level) {
        for (std::uint32_t i = 0; i < level; ++i) choice /= t.arity();
        return static_cast<std::uint32_t>(choice % t.arity());
    }
};

struct FatTreeAdaptiveUp : FatTreeNca {
    /// At switch `here`: if the head still climbs, the up port with the shortest
    /// queue here (ties: the oblivious choice); the rest as select_route's.
    template <class T, class Router>
    constexpr std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t, std::uint64_t choice, Hop* out,
                                  const Router& router) const {
        return route(t, here, dst, out, [&](std::uint32_t l, NodeId at) {
            const std::uint32_t first = oblivious(t, choice, l);
            if (at != here) return first;
            std::uint32_t best = first, least = std::numeric_limits<std::uint32_t>::max();
            for (std::uint32_t i = 0; i < t.arity(); ++i) {
                const std::uint32_t j = (first + i) % t.arity();
                const std::uint32_t q = router.occupancy(T::up_port(j));
                if (q < least) least = q, best = j;
            }
            return best;
        });
    }
};

}  // namespace fabric
