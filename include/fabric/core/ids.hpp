// Strong identifiers for nodes, ports and directed channels. They are plain
// 32-bit integers underneath so that kernels can index arrays with them, but they
// do not convert into one another by accident.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace fabric {

namespace detail {
template <class Tag>
struct strong_id {
    using value_type = std::uint32_t;
    value_type value{std::numeric_limits<value_type>::max()};

    constexpr strong_id() = default;
    constexpr explicit strong_id(value_type v) : value(v) {}

    [[nodiscard]] constexpr bool valid() const { return value != std::numeric_limits<value_type>::max(); }
    [[nodiscard]] constexpr value_type operator*() const { return value; }
    friend constexpr auto operator<=>(strong_id, strong_id) = default;
};
}  // namespace detail

struct node_tag;
struct port_tag;
struct channel_tag;

/// A router / network endpoint.
using NodeId = detail::strong_id<node_tag>;
/// An output port of a node; ports are numbered 0 .. Topology::ports_per_node - 1.
using PortId = detail::strong_id<port_tag>;
/// A directed channel: the output `port` of `node`. Its dense index is
/// node * ports_per_node + port (see Topology::channel_index).
using ChannelId = detail::strong_id<channel_tag>;

/// The id of "no node": what a topology answers for a port with no link.
inline constexpr NodeId no_node{};

/// A directed channel together with the virtual channel a packet holds on it.
struct VirtualChannel {
    NodeId node;
    PortId port;
    std::uint8_t vc = 0;
    friend constexpr auto operator<=>(const VirtualChannel&, const VirtualChannel&) = default;
};

}  // namespace fabric

// Ids hash by value (hidden from the API reference, which cannot place std::hash).
/** \cond */
template <class Tag>
struct std::hash<fabric::detail::strong_id<Tag>> {
    std::size_t operator()(fabric::detail::strong_id<Tag> id) const noexcept { return id.value; }
};
/** \endcond */
