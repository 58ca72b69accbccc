// cycle_sim on a k-ary n-cube (torus or mesh) of one rank under dimension-order
// routing (the tie rule, VC count and dateline are types, so each rank holds six
// simulators on a torus and two on a mesh) or minimal adaptive routing (its VCs: 2 + 2^(n-1) on a torus,
// 2^(n-1) on a mesh); cube_rank<N>.cpp instantiates one rank apiece.
#pragma once

#include <cstddef>
#include <type_traits>

#include "run.hpp"

namespace fabric_apps::cycle_sim {

template <std::size_t Rank, Boundary B, std::size_t Vcs, TieRule Tie, class VcRule = Dateline>
int with_fabric(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using T = KAryNCube<Rank, BasicLink<Vcs>, DynamicExtents, B>;
    using Net = Fabric<T, DimensionOrder<Tie, std::conditional_t<Vcs == 1, NoDateline, VcRule>>>;
    // Checked for deadlock after the run's estimates (simulate_on); one VC on a torus can
    // deadlock: allowed here, so that the watchdog can show it.
    const Net net(T(s.dims), allow_deadlock, {}, credit_flow(s));
    return simulate_on(net, s, pattern, out, Slabs{}, Vcs != 1);
}

/// Minimal adaptive routing (routing/minimal_adaptive.hpp): its links have the VCs it needs.
template <std::size_t Rank, Boundary B>
int with_adaptive(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    constexpr std::size_t vcs = MinimalAdaptive::vcs_required<KAryNCube<Rank, BasicLink<1>, DynamicExtents, B>>;
    using T = KAryNCube<Rank, BasicLink<vcs>, DynamicExtents, B>;
    const Fabric<T, MinimalAdaptive> net(T(s.dims), allow_deadlock, {}, credit_flow(s));  // checked in simulate_on
    return simulate_on(net, s, pattern, out);
}

template <std::size_t Rank, Boundary B>
int with_boundary(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    if (s.routing == "adaptive") return with_adaptive<Rank, B>(s, pattern, out);
    if constexpr (B == Boundary::open) {
        // A mesh's lines have no ties (no two ways round), so its two tie rules route alike and draw alike (a
        // packet's choice is drawn whatever its route): the mesh takes one, and cycle_sim compiles 8 fabrics fewer.
        return s.vcs == 1 ? with_fabric<Rank, B, 1, TieRule::split>(s, pattern, out)
                          : with_fabric<Rank, B, 2, TieRule::split>(s, pattern, out);
    } else {
        const bool positive = s.routing == "dor-positive";
        if (s.vcs == 1) return positive ? with_fabric<Rank, B, 1, TieRule::positive>(s, pattern, out)
                                        : with_fabric<Rank, B, 1, TieRule::split>(s, pattern, out);
        if (s.dateline == "whole-ring")
            return positive ? with_fabric<Rank, B, 2, TieRule::positive, DatelineWholeRing>(s, pattern, out)
                            : with_fabric<Rank, B, 2, TieRule::split, DatelineWholeRing>(s, pattern, out);
        return positive ? with_fabric<Rank, B, 2, TieRule::positive>(s, pattern, out)
                        : with_fabric<Rank, B, 2, TieRule::split>(s, pattern, out);
    }
}

template <std::size_t Rank>
int simulate_cube(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    return s.topology == "torus" ? with_boundary<Rank, Boundary::wrap>(s, pattern, out)
                                 : with_boundary<Rank, Boundary::open>(s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
