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
#include <string_view>
#include <type_traits>

#include <boost/hana/all_of.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/at_key.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/equal.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/index_if.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/range.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/transform.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>

#include <fabric/concepts/link.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/units.hpp>

namespace fabric {

template <class T>
concept Topology = requires(const T& topo, NodeId node, PortId port) {
    { T::ports_per_node } -> std::convertible_to<std::size_t>;
    typename T::link_types;
    { topo.links() } -> std::same_as<const typename T::link_types&>;
    { topo.node_count() } -> std::convertible_to<std::size_t>;
    { topo.neighbour(node, port) } -> std::same_as<NodeId>;
    { topo.link_class(node, port) } -> std::convertible_to<std::size_t>;
};

/// A topology that also knows its shortest distances (hops between two nodes)
/// and its diameter. No kernel needs them; the laws the tests check (a minimal
/// route's length is the distance, never past the diameter) and the dimension-
/// order policies do.
template <class T>
concept MetricTopology = Topology<T> && requires(const T& topo, NodeId node) {
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

/// A topology whose routers each serve several terminals (concentration): at most
/// `max_terminals_per_node` (a compile-time bound, the kernels size their ports by
/// it), `terminals_per_node()` = p in this instance. Terminal t is on router t / p, the
/// (t mod p)-th there. Terminals fill the routers in order: with an optional
/// `terminal_count()` below node_count() * p, the routers past the last terminal's
/// have none (a fat tree's switches above its leaves). A topology that says nothing
/// has one terminal a router, and its terminals are its nodes.
template <class T>
concept ConcentratedTopology = Topology<T> && requires(const T& topo) {
    { T::max_terminals_per_node } -> std::convertible_to<std::size_t>;
    { topo.terminals_per_node() } -> std::convertible_to<std::size_t>;
};

/// The links through which a node's terminals inject into the network and eject
/// from it, where a topology models them (the PERCS hub's W links to its POWER7
/// chips): their name and their bandwidth together, per direction. A bandwidth
/// of 0: not modelled, and injection and ejection are not limited.
struct NodeLinks {
    std::string_view name{};
    GBps bandwidth{};
    [[nodiscard]] constexpr bool modelled() const { return bandwidth.count > 0; }
};

/// A topology that may limit each node's injection and ejection by links of its
/// own (node_links()). The flow kernel then counts, per node, what its tasks send
/// to other nodes and what they receive from them, as one more class of links.
template <class T>
concept InjectionLimitedTopology = Topology<T> && requires(const T& topo) {
    { topo.node_links() } -> std::same_as<NodeLinks>;
};

/// The most terminals any router of T serves (1 unless T is concentrated).
template <Topology T>
inline constexpr std::size_t max_terminals_v = [] {
    if constexpr (ConcentratedTopology<T>) return static_cast<std::size_t>(T::max_terminals_per_node);
    else return std::size_t{1};
}();

/// The router network of T: T itself, or what a concentrated T puts its terminals
/// on (T::router_network). Traits that name a topology family look through it, so
/// a family's routing policies route its concentrated form.
template <class T>
struct router_network {
    using type = T;
};
template <class T>
    requires requires { typename T::router_network; }
struct router_network<T> {
    using type = typename T::router_network;
};
template <class T>
using router_network_t = typename router_network<T>::type;

/// The terminals of `topo` (nodes x terminals a node, unless it says fewer).
template <Topology T>
[[nodiscard]] constexpr std::size_t terminal_count(const T& topo) {
    if constexpr (requires { topo.terminal_count(); }) return static_cast<std::size_t>(topo.terminal_count());
    else if constexpr (ConcentratedTopology<T>)
        return static_cast<std::size_t>(topo.node_count()) * static_cast<std::size_t>(topo.terminals_per_node());
    else return static_cast<std::size_t>(topo.node_count());
}

/// The terminals each router of `topo` serves (the most: routers past the last
/// terminal serve none).
template <Topology T>
[[nodiscard]] constexpr std::size_t terminals_per_node(const T& topo) {
    if constexpr (ConcentratedTopology<T>) return static_cast<std::size_t>(topo.terminals_per_node());
    else return (void)topo, std::size_t{1};
}

namespace detail {
/// The link classes of a topology as a Hana list of types, and what the checks
/// read off it: counts, virtual channels per class (in class order), a predicate
/// over every class.
template <class Tuple>
struct link_pack;
template <class... Links>
struct link_pack<boost::hana::tuple<Links...>> {
    static constexpr auto types = boost::hana::tuple_t<Links...>;
    static constexpr std::size_t count = decltype(boost::hana::size(types))::value;
    static constexpr std::array<std::size_t, sizeof...(Links)> vcs =
        boost::hana::unpack(boost::hana::transform(types, [](auto t) {
                                return typename decltype(t)::type{}.virtual_channels;
                            }),
                            [](auto... v) { return std::array<std::size_t, sizeof...(Links)>{v...}; });
    static constexpr std::size_t min_vcs = [] {
        std::size_t least = ~std::size_t{0};
        for (const auto v : vcs) least = v < least ? v : least;
        return least;
    }();
    static constexpr std::size_t max_vcs = [] {
        std::size_t most = 0;
        for (const auto v : vcs) most = v > most ? v : most;
        return most;
    }();
    template <template <class> class Pred>
    static constexpr bool all = decltype(boost::hana::all_of(types, [](auto t) {
        return boost::hana::bool_c<Pred<typename decltype(t)::type>::value>;
    }))::value;
    /// The class index of link type L (the first class of that type).
    template <class L>
    static constexpr std::size_t index_of =
        std::remove_cvref_t<decltype(boost::hana::index_if(types, boost::hana::equal.to(boost::hana::type_c<L>)).value())>::value;
};
}  // namespace detail

/// Number of link classes of a topology type.
template <Topology T>
inline constexpr std::size_t link_class_count_v = detail::link_pack<typename T::link_types>::count;

/// Smallest number of virtual channels over T's link classes.
template <Topology T>
inline constexpr std::size_t min_virtual_channels_v = detail::link_pack<typename T::link_types>::min_vcs;

/// Most virtual channels over T's link classes.
template <Topology T>
inline constexpr std::size_t max_virtual_channels_v = detail::link_pack<typename T::link_types>::max_vcs;

/// Calls f(index, link) for every link class of `topo`; the index is a
/// compile-time constant (boost::hana::size_c<i>, which converts to std::size_t).
template <Topology T, class F>
constexpr void for_each_link_class(const T& topo, F&& f) {
    constexpr std::size_t n = detail::link_pack<typename T::link_types>::count;
    boost::hana::for_each(boost::hana::make_range(boost::hana::size_c<0>, boost::hana::size_c<n>),
                          [&](auto index) { f(index, boost::hana::at(topo.links(), index)); });
}

/// Virtual channels a policy needs per link class of T, given per link type: a
/// Hana map from boost::hana::type_c<Link> to a count. Every class of T must be
/// in it. For policies whose needs follow the kind of link, not its position.
template <Topology T, class Map>
constexpr auto vcs_by_link_type(Map needs) {
    using pack = detail::link_pack<typename T::link_types>;
    std::array<std::size_t, pack::count> out{};
    boost::hana::for_each(boost::hana::make_range(boost::hana::size_c<0>, boost::hana::size_c<pack::count>),
                          [&](auto i) {
                              constexpr auto type = boost::hana::at(pack::types, decltype(i){});
                              constexpr bool given = decltype(boost::hana::contains(needs, type))::value;
                              static_assert(given, "fabric: vcs_by_link_type needs a count for every link type of "
                                                   "the topology");
                              if constexpr (given) out[i] = boost::hana::at_key(needs, type);
                          });
    return out;
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
