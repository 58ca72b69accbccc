// Topology: nodes, their output ports, and which node each port reaches.
//
// Every node has the same number of port slots (Topology::ports_per_node); a
// slot with no link answers no_node. A directed channel is (node, port), with the
// dense index node * ports_per_node + port, so that kernels keep per-channel state
// in flat arrays. Links come in classes (LL, LR and D on PERCS; one class on a
// torus); the topology names the link type of each class in `link_types`, a
// Boost.Hana tuple, and holds one value of each (`links()`).
#pragma once

#include <array>
#include <concepts>
#include <cstddef>

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include <fabric/concepts/link.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

template <class T>
concept Topology = requires(const T& topo, NodeId node, PortId port) {
    { T::ports_per_node } -> std::convertible_to<std::size_t>;
    typename T::link_types;
    { topo.links() } -> std::same_as<const typename T::link_types&>;
    { topo.node_count() } -> std::convertible_to<std::size_t>;
    { topo.neighbour(node, port) } -> std::same_as<NodeId>;
    { topo.link_class(node, port) } -> std::convertible_to<std::size_t>;
    { topo.distance(node, node) } -> std::convertible_to<std::size_t>;
    { topo.diameter() } -> std::convertible_to<std::size_t>;
};

/// A topology the cycle kernel can run: every link also names the port at its
/// far end that leads back (reverse_port), so that credits and other flow-control
/// feedback can travel against the flits.
template <class T>
concept CycleTopology = Topology<T> && requires(const T& topo, NodeId node, PortId port) {
    { topo.reverse_port(node, port) } -> std::same_as<PortId>;
};

namespace detail {
template <class Tuple>
struct link_pack;
template <class... Links>
struct link_pack<boost::hana::tuple<Links...>> {
    static constexpr std::size_t count = sizeof...(Links);
    static constexpr std::array<std::size_t, sizeof...(Links)> vcs{Links::virtual_channels...};
    static constexpr std::size_t min_vcs = [] {
        std::size_t vcs = ~std::size_t{0};
        ((vcs = Links::virtual_channels < vcs ? Links::virtual_channels : vcs), ...);
        return vcs;
    }();
    template <template <class> class Pred>
    static constexpr bool all = (Pred<Links>::value && ...);
};
}  // namespace detail

/// Number of link classes of a topology type.
template <Topology T>
inline constexpr std::size_t link_class_count_v = detail::link_pack<typename T::link_types>::count;

/// Smallest number of virtual channels over T's link classes.
template <Topology T>
inline constexpr std::size_t min_virtual_channels_v = detail::link_pack<typename T::link_types>::min_vcs;

/// Calls f(class_index, link) for every link class of `topo`.
template <Topology T, class F>
constexpr void for_each_link_class(const T& topo, F&& f) {
    std::size_t index = 0;
    boost::hana::for_each(topo.links(), [&](const auto& link) { f(index++, link); });
}

/// Dense index of the directed channel (node, port).
template <Topology T>
constexpr std::size_t channel_index(NodeId node, PortId port) {
    return static_cast<std::size_t>(node.value) * T::ports_per_node + port.value;
}

/// Number of channel slots (some slots may have no link).
template <Topology T>
constexpr std::size_t channel_slots(const T& topo) {
    return topo.node_count() * T::ports_per_node;
}

}  // namespace fabric
