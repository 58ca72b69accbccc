// CollectiveOn<C, T>: a collective operation C (a reduction, a broadcast, a
// barrier) that knows how to run on topology T. It exposes its schedule as rounds
// of point-to-point transfers, and the number of link hops on its critical path,
// which the papers' latency formulas count.
#pragma once

#include <concepts>
#include <cstddef>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// One transfer of a collective's schedule.
struct Transfer {
    NodeId from;
    NodeId to;
    friend constexpr bool operator==(const Transfer&, const Transfer&) = default;
};

/// A collective's schedule: rounds run one after the other; the transfers of a round at once.
using Schedule = std::vector<std::vector<Transfer>>;

template <class C, class T>
concept CollectiveOn = Topology<T> && C::template fits<T> && requires(const C& coll, const T& topo) {
    { coll.schedule(topo) } -> std::same_as<Schedule>;
    { coll.critical_path_hops(topo) } -> std::convertible_to<std::size_t>;
};

}  // namespace fabric
