// Tests of the symmetry claims (concepts/symmetry.hpp) on an instance, as
// check_vc_levels tests the VC-level claim: link_load trusts a claim, and these
// say whether it holds, naming the first place where it does not.
//  - check_translations(topo): every translation is an automorphism that keeps
//    link classes, and port_at_representative names it (O(N ports));
//  - check_commutes(topo, routing): translating a pair translates its hops, with
//    their fractions (O(N^2 hops): small instances);
//  - check_invariance(fab, pattern): the pattern's flows move with the
//    translations of its tasks, and for_each_flow_from gives what for_each_flow
//    does;
//  - compare_with_pairwise(fab, pattern): link_load against link_load_pairwise,
//    bit for bit, and whether link_load took the symmetric path.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fabric/concepts/symmetry.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/sim/link_load.hpp>

namespace fabric {

/// What a check found: the claim holds over everything examined, or the first
/// place it does not.
struct SymmetryReport {
    bool holds = true;
    std::size_t examined = 0;  // channels, pairs or sources examined
    std::string failure;       // where the claim breaks, when it does
    [[nodiscard]] std::string describe() const {
        return holds ? "holds (" + std::to_string(examined) + " examined)" : failure;
    }
    void fail(std::string what) {
        if (holds) failure = std::move(what);
        holds = false;
    }
};

template <SymmetricTopology T>
SymmetryReport check_translations(const T& topo) {
    SymmetryReport report;
    const Translations group = topo.translations();
    if (group.size() != topo.node_count()) {
        report.fail("translations() number " + std::to_string(group.size()) + " nodes, the topology has " +
                    std::to_string(topo.node_count()));
        return report;
    }
    for (std::uint32_t n = 0; n < topo.node_count() && report.holds; ++n) {
        const NodeId node{n}, rep{static_cast<std::uint32_t>(group.representative(n))};
        std::vector<std::uint32_t> images;
        std::size_t linked_at_rep = 0;
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p) linked_at_rep += topo.neighbour(rep, PortId{p}).valid();
        for (std::uint32_t p = 0; p < T::ports_per_node && report.holds; ++p) {
            ++report.examined;
            const PortId port{p};
            const NodeId far = topo.neighbour(node, port);
            if (!far.valid()) continue;
            const PortId q = topo.port_at_representative(node, port);
            const std::string at = "channel (node " + std::to_string(n) + ", port " + std::to_string(p) + ")";
            if (translation_keeps_ports_v<T> && q != port)
                report.fail(at + ": translation_keeps_ports, yet port_at_representative gives port " +
                            std::to_string(q.value));
            else if (q.value >= T::ports_per_node || topo.neighbour(rep, q) != NodeId{static_cast<std::uint32_t>(group.relative(far.value, n))})
                report.fail(at + ": the translation to node " + std::to_string(rep.value) + " does not map its link to "
                            "port " + std::to_string(q.value) + "'s there");
            else if (topo.link_class(rep, q) != topo.link_class(node, port))
                report.fail(at + ": the translation changes its link class");
            else if (std::find(images.begin(), images.end(), q.value) != images.end())
                report.fail(at + ": port " + std::to_string(q.value) + " of node " + std::to_string(rep.value) +
                            " is the image of two ports");
            images.push_back(q.value);
        }
        if (report.holds && images.size() != linked_at_rep)
            report.fail("node " + std::to_string(n) + " has " + std::to_string(images.size()) + " links, its "
                        "representative " + std::to_string(linked_at_rep));
    }
    return report;
}

/// Every `stride`-th source and destination: the hops of (s, d) seen from s (moved
/// by the translation taking s to its representative) are those of (rep, d seen
/// from s), fraction for fraction. That is the claim for every translation (the
/// ones taking some source to its representative are all of them).
template <SymmetricTopology T, RoutingPolicyFor<T> R>
SymmetryReport check_commutes(const T& topo, const R& routing, std::size_t stride = 1) {
    SymmetryReport report;
    const Translations group = topo.translations();
    const detail::ChannelOrbits<T> orbit_of{topo, group, group.orbits() == 1};
    using Term = std::tuple<std::uint32_t, std::size_t, double>;  // node, channel orbit, fraction
    auto hops = [&](NodeId s, NodeId d, std::size_t seen_from) {
        std::vector<Term> out;
        routing.for_each_hop(topo, s, d, [&](NodeId n, PortId p, double fraction) {
            out.emplace_back(static_cast<std::uint32_t>(group.relative(n.value, seen_from)), orbit_of(n, p), fraction);
        });
        std::sort(out.begin(), out.end());
        return out;
    };
    const auto n = static_cast<std::uint32_t>(topo.node_count());
    for (std::uint32_t s = 0; s < n && report.holds; s += static_cast<std::uint32_t>(stride))
        for (std::uint32_t d = 0; d < n && report.holds; d += static_cast<std::uint32_t>(stride)) {
            ++report.examined;
            const auto rep = static_cast<std::uint32_t>(group.representative(s));
            const auto moved = static_cast<std::uint32_t>(group.relative(d, s));
            if (hops(NodeId{s}, NodeId{d}, s) != hops(NodeId{rep}, NodeId{moved}, rep))
                report.fail("the route from node " + std::to_string(s) + " to node " + std::to_string(d) +
                            ", translated, is not the route from node " + std::to_string(rep) + " to node " +
                            std::to_string(moved));
        }
    return report;
}

/// The translations link_load applies to the tasks of `pattern` on `fab`.
template <class Fab, class P>
    requires SymmetricTopology<typename Fab::topology_type>
Translations task_translations(const Fab& fab, const P& pattern, bool& whole_orbits) {
    const auto per = static_cast<std::uint32_t>(detail::own_tasks_per_node(fab, pattern));
    return fab.topology().translations().per_id(per).below(pattern.task_count(), whole_orbits);
}

/// For every source and every translated digit, moved by one: the flows of the
/// moved source are the moved flows; and one source's flows are for_each_flow's.
template <class Fab, InvariantPattern P>
    requires SymmetricTopology<typename Fab::topology_type>
SymmetryReport check_invariance(const Fab& fab, const P& pattern) {
    SymmetryReport report;
    bool whole = false;
    const Translations tasks = task_translations(fab, pattern, whole);
    if (!whole) {
        report.fail("the tasks do not fill whole orbits of nodes");
        return report;
    }
    if (!pattern.invariant_under(tasks)) {
        report.fail("the pattern says it is not invariant under these translations");
        return report;
    }
    using Flow = std::pair<std::size_t, double>;
    const std::size_t n = pattern.task_count();
    std::vector<std::vector<Flow>> all(n);
    pattern.for_each_flow([&](std::size_t s, std::size_t d, double a) { all[s].emplace_back(d, a); });
    auto from = [&](std::size_t s) {
        std::vector<Flow> out;
        pattern.for_each_flow_from(s, [&](std::size_t d, double a) { out.emplace_back(d, a); });
        std::sort(out.begin(), out.end());
        return out;
    };
    for (std::size_t s = 0; s < n && report.holds; ++s) {
        ++report.examined;
        std::sort(all[s].begin(), all[s].end());
        const std::vector<Flow> own = from(s);
        if (own != all[s]) report.fail("for_each_flow_from(" + std::to_string(s) + ") differs from for_each_flow's");
        for (std::size_t i = 0; i < tasks.digits() && report.holds; ++i) {
            if (!tasks.digit(i).translated) continue;
            std::vector<Flow> moved;
            for (const auto& [d, a] : own) moved.emplace_back(tasks.shift(d, i, 1), a);
            std::sort(moved.begin(), moved.end());
            if (moved != from(tasks.shift(s, i, 1)))
                report.fail("task " + std::to_string(s) + "'s flows, moved along digit " + std::to_string(i) +
                            ", are not task " + std::to_string(tasks.shift(s, i, 1)) + "'s");
        }
    }
    return report;
}

/// link_load against the pair walk, bit for bit.
struct LoadsComparison {
    std::string_view declined;  // why link_load walked the pairs itself ("" when it used symmetry)
    bool identical = true;
    std::string difference;  // the first, when not identical
};

template <class Fab, TrafficPattern P>
LoadsComparison compare_with_pairwise(const Fab& fab, const P& pattern) {
    LoadsComparison out{why_not_by_symmetry(fab, pattern), true, {}};
    const LinkLoads fast = link_load(fab, pattern), pairs = link_load_pairwise(fab, pattern);
    auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
    auto differ = [&](std::string what) {
        if (out.identical) out.difference = std::move(what);
        out.identical = false;
    };
    const auto a = fast.per_channel(), b = pairs.per_channel();
    for (std::size_t c = 0; c < a.size(); ++c)
        if (!same(a[c], b[c]))
            differ("channel " + std::to_string(c) + ": " + std::to_string(a[c]) + " against " + std::to_string(b[c]));
    for (std::size_t k = 0; k < fast.classes().size(); ++k)  // loads are not negative: == is bit for bit
        if (fast.link_class(k) != pairs.link_class(k)) differ("the summary of link class " + std::to_string(k));
    if (fast.bottleneck() != pairs.bottleneck() || !same(fast.tasks_per_node(), pairs.tasks_per_node()))
        differ("the bottleneck or the tasks per node");
    return out;
}

}  // namespace fabric
