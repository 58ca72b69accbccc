// Valiant routing on a dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): a
// packet to another group goes minimally to an intermediate group, drawn
// uniformly from all g groups, then minimally on to its destination. When the
// draw is the source's or the destination's own group the route is the minimal
// one; a packet within its group takes its one local link. Every global link then
// carries the same share of any traffic between groups: under the worst case
// (group i to group i + 1) each carries 2 a p / g for p units a router, so a
// balanced dragonfly (a = 2p = 2h, g = a h + 1) keeps above half of its
// injection bandwidth whatever the traffic (Valiant's bound).
//
// Virtual channels climb with the route: local 0, global 0, local 1 (in the
// intermediate group), global 1, local 2 (levels 2 vc for local links, 2 vc + 1
// for global ones). The minimal route keeps DragonflyMinimal's local 0, global 0,
// local 1, on the same levels. So local links need 3 VCs and global links 2.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/dragonfly.hpp>

namespace fabric {

struct DragonflyValiant {
    template <class T>
    static constexpr bool fits = detail::is_dragonfly_v<T>;
    /// Local links 3 VCs, global links 2.
    template <class T>
    static constexpr std::array<std::size_t, 2> vcs_required{3, 2};
    static constexpr bool vc_levels_increase = true;
    static constexpr int level(std::size_t link_class, std::uint8_t vc) {
        return link_class == 0 ? 2 * vc : 2 * vc + 1;
    }

    template <class T>
    static constexpr std::size_t max_hops(const T&) {
        return 5;
    }

    /// The route through intermediate group `via` (minimal when `via` is the
    /// source's or the destination's group); its length.
    template <class T>
    static constexpr std::size_t route_via(const T& t, NodeId src, NodeId dst, std::uint32_t via, Hop* out) {
        if (src == dst) return 0;
        const std::uint32_t gs = t.group_of(src), gd = t.group_of(dst);
        if (gs == gd) return DragonflyMinimal{}.select_route(t, src, dst, 0, out);
        std::size_t len = 0;
        if (via == gs || via == gd) {
            const NodeId landed = dragonfly_to_group(t, src, gd, 0, out, len);
            return dragonfly_last_local(t, landed, dst, 1, out, len);
        }
        const NodeId middle = dragonfly_to_group(t, src, via, 0, out, len);
        const NodeId landed = dragonfly_to_group(t, middle, gd, 1, out, len);
        return dragonfly_last_local(t, landed, dst, 2, out, len);
    }

    /// The route through group `choice` mod g.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return route_via(t, src, dst, static_cast<std::uint32_t>(choice % t.groups()), out);
    }

    /// Every distinct route with its share: 1/g through each other group, 2/g the
    /// minimal one (the draws of the two end groups); within a group, the one.
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::array<Hop, 5> hops{};
        const std::uint32_t gs = t.group_of(src), gd = t.group_of(dst), g = t.groups();
        if (gs == gd) {
            the_one_route<5>(*this, t, src, dst, f);
            return;
        }
        const double share = 1.0 / g;
        for (std::uint32_t via = 0; via < g; ++via)
            if (via != gs && via != gd) f(std::span<const Hop>(hops.data(), route_via(t, src, dst, via, hops.data())), share);
        f(std::span<const Hop>(hops.data(), route_via(t, src, dst, gs, hops.data())), 2 * share);
    }
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
    }
};

}  // namespace fabric
