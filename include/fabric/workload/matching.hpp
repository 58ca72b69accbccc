// Point-to-point operations of several ranks, as the GOAL and Chakra readers read
// them (sends, recvs and computes, each with the operations of its rank it waits
// for), made into one workload graph: a send and the recv it matches are one
// message node; recvs are matched to sends as MPI matches them, by source, tag and
// order (the k-th send from rank a to rank b with tag t is the k-th recv at b from a
// with tag t, in the order given); the message waits for what its send requires; a
// recv that requires something becomes a compute node of 0 cycles at the receiver
// that waits for its message and what it requires; an op waiting for a send waits
// for its last flit to leave (Completion::sent), for a recv for its delivery plus
// the receive overhead; `irequires` gives an op what another waits for (that op's
// start). A send or recv left unmatched, or a recv smaller than its message, is
// refused naming the file and line.
//
// A collective op (a Chakra COMM_COLL_NODE) is expanded by an algorithm the caller
// gives (a CollectiveExpander; collective/expander.hpp has fabric's catalogue), as
// a graph over its participants spliced in: the k-th collective of a group on each
// rank that has one is one collective, those ranks its participants in rank order.
// On each participant it becomes two 0-cycle computes: an entry that waits for what
// the op requires and that every node the participant sends (or computes) in the
// collective waits for, and an exit that waits for all of them to have left and for
// everything the participant receives to be delivered; what requires the op waits
// for the exit. The participants must agree on the operation, size and root.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>
#include <fabric/workload/graph.hpp>

namespace fabric::workload::ops {

struct Op {
    enum Kind : std::uint8_t { send, recv, calc, coll } kind = calc;
    std::uint32_t rank = 0, peer = 0;  // a coll's peer: its root rank (~0: its first participant)
    std::uint64_t size = 0;  // bytes, or a calc's cycles
    std::uint32_t tag = 0, nic = 0;
    std::size_t line = 0;
    std::vector<std::pair<std::size_t, std::size_t>> requires_, irequires_;  // (op index in the rank, line)
    std::string collective, group;  // a coll's operation (fabric's name: allreduce, ...) and its process group
};

/// One collective of a workload, for the expander: its operation (fabric's name),
/// nccl-tests' size in bytes, its root (a participant's index) and its participants
/// (participant i is rank ranks[i]; the expander's graph names participants, not ranks).
struct CollectiveCall {
    std::string operation;
    std::uint64_t bytes = 0;
    std::uint32_t root = 0;
    std::vector<std::uint32_t> ranks;
    std::string where;  // "file:line: " of its first participant's op, to begin a refusal
};

/// The graph of a collective over its participants (ranks 0 to call.ranks.size() - 1).
using CollectiveExpander = std::function<ExplicitGraph(const CollectiveCall&)>;

struct Rank {
    std::vector<Op> ops;
    std::map<std::string, std::size_t, std::less<>> labels;
    std::string source;  // the file its ops were read from (empty: the workload's one file)
};

namespace detail {

/// The collectives of `ranks` as (participants' (rank, op index)) lists, per group in order; refused where the
/// ranks of a group take part in different numbers of its collectives (`source`: a rank's file where it has none).
inline std::vector<std::vector<std::pair<std::uint32_t, std::size_t>>> collectives(const std::vector<Rank>& ranks,
                                                                                   const std::string& source) {
    std::map<std::string, std::vector<std::vector<std::pair<std::uint32_t, std::size_t>>>> by_group;
    std::map<std::string, std::vector<std::pair<std::uint32_t, std::size_t>>> counts;  // per group: (rank, count)
    for (std::uint32_t r = 0; r < ranks.size(); ++r) {
        std::map<std::string, std::size_t> nth;
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k)
            if (const Op& op = ranks[r].ops[k]; op.kind == Op::coll) {
                auto& list = by_group[op.group];
                const std::size_t i = nth[op.group]++;
                if (list.size() <= i) list.resize(i + 1);
                list[i].emplace_back(r, k);
            }
        for (const auto& [group, n] : nth) counts[group].emplace_back(r, n);
    }
    for (const auto& [group, list] : counts)
        for (const auto& [r, n] : list) {
            const auto [r0, n0] = list.front();
            const auto file = [&](std::uint32_t x) { return ranks[x].source.empty() ? source : ranks[x].source; };
            fabric::detail::require(n == n0, file(r), ": rank ", r, " takes part in ", n, " collectives of process "
                                    "group '", group, "', rank ", r0, " (", file(r0), ") in ", n0, ": every rank of a "
                                    "group takes part in each of its collectives, in one order");
        }
    std::vector<std::vector<std::pair<std::uint32_t, std::size_t>>> out;
    for (auto& [group, list] : by_group)
        for (auto& c : list) out.push_back(std::move(c));
    return out;
}

}  // namespace detail

/// The graph of `ranks` (num_ranks of them), read from `source`; collectives expanded by `expand`.
inline ExplicitGraph matched_graph(const std::vector<Rank>& ranks, std::uint32_t num_ranks, const std::string& source,
                                   const CollectiveExpander& expand = {}) {
    // Sends and recvs matched by (sender, receiver, tag), in the order of the file.
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<std::pair<std::uint32_t, std::size_t>>>
        sends, recvs;
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            if (op.kind == Op::send) sends[{r, op.peer, op.tag}].emplace_back(r, k);
            if (op.kind == Op::recv) recvs[{op.peer, r, op.tag}].emplace_back(r, k);
        }
    GraphBuilder b(source);
    constexpr NodeIndex none = ~NodeIndex{0};
    std::vector<std::vector<NodeIndex>> node_of(ranks.size());  // per op: its node (a recv: its message's)
    std::vector<std::vector<NodeIndex>> recv_node(ranks.size());  // per recv with requires (a coll: its exit)
    for (std::uint32_t r = 0; r < ranks.size(); ++r) {
        node_of[r].assign(ranks[r].ops.size(), none);
        recv_node[r].assign(ranks[r].ops.size(), none);
    }
    auto file_name = [&](std::uint32_t r) -> const std::string& {
        return ranks[r].source.empty() ? source : ranks[r].source;
    };
    auto where = [&](const Op& op) { return file_name(op.rank) + ":" + std::to_string(op.line) + ": "; };
    std::vector<std::uint32_t> file(ranks.size());  // per rank: its file among the graph's (a node names it)
    for (std::uint32_t r = 0; r < ranks.size(); ++r) file[r] = b.file(file_name(r));
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> sent;
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            if (op.kind == Op::calc) {
                node_of[r][k] = b.add_compute(r, op.size, op.line, file[r]);
            } else if (op.kind == Op::coll) {
                node_of[r][k] = b.add_compute(r, 0, op.line, file[r]);    // its entry
                recv_node[r][k] = b.add_compute(r, 0, op.line, file[r]);  // its exit
            } else if (op.kind == Op::send) {
                const auto& match = recvs[{r, op.peer, op.tag}];
                const std::size_t nth = sent[{r, op.peer, op.tag}]++;  // in the order the lists were made
                fabric::detail::require(nth < match.size(), where(op), "this send (rank ", r, " to rank ",
                                        op.peer, ", tag ", op.tag, ", the ", nth + 1, "th of its kind) has no "
                                        "matching recv in rank ", op.peer);
                const auto [rr, rk] = match[nth];
                const Op& recv = ranks[rr].ops[rk];
                fabric::detail::require(recv.size >= op.size, where(recv), "this recv of ", recv.size,
                                        " bytes matches a send of ", op.size, " (line ", op.line,
                                        "): a receive buffer holds the whole message");
                fabric::detail::require(recv.nic == op.nic, where(recv), "this recv arrives by nic ", recv.nic,
                                        ", its send (line ", op.line, ") leaves by nic ", op.nic,
                                        "; a message keeps its rail");
                const NodeIndex m = b.add_message(r, op.peer, op.size, op.line, file[r]);
                b.node(m).tag = op.tag;
                b.node(m).rail = op.nic;
                node_of[r][k] = m;
                node_of[rr][rk] = m;
            }
        }
    for (const auto& [key, list] : recvs) {
        const auto it = sends.find(key);
        const std::size_t matched = it == sends.end() ? 0 : it->second.size();
        if (list.size() > matched) {
            const Op& op = ranks[list[matched].first].ops[list[matched].second];
            fabric::detail::require(false, where(op), "this recv (rank ", op.rank, " from rank ", op.peer,
                                    ", tag ", op.tag, ") has no matching send in rank ", op.peer);
        }
    }
    for (const auto& members : detail::collectives(ranks, source)) {
        const Op& first = ranks[members.front().first].ops[members.front().second];
        CollectiveCall call{first.collective, first.size, first.peer, {}, where(first)};
        for (const auto& [r, k] : members) {
            const Op& op = ranks[r].ops[k];
            const auto root_of = [](std::uint32_t x) { return x == ~std::uint32_t{0} ? std::string("none") : std::to_string(x); };
            fabric::detail::require(op.collective == call.operation && op.size == call.bytes && op.peer == call.root,
                                    where(op), "this collective (", op.collective, " of ", op.size, " bytes, root ",
                                    root_of(op.peer), ") is rank ", r, "'s part in one whose rank ", first.rank, " gives ",
                                    call.operation, " of ", call.bytes, " bytes, root ", root_of(call.root), " (",
                                    call.where.substr(0, call.where.size() - 2), "): its participants must agree");
            call.ranks.push_back(r);
        }
        // The root as a participant's index: the rank given (none: ~0, the first participant).
        const auto root = std::find(call.ranks.begin(), call.ranks.end(), call.root);
        fabric::detail::require(call.root == ~std::uint32_t{0} || root != call.ranks.end(), call.where, "the root of "
                                "this ", call.operation, ", rank ", call.root, ", does not take part in it");
        call.root = root == call.ranks.end() ? 0 : static_cast<std::uint32_t>(root - call.ranks.begin());
        fabric::detail::require(static_cast<bool>(expand), call.where, "a collective (", call.operation, ") needs "
                                "algorithms to expand it, and none were given to this reader");
        const ExplicitGraph sub = expand(call);
        const auto p = static_cast<std::uint32_t>(call.ranks.size());
        fabric::detail::require(sub.ranks() <= p, call.where, "the collective's graph names ", sub.ranks(),
                                " ranks; it has ", p);
        const NodeIndex base = b.size();
        for (NodeIndex i = 0; i < sub.size(); ++i) {
            Node n = sub.node(i);
            const std::uint32_t from = n.rank, to = n.peer;
            n.rank = call.ranks[from];
            n.peer = call.ranks[to];
            const auto [r0, k0] = members[from];
            b.add(n, ranks[r0].ops[k0].line, file[r0]);
            b.depend(base + i, node_of[r0][k0], Completion::delivered);  // after the sender's entry
            b.depend(recv_node[r0][k0], base + i, n.is_message() ? Completion::sent : Completion::delivered);
            if (n.is_message()) {
                const auto [r1, k1] = members[to];
                b.depend(recv_node[r1][k1], base + i, Completion::delivered);
            }
        }
        for (NodeIndex i = 0; i < sub.size(); ++i)
            sub.for_each_successor(i, [&](NodeIndex s, Completion c) { b.depend(base + s, base + i, c); });
        for (const auto& [r, k] : members) b.depend(recv_node[r][k], node_of[r][k], Completion::delivered);
    }
    // A recv that requires something: a 0-cycle node at the receiver after its message and its requirements.
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            if (op.kind != Op::recv || (op.requires_.empty() && op.irequires_.empty())) continue;
            recv_node[r][k] = b.add_compute(r, 0, op.line, file[r]);
            b.depend(recv_node[r][k], node_of[r][k], Completion::delivered, op.line);
        }
    // What an op waits for (its requires, and through irequires what another op waits for), as edges.
    auto completion_of = [&](std::uint32_t r, std::size_t k) {
        const Op& op = ranks[r].ops[k];
        if (op.kind == Op::recv || op.kind == Op::coll) {
            if (recv_node[r][k] != none) return std::pair{recv_node[r][k], Completion::delivered};
            return std::pair{node_of[r][k], Completion::delivered};
        }
        return std::pair{node_of[r][k], op.kind == Op::send ? Completion::sent : Completion::delivered};
    };
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            const NodeIndex waiter = op.kind == Op::recv ? recv_node[r][k] : node_of[r][k];
            if (waiter == none) continue;
            // requires, then irequires followed to what they require (a chain of irequires, once each).
            std::vector<std::pair<std::size_t, std::size_t>> todo(op.irequires_);
            std::vector<std::uint8_t> visited(ranks[r].ops.size(), 0);
            visited[k] = 1;
            for (const auto& [p, line] : op.requires_) {
                const auto [node, c] = completion_of(r, p);
                b.depend(waiter, node, c, line);
            }
            while (!todo.empty()) {
                const auto [p, line] = todo.back();
                todo.pop_back();
                if (visited[p]) continue;
                visited[p] = 1;
                const Op& started = ranks[r].ops[p];
                for (const auto& [q, unused] : started.requires_) {
                    const auto [node, c] = completion_of(r, q);
                    b.depend(waiter, node, c, line);
                }
                for (const auto& x : started.irequires_) todo.push_back({x.first, line});
            }
        }
    return b.build(num_ranks);
}

}  // namespace fabric::workload::ops
