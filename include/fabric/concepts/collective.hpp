// CollectiveOn<C, T>: a collective C (an operation and its algorithm: a ring
// allreduce, a binomial broadcast, the QCDOC SCU's global sum) that knows how to
// run on topology T. It says at compile time whether it fits T (C::fits<T>: a
// dimension-wise algorithm needs a topology with dimensions) and gives the
// workload graph (concepts/workload.hpp) of one run for what it is asked: p ranks
// placed on T's terminals, a size, a root, and how it cuts and reduces its data
// (CollectiveRequest). Its costs, its correctness law and its outputs derive from
// that graph (include/fabric/collective/).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/workload.hpp>
#include <fabric/core/ids.hpp>

namespace fabric {

/// One transfer of a collective's schedule (the seed collectives' rounds).
struct Transfer {
    NodeId from;
    NodeId to;
    friend constexpr bool operator==(const Transfer&, const Transfer&) = default;
};

/// A collective's schedule: rounds run one after the other; the transfers of a round at once.
using Schedule = std::vector<std::vector<Transfer>>;

/// What a collective is asked for on a topology.
struct CollectiveRequest {
    std::uint64_t bytes = 0;       // nccl-tests' size: the whole vector (collective/operation.hpp says per operation)
    std::uint32_t segments = 1;    // pieces each message is cut into (pipelining)
    std::uint32_t root = 0;        // a broadcast's or reduce's root rank
    double reduce_per_byte = 0;    // gamma: cycles a reduction takes a byte (an endpoints policy's reduce_per_byte)
    /// The terminals a rank sends and receives by: 1, or several of one router (a
    /// multi-ported rank: the first `rails` terminals of its router).
    std::uint32_t rails = 1;
    /// Rank r's router (empty: every terminal a rank, in terminal order; with rails
    /// > 1, every router a rank, in router order).
    std::vector<std::uint32_t> routers{};
};

template <class C, class T>
concept CollectiveOn = Topology<T> && C::template fits<T> && requires(const C& c, const T& topo, const CollectiveRequest& r) {
    { c.graph(topo, r) } -> workload::WorkloadGraph;
};

}  // namespace fabric
