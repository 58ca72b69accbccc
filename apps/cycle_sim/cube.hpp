// cycle_sim on a k-ary n-cube (torus or mesh) of one rank under dimension-order
// routing: the tie rule, VC count and dateline are types, so each rank holds ten
// simulators; cube_rank<N>.cpp instantiates one rank apiece.
#pragma once

#include <cstddef>
#include <type_traits>

#include "run.hpp"

namespace fabric_apps::cycle_sim {

template <std::size_t Rank, Boundary B, std::size_t Vcs, TieRule Tie, class VcRule = Dateline>
int with_fabric(const RunSettings& s, const NamedPattern& pattern) {
    using T = KAryNCube<Rank, BasicLink<Vcs>, DynamicExtents, B>;
    using Net = Fabric<T, DimensionOrder<Tie, std::conditional_t<Vcs == 1, NoDateline, VcRule>>>;
    const Credit flow = credit_flow(s);
    const T topo(s.dims);
    // One VC on a torus can deadlock: allowed here, so that the watchdog can show it.
    const Net net = Vcs == 1 ? Net(topo, allow_deadlock, {}, flow) : Net(topo, {}, flow);
    return simulate_on(net, s, pattern);
}

template <std::size_t Rank, Boundary B>
int with_boundary(const RunSettings& s, const NamedPattern& pattern) {
    const bool positive = s.routing == "dor-positive";
    if (s.vcs == 1) return positive ? with_fabric<Rank, B, 1, TieRule::positive>(s, pattern)
                                    : with_fabric<Rank, B, 1, TieRule::split>(s, pattern);
    if constexpr (B == Boundary::wrap)
        if (s.dateline == "whole-ring")
            return positive ? with_fabric<Rank, B, 2, TieRule::positive, DatelineWholeRing>(s, pattern)
                            : with_fabric<Rank, B, 2, TieRule::split, DatelineWholeRing>(s, pattern);
    return positive ? with_fabric<Rank, B, 2, TieRule::positive>(s, pattern) : with_fabric<Rank, B, 2, TieRule::split>(s, pattern);
}

template <std::size_t Rank>
int simulate_cube(const RunSettings& s, const NamedPattern& pattern) {
    return s.topology == "torus" ? with_boundary<Rank, Boundary::wrap>(s, pattern)
                                 : with_boundary<Rank, Boundary::open>(s, pattern);
}

}  // namespace fabric_apps::cycle_sim
