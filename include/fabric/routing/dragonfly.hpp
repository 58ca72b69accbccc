// Minimal routing on a dragonfly (topology/dragonfly.hpp): to a router of the
// same group, the one local link; to another group, at most one local hop to the
// router that owns the global link to that group, the global link, and at most
// one local hop in the destination group. Local hops before the global one hold
// VC 0, the local hop after it VC 1, global hops VC 0: the levels local 0 <
// global 0 < local 1 climb along every route, so no cycle of channels waits.
//
// The deadlock check need not walk every pair's route: for_each_turn gives the
// distinct dependencies (channel, VC) -> (channel, VC) the routes create, in time
// linear in the global links times a (the routes of all pairs are N^2).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/dragonfly.hpp>

namespace fabric {

/// A route's way from router `from` to another group `to`: a local hop (VC
/// `vc`) to the router owning the global link to `to` unless `from` owns it,
/// then that link (VC `vc`), appended to out[len..]; the router it lands on.
template <class T>
constexpr NodeId dragonfly_to_group(const T& t, NodeId from, std::uint32_t to, std::uint8_t vc, Hop* out,
                                    std::size_t& len) {
    const std::uint32_t g = t.group_of(from), r = t.router_of(from);
    const std::uint32_t j = t.slot_to(g, to), owner = t.slot_router(j);
    if (owner != r) out[len++] = Hop{from, T::local_port(r, owner), vc};
    out[len++] = Hop{t.node(g, owner), t.slot_port(j), vc};
    return t.node(to, t.slot_router(t.slot_to(to, g)));
}

/// The local hop (VC `vc`) from `at` to `dst` in its group, unless they are one
/// router, appended; the route's length.
template <class T>
constexpr std::size_t dragonfly_last_local(const T& t, NodeId at, NodeId dst, std::uint8_t vc, Hop* out,
                                           std::size_t len) {
    if (at != dst) out[len++] = Hop{at, T::local_port(t.router_of(at), t.router_of(dst)), vc};
    return len;
}

struct DragonflyMinimal : OneRouteEach<DragonflyMinimal> {
    /// Room for a route: for_each_route and for_each_hop come from select_route.
    template <class T>
    static constexpr std::size_t route_room = 3;
    template <class T>
    static constexpr bool fits = detail::is_dragonfly_v<T>;
    /// Local links 2 VCs (before and after the global hop), global links 1.
    template <class T>
    static constexpr std::array<std::size_t, 2> vcs_required{2, 1};
    static constexpr bool vc_levels_increase = true;
    /// A route depends on the groups only through their difference (slot_to), so
    /// rotating the groups rotates every route (concepts/symmetry.hpp).
    template <class T>
    static constexpr bool commutes_with_translations = true;
    static constexpr int level(std::size_t link_class, std::uint8_t vc) {
        return link_class == 0 ? 2 * vc : 1;
    }

    template <class T>
    static constexpr std::size_t max_hops(const T&) {
        return 3;
    }

    /// The one route from src to dst into `out`; its length.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        if (src == dst) return 0;
        if (t.group_of(src) == t.group_of(dst)) {
            out[0] = Hop{src, T::local_port(t.router_of(src), t.router_of(dst)), 0};
            return 1;
        }
        std::size_t len = 0;
        const NodeId landed = dragonfly_to_group(t, src, t.group_of(dst), 0, out, len);
        return dragonfly_last_local(t, landed, dst, 1, out, len);
    }


    /// Every dependency f(from, to) that some route creates, each once: into a
    /// global link from every other router of its group, and out of it to every
    /// other router of the group it lands in.
    template <class T, class F>
    constexpr void for_each_turn(const T& t, F&& f) const {
        const std::uint32_t a = t.routers_per_group(), g = t.groups();
        for (std::uint32_t gs = 0; gs < g; ++gs)
            for (std::uint32_t gd = 0; gd < g; ++gd) {
                if (gs == gd) continue;
                const std::uint32_t j = t.slot_to(gs, gd), owner = t.slot_router(j);
                const Hop global{t.node(gs, owner), t.slot_port(j), 0};
                const std::uint32_t arrive = t.slot_router(t.slot_to(gd, gs));
                for (std::uint32_t r = 0; r < a; ++r) {
                    if (r != owner) f(Hop{t.node(gs, r), T::local_port(r, owner), 0}, global);
                    if (r != arrive) f(global, Hop{t.node(gd, arrive), T::local_port(arrive, r), 1});
                }
            }
    }
};

}  // namespace fabric
