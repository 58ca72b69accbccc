// Ranges over a topology (range-v3 views, lazy, nothing allocated):
//   views::nodes(t)           every NodeId
//   views::ports(t, n)        the ports of node n that have a link
//   views::channels(t)        every directed channel with a link, as fabric::Channel
//   views::for_each_channel(t, f)  the same channels through a callback, also in constant evaluation
//   views::node_pairs(t)      every ordered pair of nodes (src, dst), src == dst included
// The views refer to the topology: it must outlive them, as a container outlives
// its std::views.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <range/v3/view/cartesian_product.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/join.hpp>
#include <range/v3/view/transform.hpp>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// A directed channel with a link: from `node` through `port` to `to`, its dense
/// index (node * ports_per_node + port) and its link class.
struct Channel {
    NodeId node;
    PortId port;
    NodeId to;
    std::size_t index;
    std::size_t link_class;
    friend constexpr bool operator==(const Channel&, const Channel&) = default;
};

namespace views {

template <Topology T>
auto nodes(const T& topo) {
    return ranges::views::iota(std::uint32_t{0}, static_cast<std::uint32_t>(topo.node_count())) |
           ranges::views::transform([](std::uint32_t n) { return NodeId{n}; });
}

template <Topology T>
auto ports(const T& topo, NodeId node) {
    const T* t = &topo;
    return ranges::views::iota(std::uint32_t{0}, static_cast<std::uint32_t>(T::ports_per_node)) |
           ranges::views::transform([](std::uint32_t p) { return PortId{p}; }) |
           ranges::views::filter([t, node](PortId p) { return t->neighbour(node, p).valid(); });
}

template <Topology T>
auto channels(const T& topo) {
    const T* t = &topo;
    return nodes(topo) | ranges::views::transform([t](NodeId n) {
               return ports(*t, n) | ranges::views::transform([t, n](PortId p) {
                          return Channel{n, p, t->neighbour(n, p), channel_index<T>(n, p), t->link_class(n, p)};
                      });
           }) |
           ranges::views::join;
}

/// Calls f(Channel) for every directed channel with a link, in index order: the
/// same channels as channels(t), by plain loops, so that it runs in constant
/// evaluation too (range-v3 0.12's iota and join are not constexpr).
template <Topology T, class F>
constexpr void for_each_channel(const T& topo, F&& f) {
    const auto count = static_cast<std::uint32_t>(topo.node_count());
    for (std::uint32_t node = 0; node < count; ++node)
        for (std::uint32_t port = 0; port < T::ports_per_node; ++port) {
            const NodeId n{node};
            const PortId p{port};
            if (const NodeId to = topo.neighbour(n, p); to.valid())
                f(Channel{n, p, to, channel_index<T>(n, p), topo.link_class(n, p)});
        }
}

template <Topology T>
auto node_pairs(const T& topo) {
    return ranges::views::cartesian_product(nodes(topo), nodes(topo)) |
           ranges::views::transform([](const auto& pair) {
               const auto& [src, dst] = pair;
               return std::pair<NodeId, NodeId>{src, dst};
           });
}

}  // namespace views
}  // namespace fabric
