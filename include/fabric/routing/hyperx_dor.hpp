// Dimension-order routing on a HyperX (topology/hyperx.hpp): correct the
// coordinates lowest dimension first, each in one hop (a dimension is all-to-all),
// one VC. A packet only turns from a dimension to a higher one, and a dimension
// takes one hop, so no cycle of channels waits (one VC suffices).
//
// The deadlock check need not walk every pair's route: for_each_turn gives the
// distinct dependencies, from each channel of dimension d into a router to each
// channel of a higher dimension out of it.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/hyperx.hpp>

namespace fabric {

struct HyperXDimensionOrder : OneRouteEach<HyperXDimensionOrder> {
    /// Room for a route: for_each_route and for_each_hop come from select_route.
    template <class T>
    static constexpr std::size_t route_room = T::max_rank;
    template <class T>
    static constexpr bool fits = detail::is_hyperx_v<T>;
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    /// A route's hop in dimension d depends only on the two coordinates there, so
    /// translating a pair translates its route (concepts/symmetry.hpp).
    template <class T>
    static constexpr bool commutes_with_translations = true;

    template <class T>
    static constexpr std::size_t max_hops(const T& t) {
        return t.rank();
    }

    /// The one route from src to dst into `out`; its length.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        std::size_t len = 0;
        NodeId at = src;
        for (std::uint32_t d = 0; d < t.rank(); ++d) {
            const std::uint32_t want = t.coordinate(dst, d);
            if (t.coordinate(at, d) == want) continue;
            out[len++] = Hop{at, t.port_to(at, d, want), 0};
            at = t.with_coordinate(at, d, want);
        }
        return len;
    }


    /// Every dependency f(from, to) some route creates, each once: from each
    /// channel of dimension d into router m to each channel of a higher dimension
    /// out of m.
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        for (std::uint32_t m = 0; m < t.node_count(); ++m)
            for (std::uint32_t d = 0; d < t.rank(); ++d)
                for (std::uint32_t from = 0; from < t.extent(d); ++from) {
                    if (from == t.coordinate(NodeId{m}, d)) continue;
                    const NodeId u = t.with_coordinate(NodeId{m}, d, from);
                    const Hop in{u, t.port_to(u, d, t.coordinate(NodeId{m}, d)), 0};
                    for (std::uint32_t up = d + 1; up < t.rank(); ++up)
                        for (std::uint32_t to = 0; to < t.extent(up); ++to)
                            if (to != t.coordinate(NodeId{m}, up)) f(in, Hop{NodeId{m}, t.port_to(NodeId{m}, up, to), 0});
                }
    }
};

}  // namespace fabric
