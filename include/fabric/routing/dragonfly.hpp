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

struct DragonflyMinimal {
    template <class T>
    static constexpr bool fits = detail::is_dragonfly_v<T>;
    /// Local links 2 VCs (before and after the global hop), global links 1.
    template <class T>
    static constexpr std::array<std::size_t, 2> vcs_required{2, 1};
    static constexpr bool vc_levels_increase = true;
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
        const std::uint32_t gs = t.group_of(src), gd = t.group_of(dst), rs = t.router_of(src), rd = t.router_of(dst);
        if (gs == gd) {
            out[0] = Hop{src, T::local_port(rs, rd), 0};
            return 1;
        }
        std::size_t len = 0;
        const std::uint32_t j = t.slot_to(gs, gd), owner = t.slot_router(j);
        if (owner != rs) out[len++] = Hop{src, T::local_port(rs, owner), 0};
        out[len++] = Hop{t.node(gs, owner), t.slot_port(j), 0};
        const std::uint32_t arrive = t.slot_router(t.slot_to(gd, gs));
        if (arrive != rd) out[len++] = Hop{t.node(gd, arrive), T::local_port(arrive, rd), 1};
        return len;
    }

    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        the_one_route<3>(*this, t, src, dst, f);
    }
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
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
