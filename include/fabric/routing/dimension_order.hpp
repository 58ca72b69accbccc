// Dimension-order routing on the k-ary n-cube: correct dimension 0 first, then 1,
// and so on, each along the shorter way round its ring.
//
// On an even ring, a destination k/2 away is as near one way as the other. Two
// named policies settle the tie: DorTiePositive always goes the + way;
// DorTieSplit sends half the pair's traffic each way (for_each_route then
// returns both paths, each with fraction 1/2 per tied dimension).
//
// Virtual channels come from a VC rule (routing/vc_rules.hpp: NoDateline, Dateline,
// DatelineWholeRing).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/routing/vc_rules.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

enum class TieRule : std::uint8_t { positive, split };

template <TieRule Tie, class VcRule = Dateline>
struct DimensionOrder {
    static constexpr TieRule tie = Tie;
    using vc_rule = VcRule;
    /// A route's channel dependencies never lead from a dimension to a lower one,
    /// so cycles can only lie within one ring: the deadlock check may test rings alone.
    /// A route is its dimensions' legs in turn, each from the source's coordinate to
    /// the destination's (for_each_leg), so the flow kernel may take a torus's loads
    /// ring by ring.
    static constexpr bool dimension_separable = true;
    /// On a torus a leg depends only on how far the destination is round the ring
    /// and which way, so translating a pair translates its hops (concepts/symmetry.hpp).
    template <class T>
    static constexpr bool commutes_with_translations = T::wraparound;

    template <class T>
    static constexpr bool fits = detail::is_kary_ncube_v<T>;

    template <class T>
    static constexpr std::size_t vcs_required = T::wraparound ? VcRule::vcs : 1;

    /// Every channel the pair's traffic crosses, with the fraction crossing it.
    template <class T, class F>
    constexpr void for_each_hop(const T& topo, NodeId src, NodeId dst, F&& f) const {
        const auto cs = topo.coord(src);
        const auto cd = topo.coord(dst);
        std::uint32_t at = src.value;
        for (std::size_t d = 0; d < T::rank; ++d) {
            if (cs[d] == cd[d]) continue;
            for_each_leg_walk(topo, d, cs[d], cd[d], [&](int direction, std::uint32_t hops, double fraction) {
                walk(topo, d, at, cs[d], hops, direction, fraction, f);
            });
            at = static_cast<std::uint32_t>(at + (static_cast<std::int64_t>(cd[d]) - cs[d]) * topo.stride(d));
        }
    }

    /// The hops of a route's leg in dimension d from coordinate `from` to `to`:
    /// f(position, port, fraction) for each, the position being the coordinate in d
    /// the hop leaves from. for_each_hop is these legs, dimension by dimension.
    template <class T, class F>
    constexpr void for_each_leg(const T& topo, std::size_t d, std::uint32_t from, std::uint32_t to, F&& f) const {
        if (from == to) return;
        for_each_leg_walk(topo, d, from, to, [&](int direction, std::uint32_t hops, double fraction) {
            const PortId port = T::port(d, direction);
            const std::uint32_t k = topo.extent(d);
            for (std::uint32_t h = 0, x = from; h < hops; ++h) {
                f(x, port, fraction);
                x = direction > 0 ? (x + 1 == k ? 0 : x + 1) : (x == 0 ? k - 1 : x - 1);
            }
        });
    }

    /// Every distinct path, with its fraction of the pair's traffic.
    template <class T, class F>
    constexpr void for_each_route(const T& topo, NodeId src, NodeId dst, F&& f) const {
        const auto cs = topo.coord(src);
        const auto cd = topo.coord(dst);
        std::array<Leg, T::rank> legs{};
        std::size_t tied = 0;
        for (std::size_t d = 0; d < T::rank; ++d) {
            if (cs[d] == cd[d]) continue;
            legs[d] = plan(topo, d, cs[d], cd[d]);
            if (legs[d].tied && Tie == TieRule::split) ++tied;
        }
        const double fraction = 1.0 / static_cast<double>(std::size_t{1} << tied);
        std::vector<Hop> hops;
        hops.reserve(topo.diameter() + 1);
        for (std::size_t mask = 0; mask < (std::size_t{1} << tied); ++mask) {
            hops.clear();
            std::uint32_t at = src.value;
            std::size_t bit = 0;
            for (std::size_t d = 0; d < T::rank; ++d) {
                if (cs[d] == cd[d]) continue;
                Leg leg = legs[d];
                if (leg.tied && Tie == TieRule::split) {
                    if ((mask >> bit++) & 1U) {
                        leg.direction = -1;
                        leg.hops = topo.extent(d) - leg.forward;
                    } else {
                        leg.direction = +1;
                        leg.hops = leg.forward;
                    }
                }
                std::uint8_t vc = first_vc(topo, d, cs[d], leg);
                std::uint32_t x = cs[d];
                for (std::uint32_t h = 0; h < leg.hops; ++h) {
                    const PortId port = T::port(d, leg.direction);
                    if constexpr (VcRule::vcs > 1 && !detail::whole_ring_v<VcRule>) {
                        if (topo.is_wraparound(NodeId{at}, port)) vc = 1;
                    }
                    hops.push_back(Hop{NodeId{at}, port, vc});
                    step(topo, d, at, x, leg.direction);
                }
            }
            f(std::span<const Hop>(hops), fraction);
        }
    }

    /// Longest route: the diameter.
    template <class T>
    static constexpr std::size_t max_hops(const T& topo) {
        return topo.diameter();
    }
    /// Longest route when detours round broken links are allowed: sum of (k - 1).
    template <class T>
    static constexpr std::size_t max_detour_hops(const T& topo) {
        std::size_t hops = 0;
        for (std::size_t d = 0; d < T::rank; ++d) hops += topo.extent(d) > 0 ? topo.extent(d) - 1 : 0;
        return hops;
    }

    /// Writes one route into `out` (room for max_hops: hops, or what a Hop assigns to, as
    /// the cycle kernel's route steps) and returns its length, without allocating. With
    /// the tie split, bit d of `choice` picks the direction of a tied dimension d, so
    /// uniformly random choices split tied traffic evenly.
    template <class T, class Out>
    constexpr std::size_t select_route(const T& topo, NodeId src, NodeId dst, std::uint64_t choice, Out* out) const {
        return select_route(topo, src, dst, choice, out, std::span<const std::uint8_t>{});
    }

    static constexpr std::size_t unroutable = ~std::size_t{0};  // no route avoids the broken links

    /// select_route avoiding broken channels (`broken[channel_index]` nonzero): in
    /// each dimension the preferred direction, or else the other way round the
    /// ring (on a torus). Still dimension ordered, and a path shorter than a ring
    /// crosses its dateline at most once, so the dateline keeps it deadlock free.
    /// Returns `unroutable` when both ways round some ring are cut. No broken channels given: no checks.
    template <class T, class Out>
    [[gnu::always_inline]] constexpr std::size_t select_route(const T& topo, NodeId src, NodeId dst,
                                                              std::uint64_t choice, Out* out,
                                                              std::span<const std::uint8_t> broken) const {
        const auto cs = topo.coord(src);
        const auto cd = topo.coord(dst);
        std::size_t n = 0;
        std::uint32_t at = src.value;
#pragma GCC unroll 4
        for (std::size_t d = 0; d < T::rank; ++d) {  // unrolled: the coordinates stay in registers
            if (cs[d] == cd[d]) continue;
            Leg leg = plan(topo, d, cs[d], cd[d]);
            if (leg.tied && Tie == TieRule::split && ((choice >> d) & 1U)) {
                leg.direction = -1;
                leg.hops = topo.extent(d) - leg.forward;
            }
            auto intact = [&](int direction, std::uint32_t hops) {
                std::uint32_t node = at, x = cs[d];
                const PortId port = T::port(d, direction);
                for (std::uint32_t h = 0; h < hops; ++h) {
                    if (broken[channel_index<T>(NodeId{node}, port)]) return false;
                    step(topo, d, node, x, direction);
                }
                return true;
            };
            if (!broken.empty() && !intact(leg.direction, leg.hops)) {
                if (!T::wraparound) return unroutable;
                const int other = -leg.direction;
                const std::uint32_t other_hops = topo.extent(d) - leg.hops;
                if (!intact(other, other_hops)) return unroutable;
                leg.direction = other;
                leg.hops = other_hops;
            }
            n = emit_leg(topo, d, cs[d], leg, at, out, n);
        }
        return n;
    }

    /// Every dependency (channel, VC) -> (channel, VC) that some route creates,
    /// for the deadlock check, in O(N k) per dimension rather than the O(N^2 k) of
    /// walking every pair's route: the legs from one node in one direction are
    /// prefixes of the longest such leg, so walking the longest gives every turn
    /// within a dimension, and each of its prefixes may end there and turn into
    /// the first hop of any later dimension.
    /// (Not for DatelineWholeRing, whose VC on a hop depends on where the leg
    /// ends: its deadlock check walks the routes.)
    template <class T, class F>
        requires(!detail::whole_ring_v<VcRule>)
    constexpr void for_each_turn(const T& topo, F&& f) const {
        // longest[d][x]: the longest leg from coordinate x of dimension d, + and -.
        std::array<std::vector<std::array<std::uint32_t, 2>>, T::rank> longest{};
        for (std::size_t d = 0; d < T::rank; ++d) {
            const std::uint32_t k = topo.extent(d);
            longest[d].assign(k, {0, 0});
            for (std::uint32_t x = 0; x < k; ++x)
                for (std::uint32_t y = 0; y < k; ++y) {
                    if (y == x) continue;
                    const Leg leg = plan(topo, d, x, y);
                    auto& l = longest[d][x];
                    if (leg.tied && Tie == TieRule::split) {
                        l[0] = std::max(l[0], leg.forward);
                        l[1] = std::max(l[1], k - leg.forward);
                    } else {
                        l[leg.direction > 0 ? 0 : 1] = std::max(l[leg.direction > 0 ? 0 : 1], leg.hops);
                    }
                }
        }
        auto first_hop = [&](std::uint32_t at, std::size_t d, int direction) {
            const PortId port = T::port(d, direction);
            std::uint8_t vc = 0;
            if constexpr (VcRule::vcs > 1) vc = topo.is_wraparound(NodeId{at}, port) ? 1 : 0;
            return Hop{NodeId{at}, port, vc};
        };
        const auto n = static_cast<std::uint32_t>(topo.node_count());
        for (std::size_t d = 0; d < T::rank; ++d)
            for (std::uint32_t start = 0; start < n; ++start)
                for (int side = 0; side < 2; ++side) {
                    const int direction = side == 0 ? +1 : -1;
                    std::uint32_t at = start, x = topo.coord(NodeId{start})[d];
                    std::uint8_t vc = 0;
                    Hop previous{};
                    for (std::uint32_t h = 0, hops = longest[d][x][side]; h < hops; ++h) {
                        Hop hop = first_hop(at, d, direction);
                        vc = hop.vc > vc ? hop.vc : vc;  // VC 1 from the dateline on
                        hop.vc = vc;
                        if (h > 0) f(previous, hop);
                        step(topo, d, at, x, direction);
                        const auto there = topo.coord(NodeId{at});
                        for (std::size_t next = d + 1; next < T::rank; ++next)
                            for (int s2 = 0; s2 < 2; ++s2)
                                if (longest[next][there[next]][s2] > 0) f(hop, first_hop(at, next, s2 == 0 ? +1 : -1));
                        previous = hop;
                    }
                }
    }

private:
    struct Leg {
        std::uint32_t forward = 0;  // hops going +
        std::uint32_t hops = 0;     // hops the chosen way
        int direction = +1;
        bool tied = false;
    };

    /// The walks of one leg: g(direction, hops, fraction), twice (each way, half the
    /// traffic) for a tie that the policy splits.
    template <class T, class G>
    static constexpr void for_each_leg_walk(const T& topo, std::size_t d, std::uint32_t from, std::uint32_t to, G&& g) {
        const Leg leg = plan(topo, d, from, to);
        if (leg.tied && Tie == TieRule::split) {
            g(+1, leg.forward, 0.5);
            g(-1, topo.extent(d) - leg.forward, 0.5);
        } else {
            g(leg.direction, leg.hops, 1.0);
        }
    }

    template <class T>
    static constexpr Leg plan(const T& topo, std::size_t d, std::uint32_t a, std::uint32_t b) {
        const std::uint32_t k = topo.extent(d);
        Leg leg;
        if constexpr (T::wraparound) {
            leg.forward = b >= a ? b - a : b + k - a;
            const std::uint32_t backward = k - leg.forward;
            leg.tied = leg.forward == backward;
            leg.direction = leg.forward <= backward ? +1 : -1;
            leg.hops = leg.direction > 0 ? leg.forward : backward;
        } else {
            leg.direction = b > a ? +1 : -1;
            leg.hops = b > a ? b - a : a - b;
            leg.forward = leg.hops;
        }
        return leg;
    }

    /// The VC of a leg's first hop from coordinate x: under DatelineWholeRing, 1 when
    /// the leg crosses the ring's wraparound (and then for all its hops); else 0
    /// (the Dateline rule raises it at the wraparound hop).
    template <class T>
    static constexpr std::uint8_t first_vc(const T& topo, std::size_t d, std::uint32_t x, const Leg& leg) {
        if constexpr (detail::whole_ring_v<VcRule> && T::wraparound) {
            const bool crosses = leg.direction > 0 ? x + leg.hops >= topo.extent(d) : leg.hops > x;
            return crosses ? 1 : 0;
        } else {
            return 0;
        }
    }

    /// Writes the hops of one dimension's leg from `at` (coordinate x) into out[n..],
    /// with the dateline VC rule; advances `at` and returns the new count. A leg is at
    /// most two runs of evenly spaced nodes: up to the hop that wraps round the ring
    /// (the one leaving its last position going +, its first going -), and after it.
    template <class T, class Out>
    static constexpr std::size_t emit_leg(const T& topo, std::size_t d, std::uint32_t x, const Leg& leg,
                                          std::uint32_t& at, Out* out, std::size_t n) {
        std::uint8_t vc = first_vc(topo, d, x, leg);
        const PortId port = T::port(d, leg.direction);
        const std::uint32_t k = topo.extent(d);
        const std::uint32_t s = topo.stride(d);
        const bool up = leg.direction > 0;
        const std::uint32_t delta = up ? s : 0U - s;  // from one node of a run to the next (mod 2^32)
        auto put = [&](std::size_t i, std::uint32_t node) {  // a Hop field by field, not built and copied
            if constexpr (std::is_same_v<Out, Hop>) { out[i].node = NodeId{node}; out[i].port = port; out[i].vc = vc; }
            else out[i] = Hop{NodeId{node}, port, vc};  // a step that keeps only what it needs
        };
        auto run = [&](std::uint32_t count) {
            for (std::uint32_t h = 0; h < count; ++h) put(n + h, at + h * delta);
            n += count;
            at += count * delta;
        };
        const std::uint32_t to_wrap = up ? k - x : x + 1;  // hops up to and including the wrapping one
        if constexpr (requires { Out::fill(out, n, leg.hops, Hop{}); }) {
            // A step type that keeps only port and VC and writes a run of them at once:
            // the whole leg, then from the wrapping hop on with the dateline's VC.
            Out::fill(out, n, leg.hops, Hop{NodeId{at}, port, vc});
            if constexpr (VcRule::vcs > 1 && !detail::whole_ring_v<VcRule> && T::wraparound)
                if (leg.hops >= to_wrap) Out::fill(out, n + to_wrap - 1, leg.hops - to_wrap + 1, Hop{NodeId{at}, port, 1});
            at = leg.hops < to_wrap ? at + leg.hops * delta : at + (leg.hops - k) * delta;  // round the ring
            return n + leg.hops;
        }
        if (leg.hops < to_wrap) {
            run(leg.hops);
            return n;
        }
        run(to_wrap - 1);
        if constexpr (VcRule::vcs > 1 && !detail::whole_ring_v<VcRule> && T::wraparound) vc = 1;
        put(n++, at);
        at = up ? at - (k - 1) * s : at + (k - 1) * s;  // round to the ring's other end
        run(leg.hops - to_wrap);
        return n;
    }

    template <class T>
    static constexpr void step(const T& topo, std::size_t d, std::uint32_t& at, std::uint32_t& x, int direction) {
        const std::uint32_t k = topo.extent(d);
        const std::uint32_t s = topo.stride(d);
        if (direction > 0) {
            if (x + 1 == k) { at -= x * s; x = 0; }
            else { at += s; ++x; }
        } else {
            if (x == 0) { at += (k - 1) * s; x = k - 1; }
            else { at -= s; --x; }
        }
    }

    template <class T, class F>
    static constexpr void walk(const T& topo, std::size_t d, std::uint32_t at, std::uint32_t x, std::uint32_t hops,
                               int direction, double weight, F& f) {
        const PortId port = T::port(d, direction);
        for (std::uint32_t h = 0; h < hops; ++h) {
            f(NodeId{at}, port, weight);
            step(topo, d, at, x, direction);
        }
    }
};

/// Dimension order; ties at k/2 always resolved in the + direction.
template <class VcRule = Dateline>
using DorTiePositive = DimensionOrder<TieRule::positive, VcRule>;
/// Dimension order; ties at k/2 split evenly between the two directions.
template <class VcRule = Dateline>
using DorTieSplit = DimensionOrder<TieRule::split, VcRule>;

}  // namespace fabric
