// The dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): g groups of a routers;
// the routers of a group are fully connected by local links, and every router
// has h global links to other groups, at most one link between two groups. A node
// of this topology is a router (the terminals a router serves are not modelled
// here); node id = group * a + router.
//
// Ports: 0 .. a - 2 local (port p of router r leads to router p, or p + 1 when
// p >= r), a - 1 .. a + h - 2 global. Global wiring is the consecutive
// arrangement: global slot j = r * h + k of a group (router r, global port k)
// leads to group (G + j + 1) mod g, for j < g - 1; a slot past g - 2 has no link
// (a group with a h > g - 1 has spare global ports). The link back from group T
// to G uses slot g - 2 - j of T, so every link is matched by its reverse.
//
// Distances and a diameter are not given (fabric::MetricTopology is optional):
// the shortest path between two routers may run through a third group.
#pragma once

#include <cstddef>
#include <cstdint>

#include <boost/hana/tuple.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/link/basic.hpp>

namespace fabric {

/// Ports: port slots per router, at least a - 1 + h of the dragonfly built
/// (per-channel state is sized by it, so it is best exact).
template <std::size_t Ports = 32, class LocalLink = BasicLink<2>, class GlobalLink = BasicLink<1>>
class Dragonfly {
public:
    using link_types = boost::hana::tuple<LocalLink, GlobalLink>;
    static constexpr std::size_t local_class = 0, global_class = 1;
    static constexpr std::size_t ports_per_node = Ports;
    static constexpr bool is_dragonfly = true;

    /// `a` routers per group, `h` global ports per router, `g` groups (at most
    /// a h + 1; 0 means a h + 1, the largest dragonfly of these routers).
    Dragonfly(std::uint32_t a, std::uint32_t h, std::uint32_t g = 0, LocalLink local = {}, GlobalLink global = {})
        : a_(a), h_(h), g_(g ? g : a * h + 1), links_(local, global) {
        detail::require(a_ >= 1 && h_ >= 1, "a dragonfly needs at least one router per group and one global port per "
                        "router; got a = ", a_, ", h = ", h_);
        detail::require(a_ - 1 + h_ <= ports_per_node, "Dragonfly<", ports_per_node, "> has ", ports_per_node,
                        " port slots, fewer than a - 1 + h = ", a_ - 1 + h_, "; use Dragonfly<", a_ - 1 + h_, ">");
        detail::require(g_ >= 2 && g_ <= a_ * h_ + 1, "a dragonfly of a = ", a_, ", h = ", h_, " has 2 to a h + 1 = ",
                        a_ * h_ + 1, " groups (one global link between each pair); got g = ", g_);
    }

    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr std::size_t node_count() const { return static_cast<std::size_t>(a_) * g_; }
    [[nodiscard]] constexpr std::uint32_t routers_per_group() const { return a_; }
    [[nodiscard]] constexpr std::uint32_t global_ports() const { return h_; }
    [[nodiscard]] constexpr std::uint32_t groups() const { return g_; }

    [[nodiscard]] constexpr std::uint32_t group_of(NodeId n) const { return n.value / a_; }
    [[nodiscard]] constexpr std::uint32_t router_of(NodeId n) const { return n.value % a_; }
    [[nodiscard]] constexpr NodeId node(std::uint32_t group, std::uint32_t router) const {
        return NodeId{group * a_ + router};
    }
    /// The local port of router r that leads to router q of its group (q != r).
    [[nodiscard]] static constexpr PortId local_port(std::uint32_t r, std::uint32_t q) {
        return PortId{q < r ? q : q - 1};
    }
    /// The global slot of group `from` whose link leads to group `to` (from != to).
    [[nodiscard]] constexpr std::uint32_t slot_to(std::uint32_t from, std::uint32_t to) const {
        return (to + g_ - from - 1) % g_;
    }
    /// The router owning global slot j, and its port.
    [[nodiscard]] constexpr std::uint32_t slot_router(std::uint32_t j) const { return j / h_; }
    [[nodiscard]] constexpr PortId slot_port(std::uint32_t j) const { return PortId{a_ - 1 + j % h_}; }

    [[nodiscard]] constexpr NodeId neighbour(NodeId n, PortId p) const {
        const std::uint32_t G = group_of(n), r = router_of(n);
        if (p.value + 1 < a_) return node(G, p.value < r ? p.value : p.value + 1);
        if (p.value >= a_ - 1 + h_) return no_node;
        const std::uint32_t j = r * h_ + (p.value - (a_ - 1));
        if (j + 1 >= g_) return no_node;
        const std::uint32_t T = (G + j + 1) % g_;
        return node(T, slot_router(g_ - 2 - j));
    }
    [[nodiscard]] constexpr PortId reverse_port(NodeId n, PortId p) const {
        const std::uint32_t r = router_of(n);
        if (p.value + 1 < a_) return local_port(p.value < r ? p.value : p.value + 1, r);
        return slot_port(g_ - 2 - (r * h_ + (p.value - (a_ - 1))));
    }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId p) const {
        return p.value + 1 < a_ ? local_class : global_class;
    }

    /// The consecutive arrangement is the same from every group: rotating the
    /// groups (G -> G + 1 mod g) keeps every link and every port, since slot j of
    /// any group leads j + 1 groups on, to the router owning slot g - 2 - j there.
    /// The routers of a group are not alike (each owns other global links), so
    /// the router digit is fixed: a group's a routers are the orbits.
    static constexpr bool translation_keeps_ports = true;
    [[nodiscard]] constexpr Translations translations() const { return Translations{}.then(a_, false).then(g_, true); }
    [[nodiscard]] static constexpr PortId port_at_representative(NodeId, PortId p) { return p; }

private:
    std::uint32_t a_, h_, g_;
    link_types links_;
};

namespace detail {
template <class T>
inline constexpr bool is_dragonfly_v = requires { requires T::is_dragonfly; };
}  // namespace detail

}  // namespace fabric
