// A fabric type's cycle kernel: the core (core.hpp) for its flow control and
// switch allocator, given what only the fabric type knows: the shape of its
// routers, its links (topology and link classes), and its routing policy's
// answers as plain functions (RoutingHooks: a route once a packet, when it
// reaches the head of its source queue; a rewrite once a hop for a policy that
// routes hop by hop). The core is shared by every fabric of one flow control and
// one allocator; this is the thin part each fabric type adds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/core.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab, SwitchAllocator A>
class Kernel {
public:
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    using F = typename Fab::flow_type;
    using CoreType = Core<F, A>;
    static constexpr bool adaptive = AdaptiveRouting<R, T>;                          // routes read the queues
    static constexpr bool hop_adaptive = HopAdaptive<R, T> && !SourceAdaptive<R, T>;  // and at every router
    /// Whether an oblivious policy writes a route slot's steps itself (each route it
    /// gives, with or without broken links), rather than hops copied into the slot.
    template <class Out>
    static constexpr bool writes = requires(const R& r, const T& t, Out* o, std::span<const std::uint8_t> b) {
        r.select_route(t, NodeId{}, NodeId{}, std::uint64_t{}, o);
        requires !requires { r.select_route(t, NodeId{}, NodeId{}, std::uint64_t{}, (Hop*)nullptr, b); } ||
                     requires { r.select_route(t, NodeId{}, NodeId{}, std::uint64_t{}, o, b); };
    };
    static constexpr bool writes_steps = !adaptive && writes<RouteStep>;

    Kernel(const Fab& fabric, CycleConfig config)
        // config is copied into Core, not moved: the arguments are evaluated in an
        // unspecified order, and a move could empty a vector before Links reads it.
        : fab_(fabric), core_(shape_of(fabric.topology()), Links(fabric.topology(), (config.validate(), config)),
                              fabric.flow(), hooks(fabric), config) {}

    [[nodiscard]] CoreType& core() { return core_; }
    [[nodiscard]] const CoreType& core() const { return core_; }
    [[nodiscard]] const Fab& fabric() const { return fab_; }

private:
    /// The routers' sizes, from the topology type and instance.
    static Shape shape_of(const T& topo) {
        Shape shape;
        shape.routers = static_cast<std::uint32_t>(topo.node_count());
        shape.ports = static_cast<std::uint32_t>(T::ports_per_node);
        shape.terminal_ports = static_cast<std::uint32_t>(max_terminals_v<T>);
        shape.vcs = static_cast<std::uint32_t>(max_virtual_channels_v<T>);
        shape.validate();
        const auto per_node = static_cast<std::uint32_t>(terminals_per_node(topo));
        detail::require(per_node >= 1 && per_node <= shape.terminal_ports, "the topology says ", per_node,
                        " terminals a router; its type bounds them to 1 to ", shape.terminal_ports);
        const std::size_t terminals = terminal_count(topo);
        detail::require(terminals >= 1 && terminals <= std::size_t{shape.routers} * per_node &&
                            terminals % per_node == 0,
                        "the topology says ", terminals, " terminals; they must fill whole routers of ", per_node,
                        " from router 0, at most ", std::size_t{shape.routers} * per_node);
        shape.per_node = per_node;
        shape.terminals = static_cast<std::uint32_t>(terminals);
        return shape;
    }

    static RoutingHooks<CoreType> hooks(const Fab& fab) {
        RoutingHooks<CoreType> h;
        h.fabric = &fab;
        h.route = &route;
        if constexpr (hop_adaptive) h.reroute = &reroute;
        h.tracks_occupancy = adaptive;
        h.source_view = reads_source_router_only<R>();
        const T& topo = fab.topology();
        h.max_hops = static_cast<std::uint32_t>(R::max_hops(topo));
        h.max_detour_hops = h.max_hops;
        using Pack = detail::link_pack<typename T::link_types>;
        if constexpr (std::is_integral_v<std::remove_cvref_t<decltype(R::template vcs_required<T>)>>)
            if (Pack::min_vcs == Pack::max_vcs) h.vc_classes = static_cast<std::uint32_t>(R::template vcs_required<T>);
        if constexpr (requires { R::max_detour_hops(topo); })
            h.max_detour_hops = static_cast<std::uint32_t>(R::max_detour_hops(topo));
        return h;
    }

    /// The policy's route at the source into a route slot's steps: written there by a
    /// policy that can (DimensionOrder), else as hops and then copied.
    static std::size_t route(const void* fabric, CoreType& core, std::uint32_t src, std::uint32_t dst,
                             std::uint64_t choice, RouteStep* out) {
        if constexpr (writes_steps) {
            return select(fabric, core, src, dst, choice, out);
        } else {
            Hop* hops = core.scratch_route();
            const std::size_t len = select(fabric, core, src, dst, choice, hops);
            if (len <= core.max_hops())
                for (std::size_t i = 0; i < len; ++i) out[i] = hops[i];
            return len;
        }
    }

    /// The policy's route at the source: with the network's queues (source-adaptive
    /// routing), avoiding broken links (where the policy can and a link failed), or plain.
    template <class Out>
    [[gnu::always_inline]] static std::size_t select(const void* fabric, CoreType& core, std::uint32_t src,
                                                     std::uint32_t dst, std::uint64_t choice, Out* out) {
        const Fab& fab = *static_cast<const Fab*>(fabric);
        const T& topo = fab.topology();
        if constexpr (adaptive && !hop_adaptive) {
            return fab.routing().select_route(topo, NodeId{src}, NodeId{dst}, choice, out,
                                              core.routers().occupancy().network(fab.flow(), core.channels().senders()));
        } else if constexpr (requires(std::span<const std::uint8_t> b) {
                                 fab.routing().select_route(topo, NodeId{}, NodeId{}, std::uint64_t{}, out, b);
                             }) {
            const LinkFailures& failures = core.failures();
            if (failures.any()) [[unlikely]]
                return round_failures(fab, src, dst, choice, out, failures.flags());
            return fab.routing().select_route(topo, NodeId{src}, NodeId{dst}, choice, out);
        } else {
            (void)core;
            return fab.routing().select_route(topo, NodeId{src}, NodeId{dst}, choice, out);
        }
    }

    /// A route avoiding the failed links: out of line, so that the common path keeps its registers.
    template <class Out>
    [[gnu::noinline]] static std::size_t round_failures(const Fab& fab, std::uint32_t src, std::uint32_t dst,
                                                        std::uint64_t choice, Out* out,
                                                        std::span<const std::uint8_t> broken) {
        return fab.routing().select_route(fab.topology(), NodeId{src}, NodeId{dst}, choice, out, broken);
    }

    /// A hop-by-hop policy's rewrite of the rest of a route at router `here`, from its own queues.
    static std::size_t reroute(const void* fabric, CoreType& core, std::uint32_t here, std::uint32_t dst,
                               std::uint32_t hop, std::uint64_t choice, Hop* out) {
        const Fab& fab = *static_cast<const Fab*>(fabric);
        return fab.routing().reroute(fab.topology(), NodeId{here}, NodeId{dst}, hop, choice, out,
                                     core.routers().occupancy().router(fab.flow(), core.channels().senders(), here));
    }

    const Fab& fab_;
    CoreType core_;
};

}  // namespace fabric::cycle
