// Where a collective's ranks lie on a topology (CollectiveRequest), as the
// algorithms see them (collective/algorithms.hpp's Shape) and as a run places them
// (each rank's terminals, its rails in order).
//
// By default every terminal is a rank, in terminal order; with rails > 1 every
// router is a rank, on its first `rails` terminals (a multi-ported rank on a
// Concentrated torus of 2d terminals a router); or the request names each rank's
// router. The composed algorithms see the ranks as a grid:
// - a torus, mesh or HyperX: its extents, dimension 0 fastest as the topology
//   numbers its routers; where several terminals of a router are ranks, they are
//   one more dimension, first (a line within the router);
// - a dragonfly or PERCS: (ranks of a group, groups), the group a dragonfly's
//   routers of one group, or a PERCS supernode's 32 hubs.
// A placement the grid cannot follow (two ranks on one router of a dimension-wise
// collective, ranks on only some routers) is refused with a fabric: config_error.
#pragma once

#include <cstdint>
#include <vector>

#include <fabric/collective/algorithms.hpp>
#include <fabric/concepts/collective.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/hyperx.hpp>
#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric::collective {

/// Whether a topology has dimensions (a torus, mesh or HyperX), or groups (a dragonfly, PERCS).
template <class T>
inline constexpr bool has_dimensions_v = fabric::detail::is_kary_ncube_v<T> || fabric::detail::is_hyperx_v<router_network_t<T>>;
template <class T>
inline constexpr bool has_groups_v = fabric::detail::is_dragonfly_v<router_network_t<T>> || fabric::detail::is_percs_v<T>;

/// The number of ranks a request places on `topo`.
template <Topology T>
[[nodiscard]] std::uint32_t rank_count(const T& topo, const CollectiveRequest& r) {
    fabric::detail::require(r.rails >= 1, "a rank needs at least one rail");
    if (!r.routers.empty()) return static_cast<std::uint32_t>(r.routers.size());
    if (r.rails == 1) return static_cast<std::uint32_t>(terminal_count(topo));
    fabric::detail::require(r.rails <= terminals_per_node(topo), "ranks of ", r.rails, " rails need as many terminals "
                            "a router; this topology has ", terminals_per_node(topo));
    return static_cast<std::uint32_t>(topo.node_count());
}

/// Each rank's terminals, its rails in order.
template <Topology T>
[[nodiscard]] std::vector<std::vector<std::uint32_t>> rank_terminals(const T& topo, const CollectiveRequest& r) {
    const std::uint32_t p = rank_count(topo, r);
    const auto per = static_cast<std::uint32_t>(terminals_per_node(topo));
    std::vector<std::vector<std::uint32_t>> out(p);
    std::vector<std::uint32_t> used(r.routers.empty() ? 0 : topo.node_count(), 0);
    for (std::uint32_t rank = 0; rank < p; ++rank) {
        if (r.routers.empty() && r.rails == 1) {
            out[rank] = {rank};
            continue;
        }
        const std::uint32_t router = r.routers.empty() ? rank : r.routers[rank];
        fabric::detail::require(router < topo.node_count(), "rank ", rank, " is placed on router ", router,
                                ", past the ", topo.node_count(), " routers");
        const std::uint32_t first = r.routers.empty() ? 0 : used[router];
        fabric::detail::require(first + r.rails <= per, "router ", router, " has ", per, " terminals; ranks of ",
                                r.rails, " rails placed on it need ", first + r.rails);
        if (!r.routers.empty()) used[router] += r.rails;
        for (std::uint32_t k = 0; k < r.rails; ++k) out[rank].push_back(router * per + first + k);
    }
    return out;
}

/// How algorithm `a` sees the ranks of `r` on `topo` (see the top of the file).
template <Topology T>
[[nodiscard]] Shape shape_of(const T& topo, const CollectiveRequest& r, Algorithm a) {
    const std::uint32_t p = rank_count(topo, r);
    if (!composed(a)) return Shape{{p}, {}, r.rails};
    std::vector<std::uint32_t> grid;
    const auto per = static_cast<std::uint32_t>(terminals_per_node(topo));
    const bool terminal_ranks = r.routers.empty() && r.rails == 1 && per > 1;
    if (terminal_ranks) grid.push_back(per);  // a router's terminals, a line of their own
    if constexpr (fabric::detail::is_kary_ncube_v<T>) {
        for (std::size_t d = 0; d < router_network_t<T>::rank; ++d) grid.push_back(topo.extent(d));
    } else if constexpr (fabric::detail::is_hyperx_v<router_network_t<T>>) {
        for (std::uint32_t d = 0; d < topo.rank(); ++d) grid.push_back(topo.extent(d));
    } else if constexpr (fabric::detail::is_dragonfly_v<router_network_t<T>>) {
        grid = {(terminal_ranks ? per : 1) * topo.routers_per_group(), topo.groups()};
    } else if constexpr (fabric::detail::is_percs_v<T>) {
        grid = {(terminal_ranks ? per : 1) * PercsTopology::nodes_per_supernode, topo.supernodes()};
    } else {
        fabric::detail::throw_config_error({fabric::detail::message_part(name(a)),
                                            fabric::detail::message_part(" lays ranks out by a topology's dimensions "
                                                                         "or groups; this topology has neither")});
    }
    Shape s{grid, {}, r.rails};
    fabric::detail::require(s.ranks() == p, name(a), " needs a rank on every ", terminal_ranks ? "terminal" : "router",
                            " (", s.ranks(), "); the request places ", p);
    if (!r.routers.empty()) {
        // Rank r on router routers[r]: the grid point of a router is its index.
        s.rank_at.assign(p, p);
        for (std::uint32_t rank = 0; rank < p; ++rank) {
            const std::uint32_t router = r.routers[rank];
            fabric::detail::require(router < p && s.rank_at[router] == p, name(a), " needs one rank a router; router ",
                                    router, " is out of range or has two");
            s.rank_at[router] = rank;
        }
    }
    return s;
}

/// The graph of `op` by `a` (its inner algorithm `inner`) for request `r` on `topo`.
template <Topology T>
[[nodiscard]] CollectiveGraph graph_on(const T& topo, Operation op, Algorithm a, const CollectiveRequest& r,
                                       Algorithm inner = Algorithm::ring) {
    return build(op, a, shape_of(topo, r, a), Size{r.bytes, r.segments, r.reduce_per_byte, r.root}, inner);
}

}  // namespace fabric::collective
