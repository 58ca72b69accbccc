// A workload graph run on the cycle kernel (CycleSimulator::run_workload): the
// dependency engine (dependency_engine.hpp) drives a resumable run (run.hpp)
// through the message port until every node has completed, or until nothing more
// can happen (a deadlock, a failed link, a message that never comes), which is
// reported as which ranks wait for what, never a hang.
//
// The run measures every cycle (no warm-up: the network's figures cover the whole
// workload) and reports messages through the kernel's message table branch: a
// message is one packet unless max_packet_flits splits it, and a packet holds at
// most 65,535 flits, so with max_packet_flits 0 a longer message is split at that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/dependency_engine.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/run.hpp>
#include <fabric/sim/cycle/workloads.hpp>
#include <fabric/workload/endpoints.hpp>
#include <fabric/workload/placement.hpp>

namespace fabric {

/// How a workload meets the network.
struct WorkloadOptions {
    workload::Endpoints endpoints;       // LogGP overheads and gap, rendezvous, stragglers (none by default)
    workload::RankPlacement placement;   // rank -> terminals (rails); not given: rank r on terminal r
    std::uint32_t bytes_per_flit = 0;    // a message of b bytes takes max(1, ceil(b / this)) flits; 0: flit_bytes
    bool record_nodes = false;           // keep every node's times (WorkloadResult::nodes; memory of the graph)
};

/// What a workload run gives.
struct WorkloadResult {
    bool finished = false;               // every node completed
    std::uint64_t finish_cycle = 0;      // the last completion: a delivery (with its receive overhead) or a compute's end
    std::vector<std::uint64_t> ranks;    // each rank's last completion (0: none)
    CycleResult network;                 // the kernel's figures over the whole run (channel utilisation, ...)
    std::vector<cycle::NodeTimes> nodes; // with record_nodes: each node's times, by index
    std::vector<cycle::WorkloadWait> waiting;  // unfinished: which ranks wait for what
    std::uint64_t completed = 0, total = 0;    // nodes
    std::size_t frontier_peak = 0;       // the most nodes waiting on some of their predecessors at once

    /// "fabric: the workload cannot finish: ..." with each rank's wait on a line of its own; empty when finished.
    [[nodiscard]] std::string report() const {
        if (finished) return "";
        std::string s = "fabric: the workload cannot finish (" + std::to_string(completed) + " of " +
                        std::to_string(total) + " nodes completed)";
        if (network.deadlock) s += "; the network deadlocked";
        s += ":";
        for (const cycle::WorkloadWait& w : waiting) s += "\n  rank " + std::to_string(w.rank) + ": " + w.what;
        return s;
    }
};

namespace cycle {

/// The largest message's flits, and the check that every node fits the configuration, once over the graph.
template <workload::WorkloadGraph G>
std::uint64_t largest_message_flits(const G& graph, std::uint32_t flit_bytes) {
    std::uint64_t largest = 1;
    for (workload::NodeIndex i = 0; i < graph.size(); ++i) {
        const workload::Node n = graph.node(i);
        if (n.is_message()) largest = std::max(largest, workload::flits_of(n.bytes, flit_bytes));
    }
    return largest;
}

template <class Core, workload::WorkloadGraph G, CycleTransport Tx>
WorkloadResult run_workload(Core& core, const G& graph, const WorkloadOptions& options, const Partition& partition,
                            Tx& tx) {
    CycleConfig& cfg = core.settings();
    detail::require(!cfg.sampling.enabled(), "the converging sampler (CycleConfig::sampling) is for run(); a "
                    "workload run ends with its workload: set sampling.sample_period to 0");
    detail::require(!cfg.request_reply.enabled(), "request_reply answers open-loop requests; a workload's replies "
                    "are its own messages: set request_reply.reply_flits to 0");
    detail::require(tx.ranks() == 1, "a workload runs alone for now: a partitioned run (", tx.ranks(),
                    " ranks) of a workload is not supported yet");
    const std::uint32_t ranks = static_cast<std::uint32_t>(graph.ranks());
    detail::require(ranks >= 1, "a workload needs at least one rank");
    const workload::RankPlacement placement =
        options.placement.given() ? options.placement : workload::RankPlacement::identity(ranks);
    placement.check(ranks, core.shape().terminals);
    options.endpoints.validate(ranks);
    const std::uint32_t flit_bytes = options.bytes_per_flit ? options.bytes_per_flit : cfg.flit_bytes;
    detail::require(flit_bytes >= 1, "a workload's flits must carry at least one byte");

    // The run's own settings: every cycle measured, every packet a message's.
    struct Restore {
        CycleConfig& cfg;
        CycleConfig saved;
        ~Restore() {
            cfg.warmup = saved.warmup;
            cfg.measure = saved.measure;
            cfg.max_packet_flits = saved.max_packet_flits;
        }
    } restore{cfg, cfg};
    cfg.warmup = 0;
    cfg.measure = std::uint64_t{1} << 60;
    if (cfg.max_packet_flits == 0) cfg.max_packet_flits = 65535;
    const std::uint64_t largest = largest_message_flits(graph, flit_bytes);
    check_switching(core, static_cast<std::uint32_t>(std::min<std::uint64_t>(largest, cfg.max_packet_flits)));
    place_routers(core, partition, tx);

    DependencyEngine<G> engine(graph, options.endpoints, placement, flit_bytes, core.observer().classes.count(),
                               cfg.seed, options.record_nodes, core.sources().port());
    auto inject = [&](std::uint64_t now, Random&) { engine.step(now); };
    Driver driver{&engine,
                  [](void* e, std::uint64_t from) { return static_cast<DependencyEngine<G>*>(e)->next(from); },
                  [](void* e) { return static_cast<DependencyEngine<G>*>(e)->finished(); }};
    Run<Core, Tx, true> run(core, std::nullopt, Injection::of(inject, std::uint64_t{1} << 32), tx, driver);
    core.sources().port().open(cfg.seed);
    core.observer().flit_events = true;
    engine.start();
    run.advance();

    WorkloadResult out;
    out.network = run.finish();
    out.finished = engine.finished();
    out.network.drained = out.finished && out.network.drained;
    out.finish_cycle = engine.finish_cycle();
    out.ranks = engine.rank_finish();
    out.completed = engine.completed();
    out.total = graph.size();
    out.frontier_peak = engine.frontier_peak();
    if (options.record_nodes) out.nodes = std::move(engine.times());
    if (!out.finished) out.waiting = engine.waiting();
    return out;
}

}  // namespace cycle

/// The critical path of a recorded run (WorkloadOptions::record_nodes): from the
/// node that completed last back to a root, each node preceded by the predecessor
/// whose completion (plus the node's delay) made it ready. Where a node's own
/// cycle made it ready, or its rank's CPU or rail held it past its readiness, the
/// path still goes to its latest predecessor.
template <workload::WorkloadGraph G>
std::vector<workload::NodeIndex> critical_path(const G& graph, const WorkloadResult& result) {
    using workload::NodeIndex;
    const auto& t = result.nodes;
    detail::require(t.size() == graph.size(), "critical_path needs the run's node times (WorkloadOptions::"
                    "record_nodes)");
    constexpr std::uint64_t never = cycle::NodeTimes::never;
    auto completion = [&](NodeIndex i, workload::Completion c) {
        const cycle::NodeTimes& x = t[i];
        if (!graph.node(i).is_message()) return x.delivered;
        return c == workload::Completion::sent ? x.sent : x.received;
    };
    auto last = [&](NodeIndex i) {
        const cycle::NodeTimes& x = t[i];
        if (!graph.node(i).is_message()) return x.delivered;
        if (x.received == never || x.sent == never) return never;
        return std::max(x.sent, x.received);
    };
    NodeIndex end = graph.size();
    std::uint64_t latest = 0;
    for (NodeIndex i = 0; i < graph.size(); ++i)
        if (const std::uint64_t c = last(i); c != never && (end == graph.size() || c > latest)) {
            latest = c;
            end = i;
        }
    if (end == graph.size()) return {};
    // Predecessors, once: the concept gives successors only.
    std::vector<std::vector<std::pair<NodeIndex, workload::Completion>>> preds(graph.size());
    for (NodeIndex i = 0; i < graph.size(); ++i)
        graph.for_each_successor(i, [&](NodeIndex s, workload::Completion c) { preds[s].emplace_back(i, c); });
    std::vector<NodeIndex> path{end};
    for (NodeIndex at = end;;) {
        NodeIndex best = graph.size();
        std::uint64_t when = 0;
        for (const auto& [p, c] : preds[at]) {
            const std::uint64_t x = completion(p, c);
            if (x != never && (best == graph.size() || x > when)) {
                best = p;
                when = x;
            }
        }
        if (best == graph.size()) break;
        path.push_back(best);
        at = best;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace fabric
