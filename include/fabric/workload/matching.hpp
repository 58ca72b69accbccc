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
#pragma once

#include <cstddef>
#include <cstdint>
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
    enum Kind : std::uint8_t { send, recv, calc } kind = calc;
    std::uint32_t rank = 0, peer = 0;
    std::uint64_t size = 0;  // bytes, or a calc's cycles
    std::uint32_t tag = 0, nic = 0;
    std::size_t line = 0;
    std::vector<std::pair<std::size_t, std::size_t>> requires_, irequires_;  // (op index in the rank, line)
};

struct Rank {
    std::vector<Op> ops;
    std::map<std::string, std::size_t, std::less<>> labels;
};

/// The graph of `ranks` (num_ranks of them), read from `source`.
inline ExplicitGraph matched_graph(const std::vector<Rank>& ranks, std::uint32_t num_ranks, const std::string& source) {
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
    std::vector<std::vector<NodeIndex>> recv_node(ranks.size());  // per recv with requires: its 0-cycle node
    for (std::uint32_t r = 0; r < ranks.size(); ++r) {
        node_of[r].assign(ranks[r].ops.size(), none);
        recv_node[r].assign(ranks[r].ops.size(), none);
    }
    auto where = [&](std::size_t line) { return source + ":" + std::to_string(line) + ": "; };
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> sent;
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            if (op.kind == Op::calc) {
                node_of[r][k] = b.add_compute(r, op.size, op.line);
            } else if (op.kind == Op::send) {
                const auto& match = recvs[{r, op.peer, op.tag}];
                const std::size_t nth = sent[{r, op.peer, op.tag}]++;  // in the order the lists were made
                fabric::detail::require(nth < match.size(), where(op.line), "this send (rank ", r, " to rank ",
                                        op.peer, ", tag ", op.tag, ", the ", nth + 1, "th of its kind) has no "
                                        "matching recv in rank ", op.peer);
                const auto [rr, rk] = match[nth];
                const Op& recv = ranks[rr].ops[rk];
                fabric::detail::require(recv.size >= op.size, where(recv.line), "this recv of ", recv.size,
                                        " bytes matches a send of ", op.size, " (line ", op.line,
                                        "): a receive buffer holds the whole message");
                fabric::detail::require(recv.nic == op.nic, where(recv.line), "this recv arrives by nic ", recv.nic,
                                        ", its send (line ", op.line, ") leaves by nic ", op.nic,
                                        "; a message keeps its rail");
                const NodeIndex m = b.add_message(r, op.peer, op.size, op.line);
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
            fabric::detail::require(false, where(op.line), "this recv (rank ", op.rank, " from rank ", op.peer,
                                    ", tag ", op.tag, ") has no matching send in rank ", op.peer);
        }
    }
    // A recv that requires something: a 0-cycle node at the receiver after its message and its requirements.
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        for (std::size_t k = 0; k < ranks[r].ops.size(); ++k) {
            const Op& op = ranks[r].ops[k];
            if (op.kind != Op::recv || (op.requires_.empty() && op.irequires_.empty())) continue;
            recv_node[r][k] = b.add_compute(r, 0, op.line);
            b.depend(recv_node[r][k], node_of[r][k], Completion::delivered, op.line);
        }
    // What an op waits for (its requires, and through irequires what another op waits for), as edges.
    auto completion_of = [&](std::uint32_t r, std::size_t k) {
        const Op& op = ranks[r].ops[k];
        if (op.kind == Op::recv) {
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
