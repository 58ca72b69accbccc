// UGAL on a dragonfly (Kim, Dally, Scott and Abts, ISCA 2008, after Singh's
// universal globally-adaptive load balancing): at its source each packet to
// another group weighs its minimal route against one Valiant route (through the
// group its random draw names) and takes the cheaper, the minimal one on a tie.
//  - UGAL-L (Global = false) sees only its own router: the cost of a route is the
//    occupancy of its first output port times its hop count.
//  - UGAL-G (Global = true) is the idealised variant with a view of every router:
//    the cost is the occupancy of the route's global channels, summed, times its
//    hop count.
// Occupancy is what the cycle kernel reports (concepts/routing.hpp: the flits an
// output port has sent that still hold the far end's buffers, all VCs).
//
// Its routes are Valiant's (minimal ones included) on Valiant's VCs, so the
// levels climb along each (3 VCs on local links, 2 on global ones) and no cycle
// of channels waits. The flow kernel, which has no network state, sees Valiant's
// shares over those routes; without a network view (select_route with five
// arguments) a packet takes the minimal route, as on an idle network.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>

namespace fabric {

template <bool Global>
struct DragonflyUgal : DragonflyValiant {
    static constexpr bool global_view = Global;

    /// The cost of a route of `len` hops in `net`'s state: its queue estimate times
    /// its hop count.
    template <class T, class Net>
    static constexpr std::uint64_t cost(const T& t, const Hop* hops, std::size_t len, const Net& net) {
        std::uint64_t flits = 0;
        if constexpr (Global) {
            for (std::size_t i = 0; i < len; ++i)
                if (t.link_class(hops[i].node, hops[i].port) == T::global_class)
                    flits += net.occupancy(hops[i].node, hops[i].port);
        } else {
            flits = net.occupancy(hops[0].node, hops[0].port);
        }
        return flits * len;
    }

    /// Minimal or the Valiant route through group `choice` mod g, whichever costs less.
    template <class T, class Net>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out,
                                       const Net& net) const {
        const std::uint32_t gs = t.group_of(src), gd = t.group_of(dst);
        const auto via = static_cast<std::uint32_t>(choice % t.groups());
        const std::size_t min_len = route_via(t, src, dst, gs, out);
        if (gs == gd || via == gs || via == gd) return min_len;
        // A minimal route that costs nothing wins whatever the other costs (a tie is
        // the minimal route's): the Valiant route is not needed.
        const std::uint64_t min_cost = cost(t, out, min_len, net);
        if (min_cost == 0) return min_len;
        std::array<Hop, 5> valiant{};
        const std::size_t val_len = route_via(t, src, dst, via, valiant.data());
        if (min_cost <= cost(t, valiant.data(), val_len, net)) return min_len;
        std::copy_n(valiant.data(), val_len, out);
        return val_len;
    }

    /// With no view of the network: the minimal route, as an idle network would give.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return select_route(t, src, dst, choice, out, detail::idle_network{});
    }
};

using DragonflyUgalL = DragonflyUgal<false>;
using DragonflyUgalG = DragonflyUgal<true>;

}  // namespace fabric
