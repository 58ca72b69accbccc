// E-cube routing on the hypercube (topology/hypercube.hpp): the dimensions in
// which source and destination differ are crossed lowest first, one hop each, on
// virtual channel 0. A packet only ever turns from a dimension to a higher one,
// so the channel-dependency graph orders the channels by dimension and has no
// cycle with a single VC (Dally and Seitz); for_each_turn names those turns, so
// the deadlock check is linear in them rather than in all pairs' routes. Every
// route is minimal: its length is the Hamming distance.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/hypercube.hpp>

namespace fabric {

struct ECube : OneRouteEach<ECube> {
    /// Room for a route: for_each_route and for_each_hop come from select_route.
    template <class T>
    static constexpr std::size_t route_room = T::ports_per_node;
    template <class T>
    static constexpr bool fits = detail::is_hypercube_v<T>;
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    /// The route crosses the dimensions where the ids differ, lowest first:
    /// XOR with a mask keeps the differing bits, so it moves the route with it.
    template <class T>
    static constexpr bool commutes_with_translations = true;

    template <class T>
    static constexpr std::size_t max_hops(const T& t) {
        return t.dimensions();
    }

    /// The one route from src to dst into `out`; its length.
    template <class T>
    constexpr std::size_t select_route(const T&, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        std::size_t len = 0;
        std::uint32_t at = src.value;
        for (std::uint32_t differ = src.value ^ dst.value; differ != 0; differ &= differ - 1) {
            const auto d = static_cast<std::uint32_t>(std::countr_zero(differ));
            out[len++] = Hop{NodeId{at}, PortId{d}, 0};
            at ^= std::uint32_t{1} << d;
        }
        return len;
    }


    /// Every dependency f(from, to) some route creates, each once: from the
    /// channel of dimension d into node m to each channel of a higher dimension
    /// out of m.
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        const std::uint32_t n = t.dimensions();
        for (std::uint32_t m = 0; m < t.node_count(); ++m)
            for (std::uint32_t d = 0; d < n; ++d)
                for (std::uint32_t up = d + 1; up < n; ++up)
                    f(Hop{NodeId{m ^ (std::uint32_t{1} << d)}, PortId{d}, 0}, Hop{NodeId{m}, PortId{up}, 0});
    }
};

}  // namespace fabric
