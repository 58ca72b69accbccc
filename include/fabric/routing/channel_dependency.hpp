// The channel-dependency graph of a routing policy on a topology, and the check
// that it is acyclic (Dally and Seitz: a routing function is deadlock free when the
// dependencies between the virtual channels it uses contain no cycle).
//
// A vertex is a virtual channel (node, port, vc); an edge c1 -> c2 means some
// route holds c1 and then asks for c2. The check is constexpr: for a topology
// with static extents a fabric runs it at compile time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The answer of the deadlock check: acyclic, or one cycle of waiting channels.
struct DependencyReport {
    bool acyclic = true;
    std::size_t channels = 0;       // virtual channels used by some route
    std::size_t dependencies = 0;   // distinct edges of the graph examined (the rings alone when separable)
    std::vector<VirtualChannel> cycle;  // c0 -> c1 -> ... -> c0 when not acyclic

    /// "c0 -> c1 -> ... -> c0", each channel as (node n, port p, vc v).
    [[nodiscard]] std::string describe_cycle() const {
        std::string out;
        for (std::size_t i = 0; i <= cycle.size() && !cycle.empty(); ++i) {
            const VirtualChannel& c = cycle[i % cycle.size()];
            if (i) out += " -> ";
            out += "(node " + std::to_string(c.node.value) + ", port " + std::to_string(c.port.value) + ", vc " +
                   std::to_string(c.vc) + ")";
        }
        return out;
    }
};

namespace detail {

/// Cycle search over an adjacency list, iterative (no recursion depth limit).
constexpr std::vector<std::uint32_t> find_cycle(const std::vector<std::vector<std::uint32_t>>& adj) {
    const std::size_t n = adj.size();
    std::vector<std::uint8_t> colour(n, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::uint32_t> parent(n, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // vertex, next edge
    for (std::uint32_t root = 0; root < n; ++root) {
        if (colour[root] != 0) continue;
        stack.push_back({root, 0});
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next < adj[v].size()) {
                const std::uint32_t w = adj[v][next++];
                if (colour[w] == 0) {
                    colour[w] = 1;
                    parent[w] = v;
                    stack.push_back({w, 0});
                } else if (colour[w] == 1) {
                    std::vector<std::uint32_t> cycle{w};
                    for (std::uint32_t u = v; u != w; u = parent[u]) cycle.push_back(u);
                    std::reverse(cycle.begin() + 1, cycle.end());
                    return cycle;
                }
            } else {
                colour[v] = 2;
                stack.pop_back();
            }
        }
    }
    return {};
}

/// The full check: every ordered pair's every route contributes its dependencies.
template <Topology T, class R>
constexpr DependencyReport full_dependency_check(const T& topo, const R& routing, std::size_t vcs) {
    const std::size_t slots = channel_slots(topo) * vcs;
    std::vector<std::vector<std::uint32_t>> adj(slots);
    std::vector<std::uint8_t> used(slots, 0);
    auto vertex = [&](const Hop& h) {
        return static_cast<std::uint32_t>(channel_index<T>(h.node, h.port) * vcs + h.vc);
    };
    const auto n = static_cast<std::uint32_t>(topo.node_count());
    for (std::uint32_t s = 0; s < n; ++s) {
        for (std::uint32_t d = 0; d < n; ++d) {
            routing.for_each_route(topo, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double) {
                for (std::size_t i = 0; i < hops.size(); ++i) {
                    used[vertex(hops[i])] = 1;
                    if (i + 1 < hops.size()) adj[vertex(hops[i])].push_back(vertex(hops[i + 1]));
                }
            });
        }
    }
    DependencyReport report;
    for (auto& edges : adj) {
        std::sort(edges.begin(), edges.end());
        edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
        report.dependencies += edges.size();
    }
    for (const auto u : used) report.channels += u;
    const auto cycle = find_cycle(adj);
    report.acyclic = cycle.empty();
    for (const auto v : cycle) {
        const std::size_t channel = v / vcs;
        report.cycle.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(channel / T::ports_per_node)},
                                              PortId{static_cast<std::uint32_t>(channel % T::ports_per_node)},
                                              static_cast<std::uint8_t>(v % vcs)});
    }
    return report;
}

}  // namespace detail

/// Builds the channel-dependency graph of `routing` on `topo` with `vcs` virtual
/// channels per link and reports whether it is acyclic.
///
/// For a dimension-separable policy on a k-ary n-cube (dimension order), a cycle
/// can only lie within one ring, so the check runs on each dimension's ring alone
/// (cost O(k^2) per dimension instead of O(N^2 * hops)) and maps a cycle found
/// there back to the ring through node 0.
template <Topology T, RoutingPolicyFor<T> R>
constexpr DependencyReport channel_dependencies(const T& topo, const R& routing, std::size_t vcs) {
    if constexpr (detail::is_kary_ncube_v<T> && requires { R::dimension_separable; }) {
        if constexpr (R::dimension_separable && T::rank > 1) {
            DependencyReport total;
            for (std::size_t d = 0; d < T::rank; ++d) {
                const auto ring = topo.ring(d);
                DependencyReport part = detail::full_dependency_check(ring, routing, vcs);
                total.channels += part.channels * (topo.node_count() / topo.extent(d));
                total.dependencies += part.dependencies * (topo.node_count() / topo.extent(d));
                if (!part.acyclic && total.acyclic) {
                    total.acyclic = false;
                    for (const VirtualChannel& c : part.cycle) {
                        const int dir = decltype(ring)::port_direction(c.port);
                        total.cycle.push_back(VirtualChannel{NodeId{c.node.value * topo.stride(d)}, T::port(d, dir), c.vc});
                    }
                }
            }
            return total;
        }
    }
    return detail::full_dependency_check(topo, routing, vcs);
}

}  // namespace fabric
