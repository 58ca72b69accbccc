// The claim a routing policy may make instead of a full deadlock check: its
// virtual channels have levels, level(link_class, vc), that strictly increase
// along every route it takes. Then no channel waits on one of a lower or equal
// level, so the channel-dependency graph has no cycle (Dally and Seitz). A policy
// claims it with `static constexpr bool vc_levels_increase = true` and a static
// level(); fabric::Fabric then skips the O(N^2) check for run-time sizes, and
// check_vc_levels below tests the claim route by route (the suite runs it for
// every policy that makes it).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// A policy that claims increasing VC levels and says what the levels are.
template <class R>
concept ClaimsVcLevels = requires {
    requires R::vc_levels_increase;
    { R::level(std::size_t{}, std::uint8_t{}) } -> std::convertible_to<int>;
};

/// What check_vc_levels found: every route examined climbs, or the first that does not.
struct VcLevelReport {
    bool increasing = true;
    std::size_t routes = 0;  // routes examined
    NodeId source{}, destination{};
    std::size_t hop = 0;  // the hop of that route whose level is not above the one before
    [[nodiscard]] std::string describe() const {
        if (increasing) return "every route climbs (" + std::to_string(routes) + " routes)";
        return "a route from node " + std::to_string(source.value) + " to node " + std::to_string(destination.value) +
               " does not climb at hop " + std::to_string(hop);
    }
};

/// Walks the routes between every `stride`-th source and destination and checks
/// that the level of each hop is above the one before.
template <Topology T, RoutingPolicyFor<T> R>
    requires ClaimsVcLevels<R>
constexpr VcLevelReport check_vc_levels(const T& topo, const R& routing, std::size_t stride = 1) {
    VcLevelReport report;
    const auto n = static_cast<std::uint32_t>(topo.node_count());
    for (std::uint32_t s = 0; s < n && report.increasing; s += static_cast<std::uint32_t>(stride))
        for (std::uint32_t d = 0; d < n && report.increasing; d += static_cast<std::uint32_t>(stride))
            routing.for_each_route(topo, NodeId{s}, NodeId{d}, [&](std::span<const Hop> hops, double) {
                ++report.routes;
                for (std::size_t i = 1; i < hops.size() && report.increasing; ++i)
                    if (R::level(topo.link_class(hops[i].node, hops[i].port), hops[i].vc) <=
                        R::level(topo.link_class(hops[i - 1].node, hops[i - 1].port), hops[i - 1].vc)) {
                        report.increasing = false;
                        report.source = NodeId{s};
                        report.destination = NodeId{d};
                        report.hop = i;
                    }
            });
    return report;
}

}  // namespace fabric
