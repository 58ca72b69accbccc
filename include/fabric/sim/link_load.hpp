// The flow-level link-load kernel: exact channel loads for a traffic pattern.
//
// Every communicating pair's amount is split over the channels its routes cross,
// in the fractions the routing policy gives (for_each_hop), and added to that
// channel's load. Where every flow carries one amount, a channel counts the
// fractions crossing it (whole routes and split ties' halves add exactly) and is
// scaled by the amount once, so that its load does not depend on the pairs' order. From the loads come, per link class, the maximum load and the
// throughput it allows: each task may inject at most bandwidth / max_load, so a
// node of m tasks at m * bandwidth / max_load (the PERCS mapping paper's tau with
// m = 4). Three ways to the same loads, the first that applies:
//  - a routing policy that can aggregate (add whole groups of pairs at once) has
//    an aggregated_loads<R> specialisation (PERCS indirect routing:
//    sim/presets/percs_loads.hpp);
//  - where the topology states a symmetry, the routing commutes with it and the
//    pattern is invariant (concepts/symmetry.hpp), the representative sources'
//    routes give every channel's load (sim/link_load_symmetric.hpp), to the last
//    bit the pair walk's, or that path declines;
//  - else every pair is walked (link_load_pairwise, also the reference the
//    other two are tested against).
// In constant evaluation the work is counted against fabric::constant_evaluation_budget
// (sim/flow_budget.hpp): by symmetry a 16 x 16 x 16 torus fits both compilers'
// default limits, pair by pair an 8 x 8 one is past Clang's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/mapping/placement.hpp>
#include <fabric/sim/flow_budget.hpp>
#include <fabric/sim/link_load_result.hpp>
#include <fabric/sim/link_load_symmetric.hpp>
#include <fabric/sim/presets/percs_loads.hpp>

namespace fabric {

namespace detail {
template <class Fab, class P>
constexpr void check_flow_kernel_fabric() {
    static_assert(FabricType<Fab>,
                  "fabric: link_load needs a fabric type (fabric::Fabric<Topology, Routing, Flow>, or one with "
                  "topology_type, routing_type, flow_type and topology(), routing(), flow())");
    if constexpr (FabricType<Fab>) {
        static_assert(RoutingPolicyFor<typename Fab::routing_type, typename Fab::topology_type>,
                      "fabric: link_load needs a routing policy for the fabric's topology, with for_each_hop "
                      "(fabric::RoutingPolicyFor)");
        check_symmetry_claims<typename Fab::topology_type, typename Fab::routing_type, P>();
    }
}

template <class Fab, TrafficPattern P>
constexpr LinkLoads flow_kernel(const Fab& fab, const P& pattern, const Placement& placement);

/// Why the symmetric path is not even tried for these types ("" when it is):
/// aggregated loads come first, and every part must state its symmetry.
template <class Fab, class P>
constexpr std::string_view symmetry_undeclared() {
    if constexpr (!FlowKernelFabric<Fab>) {
        return "not a flow-kernel fabric";
    } else {
        using T = typename Fab::topology_type;
        using R = typename Fab::routing_type;
        if constexpr (requires(const R& r, const T& t, const P& p, const Placement& pl, std::vector<double>& l) {
                          aggregated_loads<R>::accumulate(r, t, p, pl, l);
                      })
            return "the routing policy's loads are aggregated (aggregated_loads)";
        else if constexpr (!SymmetricTopology<T>) return "the topology states no symmetry (translations())";
        else if constexpr (!CommutesWithTranslations<R, T>) return "the routing policy does not claim to commute with "
                                                                   "the translations (commutes_with_translations)";
        else if constexpr (!InvariantPattern<P>) return "the traffic pattern does not claim invariance (invariant_under)";
        else return "";
    }
}

/// Tasks per node when link_load places them itself: terminal t on router t / p on
/// a concentrated topology, else blocked (0 where the placement would be refused,
/// which the pair walk then reports).
template <class Fab, class P>
constexpr std::size_t own_tasks_per_node(const Fab& fab, const P& pattern) {
    const std::size_t tasks = pattern.task_count(), nodes = fab.topology().node_count();
    if constexpr (ConcentratedTopology<typename Fab::topology_type>)
        return tasks == terminal_count(fab.topology()) ? terminals_per_node(fab.topology()) : 0;
    else return nodes >= 1 && tasks >= nodes && tasks % nodes == 0 ? tasks / nodes : 0;
}

/// m when task t is on node t / m for every t, else 0.
constexpr std::size_t tasks_per_node_of(const Placement& placement) {
    std::size_t m = 0;
    while (m < placement.task_count() && placement.node_of(m) == 0) ++m;
    for (std::size_t t = m; t < placement.task_count() && m > 0; ++t)
        if (placement.node_of(t) != t / m) return 0;
    return m;
}

/// The loads by symmetry with m tasks a node, or why that path declined.
template <class Fab, class P>
constexpr SymmetricLoads by_symmetry(const Fab& fab, const P& pattern, std::size_t per_node) {
    if constexpr (constexpr std::string_view why = symmetry_undeclared<Fab, P>(); !why.empty()) return {why};
    else if (per_node == 0) return {"the tasks are not placed m a node in order (task t on node t / m)"};
    else return symmetric_link_load(fab, pattern, per_node);
}

/// The loads with the topology's node links added as a class, where it models
/// them (InjectionLimitedTopology): per node, the tasks' flows to other nodes
/// (injection) and from them (ejection); flows between tasks of one node cross
/// no link. One more walk over the flows, only where the links are modelled.
template <class T, class P>
constexpr LinkLoads with_node_links(LinkLoads loads, const T& topo, const P& pattern, const Placement& placement) {
    if constexpr (InjectionLimitedTopology<T>) {
        const NodeLinks links = topo.node_links();
        if (!links.modelled()) return loads;
        std::vector<double> out(topo.node_count(), 0.0), in(topo.node_count(), 0.0);
        const std::uint32_t* node_of = placement.nodes().data();
        FlowBudget budget;
        pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
            const std::uint32_t a = node_of[s], b = node_of[d];
            if (a == b) return;
            budget.spend();
            out[a] += amount;
            in[b] += amount;
        });
        ClassLoad cls;
        cls.link_name = links.name;
        cls.bandwidth = links.bandwidth;
        cls.channels = 2 * topo.node_count();
        for (const std::vector<double>* way : {&out, &in})
            for (const double load : *way) {
                cls.total_load += load;
                cls.max_load = load > cls.max_load ? load : cls.max_load;
            }
        return std::move(loads).with_node_class(cls);
    } else {
        (void)topo, (void)pattern, (void)placement;
        return loads;
    }
}

template <class Fab, class P>
constexpr LinkLoads loads_of(const Fab& fab, SymmetricLoads run, const P& pattern) {
    using T = typename Fab::topology_type;
    const std::size_t tasks = pattern.task_count(), nodes = fab.topology().node_count();
    const double tasks_per_node = static_cast<double>(tasks) / static_cast<double>(nodes);
    LinkLoads loads = finish_loads<T>(std::move(run.loads), std::move(run.classes), tasks_per_node);
    if constexpr (InjectionLimitedTopology<T>)
        if (fab.topology().node_links().modelled())
            return with_node_links(std::move(loads), fab.topology(), pattern, Placement::blocked(tasks, nodes));
    return loads;
}

/// link_load with the placement it makes itself, by symmetry when BySymmetry and the
/// symmetric path takes it, else pair by pair.
template <bool BySymmetry, class Fab, TrafficPattern P>
constexpr LinkLoads own_placement_loads(const Fab& fab, const P& pattern) {
    check_flow_kernel_fabric<Fab, P>();
    if constexpr (FlowKernelFabric<Fab>) {
        if constexpr (BySymmetry && symmetry_undeclared<Fab, P>().empty()) {
            if (const std::size_t per = own_tasks_per_node(fab, pattern); per > 0)
                if (SymmetricLoads run = symmetric_link_load(fab, pattern, per); run.declined.empty())
                    return loads_of(fab, std::move(run), pattern);
        }
        if constexpr (ConcentratedTopology<typename Fab::topology_type>) {
            const std::size_t terminals = terminal_count(fab.topology()), per = terminals_per_node(fab.topology());
            require(pattern.task_count() == terminals, "link_load runs one task per terminal: the pattern has ",
                    pattern.task_count(), " tasks, the topology ", terminals, " terminals");
            // Terminal t on router t / p; routers past the last terminal's (a fat tree's upper switches) have none.
            std::vector<std::uint32_t> router(terminals, 0);
            for (std::size_t t = 0; t < terminals; ++t) router[t] = static_cast<std::uint32_t>(t / per);
            return flow_kernel(fab, pattern, Placement(std::move(router), fab.topology().node_count()));
        } else {
            return flow_kernel(fab, pattern, Placement::blocked(pattern.task_count(), fab.topology().node_count()));
        }
    } else {
        throw std::logic_error("fabric: not a flow-kernel fabric");  // not reached: the check above refuses it
    }
}
}  // namespace detail

/// Loads of `pattern` on `fab` with tasks placed by `placement`.
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load(const Fab& fab, const P& pattern, const Placement& placement) {
    detail::check_flow_kernel_fabric<Fab, P>();
    if constexpr (FlowKernelFabric<Fab>) {
        if constexpr (detail::symmetry_undeclared<Fab, P>().empty()) {
            if (placement.task_count() == pattern.task_count() && placement.node_count() == fab.topology().node_count())
                if (const std::size_t per = detail::tasks_per_node_of(placement); per > 0)
                    if (detail::SymmetricLoads run = detail::symmetric_link_load(fab, pattern, per); run.declined.empty())
                        return detail::loads_of(fab, std::move(run), pattern);
        }
        return detail::flow_kernel(fab, pattern, placement);
    } else {
        throw std::logic_error("fabric: not a flow-kernel fabric");  // not reached: the check above refuses it
    }
}

/// Loads of `pattern` on `fab`, tasks placed blocked (task i on node i / (tasks /
/// nodes)). On a concentrated topology the pattern has one task per terminal, and
/// task t is terminal t, on router t / p; throughputs are then per terminal.
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load(const Fab& fab, const P& pattern) {
    return detail::own_placement_loads<true>(fab, pattern);
}

/// The same loads as link_load, always walking every pair (the reference the
/// faster ways are tested against).
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load_pairwise(const Fab& fab, const P& pattern) {
    return detail::own_placement_loads<false>(fab, pattern);
}
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load_pairwise(const Fab& fab, const P& pattern, const Placement& placement) {
    detail::check_flow_kernel_fabric<Fab, P>();
    if constexpr (FlowKernelFabric<Fab>) return detail::flow_kernel(fab, pattern, placement);
    else throw std::logic_error("fabric: not a flow-kernel fabric");  // not reached: the check above refuses it
}

/// Why link_load(fab, pattern) does not take the symmetric path: empty when it
/// does (then its loads are the pair walk's, bit for bit).
template <class Fab, TrafficPattern P>
constexpr std::string_view why_not_by_symmetry(const Fab& fab, const P& pattern) {
    detail::check_flow_kernel_fabric<Fab, P>();
    return detail::by_symmetry(fab, pattern, detail::own_tasks_per_node(fab, pattern)).declined;
}

namespace detail {
template <class Fab, TrafficPattern P>
constexpr LinkLoads flow_kernel(const Fab& fab, const P& pattern, const Placement& placement) {
    using T = typename Fab::topology_type;
    const T& topo = fab.topology();
    detail::require(placement.task_count() == pattern.task_count(), "the placement places ",
                    placement.task_count(), " tasks but the traffic pattern has ", pattern.task_count());
    detail::require(placement.node_count() == topo.node_count(), "the placement is for ", placement.node_count(),
                    " nodes but the topology has ", topo.node_count());
    using R = typename Fab::routing_type;
    std::vector<double> loads(channel_slots(topo), 0.0);
    const auto& routing = fab.routing();
    if constexpr (requires { aggregated_loads<R>::accumulate(routing, topo, pattern, placement, loads); }) {
        aggregated_loads<R>::accumulate(routing, topo, pattern, placement, loads);
    } else {
        const std::uint32_t* node_of = placement.nodes().data();
        double* load = loads.data();
        FlowBudget budget;
        // Every flow of one amount (uniform traffic, a permutation, a halo): each
        // channel counts the fractions that cross it (integers, and halves where ties
        // split: exact), then one scaling by the amount. Only when a second amount
        // turns up are the terms amount x fraction added pair by pair, from the start.
        double one_amount = 0;
        bool mixed = false;
        pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
            const std::uint32_t a = node_of[s];
            const std::uint32_t b = node_of[d];
            if (a == b || amount == 0 || mixed) return;
            if (amount != one_amount) {
                if (one_amount != 0) {
                    mixed = true;
                    return;
                }
                one_amount = amount;
            }
            routing.for_each_hop(topo, NodeId{a}, NodeId{b}, [&](NodeId n, PortId p, double fraction) {
                budget.spend();
                load[static_cast<std::size_t>(n.value) * T::ports_per_node + p.value] += fraction;
            });
        });
        if (!mixed) {
            for (double& l : loads) l *= one_amount;
        } else {
            for (double& l : loads) l = 0;
            pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
                const std::uint32_t a = node_of[s];
                const std::uint32_t b = node_of[d];
                if (a == b) return;
                routing.for_each_hop(topo, NodeId{a}, NodeId{b}, [&](NodeId n, PortId p, double fraction) {
                    budget.spend();
                    load[static_cast<std::size_t>(n.value) * T::ports_per_node + p.value] += amount * fraction;
                });
            });
        }
    }
    const double tasks_per_node =
        static_cast<double>(placement.task_count()) / static_cast<double>(topo.node_count());
    return with_node_links(detail::summarise_loads(topo, std::move(loads), tasks_per_node), topo, pattern, placement);
}
}  // namespace detail

}  // namespace fabric
