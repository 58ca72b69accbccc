// Minimal adaptive routing on the k-ary n-cube (topology/torus.hpp: torus and mesh),
// with an escape sub-network on the torus. Every route is minimal; at every router
// the head reaches (HopAdaptive), the packet takes, among the dimensions it still
// has to correct, the one whose output port has the shortest queue there.
//
// The cycle kernel asks a route for one output VC at each hop and the packet then
// waits for that VC alone (it does not wait on several VCs at once, as BookSim's VC
// allocator does for its min_adapt, Duato's protocol: that needs a VC allocator
// choosing among an output set, a router change left to the rebuilt kernel). So the
// whole channel-dependency graph, not only an escape sub-network's, must be acyclic,
// and it is, with few VCs, because every VC is a function of where the packet is and
// where it goes (the route's rest), never of where it has been:
//
//  - On a torus, a packet whose remaining way round some ring still crosses that
//    ring's wraparound link (its dateline) travels the escape sub-network: dimension
//    order on VCs 0 and 1, VC 1 up to and across the dateline of the ring it is in,
//    VC 0 after it (BookSim's dim_order_torus gives a whole leg the VC of its
//    crossing; here the VC is that of the leg's rest). Once no dateline is ahead it
//    routes adaptively, and never returns to the escape VCs: the number of datelines
//    ahead only falls.
//  - Adaptively, a packet holds VC base + c, base 2 on a torus (0 on a mesh), c its
//    class: bit d (d < n - 1) set when it still has to go the - way in dimension d.
//    A class only ever loses bits, and within one class every dimension but the last
//    is travelled one way only, without crossing a dateline; the last dimension is
//    never turned back in. So a cycle of waiting channels would have to go round a
//    ring of the last dimension one way, across its dateline: none can. This is the
//    double-y idea (Glass and Ni; Linder and Harden's virtual networks) on the
//    dimensions a packet still has to correct.
//
// VCs: 2 + 2^(n-1) on a torus of n dimensions (4 on a 2-D torus, as BookSim's
// min_adapt_torus, which uses VCs 0, 1 and 3), 2^(n-1) on a mesh (1 on a line). The
// deadlock check builds the graph from for_each_turn, the exact set of dependencies
// the routes create, and finds it acyclic (tests/runtime/minimal_adaptive.cpp
// compares it with the walk over every route). A tie (a destination k/2 away) goes
// the way bit d of the packet's `choice` says, as DorTieSplit. Without the network's
// state (select_route at the source, and the flow kernel) each hop takes one of the
// dimensions left at random, equally likely.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

struct MinimalAdaptive {
    template <class T>
    static constexpr bool fits = detail::is_kary_ncube_v<T>;
    /// Adaptive classes: 2^(n-1), one for each way of going in dimensions 0 to n - 2.
    template <class T>
    static constexpr std::size_t classes = std::size_t{1} << (T::rank - 1);
    /// The escape VCs (0 and 1) a torus has below its adaptive ones.
    template <class T>
    static constexpr std::size_t escape_vcs = T::wraparound ? 2 : 0;
    template <class T>
    static constexpr std::size_t vcs_required = escape_vcs<T> + classes<T>;

    template <class T>
    static constexpr std::size_t max_hops(const T& t) {
        return t.diameter();
    }

    /// Where a packet at a router stands with its destination: per dimension, the
    /// hops left, which way, and whether they cross the ring's dateline.
    template <class T>
    struct State {
        std::array<std::uint32_t, T::rank> left{};
        std::array<bool, T::rank> down{}, wraps{};
        bool escape = false;      // some dimension's hops left cross its dateline (torus)
        std::uint8_t vc_class = 0;  // adaptive: bit d when going - in dimension d < n - 1
        std::uint32_t dims = 0;     // dimensions with hops left
    };

    /// The state at `at` of a packet bound for `dst`; bit d of `ties` picks the way
    /// (1: -) of a dimension whose destination is exactly half a ring away.
    template <class T>
    static constexpr State<T> state(const T& t, NodeId at, NodeId dst, std::uint64_t ties) {
        State<T> s;
        const auto a = t.coord(at), b = t.coord(dst);
        for (std::size_t d = 0; d < T::rank; ++d) {
            const std::uint32_t k = t.extent(d), x = a[d], y = b[d];
            if (x == y) continue;
            if constexpr (T::wraparound) {
                const std::uint32_t forward = y > x ? y - x : y + k - x;
                const bool down = 2 * forward > k || (2 * forward == k && ((ties >> d) & 1U) != 0);
                s.left[d] = down ? k - forward : forward;
                s.down[d] = down;
                s.wraps[d] = down ? s.left[d] > x : x + s.left[d] >= k;
                s.escape = s.escape || s.wraps[d];
            } else {
                s.down[d] = y < x;
                s.left[d] = y < x ? x - y : y - x;
            }
            ++s.dims;
            if (s.down[d] && d + 1 < T::rank) s.vc_class = static_cast<std::uint8_t>(s.vc_class | (1U << d));
        }
        return s;
    }

    /// The hops a packet in state `s` at `at` may take next, into `out` (room for the
    /// rank); their count. Escape: the one hop of dimension order. Else one per
    /// dimension left, on the class's VC.
    template <class T>
    static constexpr std::uint32_t candidates(const State<T>& s, NodeId at, Hop* out) {
        std::uint32_t n = 0;
        for (std::size_t d = 0; d < T::rank; ++d) {
            if (s.left[d] == 0) continue;
            const PortId port = T::port(d, s.down[d] ? -1 : +1);
            if (s.escape) {
                out[0] = Hop{at, port, static_cast<std::uint8_t>(s.wraps[d] ? 1 : 0)};
                return 1;
            }
            out[n++] = Hop{at, port, static_cast<std::uint8_t>(escape_vcs<T> + s.vc_class)};
        }
        return n;
    }

    /// A draw in [0, count) for hop `h` of a packet whose choice is `choice`
    /// (splitmix64 of the two: each hop's draw independent of the others').
    static constexpr std::uint32_t draw(std::uint64_t choice, std::size_t h, std::uint32_t count) {
        std::uint64_t z = choice + 0x9e3779b97f4a7c15ULL * (h + 1);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return static_cast<std::uint32_t>(z % count);
    }

    /// The route from `at` to `dst`, its hops numbered from `first`: hop h takes the
    /// candidate pick(h, at, candidates, count) names. Its length.
    template <class T, class Pick>
    static constexpr std::size_t route(const T& t, NodeId at, NodeId dst, std::uint64_t choice, Hop* out, Pick&& pick,
                                       std::size_t first = 0) {
        std::array<Hop, T::rank> c{};
        std::size_t len = 0;
        for (;;) {
            const State<T> s = state(t, at, dst, choice);
            if (s.dims == 0) return len;
            const std::uint32_t n = candidates(s, at, c.data());
            out[len] = c[n == 1 ? 0 : pick(first + len, at, c.data(), n)];
            at = t.neighbour(at, out[len].port);
            ++len;
        }
    }

    /// Oblivious: each hop one of the dimensions left, drawn from `choice`.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return route(t, src, dst, choice, out,
                     [&](std::size_t h, NodeId, const Hop*, std::uint32_t n) { return draw(choice, h, n); });
    }

    /// At router `here` (hop `hop` of the route): the candidate whose port has the
    /// shortest queue there (ties: the first from a drawn one on); then drawn hops.
    template <class T, class Router>
    constexpr std::size_t reroute(const T& t, NodeId here, NodeId dst, std::size_t hop, std::uint64_t choice,
                                  Hop* out, const Router& router) const {
        return route(
            t, here, dst, choice, out,
            [&](std::size_t h, NodeId at, const Hop* c, std::uint32_t n) {
                const std::uint32_t drawn = draw(choice, h, n);
                if (at != here) return drawn;
                std::uint32_t best = drawn, least = std::numeric_limits<std::uint32_t>::max();
                for (std::uint32_t i = 0; i < n; ++i) {
                    const std::uint32_t j = (drawn + i) % n;
                    const std::uint32_t q = router.occupancy(c[j].port);
                    if (q < least) least = q, best = j;
                }
                return best;
            },
            hop);
    }

    /// The tie bits of a pair (bit d: dimension d's destination is half a ring away), each combination of them
    /// taken with an equal share by `each(ties, share)`.
    template <class T, class Each>
    static constexpr void for_each_tie(const T& t, NodeId src, NodeId dst, Each&& each) {
        std::uint64_t tied = 0;
        std::uint32_t count = 0;
        if constexpr (T::wraparound) {
            const auto a = t.coord(src), b = t.coord(dst);
            for (std::size_t d = 0; d < T::rank; ++d) {
                const std::uint32_t k = t.extent(d), forward = b[d] >= a[d] ? b[d] - a[d] : b[d] + k - a[d];
                if (forward != 0 && 2 * forward == k) tied |= std::uint64_t{1} << d, ++count;
            }
        }
        const double share = 1.0 / static_cast<double>(std::uint64_t{1} << count);
        for (std::uint64_t ties = tied;; ties = (ties - 1) & tied) {  // every subset of the tied bits
            each(ties, share);
            if (ties == 0) break;
        }
    }

    /// Every route the policy may take (whatever the queues), with its share when
    /// every choice is drawn as select_route draws it.
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::vector<Hop> hops(t.diameter() + 1);
        for_each_tie(t, src, dst, [&](std::uint64_t ties, double share) {
            walk_routes(t, src, dst, ties, hops, 0, share, f);
        });
    }

    /// Every channel the pair's traffic crosses, with its share, as select_route
    /// spreads it: the shares flow through the box of minimal routes in order of
    /// hops taken, each node's share split evenly over its candidates.
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        for_each_tie(t, src, dst, [&](std::uint64_t ties, double share) {
            const State<T> s0 = state(t, src, dst, ties);
            std::array<std::size_t, T::rank> step{};
            std::size_t cells = 1;
            for (std::size_t d = 0; d < T::rank; ++d) {
                step[d] = cells;
                cells *= s0.left[d] + 1;
            }
            std::vector<double> mass(cells, 0.0);
            mass[0] = share;
            std::array<Hop, T::rank> c{};
            for (std::size_t i = 0; i < cells; ++i) {
                if (mass[i] == 0.0) continue;
                auto coord = t.coord(src);  // the node i cells into the box: left[d] - (hops still to go) in d
                for (std::size_t d = 0, rest = i; d < T::rank; ++d) {
                    const std::uint32_t k = t.extent(d), moved = static_cast<std::uint32_t>(rest % (s0.left[d] + 1));
                    rest /= s0.left[d] + 1;
                    coord[d] = s0.down[d] ? (coord[d] + k - moved % k) % k : (coord[d] + moved) % k;
                }
                const NodeId at = t.node(coord);
                const State<T> s = state(t, at, dst, ties);
                const std::uint32_t n = candidates(s, at, c.data());
                for (std::uint32_t j = 0; j < n; ++j) {
                    f(c[j].node, c[j].port, mass[i] / n);
                    mass[i + step[T::port_dimension(c[j].port)]] += mass[i] / n;
                }
            }
        });
    }

    /// Every dependency (hop into a router, hop out of it) some route creates, once
    /// each for the most part: for every router and every destination as it looks
    /// from there (per dimension, which of the few cases the destination's
    /// coordinate is: hops left none, one or more, which way, dateline ahead before
    /// and after the hop), each candidate hop, and each candidate after it.
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        std::array<std::vector<std::array<std::uint32_t, 2>>, T::rank> kinds{};  // per dimension: (coordinate, tie bit)
        std::array<Hop, T::rank> first{}, second{};
        for (std::uint32_t p = 0; p < t.node_count(); ++p) {
            const NodeId at{p};
            const auto a = t.coord(at);
            for (std::size_t d = 0; d < T::rank; ++d) {
                kinds[d].clear();
                std::vector<std::uint32_t> seen;
                for (std::uint32_t y = 0; y < t.extent(d); ++y)
                    for (std::uint32_t tie = 0; tie < 2; ++tie) {
                        const std::uint32_t key = kind(t, d, a[d], y, tie);
                        bool known = false;
                        for (const auto s : seen) known = known || s == key;
                        if (known) continue;
                        seen.push_back(key);
                        kinds[d].push_back({y, tie});
                    }
            }
            std::array<std::size_t, T::rank> pick{};
            for (;;) {
                auto b = a;
                std::uint64_t ties = 0;
                for (std::size_t d = 0; d < T::rank; ++d) {
                    b[d] = kinds[d][pick[d]][0];
                    ties |= std::uint64_t{kinds[d][pick[d]][1]} << d;
                }
                const NodeId dst = t.node(b);
                const std::uint32_t n1 = candidates(state(t, at, dst, ties), at, first.data());
                for (std::uint32_t i = 0; i < n1; ++i) {
                    const NodeId m = t.neighbour(at, first[i].port);
                    const std::uint32_t n2 = candidates(state(t, m, dst, ties), m, second.data());
                    for (std::uint32_t j = 0; j < n2; ++j) f(first[i], second[j]);
                }
                std::size_t d = 0;
                while (d < T::rank && ++pick[d] == kinds[d].size()) pick[d++] = 0;
                if (d == T::rank) break;
            }
        }
    }

private:
    /// Which case coordinate y (with tie bit `tie`) is in dimension d seen from x:
    /// every decision about a hop from x and the one after it depends on this alone.
    template <class T>
    static constexpr std::uint32_t kind(const T& t, std::size_t d, std::uint32_t x, std::uint32_t y,
                                        std::uint32_t tie) {
        const std::uint32_t k = t.extent(d);
        std::uint32_t left = 0, wraps = 0, wraps_after = 0, down = 0;
        if (x != y) {
            if constexpr (T::wraparound) {
                const std::uint32_t forward = y > x ? y - x : y + k - x;
                down = 2 * forward > k || (2 * forward == k && tie != 0) ? 1 : 0;
                left = down ? k - forward : forward;
                wraps = down ? left > x : x + left >= k;
                const std::uint32_t next = down ? (x + k - 1) % k : (x + 1) % k;  // after a hop in d
                wraps_after = left > 1 && (down ? left - 1 > next : next + left - 1 >= k);
            } else {
                down = y < x ? 1 : 0;
                left = y < x ? x - y : y - x;
            }
        }
        return (left < 2 ? left : 2) | down << 2 | wraps << 3 | wraps_after << 4;
    }

    template <class T, class F>
    constexpr void walk_routes(const T& t, NodeId at, NodeId dst, std::uint64_t ties, std::vector<Hop>& hops,
                               std::size_t len, double share, F& f) const {
        const State<T> s = state(t, at, dst, ties);
        if (s.dims == 0) {
            f(std::span<const Hop>(hops.data(), len), share);
            return;
        }
        std::array<Hop, T::rank> c{};
        const std::uint32_t n = candidates(s, at, c.data());
        for (std::uint32_t i = 0; i < n; ++i) {
            hops[len] = c[i];
            walk_routes(t, t.neighbour(at, c[i].port), dst, ties, hops, len + 1, share / n, f);
        }
    }
};

}  // namespace fabric
