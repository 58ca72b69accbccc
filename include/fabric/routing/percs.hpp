// Routing on the PERCS network (Chakaravarthy et al., sections IV-A and V-A;
// Arimilli et al., section VI).
//
// Inside a supernode, traffic from u to v is either sent over the one L link
// (single hop) or striped over 8 paths u -> x -> v, x any node of u's drawer, the
// self-loops included (1/8 each): LL-LL inside a drawer, LL-LR across drawers.
// Between supernodes:
//  - Direct: striped over the n_d D links from a to b, paths L-D-L (1/n_d each).
//  - Indirect: striped over all n_s n_d D links out of a (self-loop and links to
//    b included, 1/(n_s n_d) each): L-D-L-D-L, where the second D hop leaves the
//    bucket the first one landed in.
//  - IndirectVia: software names the intermediate supernode (the hub's first
//    route-selection mode); striped over the n_d links from a to it.
// An L hop from a node to itself (the source holds the D port, the D link lands on
// the destination, a striped path bounces at its own end) either carries no load
// (ZeroHop::skip, the default) or loads the node's LL self-loop
// (ZeroHop::self_loop). The mapping paper's prose describes striping through the
// self-loop, but its Tables I, III and IV are reproduced, cell for cell, only when
// such hops carry no load, and the interconnect paper's all-to-all model counts no
// such hop either; so skip is the default and self_loop the variant.
//
// Virtual channels by hop position: the slots of the longest route L-D-L-D-L
// carry L VCs 0, 1, 2 and D VCs 0, 1; a shorter route uses the slots it reaches
// (L-L: L0, L1; L-D-L: L0, D0, L1). The level of a slot (L0 < D0 < L1 < D1 < L2)
// strictly increases along every route, so the channel-dependency graph is
// acyclic by construction (vc_levels_increase); tests confirm it with the full check.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <fabric/core/ids.hpp>
#include <fabric/routing/percs_vcs.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/topology/percs.hpp>

namespace fabric {

enum class IntraRoute : std::uint8_t { striped, single_hop };
enum class ZeroHop : std::uint8_t { self_loop, skip };

namespace detail {

/// Shared machinery of the PERCS policies: hop emission and the intra-supernode part.
template <IntraRoute Intra, ZeroHop Zero>
struct percs_routing_base {
    static constexpr IntraRoute intra = Intra;
    static constexpr ZeroHop zero_hop = Zero;
    static constexpr bool vc_levels_increase = true;

    template <class T>
    static constexpr bool fits = is_percs_v<T>;

    /// Level of a virtual channel: L0 < D0 < L1 < D1 < L2.
    static constexpr int level(std::size_t link_class, std::uint8_t vc) {
        return link_class == PercsTopology::D ? 2 * vc + 1 : 2 * vc;
    }

    /// A route under construction, with its weight: pushes hops, skipping or
    /// keeping self-loop L hops.
    struct path {
        std::array<Hop, 5> hops{};
        std::size_t size = 0;
        constexpr void l(std::uint32_t a, std::uint32_t from, std::uint32_t to, std::uint8_t vc) {
            if (from == to && Zero == ZeroHop::skip) return;
            hops[size++] = Hop{PercsTopology::node(a, from), PercsTopology::l_port(from, to), vc};
        }
        constexpr void d(const PercsTopology& t, std::uint32_t a, std::uint32_t from, std::uint32_t b, std::uint8_t vc) {
            hops[size++] = Hop{PercsTopology::node(a, from), t.d_port(a, from, b), vc};
        }
        [[nodiscard]] constexpr std::span<const Hop> view() const { return {hops.data(), size}; }
    };

    /// Calls f(path) for every intra-supernode path from u to v (u != v) and returns their count.
    template <class F>
    static constexpr std::size_t intra_paths(std::uint32_t a, std::uint32_t u, std::uint32_t v, F&& f) {
        if constexpr (Intra == IntraRoute::single_hop) {
            path p;
            p.l(a, u, v, 0);
            f(p);
            return 1;
        } else {
            const std::uint32_t base = PercsTopology::drawer_of_local(u) * PercsTopology::nodes_per_drawer;
            for (std::uint32_t x = base; x < base + PercsTopology::nodes_per_drawer; ++x) {
                path p;
                p.l(a, u, x, 0);
                p.l(a, x, v, 1);
                f(p);
            }
            return PercsTopology::nodes_per_drawer;
        }
    }

    /// Longest route: 5 hops (L-D-L-D-L).
    static constexpr std::size_t max_hops(const PercsTopology&) { return 5; }

    /// Writes the route numbered `choice` modulo the pair's route count into `out`
    /// (the cycle kernel's source routing: a uniformly random choice picks the
    /// striped paths with their fractions).
    template <class Derived>
    static constexpr std::size_t select_from(const Derived& self, const PercsTopology& t, NodeId src, NodeId dst,
                                   std::uint64_t choice, Hop* out) {
        std::size_t count = 0;
        self.for_each_route(t, src, dst, [&](std::span<const Hop>, double) { ++count; });
        if (count == 0) return 0;
        const std::uint64_t pick = choice % count;
        std::size_t index = 0, length = 0;
        self.for_each_route(t, src, dst, [&](std::span<const Hop> hops, double) {
            if (index++ == pick) {
                for (std::size_t i = 0; i < hops.size(); ++i) out[i] = hops[i];
                length = hops.size();
            }
        });
        return length;
    }

    /// select_from among the routes that cross no broken channel; returns a value
    /// above max_hops when every route of the pair is cut.
    template <class Derived>
    static constexpr std::size_t select_intact(const Derived& self, const PercsTopology& t, NodeId src, NodeId dst,
                                     std::uint64_t choice, Hop* out, std::span<const std::uint8_t> broken) {
        auto intact = [&](std::span<const Hop> hops) {
            for (const Hop& h : hops)
                if (broken[static_cast<std::size_t>(h.node.value) * PercsTopology::ports_per_node + h.port.value])
                    return false;
            return true;
        };
        std::size_t count = 0;
        self.for_each_route(t, src, dst, [&](std::span<const Hop> hops, double) { count += intact(hops); });
        if (src == dst) return 0;
        if (count == 0) return ~std::size_t{0};  // the pair is cut off: reported by the caller
        const std::uint64_t pick = choice % count;
        std::size_t index = 0, length = 0;
        self.for_each_route(t, src, dst, [&](std::span<const Hop> hops, double) {
            if (!intact(hops)) return;
            if (index++ == pick) {
                for (std::size_t i = 0; i < hops.size(); ++i) out[i] = hops[i];
                length = hops.size();
            }
        });
        return length;
    }

    /// The L-D-L-D-L path from (a, u) to (b, v) over the bucket-j D link from a to
    /// c, then the D link from the bucket it lands in to b.
    static path indirect_path(const PercsTopology& t, std::uint32_t a, std::uint32_t u, std::uint32_t c,
                              std::uint32_t j, std::uint32_t b, std::uint32_t v) {
        const std::uint32_t first = t.d_source_local(a, c, j), x = t.d_landing_local(a, c, j);
        const std::uint32_t jx = t.bucket_of_local(x);
        const std::uint32_t y = t.d_source_local(c, b, jx), z = t.d_landing_local(c, b, jx);
        path route;
        route.l(a, u, first, 0);
        route.d(t, a, first, c, 0);
        route.l(c, x, y, 1);
        route.d(t, c, y, b, 1);
        route.l(b, z, v, 2);
        return route;
    }

    template <class Derived, class F>
    static constexpr void routes_of(const Derived& self, const PercsTopology& t, NodeId src, NodeId dst, F&& f) {
        t.check_node(src);
        t.check_node(dst);
        if (src == dst) return;
        const std::uint32_t a = PercsTopology::supernode_of(src), b = PercsTopology::supernode_of(dst);
        const std::uint32_t u = PercsTopology::local_of(src), v = PercsTopology::local_of(dst);
        if (a == b) {
            const double w = 1.0 / (Intra == IntraRoute::striped ? PercsTopology::nodes_per_drawer : 1);
            intra_paths(a, u, v, [&](const path& p) { f(p.view(), w); });
            return;
        }
        self.inter_paths(t, a, u, b, v, f);
    }
};

/// The queries every PERCS policy answers the same way from its inter_paths:
/// for_each_route, for_each_hop and select_route (with and without broken links).
template <class Derived, IntraRoute Intra, ZeroHop Zero>
struct percs_route_queries : percs_routing_base<Intra, Zero> {
    using base = percs_routing_base<Intra, Zero>;
    template <class F>
    constexpr void for_each_route(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        base::routes_of(self(), t, src, dst, f);
    }
    template <class F>
    constexpr void for_each_hop(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        base::routes_of(self(), t, src, dst, [&](std::span<const Hop> hops, double w) {
            for (const Hop& h : hops) f(h.node, h.port, w);
        });
    }
    std::size_t select_route(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return base::select_from(self(), t, src, dst, choice, out);
    }
    std::size_t select_route(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out,
                             std::span<const std::uint8_t> broken) const {
        return base::select_intact(self(), t, src, dst, choice, out, broken);
    }

private:
    [[nodiscard]] constexpr const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace detail

/// Direct routing: L-D-L over the n_d D links joining the two supernodes.
template <IntraRoute Intra = IntraRoute::striped, ZeroHop Zero = ZeroHop::skip>
struct PercsDirect : detail::percs_route_queries<PercsDirect<Intra, Zero>, Intra, Zero> {
    using base = detail::percs_routing_base<Intra, Zero>;
    using typename base::path;

    /// Per link class (LL, LR, D): L0 and L1, D0.
    template <class T>
    static constexpr auto vcs_required = detail::percs_vcs<T>(2, 1);

    template <class F>
    constexpr void inter_paths(const PercsTopology& t, std::uint32_t a, std::uint32_t u, std::uint32_t b, std::uint32_t v,
                     F&& f) const {
        const std::uint32_t nd = t.d_links_per_pair();
        const double w = 1.0 / nd;
        for (std::uint32_t j = 0; j < nd; ++j) {
            const std::uint32_t p = t.d_source_local(a, b, j), q = t.d_landing_local(a, b, j);
            path route;
            route.l(a, u, p, 0);
            route.d(t, a, p, b, 0);
            route.l(b, q, v, 1);
            f(route.view(), w);
        }
    }

    /// The distinct turns (hop, next hop) of every pair's routes, for the deadlock
    /// check (routing/channel_dependency.hpp), without walking the n^2 pairs: inside
    /// a supernode u -> x -> v through x of u's drawer (x neither end); between a and
    /// b, over each of their D links p -> q, from any u != p of a onto it and from it
    /// to any v != q of b. O(n_s^2 n_d 32) turns: a 300-supernode system in a second.
    /// Where L hops to the node itself are kept (ZeroHop::self_loop) the check walks
    /// the routes instead.
    template <class F>
        requires(Zero == ZeroHop::skip)
    constexpr void for_each_turn(const PercsTopology& t, F&& f) const {
        constexpr std::uint32_t N = PercsTopology::nodes_per_supernode, D = PercsTopology::nodes_per_drawer;
        const auto l = [](std::uint32_t a, std::uint32_t from, std::uint32_t to, std::uint8_t vc) {
            return Hop{PercsTopology::node(a, from), PercsTopology::l_port(from, to), vc};
        };
        const std::uint32_t ns = t.supernodes(), nd = t.d_links_per_pair();
        for (std::uint32_t a = 0; a < ns; ++a) {
            if constexpr (Intra == IntraRoute::striped)
                for (std::uint32_t u = 0; u < N; ++u)
                    for (std::uint32_t x = u / D * D; x < u / D * D + D; ++x)
                        for (std::uint32_t v = 0; v < N && x != u; ++v)
                            if (v != u && v != x) f(l(a, u, x, 0), l(a, x, v, 1));
            for (std::uint32_t b = 0; b < ns; ++b)
                for (std::uint32_t j = 0; j < nd && b != a; ++j) {
                    const std::uint32_t p = t.d_source_local(a, b, j), q = t.d_landing_local(a, b, j);
                    const Hop dhop{PercsTopology::node(a, p), t.d_port(a, p, b), 0};
                    for (std::uint32_t u = 0; u < N; ++u)
                        if (u != p) f(l(a, u, p, 0), dhop);
                    for (std::uint32_t v = 0; v < N; ++v)
                        if (v != q) f(dhop, l(b, q, v, 1));
                }
        }
    }
};

/// Indirect routing: L-D-L-D-L over every D link out of the source supernode.
template <IntraRoute Intra = IntraRoute::striped, ZeroHop Zero = ZeroHop::skip>
struct PercsIndirect : detail::percs_route_queries<PercsIndirect<Intra, Zero>, Intra, Zero> {
    using base = detail::percs_routing_base<Intra, Zero>;
    using typename base::path;

    /// Per link class (LL, LR, D): L0, L1, L2 and D0, D1.
    template <class T>
    static constexpr auto vcs_required = detail::percs_vcs<T>(3, 2);

    template <class F>
    constexpr void inter_paths(const PercsTopology& t, std::uint32_t a, std::uint32_t u, std::uint32_t b, std::uint32_t v,
                     F&& f) const {
        const std::uint32_t ns = t.supernodes(), nd = t.d_links_per_pair();
        // With the bucket template every D link out of a is a path, the self-loop
        // and the links to b included. Without self-loops (the all-to-all model's
        // circulant wiring) the intermediate is any supernode other than a and b.
        const bool loops = t.d_self_loops();
        const double w = 1.0 / (loops ? static_cast<double>(ns) * nd : static_cast<double>(ns - 2) * nd);
        for (std::uint32_t c = 0; c < ns; ++c) {
            if (!loops && (c == a || c == b)) continue;
            for (std::uint32_t j = 0; j < nd; ++j) f(base::indirect_path(t, a, u, c, j, b, v).view(), w);
        }
    }
};

/// The mapping paper's accounting experiment (section VI.A, Table III): indirect
/// routing with the load of the middle L hop (the L hop inside the intermediate
/// supernode, between the two D hops) left uncounted, "to better understand" why
/// L links bind for n_d >= 4. Not a route the hub takes: for_each_hop omits that
/// hop (the flow kernel's loads), the routes themselves are PercsIndirect's.
template <IntraRoute Intra = IntraRoute::striped, ZeroHop Zero = ZeroHop::skip>
struct PercsIndirectMiddleLUncounted : PercsIndirect<Intra, Zero> {
    template <class F>
    constexpr void for_each_hop(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        const bool between = PercsTopology::supernode_of(src) != PercsTopology::supernode_of(dst);
        this->for_each_route(t, src, dst, [&](std::span<const Hop> hops, double w) {
            for (const Hop& h : hops)
                // Between supernodes the L hops on VC 1 are the middle ones (L0 D0 L1 D1 L2).
                if (!between || h.vc != 1 || t.link_class(h.node, h.port) == PercsTopology::D) f(h.node, h.port, w);
        });
    }
};

/// Software names the intermediate supernode: `choose(a, b, n_s)` returns c (not a, not b).
struct NextSupernode {
    std::uint32_t operator()(std::uint32_t a, std::uint32_t b, std::uint32_t ns) const {
        std::uint32_t c = (b + 1) % ns;
        while (c == a || c == b) c = (c + 1) % ns;
        return c;
    }
};

template <class Chooser = NextSupernode, IntraRoute Intra = IntraRoute::striped, ZeroHop Zero = ZeroHop::skip>
struct PercsIndirectVia : detail::percs_route_queries<PercsIndirectVia<Chooser, Intra, Zero>, Intra, Zero> {
    using base = detail::percs_routing_base<Intra, Zero>;
    using typename base::path;
    Chooser choose{};

    template <class T>
    static constexpr auto vcs_required = detail::percs_vcs<T>(3, 2);

    template <class F>
    constexpr void inter_paths(const PercsTopology& t, std::uint32_t a, std::uint32_t u, std::uint32_t b, std::uint32_t v,
                     F&& f) const {
        detail::require(t.supernodes() >= 3, "routing through a named intermediate supernode needs at least 3 "
                        "supernodes; this system has ", t.supernodes());
        const std::uint32_t c = choose(a, b, t.supernodes());
        detail::require(c < t.supernodes() && c != a && c != b, "the intermediate supernode must differ from the "
                        "source (", a, ") and the destination (", b, ") and be below ", t.supernodes(), "; got ", c);
        const std::uint32_t nd = t.d_links_per_pair();
        for (std::uint32_t j = 0; j < nd; ++j) f(base::indirect_path(t, a, u, c, j, b, v).view(), 1.0 / nd);
    }

};

/// The mapping paper's routing modes, striped inside supernodes.
using Direct = PercsDirect<>;
using Indirect = PercsIndirect<>;

}  // namespace fabric
