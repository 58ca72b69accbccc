// The flow kernel's shortcut for PERCS indirect routing (link_load.hpp calls an
// aggregated_loads<R> specialisation when there is one instead of walking every
// pair's routes): the loads of a whole pattern from per-node and per-supernode sums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/ids.hpp>
#include <fabric/mapping/placement.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/topology/percs.hpp>

namespace fabric {

/// A routing policy R whose loads can be added in groups of pairs specialises
/// this with static accumulate(routing, topology, pattern, placement, loads).
template <class R>
struct aggregated_loads;

/// Loads of a whole pattern under PercsIndirect without walking the n_s n_d paths
/// of every pair.
/// With the bucket template the paths of a pair (u in a, v in b) spread its
/// amount t as follows, which only depends on per-node and per-supernode sums:
///   first L hop   each of the 32 L links out of u (self-loop included): t / 32
///   first D hop   each of the n_s n_d D links out of a: t / (n_s n_d)
///   middle L hop  in every supernode c, bucket j: jW + (a mod W) -> jW + (b mod W): t / (n_s n_d)
///   second D hop  the bucket-j link from every c to b: t / (n_s n_d)
///   last L hop    each of the 32 L links into v: t / 32
/// Without the bucket template (all-to-all model) it walks the pairs.
template <IntraRoute Intra, ZeroHop Zero>
struct aggregated_loads<PercsIndirect<Intra, Zero>> {
    using R = PercsIndirect<Intra, Zero>;
    using base = detail::percs_routing_base<Intra, Zero>;
    using path = typename base::path;

    template <class Pattern>
    static void accumulate(const R& routing, const PercsTopology& t, const Pattern& pattern, const Placement& placement,
                           std::vector<double>& load) {
        constexpr std::size_t P = PercsTopology::ports_per_node;
        constexpr std::uint32_t S = PercsTopology::nodes_per_supernode;
        const std::uint32_t* node_of = placement.nodes().data();
        auto add = [&](NodeId n, PortId p, double w) { load[static_cast<std::size_t>(n.value) * P + p.value] += w; };

        if (t.wiring() != PercsTopology::Wiring::bucket) {
            pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
                if (node_of[s] == node_of[d]) return;
                routing.for_each_hop(t, NodeId{node_of[s]}, NodeId{node_of[d]},
                             [&](NodeId n, PortId p, double w) { add(n, p, amount * w); });
            });
            return;
        }

        const std::uint32_t ns = t.supernodes(), nd = t.d_links_per_pair(), W = t.bucket_width();
        const std::size_t nodes = t.node_count();
        std::vector<double> out(nodes, 0.0), in(nodes, 0.0), sn(static_cast<std::size_t>(ns) * ns, 0.0);
        std::vector<double> local;  // node pairs within a supernode: ns * 32 * 32
        local.assign(static_cast<std::size_t>(ns) * S * S, 0.0);
        pattern.for_each_flow([&](std::size_t s, std::size_t d, double amount) {
            const std::uint32_t x = node_of[s], y = node_of[d];
            if (x == y) return;
            const std::uint32_t a = x / S, b = y / S;
            if (a == b) {
                local[(static_cast<std::size_t>(a) * S + x % S) * S + y % S] += amount;
            } else {
                out[x] += amount;
                in[y] += amount;
                sn[static_cast<std::size_t>(a) * ns + b] += amount;
            }
        });

        // Intra-supernode traffic: the same striped (or single-hop) paths as ever.
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t u = 0; u < S; ++u)
                for (std::uint32_t v = 0; v < S; ++v) {
                    const double amount = local[(static_cast<std::size_t>(a) * S + u) * S + v];
                    if (amount == 0) continue;
                    const double w = amount / (Intra == IntraRoute::striped ? PercsTopology::nodes_per_drawer : 1);
                    base::intra_paths(a, u, v, [&](const path& p) {
                        for (const Hop& h : p.view()) add(h.node, h.port, w);
                    });
                }

        const double paths = static_cast<double>(ns) * nd;
        // First and last L hops: u sends to each of its 32 L links (self-loop
        // included) h / (n_s n_d) = 1/32 of its traffic; likewise v receives.
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t u = 0; u < S; ++u) {
                const NodeId n = PercsTopology::node(a, u);
                const double o = out[n.value] / S, i = in[n.value] / S;
                for (std::uint32_t w = 0; w < S; ++w) {
                    if (w == u && Zero == ZeroHop::skip) continue;
                    if (o != 0) add(n, PercsTopology::l_port(u, w), o);
                    if (i != 0) add(PercsTopology::node(a, w), PercsTopology::l_port(w, u), i);
                }
            }
        // D hops: every link c -> b carries (traffic out of c + traffic into b) / (n_s n_d).
        std::vector<double> sn_out(ns, 0.0), sn_in(ns, 0.0);
        std::vector<double> residue(static_cast<std::size_t>(W) * W, 0.0);  // by (a mod W, b mod W)
        for (std::uint32_t a = 0; a < ns; ++a)
            for (std::uint32_t b = 0; b < ns; ++b) {
                const double amount = sn[static_cast<std::size_t>(a) * ns + b];
                sn_out[a] += amount;
                sn_in[b] += amount;
                residue[static_cast<std::size_t>(a % W) * W + b % W] += amount;
            }
        for (std::uint32_t c = 0; c < ns; ++c)
            for (std::uint32_t b = 0; b < ns; ++b)
                for (std::uint32_t j = 0; j < nd; ++j) {
                    const std::uint32_t y = t.d_source_local(c, b, j);
                    add(PercsTopology::node(c, y), t.d_port(c, y, b), (sn_out[c] + sn_in[b]) / paths);
                }
        // Middle L hop, the same in every supernode c: bucket j, jW + r -> jW + s
        // carries the traffic from supernodes a = r (mod W) to supernodes b = s (mod W).
        for (std::uint32_t c = 0; c < ns; ++c)
            for (std::uint32_t j = 0; j < nd; ++j)
                for (std::uint32_t r = 0; r < W; ++r)
                    for (std::uint32_t s = 0; s < W; ++s) {
                        const double amount = residue[static_cast<std::size_t>(r) * W + s];
                        if (amount == 0 || (r == s && Zero == ZeroHop::skip)) continue;
                        add(PercsTopology::node(c, j * W + r), PercsTopology::l_port(j * W + r, j * W + s),
                            amount / paths);
                    }
    }
};

}  // namespace fabric
