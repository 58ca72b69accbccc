// A global sum on a k-ary n-cube, one dimension after the other: in dimension d
// every node's partial sum travels the whole ring (or line), so that after k_d - 1
// steps each node holds the sum over its ring; the next dimension then sums those.
// The critical path is sum over d of (k_d - 1) hops, the count QCDOC's paper gives
// for its SCU global sum (N_x + N_y + N_z + N_t - 4 on a 4-D partition).
//
// Order of combination: every node adds the values of a ring in ring order,
// starting from coordinate 0, whatever order they arrive in, so a floating-point
// result is bit-identical on every node and in every run.
//
// As a workload graph (graph(), CollectiveOn): one rank a router; each step of
// each dimension a message of one word (the request's bytes) to the next node
// round the ring, or both ways along a mesh's line (by two rails where the
// request's ranks have them, so that both go at once), each node's step waiting
// for what it received in the step before. Every node ends holding every value of
// every ring it sums (collective/verify.hpp's allgather law, the values summed
// over the earlier dimensions standing for their contributions), and its critical
// path is the critical_path_hops() messages, each one hop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <fabric/collective/graph.hpp>
#include <fabric/concepts/collective.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

struct DimensionWiseSum {
    template <class T>
    static constexpr bool fits = detail::is_kary_ncube_v<T>;

    /// Round j of dimension d: every node passes on what it received in round j - 1.
    template <class T>
    [[nodiscard]] Schedule schedule(const T& topo) const {
        Schedule rounds;
        const auto n = static_cast<std::uint32_t>(topo.node_count());
        for (std::size_t d = 0; d < T::rank; ++d) {
            const std::uint32_t k = topo.extent(d);
            for (std::uint32_t step = 0; step + 1 < k; ++step) {
                std::vector<Transfer> round;
                round.reserve(n);
                for (std::uint32_t v = 0; v < n; ++v) {
                    // A torus passes values round the ring one way; a mesh line
                    // passes them both ways at once, so both reach the ends in k - 1.
                    for (const int dir : {+1, -1}) {
                        if (T::wraparound && dir < 0) continue;
                        const NodeId next = topo.neighbour(NodeId{v}, T::port(d, dir));
                        if (next.valid()) round.push_back(Transfer{NodeId{v}, next});
                    }
                }
                rounds.push_back(std::move(round));
            }
        }
        return rounds;
    }

    /// The schedule as a workload graph (see the top of the file).
    template <class T>
    [[nodiscard]] collective::CollectiveGraph graph(const T& topo, const CollectiveRequest& r) const {
        std::vector<std::uint32_t> extents;
        for (std::size_t d = 0; d < T::rank; ++d) extents.push_back(topo.extent(d));
        const auto grid = std::make_shared<const collective::Grid>(extents);
        collective::Lane lane{{}, 0, 0, grid->points()};
        for (std::uint32_t d = 0; d < T::rank; ++d) {
            // The values summed so far stand for every contribution of the dimensions before.
            std::vector<collective::BlockRole> roles(T::rank, collective::BlockRole::fixed);
            for (std::uint32_t e = 0; e < d; ++e) roles[e] = collective::BlockRole::free;
            roles[d] = collective::BlockRole::inner;
            const std::uint32_t k = extents[d];
            const collective::Kernel kernel = T::wraparound
                                                  ? collective::Kernel(collective::RingAllgather(k))
                                                  : collective::Kernel(collective::LineAllgather(k, false, r.rails >= 2));
            lane.phases.push_back(collective::Phase{kernel, d, {}, roles});
        }
        return collective::CollectiveGraph(collective::Operation::allgather, grid, {lane},
                               collective::Size{r.bytes, r.segments, 0, 0, r.bytes > 0 ? r.bytes : 8});
    }

    template <class T>
    [[nodiscard]] constexpr std::size_t critical_path_hops(const T& topo) const {
        std::size_t hops = 0;
        for (std::size_t d = 0; d < T::rank; ++d) hops += topo.extent(d) - 1;
        return hops;
    }

    /// The sum, evaluated in the fixed order: dimension by dimension, each ring in
    /// coordinate order. `values[v]` is node v's contribution; every node ends with
    /// the returned value.
    template <class T, class V>
    [[nodiscard]] V reduce(const T& topo, std::vector<V> values) const {
        detail::require(values.size() == topo.node_count(), "DimensionWiseSum needs one value per node (",
                        topo.node_count(), "); got ", values.size());
        const auto n = static_cast<std::uint32_t>(topo.node_count());
        for (std::size_t d = 0; d < T::rank; ++d) {
            const std::uint32_t k = topo.extent(d);
            const std::uint32_t s = topo.stride(d);
            std::vector<V> next(values.size());
            for (std::uint32_t v = 0; v < n; ++v) {
                const std::uint32_t base = v - ((v / s) % k) * s;
                V acc = values[base];
                for (std::uint32_t x = 1; x < k; ++x) acc = acc + values[base + x * s];
                next[v] = acc;
            }
            values = std::move(next);
        }
        return values.empty() ? V{} : values[0];
    }
};

}  // namespace fabric
