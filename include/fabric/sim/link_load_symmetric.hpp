// The flow kernel by symmetry: the loads of link_load from the routes of one
// representative source per orbit instead of every pair's (concepts/symmetry.hpp).
//
// When the topology's translations act on its nodes, the routing commutes with
// them and the pattern is invariant, the terms added to a channel c by the pair
// walk (amount times fraction, one per pair and hop) are exactly the terms that
// the representative sources add to the channels of c's orbit: translating a pair
// so that its source is a representative translates its hops. So every channel of
// an orbit gets one load, and the representatives' routes give it. A torus under
// a dimension-order policy goes further (RingSeparable): the legs in dimension d
// depend only on the coordinates there, so counting the representatives'
// destinations by coordinate and walking one ring's legs gives the same terms, in
// O(k^2) a dimension rather than O(N k) (O(N^2 k) for the pair walk).
//
// The same terms, but not in the same order: the pair walk adds them in pair
// order, channel by channel, and floating-point addition is not associative. Where
// every flow carries one amount, both ways add the fractions (counts: integers, and
// halves where ties split) and scale by the amount once; counts add exactly in any
// order, so the symmetric path and the pair walk give one double (a 100^3 torus
// under uniform traffic with ties split, 10^12 pairs, in a fraction of a second).
// A load is taken from here only when its terms give one double in every order
// (core/order_free_sum.hpp: all equal, or exact); where any orbit's are not (a
// mix of amounts, fractions like 1/3), the path declines and link_load walks the
// pairs. The class summary is made from the orbits, its totals under the same rule,
// else channel by channel in index order.
// tests/runtime/symmetry.cpp compares the two ways, bit for bit, on every family.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/symmetry.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/order_free_sum.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/sim/flow_budget.hpp>
#include <fabric/sim/link_load_result.hpp>

namespace fabric {

namespace detail {

/// The half-made claims, each refused with the sentence that says how to finish it
/// (one sentence: a topology's half-made claim is not reported again as a policy's).
template <class T, class R, class P>
constexpr void check_symmetry_claims() {
    constexpr bool half_stated = requires(const T& t) { t.translations(); } && !SymmetricTopology<T>;
    static_assert(!half_stated,
                  "fabric: this topology states translations() but not port_at_representative(node, port), the port "
                  "of the node's representative that the translation taking the node there maps each port to; give "
                  "it (see concepts/symmetry.hpp), or drop translations()");
    static_assert(half_stated || !ClaimsCommuting<R, T> || SymmetricTopology<T>,
                  "fabric: this routing policy claims commutes_with_translations for a topology that states no "
                  "symmetry (translations() and port_at_representative()); drop the claim for that topology, or "
                  "give the topology its translations");
    static_assert(!ClaimsInvariance<P> || InvariantPattern<P>,
                  "fabric: this traffic pattern claims invariance (invariant_under) but gives no "
                  "for_each_flow_from(task, f(destination, amount)), one source's flows; give it, or drop "
                  "invariant_under");
}

/// Whether link_load may try the symmetric path for these types.
template <class T, class R, class P>
inline constexpr bool symmetry_declared_v =
    SymmetricTopology<T> && CommutesWithTranslations<R, T> && InvariantPattern<P>;

/// What the symmetric path made of a run: why it declined (empty when it did not),
/// else every channel's load and the classes counted.
struct SymmetricLoads {
    std::string_view declined;
    std::vector<double> loads{};
    std::vector<ClassLoad> classes{};
};

/// The orbit of a channel: its node's orbit times the ports, plus the port of the
/// representative that the translation taking the node there maps its port to.
template <class T>
struct ChannelOrbits {
    const T& topo;
    Translations nodes;
    bool one_node_orbit;

    constexpr std::size_t operator()(NodeId n, PortId p) const {
        const std::size_t node_orbit = one_node_orbit ? 0 : nodes.orbit(n.value);
        if constexpr (translation_keeps_ports_v<T>) return node_orbit * T::ports_per_node + p.value;
        else return node_orbit * T::ports_per_node + topo.port_at_representative(n, p).value;
    }
    [[nodiscard]] constexpr std::size_t count() const { return nodes.orbits() * T::ports_per_node; }
};

/// The representatives' terms, route by route: the fractions, when every flow
/// carries one amount (returned, the one scaling of the orbits' sums, as the pair
/// walk scales its counts); else the terms amount x fraction, and 1.
template <class T, class R, class P>
constexpr double orbit_terms_by_routes(const T& topo, const R& routing, const P& pattern, const Translations& tasks,
                                       std::size_t per_node, const ChannelOrbits<T>& orbit_of,
                                       std::vector<OrderFreeSum>& sums, FlowBudget& budget) {
    double one_amount = 0;
    bool mixed = false;
    const auto walk = [&](bool weighted) {
        for (std::size_t o = 0; o < tasks.orbits() && !(mixed && !weighted); ++o) {
            const std::size_t r = tasks.representative_of_orbit(o);
            const auto a = static_cast<std::uint32_t>(r / per_node);
            pattern.for_each_flow_from(r, [&](std::size_t d, double amount) {
                budget.spend();
                const auto b = static_cast<std::uint32_t>(d / per_node);
                if (a == b || amount == 0 || (mixed && !weighted)) return;
                if (!weighted && amount != one_amount) {
                    if (one_amount != 0) {
                        mixed = true;
                        return;
                    }
                    one_amount = amount;
                }
                const double scale = weighted ? amount : 1.0;
                routing.for_each_hop(topo, NodeId{a}, NodeId{b}, [&](NodeId n, PortId p, double fraction) {
                    budget.spend();
                    sums[orbit_of(n, p)].add(scale * fraction);
                });
            });
        }
    };
    walk(false);
    if (!mixed) return one_amount;
    for (OrderFreeSum& sum : sums) sum = OrderFreeSum{};
    walk(true);
    return 1.0;
}

/// The same terms ring by ring (RingSeparable, whose one node orbit puts every
/// representative on node 0): the representatives' destinations counted by their
/// coordinate in each dimension, then one leg from 0 to each coordinate, its terms
/// taken as many times as destinations have it: the fractions, counted, and the one
/// amount every flow carries returned to scale them by. Only when there is one
/// (else -1, nothing added, and the caller goes route by route).
template <class T, class R, class P>
constexpr double orbit_terms_by_rings(const T& topo, const R& routing, const P& pattern, const Translations& tasks,
                                    std::size_t per_node, const ChannelOrbits<T>& orbit_of,
                                    std::vector<OrderFreeSum>& sums, FlowBudget& budget) {
    // Plain arrays and one division a dimension: in constant evaluation this loop is
    // most of the path's work besides the loads themselves (docs/compile_time.md).
    std::array<std::vector<std::uint64_t>, T::rank> at{};
    std::uint64_t* count[T::rank]{};  // built-in arrays: no call a subscript
    std::size_t extent[T::rank]{};
    for (std::size_t d = 0; d < T::rank; ++d) {
        extent[d] = topo.extent(d);
        at[d] = std::vector<std::uint64_t>(extent[d], 0);
        count[d] = at[d].data();
    }
    double amount = -1;  // none yet: amounts are not negative
    bool one_amount = true;
    std::size_t flows = 0;
    for (std::size_t o = 0; o < tasks.orbits(); ++o)
        pattern.for_each_flow_from(tasks.representative_of_orbit(o), [&](std::size_t d, double a) {
            if (++flows % 256 == 0) budget.spend(256, 4);
            std::size_t b = d / per_node;
            if (b == 0) return;
            if (a != amount) {
                one_amount = one_amount && amount < 0;
                amount = a;
            }
            for (std::size_t dim = 0; dim < T::rank; ++dim) {
                ++count[dim][b % extent[dim]];
                b /= extent[dim];
            }
        });
    budget.spend(flows % 256, 4);
    if (!one_amount) return -1;
    for (std::size_t dim = 0; dim < T::rank; ++dim)
        for (std::uint32_t x = 1; x < topo.extent(dim); ++x)
            if (const std::uint64_t times = at[dim][x]; times > 0)
                routing.for_each_leg(topo, dim, 0, x, [&](std::uint32_t position, PortId port, double fraction) {
                    budget.spend();
                    sums[orbit_of(NodeId{position * topo.stride(dim)}, port)].add(fraction, times);
                });
    return amount < 0 ? 0 : amount;
}

/// Every channel's load from its orbit's, and the classes counted from the orbits.
template <class T>
constexpr SymmetricLoads loads_from_orbits(const T& topo, const ChannelOrbits<T>& orbit_of,
                                           const std::vector<double>& orbit_load) {
    constexpr std::size_t P = T::ports_per_node;
    const std::size_t nodes = topo.node_count(), group = orbit_of.nodes.order();
    SymmetricLoads out{{}, std::vector<double>(nodes * P, 0.0), class_table(topo)};
    double* load = out.loads.data();
    if constexpr (translation_keeps_ports_v<T>) {
        // A port with no link has none at any node of the orbit: its orbit's load is 0.
        const double* row = orbit_load.data();
        for (std::size_t n = 0; n < nodes; ++n) {
            if (!orbit_of.one_node_orbit) row = orbit_load.data() + orbit_of(NodeId{static_cast<std::uint32_t>(n)}, PortId{0});
            for (std::size_t p = 0; p < P; ++p) *load++ = row[p];
        }
    } else {
        for (std::uint32_t n = 0; n < nodes; ++n)
            for (std::uint32_t p = 0; p < P; ++p)
                if (topo.neighbour(NodeId{n}, PortId{p}).valid())
                    load[std::size_t{n} * P + p] = orbit_load[orbit_of(NodeId{n}, PortId{p})];
    }
    // An orbit is `group` channels; its lowest index is at its representative node.
    std::vector<OrderFreeSum> totals(out.classes.size());
    for (std::size_t o = 0; o < orbit_of.nodes.orbits(); ++o) {
        const auto rep = static_cast<std::uint32_t>(orbit_of.nodes.representative_of_orbit(o));
        for (std::uint32_t p = 0; p < P; ++p) {
            if (!topo.neighbour(NodeId{rep}, PortId{p}).valid()) continue;
            const std::size_t c = topo.link_class(NodeId{rep}, PortId{p});
            const double value = orbit_load[o * P + p];
            out.classes[c].channels += group;
            take_busiest(out.classes[c], std::size_t{rep} * P + p, value);
            totals[c].add(value, group);
        }
    }
    // A class total the orbits cannot give order-free is added as the pair walk's
    // summary adds it: channel by channel in index order.
    for (std::size_t c = 0; c < totals.size(); ++c) {
        if (totals[c].order_free()) {
            out.classes[c].total_load = totals[c].value();
            continue;
        }
        views::for_each_channel(topo, [&](const Channel& ch) {
            if (ch.link_class == c) out.classes[c].total_load += out.loads[ch.index];
        });
    }
    return out;
}

/// The loads of `pattern` on `fab`, task t on node t / per_node, by symmetry; or
/// why not.
template <class Fab, class P>
constexpr SymmetricLoads symmetric_link_load(const Fab& fab, const P& pattern, std::size_t per_node) {
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    const T& topo = fab.topology();
    const Translations nodes = topo.translations();
    if (nodes.size() != topo.node_count())
        return {"the topology's translations() do not number its nodes (a claim made wrongly)"};
    bool whole_orbits = false;
    const Translations tasks =
        nodes.per_id(static_cast<std::uint32_t>(per_node)).below(pattern.task_count(), whole_orbits);
    if (!whole_orbits) return {"the tasks do not fill whole orbits of nodes"};
    if (!pattern.invariant_under(tasks)) return {"the traffic pattern is not invariant under the translations"};

    const ChannelOrbits<T> orbit_of{topo, nodes, nodes.orbits() == 1};
    std::vector<OrderFreeSum> sums(orbit_of.count());
    FlowBudget budget;
    double scale = -1;  // the amount the orbits' sums are scaled by, as the pair walk scales its counts
    if constexpr (RingSeparable<R, T>)
        if (orbit_of.one_node_orbit)
            scale = orbit_terms_by_rings(topo, fab.routing(), pattern, tasks, per_node, orbit_of, sums, budget);
    if (scale < 0) scale = orbit_terms_by_routes(topo, fab.routing(), pattern, tasks, per_node, orbit_of, sums, budget);

    std::vector<double> orbit_load(sums.size(), 0.0);
    for (std::size_t o = 0; o < sums.size(); ++o) {
        if (!sums[o].order_free())
            return {"a channel's load is a sum of unequal terms that do not add exactly, so its last bit depends on "
                    "the order of the pairs, which only the pair-by-pair walk keeps"};
        orbit_load[o] = sums[o].value() * scale;
    }
    budget.spend(channel_slots(topo), 3);  // the loads of every channel, filled from the orbits'
    return loads_from_orbits(topo, orbit_of, orbit_load);
}

}  // namespace detail

}  // namespace fabric
