// Symmetry the flow kernel may use: a topology that looks the same from every node
// of an orbit, a routing that commutes with that, and a traffic pattern that is
// invariant under it. Then one representative source's routes give every
// channel's load (sim/link_load_symmetric.hpp): the load on a channel is the sum,
// over the group, of the representatives' terms on the channels of its orbit.
//
//  - SymmetricTopology: translations() numbers the nodes by digits, some of them
//    translated (core/translations.hpp: a torus's or HyperX's coordinates, a
//    dragonfly's group, a fat tree's switch word), every translation being an
//    automorphism of the topology that keeps link classes; and
//    port_at_representative(n, p) says which port of n's representative the
//    translation taking n there maps port p to. A topology whose translations keep
//    every port number (torus, dragonfly) says so with `translation_keeps_ports`.
//  - CommutesWithTranslations<R, T>: R declares `commutes_with_translations<T>`:
//    the hops (with fractions) of the pair (g s, g d) are g applied to those of
//    (s, d), for every translation g.
//  - InvariantPattern: invariant_under(translations of the tasks) answers whether
//    the amount from g s to g d is that from s to d for every translation (a
//    run-time question: it depends on the pattern's sizes), and
//    for_each_flow_from(task, f(destination, amount)) gives one source's flows,
//    the same amounts for_each_flow gives it.
//  - RingSeparable<R, T>: a torus (separable_rings) under a policy whose routes
//    are their dimensions' legs in turn (dimension_separable), each leg given by
//    for_each_leg(topo, d, from, to, f(position, port, fraction)): then a ring's
//    loads come from one ring's legs.
// The claims are checked where they are used: a half-made claim fails to compile
// with a fabric: message (sim/link_load.hpp), and sim/symmetry_checks.hpp tests a
// claim on an instance against the definition and against the pair-by-pair walk.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>

namespace fabric {

namespace detail {
struct destination_sink {
    constexpr void operator()(std::size_t, double) const {}
};
struct leg_sink {
    constexpr void operator()(std::uint32_t, PortId, double) const {}
};
}  // namespace detail

template <class T>
concept SymmetricTopology = Topology<T> && requires(const T& topo, NodeId node, PortId port) {
    { topo.translations() } -> std::same_as<Translations>;
    { topo.port_at_representative(node, port) } -> std::same_as<PortId>;
};

/// Translations that keep every port number: port_at_representative(n, p) is p.
template <class T>
inline constexpr bool translation_keeps_ports_v = requires { requires T::translation_keeps_ports; };

/// Whether R claims to commute with T's translations (the claim alone).
template <class R, class T>
concept ClaimsCommuting = requires { requires R::template commutes_with_translations<T>; };

template <class R, class T>
concept CommutesWithTranslations = RoutingPolicyFor<R, T> && SymmetricTopology<T> && ClaimsCommuting<R, T>;

/// Whether P claims invariance (the claim alone).
template <class P>
concept ClaimsInvariance = requires(const P& pattern, const Translations& group) {
    { pattern.invariant_under(group) } -> std::convertible_to<bool>;
};

template <class P>
concept InvariantPattern = TrafficPattern<P> && ClaimsInvariance<P> && requires(const P& pattern) {
    pattern.for_each_flow_from(std::size_t{}, detail::destination_sink{});
};

template <class R, class T>
concept RingSeparable = CommutesWithTranslations<R, T> && requires(const R& routing, const T& topo) {
    requires T::separable_rings;
    requires R::dimension_separable;
    { T::rank } -> std::convertible_to<std::size_t>;
    { topo.extent(std::size_t{}) } -> std::convertible_to<std::uint32_t>;
    { topo.stride(std::size_t{}) } -> std::convertible_to<std::uint32_t>;
    routing.for_each_leg(topo, std::size_t{}, std::uint32_t{}, std::uint32_t{}, detail::leg_sink{});
};

}  // namespace fabric
