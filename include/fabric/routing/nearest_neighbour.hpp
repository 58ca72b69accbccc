// Nearest-neighbour communication only, as on QCDOC, whose SCUs move data between
// neighbouring nodes and never route: a pair that is not one link apart has no
// route, and asking for one is an error. Routes of one hop hold no channel while
// waiting for another, so the policy is deadlock free with one virtual channel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/error.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

struct NearestNeighbour {
    /// No route has two hops, so no dependency between channels exists.
    static constexpr bool vc_levels_increase = true;
    static constexpr int level(std::size_t, std::uint8_t) { return 0; }

    template <class T>
    static constexpr bool fits = detail::is_kary_ncube_v<T>;
    template <class T>
    static constexpr std::size_t vcs_required = 1;

    template <class T>
    static constexpr std::size_t max_hops(const T&) {
        return 1;
    }

    /// The port from src to its neighbour dst (the + port if both lead there).
    template <class T>
    static PortId port_to(const T& topo, NodeId src, NodeId dst) {
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p)
            if (topo.neighbour(src, PortId{p}) == dst) return PortId{p};
        throw config_error(detail::message("node ", dst.value, " is not a nearest neighbour of node ", src.value,
                                           "; this machine moves data between nearest neighbours only"));
    }

    template <class T, class F>
    void for_each_route(const T& topo, NodeId src, NodeId dst, F&& f) const {
        if (src == dst) return;
        const Hop hop{src, port_to(topo, src, dst), 0};
        f(std::span<const Hop>(&hop, 1), 1.0);
    }
    template <class T, class F>
    void for_each_hop(const T& topo, NodeId src, NodeId dst, F&& f) const {
        if (src != dst) f(src, port_to(topo, src, dst), 1.0);
    }
    template <class T>
    std::size_t select_route(const T& topo, NodeId src, NodeId dst, std::uint64_t, Hop* out) const {
        if (src == dst) return 0;
        out[0] = Hop{src, port_to(topo, src, dst), 0};
        return 1;
    }
};

}  // namespace fabric
