// A workload graph timed without a network, and its critical path.
//
// model_times(g, m) runs any workload graph in the alpha-beta model with no
// contention: a node is ready when its last awaited completion is in (plus its
// delay, and never before its own cycle); a message of b bytes starts when it is
// ready and its rail has sent the messages ready before it (one port a rail, as
// the one-ported model of Thakur et al. and a terminal's source queue have it),
// has left b beta after it starts, and is delivered alpha + b beta after it
// starts; a compute node takes its rank's one CPU from when it is ready and the
// CPU is free (as LogGOPSim and the dependency engine have it), for its cycles. That is the time the formulas of
// collective/alpha_beta.hpp describe, so comparing the two checks that a graph is
// the algorithm its formula is about, with no simulator in between; a flit-level
// run then says what the network adds.
//
// critical_path(g, times) walks back from the node that completes last through,
// at each node, the awaited completion that came last: the chain of messages and
// reductions that set the finish, for any times (the model's, or a flit-level
// run's reported per node).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include <fabric/collective/alpha_beta.hpp>
#include <fabric/concepts/workload.hpp>

namespace fabric::collective {

/// Per node: when it became ready, when it left its source (a message) and when it
/// completed (delivered; a compute node's end).
struct ModelTimes {
    std::vector<double> ready, sent, done;

    [[nodiscard]] double finish() const {
        double f = 0;
        for (const double d : done) f = std::max(f, d);
        return f;
    }
    /// The completion a successor waiting for `when` sees.
    [[nodiscard]] double completion(std::uint64_t i, workload::Completion when) const {
        return when == workload::Completion::sent ? sent[i] : done[i];
    }
};

template <workload::WorkloadGraph G>
[[nodiscard]] ModelTimes model_times(const G& g, const AlphaBeta& m) {
    const std::uint64_t n = g.size();
    ModelTimes t{std::vector<double>(n, 0), std::vector<double>(n, 0), std::vector<double>(n, 0)};
    std::vector<double> in(n, 0);  // the latest completion awaited so far
    std::vector<std::uint32_t> left(n);
    for (std::uint64_t i = 0; i < n; ++i) left[i] = g.predecessors(i);
    // Nodes in the order they become ready (ties by index), so that each rail's queue is served in order.
    using Entry = std::pair<double, std::uint64_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    auto push = [&](std::uint64_t i) {
        const workload::Node x = g.node(i);
        ready.emplace(std::max(static_cast<double>(x.not_before), in[i] + static_cast<double>(x.delay)), i);
    };
    g.for_each_root(push);
    std::vector<std::vector<double>> rail_free(g.ranks());  // per rank and rail: when its last message has left
    std::vector<double> cpu_free(g.ranks(), 0);             // per rank: when its last computation ended
    while (!ready.empty()) {
        const double at = ready.top().first;
        const std::uint64_t i = ready.top().second;
        ready.pop();
        const workload::Node x = g.node(i);
        t.ready[i] = at;
        if (x.is_message()) {
            auto& rails = rail_free[x.rank];
            if (rails.size() <= x.rail) rails.resize(std::size_t{x.rail} + 1, 0);
            const double start = std::max(at, rails[x.rail]);
            const double wire = m.message(static_cast<double>(x.bytes));
            rails[x.rail] = t.sent[i] = start + wire;
            t.done[i] = start + m.alpha + wire;
        } else {
            cpu_free[x.rank] = t.sent[i] = t.done[i] = std::max(at, cpu_free[x.rank]) + static_cast<double>(x.cycles);
        }
        g.for_each_successor(i, [&](std::uint64_t s, workload::Completion c) {
            in[s] = std::max(in[s], t.completion(i, c));
            if (--left[s] == 0) push(s);
        });
    }
    return t;
}

/// The chain of nodes that set the finish, first to last (see the top of the file).
template <workload::WorkloadGraph G>
[[nodiscard]] std::vector<std::uint64_t> critical_path(const G& g, const ModelTimes& t) {
    const std::uint64_t n = g.size();
    if (n == 0) return {};
    // Each node's predecessor whose awaited completion came last.
    std::vector<std::uint64_t> last(n, n);
    std::vector<double> latest(n, -1);
    for (std::uint64_t i = 0; i < n; ++i)
        g.for_each_successor(i, [&](std::uint64_t s, workload::Completion c) {
            if (t.completion(i, c) > latest[s]) {
                latest[s] = t.completion(i, c);
                last[s] = i;
            }
        });
    std::uint64_t at = 0;
    for (std::uint64_t i = 1; i < n; ++i)
        if (t.done[i] > t.done[at]) at = i;
    std::vector<std::uint64_t> path{at};
    while (last[at] != n) {
        at = last[at];
        path.push_back(at);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace fabric::collective
