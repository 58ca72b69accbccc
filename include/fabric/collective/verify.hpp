// Correctness as a law: a collective's graph run symbolically.
//
// check_structure(g) checks what any workload graph owes its engine: each edge
// seen from both ends (the successors of every node add up to the predecessor
// counts), the roots exactly the nodes that wait for nothing and in order, every
// node reached in dependency order (no cycle), compute nodes on one rank.
//
// verify(g) then executes the graph symbolically. Every message carries, for each
// (block, piece) it moves, the set of ranks whose contributions that piece holds,
// as its sender held it when the message started; what the sender holds then is
// exactly what its initial data and the messages delivered to it *before* the
// message started (by the graph's dependencies, never by an order of execution)
// make it. A receiver takes a piece as it is, or, where the round reduces, adds it
// to its own, which must not already hold any of the same contributions (a sum
// would count them twice). Two deliveries to one rank of one piece that the graph
// leaves unordered are a race unless both add. At the end every rank must hold
// what the operation promises:
//   allreduce: every piece of every block, summed over every rank;
//   reduce-scatter: rank r its block r (of each lane), summed over every rank;
//   reduce: the root every piece, summed over every rank;
//   allgather: every rank every rank's block;
//   broadcast: every rank the root's data;
//   all-to-all: rank d block (s, d) from s, for every s;
//   barrier: every rank a token from every rank (so none leaves before all entered).
// Contributions are sets of at most 64 ranks, and the law is for small cases (a
// few thousand messages): verify refuses a graph past those bounds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fabric/collective/graph.hpp>
#include <fabric/concepts/workload.hpp>

namespace fabric::collective {

namespace detail {
/// Nodes, predecessors with the completion awaited, and a dependency order.
struct Unrolled {
    std::vector<workload::Node> nodes;
    std::vector<std::vector<std::pair<std::uint64_t, workload::Completion>>> preds;
    std::vector<std::uint64_t> order;
};

template <workload::WorkloadGraph G>
std::string unroll(const G& g, Unrolled& u) {
    const std::uint64_t n = g.size();
    u.nodes.resize(n);
    u.preds.assign(n, {});
    for (std::uint64_t i = 0; i < n; ++i) {
        u.nodes[i] = g.node(i);
        std::string bad;
        g.for_each_successor(i, [&](std::uint64_t s, workload::Completion c) {
            if (s >= n) bad = "node " + std::to_string(i) + " names successor " + std::to_string(s) + ", past the end";
            else u.preds[s].emplace_back(i, c);
        });
        if (!bad.empty()) return bad;
        const workload::Node& x = u.nodes[i];
        if (x.rank >= g.ranks() || x.peer >= g.ranks()) return "node " + std::to_string(i) + " names a rank past the end";
        if (!x.is_message() && x.rank != x.peer) return "compute node " + std::to_string(i) + " names two ranks";
        if (x.is_message() && x.rank == x.peer) return "message " + std::to_string(i) + " goes from a rank to itself";
    }
    std::vector<std::uint64_t> roots;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (g.predecessors(i) != u.preds[i].size())
            return "node " + std::to_string(i) + " says it has " + std::to_string(g.predecessors(i)) +
                   " predecessors; " + std::to_string(u.preds[i].size()) + " name it as successor";
        if (u.preds[i].empty()) roots.push_back(i);
    }
    std::vector<std::uint64_t> given;
    g.for_each_root([&](std::uint64_t r) { given.push_back(r); });
    if (given != roots) return "for_each_root gives " + std::to_string(given.size()) + " roots, not the " +
                               std::to_string(roots.size()) + " nodes without predecessors in order";
    std::vector<std::uint32_t> left(n);
    for (std::uint64_t i = 0; i < n; ++i) left[i] = static_cast<std::uint32_t>(u.preds[i].size());
    u.order = roots;
    for (std::size_t k = 0; k < u.order.size(); ++k)
        g.for_each_successor(u.order[k], [&](std::uint64_t s, workload::Completion) {
            if (--left[s] == 0) u.order.push_back(s);
        });
    if (u.order.size() != n) return "the dependencies form a cycle (" + std::to_string(n - u.order.size()) +
                                    " nodes never become ready)";
    return {};
}
}  // namespace detail

/// "" when the graph is well formed (see the top of the file), else what is wrong.
template <workload::WorkloadGraph G>
[[nodiscard]] std::string check_structure(const G& g) {
    detail::Unrolled u;
    return detail::unroll(g, u);
}

/// "" when the collective does what its operation promises at every rank, else the first failure.
[[nodiscard]] inline std::string verify(const CollectiveGraph& g) {
    detail::Unrolled u;
    if (std::string bad = detail::unroll(g, u); !bad.empty()) return bad;
    const std::uint32_t p = g.ranks();
    const std::uint64_t n = g.size(), blocks = g.blocks(), pieces = blocks * g.segments();
    if (p > 64) return "verify takes at most 64 ranks; got " + std::to_string(p);
    std::vector<std::uint64_t> message_of(n, ~std::uint64_t{0}), messages;
    for (std::uint64_t i = 0; i < n; ++i)
        if (u.nodes[i].is_message()) {
            message_of[i] = messages.size();
            messages.push_back(i);
        }
    const std::uint64_t m = messages.size(), words = (m + 63) / 64;
    if (m > 20000) return "verify takes at most 20,000 messages; got " + std::to_string(m);
    // before[i]: the messages delivered before node i starts (a bit set over message numbers).
    std::vector<std::uint64_t> before(n * words, 0);
    for (const std::uint64_t i : u.order)
        for (const auto& [q, c] : u.preds[i]) {
            for (std::uint64_t w = 0; w < words; ++w) before[i * words + w] |= before[q * words + w];
            if (u.nodes[q].is_message() && c == workload::Completion::delivered)
                before[i * words + message_of[q] / 64] |= std::uint64_t{1} << (message_of[q] % 64);
        }
    auto delivered_before = [&](std::uint64_t message, std::uint64_t node) {
        return ((before[node * words + message / 64] >> (message % 64)) & 1U) != 0;
    };
    const Operation op = g.operation();
    const std::uint32_t root = g.settings().root;
    const std::uint64_t all = p == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p) - 1;
    auto owner = [&](std::uint64_t b) { return g.lane_block(b) % p; };
    auto initial = [&](std::uint32_t r, std::uint64_t b) -> std::uint64_t {
        const std::uint64_t me = std::uint64_t{1} << r;
        switch (op) {
        case Operation::allreduce:
        case Operation::reduce_scatter:
        case Operation::reduce: return me;
        case Operation::allgather:
        case Operation::barrier: return owner(b) == r ? me : 0;
        case Operation::broadcast: return r == root ? me : 0;
        case Operation::alltoall: return g.lane_block(b) / p == r ? me : 0;
        }
        return 0;
    };
    // Each message's pieces: (piece, contributions), in its node's order of blocks.
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> payload(m);
    // Each rank's receipts in its program's order: lane, round, then node.
    std::vector<std::vector<std::uint64_t>> received(p);
    std::vector<CollectiveGraph::Where> at(n);
    for (std::uint64_t i = 0; i < n; ++i) at[i] = g.where(i);
    for (std::uint64_t x = 0; x < m; ++x) received[u.nodes[messages[x]].peer].push_back(x);
    auto program = [&](std::uint64_t x, std::uint64_t y) {
        const auto &a = at[messages[x]], &b = at[messages[y]];
        return a.lane != b.lane ? a.lane < b.lane : a.round != b.round ? a.round < b.round : messages[x] < messages[y];
    };
    for (auto& list : received) std::sort(list.begin(), list.end(), program);
    auto pieces_of = [&](std::uint64_t node) {
        std::vector<std::uint64_t> out;
        g.for_each_block(node, [&](std::uint64_t b) { out.push_back(b * g.segments() + at[node].segment); });
        return out;
    };
    std::vector<std::uint64_t> state(pieces);
    std::vector<std::uint8_t> wanted(pieces, 0);
    // Rank `rank`'s state after its receipts of `lane` before round `round` (every receipt for
    // round no_round), in program order; every receipt that changes a piece `node` wants must
    // have been delivered before `node` starts. Two receipts of one round that change one piece
    // must both add. "" or what failed.
    auto replay = [&](std::uint32_t rank, std::uint32_t lane, std::uint32_t round, std::uint64_t node) -> std::string {
        for (std::uint64_t b = 0; b < pieces; ++b) state[b] = initial(rank, b / g.segments());
        std::vector<std::uint64_t> round_of(pieces, no_round);  // the round that last changed a piece
        std::vector<std::uint32_t> lane_of(pieces, 0);
        std::vector<std::uint8_t> by_copy(pieces, 0);
        for (const std::uint64_t x : received[rank]) {
            const auto& w = at[messages[x]];
            if (round != no_round && (w.lane != lane || w.round >= round)) continue;
            if (node != n && !delivered_before(x, node)) {
                for (const std::uint64_t piece : pieces_of(messages[x]))
                    if (wanted[piece])
                        return "node " + std::to_string(node) + " of rank " + std::to_string(rank) +
                               " does not wait for node " + std::to_string(messages[x]) +
                               ", an earlier round's receipt of what it uses";
                continue;  // not yet there, and nothing this node uses
            }
            const bool adds = g.reduces(messages[x]);
            for (const auto& [piece, held] : payload[x]) {
                if (round_of[piece] != no_round && lane_of[piece] != w.lane)
                    return "rank " + std::to_string(rank) + " receives block " + std::to_string(piece / g.segments()) +
                           " in lanes " + std::to_string(lane_of[piece]) + " and " + std::to_string(w.lane) +
                           ", which run in no order";
                if (round_of[piece] == w.round && (by_copy[piece] || !adds))
                    return "rank " + std::to_string(rank) + " receives block " + std::to_string(piece / g.segments()) +
                           " twice in round " + std::to_string(w.round) + ", not both to add";
                if (adds && (state[piece] & held) != 0)
                    return "node " + std::to_string(messages[x]) + " adds contributions rank " + std::to_string(rank) +
                           " already holds to block " + std::to_string(piece / g.segments());
                state[piece] = adds ? state[piece] | held : held;
                round_of[piece] = w.round;
                lane_of[piece] = w.lane;
                by_copy[piece] = adds ? 0 : 1;
            }
        }
        return {};
    };
    for (const std::uint64_t i : u.order) {
        const workload::Node& x = u.nodes[i];
        const auto want = pieces_of(i);
        for (const std::uint64_t piece : want) wanted[piece] = 1;
        // A reduction must come after the earlier rounds' receipts of what it adds to.
        std::string bad = replay(x.is_message() ? x.rank : x.peer, at[i].lane, at[i].round, i);
        if (bad.empty() && x.is_message())
            for (const std::uint64_t piece : want) {
                if (state[piece] == 0 && bad.empty())
                    bad = "node " + std::to_string(i) + ": rank " + std::to_string(x.rank) + " sends block " +
                          std::to_string(piece / g.segments()) + " it does not hold";
                payload[message_of[i]].emplace_back(piece, state[piece]);
            }
        for (const std::uint64_t piece : want) wanted[piece] = 0;
        if (!bad.empty()) return bad;
    }
    for (std::uint32_t r = 0; r < p; ++r) {
        if (std::string bad = replay(r, 0, no_round, n); !bad.empty()) return bad;
        for (std::uint64_t piece = 0; piece < pieces; ++piece) {
            const std::uint64_t b = piece / g.segments(), held = state[piece];
            std::uint64_t want = held;  // what the operation promises here (held: nothing promised)
            switch (op) {
            case Operation::allreduce: want = all; break;
            case Operation::reduce_scatter: if (owner(b) == r) want = all; break;
            case Operation::reduce: if (r == root) want = all; break;
            case Operation::allgather:
            case Operation::barrier: want = std::uint64_t{1} << owner(b); break;
            case Operation::broadcast: want = std::uint64_t{1} << root; break;
            case Operation::alltoall:
                if (g.lane_block(b) % p == r) want = std::uint64_t{1} << (g.lane_block(b) / p);
                break;
            }
            if (held != want)
                return "rank " + std::to_string(r) + " ends with block " + std::to_string(b) + " piece " +
                       std::to_string(piece % g.segments()) + " holding contributions " + std::to_string(held) +
                       ", not " + std::to_string(want) + " as " + std::string(name(op)) + " promises";
        }
    }
    return {};
}

}  // namespace fabric::collective
