// Minimal adaptive routing on a HyperX (topology/hyperx.hpp): the dimensions in
// which a packet's coordinates still differ from its destination's are corrected in
// any order, one hop each (a dimension is all-to-all), so every route is minimal.
// Hop h of a route holds VC h: VC levels climb along every route, so no cycle of
// channels can wait, whatever the order (the deadlock check confirms it from the
// turns). A HyperX of rank L needs L VCs; the policy asks max_rank of its type.
//
// HyperXAdaptive: the order is drawn from the packet's `choice` (oblivious random
// dimension order) at the source, and then, with the network's queues
// (HopAdaptive), every router the head reaches takes the unaligned dimension whose
// output port has the shortest queue there, seeing that router's state alone; ties
// go to a draw from `choice`. The flow kernel spreads a pair's traffic evenly over
// all orders.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/hyperx.hpp>

namespace fabric {

struct HyperXAdaptive {
    template <class T>
    static constexpr bool fits = detail::is_hyperx_v<T>;
    template <class T>
    static constexpr std::size_t vcs_required = T::max_rank;
    static constexpr bool vc_levels_increase = true;
    static constexpr int level(std::size_t, std::uint8_t vc) { return vc; }

    template <class T>
    static constexpr std::size_t max_hops(const T& t) {
        return t.rank();
    }

    /// The route from src to dst whose next dimension `pick(at, unaligned, count)`
    /// names among the `count` still unaligned ones, its hops numbered from
    /// `first` (hop h holds VC h); its length.
    template <class T, class Pick>
    static constexpr std::size_t route(const T& t, NodeId src, NodeId dst, Hop* out, Pick&& pick,
                                       std::size_t first = 0) {
        std::array<std::uint32_t, T::max_rank> left{};
        std::uint32_t count = 0;
        for (std::uint32_t d = 0; d < t.rank(); ++d)
            if (t.coordinate(src, d) != t.coordinate(dst, d)) left[count++] = d;
        std::size_t len = 0;
        NodeId at = src;
        while (count > 0) {
            const std::uint32_t i = pick(at, left.data(), count);
            const std::uint32_t d = left[i];
            const std::uint32_t want = t.coordinate(dst, d);
            out[len] = Hop{at, t.port_to(at, d, want), static_cast<std::uint8_t>(first + len)};
            ++len;
            at = t.with_coordinate(at, d, want);
            left[i] = left[--count];
        }
        return len;
    }

    /// A random order of the unaligned dimensions, drawn from `choice`.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return route(t, src, dst, out, [&](NodeId, const std::uint32_t*, std::uint32_t count) {
            const auto i = static_cast<std::uint32_t>(choice % count);
            choice /= count;
            return i;
        });
    }

    /// At router `here`, hop `hop` of the route: the unaligned dimension whose port
    /// has the shortest queue here (ties: a draw from `choice`), then a drawn order.
    template <class T, class Router>
    constexpr std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t hop, std::uint64_t choice,
                                  Hop* out, const Router& router) const {
        choice = std::rotr(choice, static_cast<int>(7 * hop));
        return route(
            t, here, dst, out,
            [&](NodeId at, const std::uint32_t* left, std::uint32_t count) {
                const auto drawn = static_cast<std::uint32_t>(choice % count);
                choice /= count;
                if (at != here) return drawn;
                std::uint32_t best = drawn, least = std::numeric_limits<std::uint32_t>::max();
                for (std::uint32_t k = 0; k < count; ++k) {
                    const std::uint32_t i = (drawn + k) % count, d = left[i];
                    const std::uint32_t q = router.occupancy(t.port_to(at, d, t.coordinate(dst, d)));
                    if (q < least) least = q, best = i;
                }
                return best;
            },
            hop);
    }

    /// Every order of the unaligned dimensions, each with weight 1 / m! (m of them).
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::array<std::uint32_t, T::max_rank> order{};
        std::uint32_t m = 0;
        for (std::uint32_t d = 0; d < t.rank(); ++d)
            if (t.coordinate(src, d) != t.coordinate(dst, d)) order[m++] = d;
        double orders = 1;
        for (std::uint32_t i = 2; i <= m; ++i) orders *= i;
        std::array<Hop, T::max_rank> hops{};
        do {
            NodeId at = src;
            for (std::uint32_t h = 0; h < m; ++h) {
                const std::uint32_t d = order[h], want = t.coordinate(dst, d);
                hops[h] = Hop{at, t.port_to(at, d, want), static_cast<std::uint8_t>(h)};
                at = t.with_coordinate(at, d, want);
            }
            f(std::span<const Hop>(hops.data(), m), 1.0 / orders);
        } while (std::next_permutation(order.begin(), order.begin() + m));
    }

    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
    }

    /// Every dependency f(from, to) some route creates: from the channel of
    /// dimension d into router m on VC v to each channel of another dimension out
    /// of m on VC v + 1 (v + 2 hops at most: v < rank - 1).
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        for (std::uint32_t m = 0; m < t.node_count(); ++m)
            for (std::uint32_t d = 0; d < t.rank(); ++d)
                for (std::uint32_t from = 0; from < t.extent(d); ++from) {
                    const NodeId here{m};
                    if (from == t.coordinate(here, d)) continue;
                    const NodeId u = t.with_coordinate(here, d, from);
                    for (std::uint32_t v = 0; v + 1 < t.rank(); ++v) {
                        const Hop in{u, t.port_to(u, d, t.coordinate(here, d)), static_cast<std::uint8_t>(v)};
                        for (std::uint32_t e = 0; e < t.rank(); ++e) {
                            if (e == d) continue;
                            for (std::uint32_t to = 0; to < t.extent(e); ++to)
                                if (to != t.coordinate(here, e))
                                    f(in, Hop{here, t.port_to(here, e, to), static_cast<std::uint8_t>(v + 1)});
                        }
                    }
                }
    }
};

}  // namespace fabric
