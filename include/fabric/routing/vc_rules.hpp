// The virtual-channel rules of dimension-order routing on a torus (one named as
// DimensionOrder's second parameter):
//  - NoDateline: one VC everywhere. On a torus whose rings are longer than 3 the
//    channel dependencies form a cycle (see routing/channel_dependency.hpp).
//  - Dateline: two VCs. A packet uses VC 0 in a dimension until it crosses that
//    ring's wraparound channel; the crossing hop and the rest of the dimension use
//    VC 1. Minimal routes never cross a dateline twice, so each VC's dependencies
//    along a ring form a chain, and DOR never depends on a lower dimension.
//  - DatelineWholeRing: two VCs, BookSim's rule: a leg that will cross the
//    wraparound uses VC 1 for the whole ring, any other leg VC 0.
#pragma once

#include <cstddef>

namespace fabric {

/// One virtual channel; no protection against cyclic dependencies on a torus.
struct NoDateline {
    static constexpr std::size_t vcs = 1;
};
/// Two virtual channels, switched at each ring's wraparound link.
struct Dateline {
    static constexpr std::size_t vcs = 2;
};
/// Two virtual channels, chosen per ring: a packet whose way round a ring
/// crosses its wraparound link uses VC 1 for every hop in that ring, any other
/// VC 0 (BookSim's dim_order_torus). No route on VC 0 crosses the wraparound, and
/// every route on VC 1 does, so neither VC's dependencies close round a ring as
/// long as a leg is shorter than the ring.
struct DatelineWholeRing {
    static constexpr std::size_t vcs = 2;
    static constexpr bool whole_ring = true;
};

namespace detail {
template <class VcRule>
inline constexpr bool whole_ring_v = requires { requires VcRule::whole_ring; };
}  // namespace detail

}  // namespace fabric
