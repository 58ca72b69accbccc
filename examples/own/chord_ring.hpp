// An own topology and routing policy, written against fabric's concepts alone
// (docs/extending.md walks through it): a ring of N nodes in which every node
// also has a chord to the node opposite. Ring links carry 2 virtual channels,
// chords 1, so the two link classes differ.
//
// Routing: to the node opposite, the chord (one hop); otherwise clockwise round
// the ring. With Dateline, a route that has crossed the link from node N - 1 to
// node 0 continues on VC 1, which breaks the ring's cycle of dependencies;
// without it every hop is on VC 0 and the ring can deadlock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <boost/hana/tuple.hpp>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/link/basic.hpp>

namespace own {

using fabric::Hop;
using fabric::NodeId;
using fabric::PortId;

/// N nodes; port 0 clockwise, port 1 anticlockwise, port 2 the chord.
/// StaticSizes: the compiler runs the deadlock check when a fabric is formed.
template <std::uint32_t N, bool StaticSizes = false>
struct ChordRing {
    static_assert(N >= 4 && N % 2 == 0, "fabric: a ChordRing needs an even number of nodes, at least 4");
    static constexpr std::size_t ports_per_node = 3;
    static constexpr bool static_extents = StaticSizes;  // the compile-time check switch
    using link_types = boost::hana::tuple<fabric::BasicLink<2>, fabric::BasicLink<1>>;
    static constexpr std::size_t ring_class = 0, chord_class = 1;
    static constexpr std::size_t longest_route = N - 1;

    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr std::size_t node_count() const { return N; }
    [[nodiscard]] constexpr NodeId neighbour(NodeId n, PortId p) const {
        fabric::detail::require(n.value < N && p.value < ports_per_node, "ChordRing: no node ", n.value,
                                " or port ", p.value);
        if (p.value == 0) return NodeId{(n.value + 1) % N};
        if (p.value == 1) return NodeId{(n.value + N - 1) % N};
        return NodeId{(n.value + N / 2) % N};
    }
    /// The port at the other end of a link that leads back here.
    [[nodiscard]] constexpr PortId reverse_port(NodeId, PortId p) const {
        return PortId{p.value == 0 ? 1U : p.value == 1 ? 0U : 2U};
    }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId p) const {
        return p.value == 2 ? chord_class : ring_class;
    }
    /// Hops of the shortest path: round the ring either way, or the chord and then round.
    [[nodiscard]] constexpr std::size_t distance(NodeId a, NodeId b) const {
        const std::uint32_t cw = (b.value + N - a.value) % N;
        const std::uint32_t from_opposite = (cw + N / 2) % N;
        const std::uint32_t ring = cw < N - cw ? cw : N - cw;
        const std::uint32_t via_chord =
            1 + (from_opposite < N - from_opposite ? from_opposite : N - from_opposite);
        return ring < via_chord ? ring : via_chord;
    }
    [[nodiscard]] constexpr std::size_t diameter() const {
        std::size_t most = 0;
        for (std::uint32_t b = 0; b < N; ++b) most = distance(NodeId{0}, NodeId{b}) > most ? distance(NodeId{0}, NodeId{b}) : most;
        return most;
    }

private:
    link_types links_{};
};

template <bool Dateline = true, std::uint8_t ChordVc = 0>
struct ChordRouting {
    template <class T>
    static constexpr bool fits = requires { T::ring_class; T::chord_class; T::longest_route; };
    /// VCs needed per link class: ring, chord.
    template <class T>
    static constexpr std::array<std::size_t, 2> vcs_required{Dateline ? 2U : 1U, 1U};

    /// The one route from src to dst, into `out`; its length.
    template <class T>
    constexpr std::size_t select_route(const T& t, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        const std::uint32_t n = static_cast<std::uint32_t>(t.node_count());
        if (src == dst) return 0;
        if (dst.value == (src.value + n / 2) % n) {
            out[0] = Hop{src, PortId{2}, ChordVc};
            return 1;
        }
        std::size_t len = 0;
        bool wrapped = false;
        for (std::uint32_t v = src.value; v != dst.value; v = (v + 1) % n) {
            out[len++] = Hop{NodeId{v}, PortId{0}, static_cast<std::uint8_t>(Dateline && wrapped ? 1 : 0)};
            wrapped = wrapped || v + 1 == n;
        }
        return len;
    }
    template <class T>
    static constexpr std::size_t max_hops(const T&) {
        return T::longest_route;
    }
    template <class T, class F>
    constexpr void for_each_route(const T& t, NodeId src, NodeId dst, F&& f) const {
        std::array<Hop, T::longest_route> hops{};
        const std::size_t len = select_route(t, src, dst, 0, hops.data());
        f(std::span<const Hop>(hops.data(), len), 1.0);
    }
    template <class T, class F>
    constexpr void for_each_hop(const T& t, NodeId src, NodeId dst, F&& f) const {
        fabric::hops_of_routes(*this, t, src, dst, f);
    }
};

}  // namespace own
