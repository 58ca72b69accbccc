// The channel-dependency graph of a routing policy on a topology, and the check
// that it is acyclic (Dally and Seitz: a routing function is deadlock free when the
// dependencies between the virtual channels it uses contain no cycle).
//
// A vertex is a virtual channel (node, port, vc); an edge c1 -> c2 means some
// route holds c1 and then asks for c2. Each link has the virtual channels of its
// class (a topology may give its classes different counts); a route that names a
// VC its link does not have is reported, not folded onto another channel. The
// check is constexpr: for a topology with static sizes a fabric runs it at
// compile time. The graph comes from the policy's for_each_turn when it has one
// (its distinct dependencies, each once), else from every pair's routes; each
// edge is kept once, so memory is linear in channels x VCs plus distinct edges.
//
// Topologies whose routes can only close a cycle within one ring of one
// dimension (a k-ary n-cube under a dimension-separable policy) say so with the
// SeparableRings trait below; the check then runs on each dimension's ring alone.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/graph.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// The answer of the deadlock check: acyclic, or one cycle of waiting channels.
struct DependencyReport {
    bool acyclic = true;
    std::size_t channels = 0;       // virtual channels used by some route
    std::size_t dependencies = 0;   // distinct edges of the graph examined (the rings alone when separable)
    std::vector<VirtualChannel> cycle;  // c0 -> c1 -> ... -> c0 when not acyclic
    /// A hop on a virtual channel its link does not have (the report is then not
    /// acyclic, and `cycle` is empty).
    bool vc_out_of_range = false;
    VirtualChannel bad_hop{};
    std::size_t bad_hop_vcs = 0;  // the VCs that hop's link has

    /// "c0 -> c1 -> ... -> c0", each channel as (node n, port p, vc v).
    [[nodiscard]] std::string describe_cycle() const {
        if (vc_out_of_range)
            return "(none: a route uses vc " + std::to_string(bad_hop.vc) + " on the link of node " +
                   std::to_string(bad_hop.node.value) + ", port " + std::to_string(bad_hop.port.value) +
                   ", which has " + std::to_string(bad_hop_vcs) + ")";
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

/// The virtual channels of each link of T, by its class.
template <Topology T>
struct ClassVcs {
    [[nodiscard]] constexpr std::size_t stride() const { return max_virtual_channels_v<T>; }
    [[nodiscard]] constexpr std::size_t of(const T& topo, const Hop& h) const {
        return link_pack<typename T::link_types>::vcs[topo.link_class(h.node, h.port)];
    }
};

/// The same count on every link.
struct UniformVcs {
    std::size_t count;
    [[nodiscard]] constexpr std::size_t stride() const { return count; }
    template <class T>
    [[nodiscard]] constexpr std::size_t of(const T&, const Hop&) const {
        return count;
    }
};

/// The full check: every ordered pair's every route contributes its dependencies.
/// Vertices are channel * stride + vc, stride the most VCs any link has, so that
/// channels of classes with fewer VCs never share a vertex with another channel.
template <Topology T, class R, class Vcs>
    requires requires(const Vcs& v, const T& t, const Hop& h) {
        v.stride();
        v.of(t, h);
    }
constexpr DependencyReport full_dependency_check(const T& topo, const R& routing, Vcs vcs) {
    const std::size_t stride = vcs.stride();
    const std::size_t slots = channel_slots(topo) * stride;
    std::vector<std::vector<std::uint32_t>> adj(slots);
    std::vector<std::uint8_t> used(slots, 0);
    auto vertex = [&](const Hop& h) {
        return static_cast<std::uint32_t>(channel_index<T>(h.node, h.port) * stride + h.vc);
    };
    DependencyReport report;
    // A hop on a VC its link lacks is reported, not counted.
    auto in_range = [&](const Hop& h) {
        const std::size_t have = vcs.of(topo, h);
        if (h.vc < have) return true;
        if (!report.vc_out_of_range) {
            report.vc_out_of_range = true;
            report.bad_hop = VirtualChannel{h.node, h.port, h.vc};
            report.bad_hop_vcs = have;
        }
        return false;
    };
    // Each edge once: a channel's successors are few, so a scan of them is cheap
    // and the graph's memory stays linear in its distinct edges.
    auto depend = [&](const Hop& from, const Hop& to) {
        auto& edges = adj[vertex(from)];
        const std::uint32_t w = vertex(to);
        if (std::find(edges.begin(), edges.end(), w) == edges.end()) edges.push_back(w);
    };
    if constexpr (requires { routing.for_each_turn(topo, [](const Hop&, const Hop&) {}); }) {
        // The policy names its distinct dependencies: no walk over every pair's routes.
        routing.for_each_turn(topo, [&](const Hop& from, const Hop& to) {
            if (report.vc_out_of_range || !in_range(from) || !in_range(to)) return;
            used[vertex(from)] = used[vertex(to)] = 1;
            depend(from, to);
        });
    } else {
        const auto n = static_cast<std::uint32_t>(topo.node_count());
        for (std::uint32_t s = 0; s < n && !report.vc_out_of_range; ++s) {
            for (std::uint32_t d = 0; d < n && !report.vc_out_of_range; ++d) {
                routing.for_each_route(topo, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double) {
                    for (std::size_t i = 0; i < hops.size(); ++i) {
                        if (!in_range(hops[i])) return;
                        used[vertex(hops[i])] = 1;
                        if (i + 1 < hops.size()) depend(hops[i], hops[i + 1]);
                    }
                });
            }
        }
    }
    if (report.vc_out_of_range) {
        report.acyclic = false;
        return report;
    }
    for (auto& edges : adj) {
        std::sort(edges.begin(), edges.end());  // the same graph, searched the same way, however it was built
        report.dependencies += edges.size();
    }
    for (const auto u : used) report.channels += u;
    const auto cycle = find_cycle(adj);
    report.acyclic = cycle.empty();
    for (const auto v : cycle) {
        const std::size_t channel = v / stride;
        report.cycle.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(channel / T::ports_per_node)},
                                              PortId{static_cast<std::uint32_t>(channel % T::ports_per_node)},
                                              static_cast<std::uint8_t>(v % stride)});
    }
    return report;
}

/// The full check with `vcs` virtual channels on every link.
template <Topology T, class R>
constexpr DependencyReport full_dependency_check(const T& topo, const R& routing, std::size_t vcs) {
    return full_dependency_check(topo, routing, UniformVcs{vcs});
}

/// Runs the check ring by ring when the topology and the policy allow it.
template <Topology T, class R, class Vcs>
constexpr DependencyReport dependency_check(const T& topo, const R& routing, Vcs vcs);

}  // namespace detail

/// A topology whose channel-dependency cycles under a dimension-separable policy
/// can only lie within one ring of one dimension declares
/// `static constexpr bool separable_rings = true` and gives, per dimension d,
/// ring(d) (the ring as a topology of its own), extent(d), stride(d) (node index
/// step along d) and port(d, direction); the ring type gives port_direction(port).
template <class T>
concept SeparableRings = Topology<T> && requires(const T& topo, std::size_t d) {
    requires T::separable_rings;
    { T::rank } -> std::convertible_to<std::size_t>;
    topo.ring(d);
    { topo.extent(d) } -> std::convertible_to<std::size_t>;
    { topo.stride(d) } -> std::convertible_to<std::size_t>;
};

namespace detail {
/// Whether the check of R on T runs ring by ring (SeparableRings topology,
/// dimension-separable policy, more than one dimension) or on the whole topology.
template <class T, class R>
consteval bool checks_ring_by_ring() {
    if constexpr (SeparableRings<T> && requires { R::dimension_separable; })
        return R::dimension_separable && T::rank > 1;
    else
        return false;
}

template <Topology T, class R, class Vcs>
constexpr DependencyReport dependency_check(const T& topo, const R& routing, Vcs vcs) {
    if constexpr (checks_ring_by_ring<T, R>()) {
        DependencyReport total;
        for (std::size_t d = 0; d < T::rank; ++d) {
            const auto ring = topo.ring(d);
            DependencyReport part;
            if constexpr (std::is_same_v<Vcs, UniformVcs>) part = full_dependency_check(ring, routing, vcs);
            else part = full_dependency_check(ring, routing, ClassVcs<std::remove_cvref_t<decltype(ring)>>{});
            const std::size_t rings = topo.node_count() / topo.extent(d);
            total.channels += part.channels * rings;
            total.dependencies += part.dependencies * rings;
            auto to_torus = [&](const VirtualChannel& c) {
                const int dir = std::remove_cvref_t<decltype(ring)>::port_direction(c.port);
                return VirtualChannel{NodeId{static_cast<std::uint32_t>(c.node.value * topo.stride(d))},
                                      T::port(d, dir), c.vc};
            };
            if (part.vc_out_of_range && total.acyclic) {
                total.acyclic = false;
                total.vc_out_of_range = true;
                total.bad_hop = to_torus(part.bad_hop);
                total.bad_hop_vcs = part.bad_hop_vcs;
            } else if (!part.acyclic && total.acyclic) {
                total.acyclic = false;
                for (const VirtualChannel& c : part.cycle) total.cycle.push_back(to_torus(c));
            }
        }
        return total;
    }
    return full_dependency_check(topo, routing, vcs);
}
}  // namespace detail

/// Builds the channel-dependency graph of `routing` on `topo`, every link with
/// the virtual channels of its class, and reports whether it is acyclic (or which
/// hop names a VC its link does not have).
///
/// For a dimension-separable policy on a topology with SeparableRings (the k-ary
/// n-cube), a cycle can only lie within one ring, so the check runs on each
/// dimension's ring alone (cost O(k^2) per dimension instead of O(N^2 * hops))
/// and maps a cycle found there back through node 0.
template <Topology T, RoutingPolicyFor<T> R>
constexpr DependencyReport channel_dependencies(const T& topo, const R& routing) {
    return detail::dependency_check(topo, routing, detail::ClassVcs<T>{});
}

/// The same with `vcs` virtual channels on every link, whatever its class.
template <Topology T, RoutingPolicyFor<T> R>
constexpr DependencyReport channel_dependencies(const T& topo, const R& routing, std::size_t vcs) {
    return detail::dependency_check(topo, routing, detail::UniformVcs{vcs});
}

}  // namespace fabric
