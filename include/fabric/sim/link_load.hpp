// The flow-level link-load kernel: exact channel loads for a traffic pattern.
//
// Every communicating pair's amount is split over the channels its routes cross,
// in the fractions the routing policy gives (for_each_hop), and added to that
// channel's load. From the loads come, per link class, the maximum load and the
// throughput it allows: each task may inject at most bandwidth / max_load, so a
// node of m tasks at m * bandwidth / max_load (the PERCS mapping paper's tau with
// m = 4). For a routing policy that can aggregate (add whole groups of pairs at
// once) an aggregated_loads<R> specialisation is called instead of the pair-by-pair
// walk (PERCS indirect routing: sim/presets/percs_loads.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/units.hpp>
#include <fabric/mapping/placement.hpp>
#include <fabric/sim/presets/percs_loads.hpp>
#include <fabric/topology/views.hpp>

namespace fabric {

/// What the flow kernel may do in one constant evaluation: channel-load
/// additions (a hop of a route, with its fraction), counted as it runs. Measured
/// (docs/compile_time.md) under the compilers' default limits: GCC 12 (2^25
/// operations) finishes uniform traffic on a 10 x 10 torus under dimension order
/// (60,000 additions) and halo traffic on an 8-supernode PERCS system under direct
/// routing (28,576), and stops on an 11 x 11 torus (79,860); Clang 14 (2^20 steps)
/// finishes a 7 x 7 torus (8,232) and a 2-supernode PERCS halo (9,472), and stops
/// within an 8 x 8 torus (20,480). A constant evaluation past the budget stops with
/// a "fabric:" message that says to use run-time sizes, before the compiler's
/// own limit. Who raises the compiler's limit (-fconstexpr-ops-limit,
/// -fconstexpr-steps) may raise this one with FABRIC_CONSTANT_EVALUATION_BUDGET.
#if defined(FABRIC_CONSTANT_EVALUATION_BUDGET)
inline constexpr std::size_t constant_evaluation_budget = FABRIC_CONSTANT_EVALUATION_BUDGET;
#elif defined(__clang__)
inline constexpr std::size_t constant_evaluation_budget = 10000;
#else
inline constexpr std::size_t constant_evaluation_budget = 30000;
#endif

namespace detail {
/// Not constexpr on purpose: reached only in a constant evaluation past the
/// budget, where the compiler reports this call and the message beside it.
inline void past_the_constant_evaluation_budget(const char*) {}
}  // namespace detail

/// Loads of one link class.
struct ClassLoad {
    std::string_view link_name;
    GBps bandwidth{};
    double max_load = 0;       // units per channel, each task injecting one unit
    ChannelId busiest{};       // a channel carrying max_load (the lowest index)
    std::size_t channels = 0;  // channels of this class that exist
    double total_load = 0;     // summed over the class
    /// GB/s per node that the class allows: tasks_per_node * bandwidth / max_load.
    double throughput = std::numeric_limits<double>::infinity();
};

/// The result of the kernel: every channel's load, and the per-class summary.
class LinkLoads {
public:
    constexpr LinkLoads(std::size_t ports_per_node, std::vector<double> loads, std::vector<ClassLoad> classes,
              double tasks_per_node = 1)
        : ports_(ports_per_node), loads_(std::move(loads)), classes_(std::move(classes)), tasks_(tasks_per_node) {
        // Ties (equal within rounding) go to the class listed last: on PERCS, D
        // before LR before LL, as the mapping paper's tables name them.
        for (std::size_t c = 1; c < classes_.size(); ++c)
            if (classes_[c].throughput <= classes_[bottleneck_].throughput * (1 + 1e-12)) bottleneck_ = c;
    }

    [[nodiscard]] constexpr double load(NodeId node, PortId port) const { return loads_[node.value * ports_ + port.value]; }
    [[nodiscard]] constexpr double load(ChannelId channel) const { return loads_[channel.value]; }
    /// Loads indexed by channel slot, node * ports_per_node + port (0 where there is no link).
    [[nodiscard]] constexpr std::span<const double> per_channel() const { return loads_; }
    [[nodiscard]] constexpr std::size_t ports_per_node() const { return ports_; }

    [[nodiscard]] constexpr const std::vector<ClassLoad>& classes() const { return classes_; }
    [[nodiscard]] constexpr const ClassLoad& link_class(std::size_t c) const { return classes_[c]; }
    /// The class whose throughput is smallest (the last such, on a tie).
    [[nodiscard]] constexpr std::size_t bottleneck() const { return bottleneck_; }
    /// GB/s per node: the smallest class throughput.
    [[nodiscard]] constexpr double throughput() const { return classes_[bottleneck_].throughput; }
    /// GB/s per task (per terminal, on a concentrated topology): throughput() / tasks_per_node().
    [[nodiscard]] constexpr double throughput_per_task() const { return throughput() / tasks_; }
    [[nodiscard]] constexpr double tasks_per_node() const { return tasks_; }
    [[nodiscard]] constexpr double max_load() const {
        double m = 0;
        for (const auto& c : classes_) m = c.max_load > m ? c.max_load : m;
        return m;
    }

private:
    std::size_t ports_;
    std::vector<double> loads_;
    std::vector<ClassLoad> classes_;
    std::size_t bottleneck_ = 0;
    double tasks_ = 1;
};

namespace detail {

template <class Fab, TrafficPattern P>
constexpr LinkLoads flow_kernel(const Fab& fab, const P& pattern, const Placement& placement);

template <class Fab>
constexpr LinkLoads summarise_loads(const Fab& fab, std::vector<double> loads, double tasks_per_node) {
    using T = typename Fab::topology_type;
    const T& topo = fab.topology();
    std::vector<ClassLoad> classes(link_class_count_v<T>);
    for_each_link_class(topo, [&](std::size_t c, const auto& link) {
        classes[c].link_name = std::remove_cvref_t<decltype(link)>::name;
        classes[c].bandwidth = link.bandwidth();
    });
    views::for_each_channel(topo, [&](const Channel& c) {
        ClassLoad& cls = classes[c.link_class];
        ++cls.channels;
        cls.total_load += loads[c.index];
        if (!cls.busiest.valid() || loads[c.index] > cls.max_load) {
            cls.busiest = ChannelId{static_cast<std::uint32_t>(c.index)};
            cls.max_load = loads[c.index];
        }
    });
    for (auto& cls : classes)
        if (cls.max_load > 0) cls.throughput = tasks_per_node * cls.bandwidth.count / cls.max_load;
    return LinkLoads(T::ports_per_node, std::move(loads), std::move(classes), tasks_per_node);
}

}  // namespace detail

/// Loads of `pattern` on `fab` with tasks placed by `placement`.
namespace detail {
template <class Fab>
constexpr void check_flow_kernel_fabric() {
    static_assert(FabricType<Fab>,
                  "fabric: link_load needs a fabric type (fabric::Fabric<Topology, Routing, Flow>, or one with "
                  "topology_type, routing_type, flow_type and topology(), routing(), flow())");
    if constexpr (FabricType<Fab>)
        static_assert(RoutingPolicyFor<typename Fab::routing_type, typename Fab::topology_type>,
                      "fabric: link_load needs a routing policy for the fabric's topology, with for_each_hop "
                      "(fabric::RoutingPolicyFor)");
}
}  // namespace detail

/// Loads of `pattern` on `fab` with tasks placed by `placement`.
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load(const Fab& fab, const P& pattern, const Placement& placement) {
    detail::check_flow_kernel_fabric<Fab>();
    if constexpr (FlowKernelFabric<Fab>) return detail::flow_kernel(fab, pattern, placement);
    else throw std::logic_error("fabric: not a flow-kernel fabric");  // not reached: the check above refuses it
}

/// Loads of `pattern` on `fab`, tasks placed blocked (task i on node i / (tasks /
/// nodes)). On a concentrated topology the pattern has one task per terminal, and
/// task t is terminal t, on router t / p; throughputs are then per terminal.
template <class Fab, TrafficPattern P>
constexpr LinkLoads link_load(const Fab& fab, const P& pattern) {
    detail::check_flow_kernel_fabric<Fab>();
    if constexpr (ConcentratedTopology<typename Fab::topology_type>) {
        const std::size_t terminals = terminal_count(fab.topology()), per = terminals_per_node(fab.topology());
        const std::size_t nodes = fab.topology().node_count();
        detail::require(pattern.task_count() == terminals, "link_load runs one task per terminal: the pattern has ",
                        pattern.task_count(), " tasks, the topology ", terminals, " terminals");
        // Terminal t on router t / p; routers past the last terminal's (a fat tree's upper switches) have none.
        std::vector<std::uint32_t> router(terminals, 0);
        for (std::size_t t = 0; t < terminals; ++t) router[t] = static_cast<std::uint32_t>(t / per);
        if constexpr (FlowKernelFabric<Fab>) return detail::flow_kernel(fab, pattern, Placement(std::move(router), nodes));
    }
    if constexpr (FlowKernelFabric<Fab>)
        return detail::flow_kernel(fab, pattern, Placement::blocked(pattern.task_count(), fab.topology().node_count()));
    else throw std::logic_error("fabric: not a flow-kernel fabric");
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
        std::size_t additions = 0;  // counted in constant evaluation only
        pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
            const std::uint32_t a = node_of[s];
            const std::uint32_t b = node_of[d];
            if (a == b) return;
            routing.for_each_hop(topo, NodeId{a}, NodeId{b}, [&](NodeId n, PortId p, double fraction) {
                if (std::is_constant_evaluated() && ++additions > constant_evaluation_budget)
                    detail::past_the_constant_evaluation_budget("fabric: this link_load is too large for constant "
                                                                "evaluation (past fabric::constant_evaluation_budget "
                                                                "channel-load additions, about the compiler's constexpr "
                                                                "limit); give the topology run-time sizes and call "
                                                                "link_load at run time");
                load[static_cast<std::size_t>(n.value) * T::ports_per_node + p.value] += amount * fraction;
            });
        });
    }
    const double tasks_per_node =
        static_cast<double>(placement.task_count()) / static_cast<double>(topo.node_count());
    return detail::summarise_loads(fab, std::move(loads), tasks_per_node);
}
}  // namespace detail

}  // namespace fabric
