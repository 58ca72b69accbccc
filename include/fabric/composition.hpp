// fabric::Fabric<Topology, Routing, Flow>: a machine as a type.
//
// The composition is checked when the type is formed: the routing policy must fit
// the topology, the links must offer the virtual channels the policy needs, the
// flow-control protocol must be able to drive every link class, and, when the
// topology's sizes are static, the channel-dependency graph must be acyclic (a
// constexpr evaluation of routing/channel_dependency.hpp). With run-time sizes the
// same deadlock check runs once at construction and throws config_error (policies
// whose VC levels strictly increase along every route are acyclic by construction
// and skip it), unless
// the user asks for a configuration that may deadlock (fabric::allow_deadlock),
// for instance to watch a simulation deadlock.
#pragma once

#include <cstddef>
#include <utility>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/vc_levels.hpp>

namespace fabric {

/// Tag: build a fabric whose routing may deadlock, without throwing.
struct AllowDeadlock {
    explicit AllowDeadlock() = default;
};
inline constexpr AllowDeadlock allow_deadlock{};

/// What the compile-time deadlock check of a fabric with static sizes may cost:
/// ordered node pairs times (longest route + 1), summed over the graphs routed
/// (detail::compile_time_check_cost). Within it, GCC 12 and Clang 14 finish
/// under their default constexpr limits (measured: a 22-node ring with chords,
/// 10,648, takes 10 s and 240 MB under GCC 12; 32 nodes, 33,792, exceed GCC's
/// limit of 2^25 operations). Past it, the fabric refuses to compile and says to
/// use run-time sizes, whose check runs once at construction.
inline constexpr std::size_t compile_time_check_budget = 10000;

namespace detail {

enum class fabric_rule : std::uint8_t { ok, not_a_topology, routing_does_not_fit, not_a_routing_policy, too_few_vcs,
                                        not_a_flow_control, flow_cannot_drive_link, too_large_to_check,
                                        vc_out_of_range, cyclic, levels_unnamed };

template <class F>
struct drives_link {
    // A protocol that declares no drives<L> drives no link.
    template <class L>
    struct pred : std::bool_constant<requires { requires F::template drives<L>; }> {};
};

/// A routing policy declares, first of all, which topologies it fits.
template <class R, class T>
concept declares_fit = requires { { R::template fits<T> } -> std::convertible_to<bool>; };

template <class T>
constexpr bool topology_has_static_sizes() {
    if constexpr (requires { T::static_extents; }) return T::static_extents;
    else return false;
}

/// True when every link class of T has the virtual channels R needs on it.
template <class T, class R>
consteval bool enough_vcs() {
    constexpr auto& have = link_pack<typename T::link_types>::vcs;
    constexpr auto need = R::template vcs_required<T>;
    if constexpr (std::is_integral_v<std::remove_cvref_t<decltype(need)>>) {
        for (const auto h : have)
            if (h < need) return false;
        return true;
    } else {
        static_assert(std::size(need) == std::size(have),
                      "fabric: vcs_required must give one count per link class of the topology");
        for (std::size_t c = 0; c < std::size(have); ++c)
            if (have[c] < need[c]) return false;
        return true;
    }
}

/// The compile-time deadlock check's work: ordered pairs times (longest route + 1),
/// over each graph it routes (each ring of a topology with SeparableRings under a
/// dimension-separable policy, else the whole topology). The longest route is
/// R::max_hops(topology) when the policy gives it, else the node count.
template <class T, class R>
consteval std::size_t compile_time_check_cost() {
    auto cost_of = [](const auto& topo) {
        const std::size_t n = topo.node_count();
        std::size_t longest = n;
        if constexpr (requires { R::max_hops(topo); }) longest = R::max_hops(topo);
        return n * n * (longest + 1);
    };
    const T t{};
    if constexpr (checks_ring_by_ring<T, R>()) {
        std::size_t cost = 0;
        for (std::size_t d = 0; d < T::rank; ++d) cost += cost_of(t.ring(d));
        return cost;
    } else {
        return cost_of(t);
    }
}

/// Policies that assign virtual channels so that a level strictly increases
/// along every route are deadlock free by construction (routing/vc_levels.hpp);
/// the others are checked.
template <class R>
constexpr bool deadlock_free_by_construction() {
    return ClaimsVcLevels<R>;
}

/// Whether R claims increasing levels without saying what they are.
template <class R>
constexpr bool claims_levels_unnamed() {
    if constexpr (requires { R::vc_levels_increase; }) return R::vc_levels_increase && !ClaimsVcLevels<R>;
    else return false;
}

template <class T, class R, class F>
consteval fabric_rule first_broken_rule() {
    if constexpr (!Topology<T>) {
        return fabric_rule::not_a_topology;
    } else if constexpr (!declares_fit<R, T>) {
        return fabric_rule::not_a_routing_policy;
    } else if constexpr (!R::template fits<T>) {
        return fabric_rule::routing_does_not_fit;
    } else if constexpr (!RoutingPolicyFor<R, T>) {
        return fabric_rule::not_a_routing_policy;
    } else if constexpr (claims_levels_unnamed<R>()) {
        return fabric_rule::levels_unnamed;
    } else if constexpr (!enough_vcs<T, R>()) {
        return fabric_rule::too_few_vcs;
    } else if constexpr (!FlowControl<F>) {
        return fabric_rule::not_a_flow_control;
    } else if constexpr (!link_pack<typename T::link_types>::template all<drives_link<F>::template pred>) {
        return fabric_rule::flow_cannot_drive_link;
    } else if constexpr (topology_has_static_sizes<T>()) {
        if constexpr (compile_time_check_cost<T, R>() > compile_time_check_budget) {
            return fabric_rule::too_large_to_check;
        } else {
            const auto report = channel_dependencies(T{}, R{});
            if (report.vc_out_of_range) return fabric_rule::vc_out_of_range;
            return report.acyclic ? fabric_rule::ok : fabric_rule::cyclic;
        }
    } else {
        return fabric_rule::ok;
    }
}

}  // namespace detail

/// Throws config_error, naming the cycle, when `routing` can deadlock on `topo`: the
/// check a Fabric of run-time sizes makes as it is built (policies whose VC levels
/// increase along every route are acyclic by construction and skip it). It routes
/// every pair of nodes: a tool that builds a large fabric with allow_deadlock, to
/// estimate the run first, makes it after.
template <class Topo, class Routing>
constexpr void check_deadlock_free(const Topo& topo, const Routing& routing) {
    if constexpr (!detail::deadlock_free_by_construction<Routing>()) {
        const auto report = channel_dependencies(topo, routing);
        if (report.vc_out_of_range)
            throw config_error(detail::message("a route of the routing policy uses a virtual channel its link "
                                               "does not have: ", report.describe_cycle(),
                                               "; give that link class more virtual channels"));
        if (!report.acyclic)
            throw config_error(detail::message(
                "the routing policy can deadlock on this topology: its channel-dependency graph has the cycle ",
                report.describe_cycle(),
                "; give the routes virtual channels that break it (on a torus: fabric::Dateline), or pass "
                "fabric::allow_deadlock to build it anyway"));
    }
}

template <class Topo, class Routing, class Flow = Credit>
class Fabric {
    static constexpr detail::fabric_rule broken = detail::first_broken_rule<Topo, Routing, Flow>();
    static_assert(broken != detail::fabric_rule::not_a_topology,
                  "fabric: the first parameter of Fabric must model fabric::Topology (node_count, neighbour, "
                  "link_class, links, ports_per_node; distance and diameter are optional: fabric::MetricTopology)");
    static_assert(broken != detail::fabric_rule::levels_unnamed,
                  "fabric: this routing policy claims vc_levels_increase but gives no static level(link_class, vc); "
                  "define the levels so the claim can be checked (fabric::check_vc_levels), or drop the claim");
    static_assert(broken != detail::fabric_rule::routing_does_not_fit,
                  "fabric: this routing policy does not fit this topology; use a policy written for it (dimension "
                  "order on a Torus or Mesh, Direct or Indirect on PERCS)");
    static_assert(broken != detail::fabric_rule::not_a_routing_policy,
                  "fabric: the second parameter of Fabric must be a routing policy for this topology: it provides "
                  "fits<Topology>, vcs_required, for_each_route and for_each_hop (see concepts/routing.hpp)");
    static_assert(broken != detail::fabric_rule::too_few_vcs,
                  "fabric: the routing policy needs more virtual channels than the topology's links have (a torus "
                  "with wraparound links needs at least 2 for deadlock-free dimension-order routing with a "
                  "dateline); use a link type with more virtual channels or a policy that needs fewer");
    static_assert(broken != detail::fabric_rule::not_a_flow_control,
                  "fabric: the third parameter of Fabric must model fabric::FlowControl (name, validate)");
    static_assert(broken != detail::fabric_rule::flow_cannot_drive_link,
                  "fabric: the flow-control protocol cannot drive one of the topology's link types; pick a protocol "
                  "whose drives<Link> holds for every link class");
    static_assert(broken != detail::fabric_rule::too_large_to_check,
                  "fabric: this topology is too large for the compile-time deadlock check (node pairs times route "
                  "length exceed fabric::compile_time_check_budget, about the compilers' default constexpr limits); "
                  "give it run-time sizes, and the same check runs once when the fabric is constructed");
    static_assert(broken != detail::fabric_rule::vc_out_of_range,
                  "fabric: a route of this routing policy uses a virtual channel that its link does not have; give "
                  "that link class more virtual channels, or make the policy's vcs_required and its routes agree");
    static_assert(broken != detail::fabric_rule::cyclic,
                  "fabric: the channel-dependency graph of this routing on this topology has a cycle, so it can "
                  "deadlock; give the routes virtual channels that break it (on a torus: fabric::Dateline with 2 VCs "
                  "instead of fabric::NoDateline); fabric::channel_dependencies(topology, routing).describe_cycle() "
                  "names the cycle");

public:
    using topology_type = Topo;
    using routing_type = Routing;
    using flow_type = Flow;

    constexpr explicit Fabric(Topo topology, Routing routing = {}, Flow flow = {})
        : topology_(std::move(topology)), routing_(std::move(routing)), flow_(std::move(flow)) {
        flow_.validate();
        if constexpr (!detail::topology_has_static_sizes<Topo>()) check_deadlock_free(topology_, routing_);
    }

    /// A fabric whose topology has static sizes needs no arguments.
    constexpr Fabric() requires(detail::topology_has_static_sizes<Topo>()) : Fabric(Topo{}) {}

    constexpr Fabric(Topo topology, AllowDeadlock, Routing routing = {}, Flow flow = {})
        : topology_(std::move(topology)), routing_(std::move(routing)), flow_(std::move(flow)) {
        flow_.validate();
    }

    [[nodiscard]] constexpr const Topo& topology() const { return topology_; }
    [[nodiscard]] constexpr const Routing& routing() const { return routing_; }
    [[nodiscard]] constexpr const Flow& flow() const { return flow_; }

private:
    Topo topology_;
    Routing routing_;
    Flow flow_;
};

}  // namespace fabric
