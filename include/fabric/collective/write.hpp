// Any workload graph written out, for the readers of sim/trace_file.hpp (a CSV
// trace whose rows wait for one another) and of workload/goal.hpp (LogGOPSim's GOAL
// schedules), so that a collective can be kept, read by other tools, and run
// again from its file.
//
// GOAL holds a graph whole: each message is a send at its source and a recv at its
// destination (tag 0, and `nic` its rail where that is not 0: the k-th send from a
// to b matches the k-th recv at b from a, and both are written in node order), a
// compute node a calc, and each dependency a `requires` at the rank that waits,
// on the send (a wait for its leaving) or the recv (a wait for its delivery) there.
// A dependency on another rank's event is not something a GOAL rank can say, and is
// refused.
//
// The CSV trace says less: its rows are messages between terminals, each waiting
// for the delivery of the rows it names (`after`) plus `delay` cycles. A message
// that waits for its own rank's earlier send to have left is written without that
// wait (its source's queue sends messages in the order they become ready, so the
// run keeps the order); a compute node, or a wait for the leaving of a message from
// another terminal, has no row and is refused, naming GOAL. Sources and
// destinations are terminals: rank r's rail k is terminals[r][k] (by default rank
// r is terminal r).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>

namespace fabric::collective {

namespace detail {
template <workload::WorkloadGraph G>
std::vector<std::vector<std::pair<std::uint64_t, workload::Completion>>> predecessors_of(const G& g) {
    std::vector<std::vector<std::pair<std::uint64_t, workload::Completion>>> preds(g.size());
    for (std::uint64_t i = 0; i < g.size(); ++i)
        g.for_each_successor(i, [&](std::uint64_t s, workload::Completion c) { preds[s].emplace_back(i, c); });
    return preds;
}
}  // namespace detail

template <workload::WorkloadGraph G>
void write_goal(std::ostream& out, const G& g) {
    const auto preds = detail::predecessors_of(g);
    const std::uint64_t n = g.size();
    std::vector<std::vector<std::uint64_t>> at(g.ranks());  // each rank's nodes: its sends, recvs and calcs
    std::vector<workload::Node> nodes(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        nodes[i] = g.node(i);
        at[nodes[i].rank].push_back(i);
        if (nodes[i].is_message()) at[nodes[i].peer].push_back(i);
    }
    out << "num_ranks " << g.ranks() << '\n';
    for (std::uint32_t r = 0; r < g.ranks(); ++r) {
        out << "rank " << r << " {\n";
        std::string requires_;
        for (const std::uint64_t i : at[r]) {
            const workload::Node& x = nodes[i];
            const bool sends = x.is_message() && x.rank == r;
            if (!x.is_message()) {
                out << 'c' << i << ": calc " << x.cycles << '\n';
            } else if (sends) {
                out << 's' << i << ": send " << x.bytes << "b to " << x.peer << " tag 0";
                if (x.rail != 0) out << " nic " << x.rail;
                out << '\n';
                fabric::detail::require(x.delay == 0 && x.not_before == 0, "GOAL has no delay or start cycle for a "
                                        "send: node ", i, " has one");
            } else {
                out << 'r' << i << ": recv " << x.bytes << "b from " << x.rank << " tag 0";
                if (x.rail != 0) out << " nic " << x.rail;
                out << '\n';
                continue;  // a recv waits for nothing of its own: its message's send does the waiting
            }
            for (const auto& [q, c] : preds[i]) {
                const workload::Node& y = nodes[q];
                char kind = 'c';
                if (y.is_message()) {
                    kind = c == workload::Completion::sent ? 's' : 'r';
                    fabric::detail::require((kind == 's' ? y.rank : y.peer) == r, "GOAL: node ", i, " at rank ", r,
                                            " waits for node ", q, "'s ", kind == 's' ? "leaving rank " : "delivery at rank ",
                                            kind == 's' ? y.rank : y.peer, ": a rank can wait only for its own events");
                } else {
                    fabric::detail::require(y.rank == r, "GOAL: node ", i, " at rank ", r, " waits for compute node ",
                                            q, " of rank ", y.rank, ": a rank can wait only for its own events");
                }
                requires_ += x.is_message() ? 's' : 'c';
                requires_ += std::to_string(i);
                requires_ += " requires ";
                requires_ += kind;
                requires_ += std::to_string(q);
                requires_ += '\n';
            }
        }
        out << requires_ << "}\n";
    }
}

/// The CSV trace (see the top of the file); terminals[r][k]: rank r's rail k (empty: rank r is terminal r).
template <workload::WorkloadGraph G>
void write_csv(std::ostream& out, const G& g, const std::vector<std::vector<std::uint32_t>>& terminals = {}) {
    const auto preds = detail::predecessors_of(g);
    auto terminal = [&](std::uint32_t rank, std::uint32_t rail) -> std::uint32_t {
        if (terminals.empty()) {
            fabric::detail::require(rail == 0, "CSV: a message by rail ", rail, " needs the ranks' terminals");
            return rank;
        }
        fabric::detail::require(rank < terminals.size() && rail < terminals[rank].size(), "CSV: rank ", rank,
                                " has no rail ", rail);
        return terminals[rank][rail];
    };
    out << "id,cycle,source,destination,bytes,class,after,delay\n";
    for (std::uint64_t i = 0; i < g.size(); ++i) {
        const workload::Node x = g.node(i);
        fabric::detail::require(x.is_message(), "CSV: node ", i, " is a compute node, which a CSV trace has no row "
                                "for; write GOAL (its calc), or run the collective without a reduction cost");
        std::string after;
        for (const auto& [q, c] : preds[i]) {
            if (c == workload::Completion::sent) {
                const workload::Node y = g.node(q);
                fabric::detail::require(y.is_message() && y.rank == x.rank && y.rail == x.rail, "CSV: node ", i,
                                        " waits for node ", q, " to leave another terminal, which a CSV trace cannot "
                                        "say; write GOAL");
                continue;  // its source's queue keeps the order
            }
            if (!after.empty()) after += ';';
            after += std::to_string(q);
        }
        out << i << ',' << x.not_before << ',' << terminal(x.rank, x.rail) << ',' << terminal(x.peer, x.rail) << ','
            << x.bytes << ',' << x.traffic_class << ',' << after << ',' << x.delay << '\n';
    }
}

}  // namespace fabric::collective
