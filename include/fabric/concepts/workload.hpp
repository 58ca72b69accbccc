// WorkloadGraph<G>: a workload as a graph of operations that wait for one another.
// A node is a message (a source rank sends `bytes` to a destination rank) or a
// compute delay on one rank. A node becomes ready `delay` cycles after the last of
// its predecessors completes, and never before its own cycle `not_before`
// (Netrace's rule: ready = max(not_before, completions + delay)). A message
// completes twice, once at each end: at its source when its last flit has left
// (`Completion::sent`, an eager send's local completion, as LogGOPSim's sends) and
// at its destination when its last flit is ejected (`Completion::delivered`); an
// edge says which of the two its successor waits for. A compute node completes
// once, `cycles` after it became ready.
//
// The concept is what a workload engine needs and nothing more, so that a graph
// may be a table read from a file (workload/graph.hpp) or arithmetic over indices
// that never holds the whole graph (a collective of a million messages): its size,
// each node, its predecessor count, its successors, and the nodes with no
// predecessor. Node indices are dense, 0 to size() - 1.
#pragma once

#include <concepts>
#include <cstdint>

namespace fabric::workload {

using NodeIndex = std::uint64_t;

enum class NodeKind : std::uint8_t { message, compute };

/// The flits a message of `bytes` takes at `flit_bytes` a flit: at least one (an empty message is one flit),
/// rounded up without the sum bytes + flit_bytes - 1, which would wrap past 2^64 - flit_bytes.
[[nodiscard]] constexpr std::uint64_t flits_of(std::uint64_t bytes, std::uint32_t flit_bytes) {
    const std::uint64_t f = bytes / flit_bytes + (bytes % flit_bytes != 0);
    return f > 1 ? f : 1;
}

/// Which completion of a message a successor waits for (for a compute node both mean "done").
enum class Completion : std::uint8_t {
    delivered,  // its last flit ejected at the destination: the successor runs there (or anywhere, serially)
    sent        // its last flit left the source: the successor runs at the source
};

/// One operation of a workload.
struct Node {
    NodeKind kind = NodeKind::message;
    std::uint32_t rank = 0;          // a message's source; the rank a compute node runs on
    std::uint32_t peer = 0;          // a message's destination (a compute node's own rank)
    std::uint64_t bytes = 0;         // a message's payload
    std::uint64_t cycles = 0;        // a compute node's duration
    std::uint64_t not_before = 0;    // its own cycle: never ready before it
    std::uint64_t delay = 0;         // cycles from its last predecessor's completion to its readiness
    std::uint32_t traffic_class = 0;
    std::uint32_t rail = 0;          // which of its ranks' network endpoints a message leaves and arrives by
                                     // (a rank placed on several terminals: a multi-ported NIC); 0 for most
    std::uint32_t tag = 0;           // the workload's own label (a GOAL tag, a collective's step): carried, not read

    [[nodiscard]] constexpr bool is_message() const { return kind == NodeKind::message; }
    friend constexpr bool operator==(const Node&, const Node&) = default;
};

namespace detail {
struct successor_sink {
    constexpr void operator()(NodeIndex, Completion) const {}
};
struct root_sink {
    constexpr void operator()(NodeIndex) const {}
};
}  // namespace detail

template <class G>
concept WorkloadGraph = requires(const G& g, NodeIndex i) {
    { g.size() } -> std::convertible_to<NodeIndex>;              // nodes, indexed 0 to size() - 1
    { g.ranks() } -> std::convertible_to<std::uint32_t>;         // every rank named is below it
    { g.node(i) } -> std::convertible_to<Node>;
    { g.predecessors(i) } -> std::convertible_to<std::uint32_t>;  // edges into i
    g.for_each_successor(i, detail::successor_sink{});             // f(successor, which completion it waits for)
    g.for_each_root(detail::root_sink{});                          // f(i) for every node with no predecessor, in order
};

}  // namespace fabric::workload
