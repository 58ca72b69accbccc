// The workloads a cycle-kernel run is driven by, over a core (core.hpp) and a
// transport: Bernoulli or on/off arrivals with destinations from a traffic
// pattern, one process per traffic class, or a trace of messages; the checks a
// workload must pass before it runs (and, split over ranks, what a partitioned
// run refuses, alike at every rank count). Independent of the fabric type, so
// that every fabric of one flow control and allocator shares them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/lookahead.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/run.hpp>
#include <fabric/sim/cycle/sources.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::cycle {

/// A partitioned run steps each rank's routers alone, so what needs another rank's
/// state within a cycle is refused, with the reason; every rank refuses alike.
template <class Core>
void check_partitionable(const Core& core, const Partition& partition) {
    const CycleConfig& cfg = core.cfg();
    auto refuse = [](bool used, const char* what, const char* why) {
        detail::require(!used, "a partitioned run (dist::PartitionedCycle) cannot use ", what, ": ", why,
                        "; run it alone, or without it");
    };
    refuse(cfg.request_reply.enabled(), "request_reply", "replies draw from the one random stream where "
           "their requests arrive");
    refuse(cfg.source_queue_packets > 0, "source_queue_packets", "a refusal draws differently from a "
           "creation, and only the terminal's rank knows its queues");
    refuse(cfg.watch.enabled(), "watch", "packets are numbered per rank");
    refuse(core.link_errors().any(), "link error rates (sick links)", "a link turns sick at its receiver's rank, "
           "and routes are written at their source's");
    refuse(core.channels().side_band().any(), "words posted in the Credits (side band, LiFaMa)", "they are not "
           "carried between ranks");
    const auto& hooks = core.routing_hooks();
    refuse(hooks.tracks_occupancy && hooks.reroute == nullptr && !hooks.source_view,
           "source-adaptive routing with a view of every router (UGAL-G)", "it reads the queues of routers on other "
           "ranks at the source (a policy that reads only the source's router says global_view = false, as UGAL-L)");
    refuse(core.flow().feedback_delay() < 1, "feedback in 0 cycles", "the ranks exchange once a cycle");
    const auto& pd = cfg.pipeline;
    const Links& links = core.channels().links();
    const std::uint32_t P = core.shape().ports;
    for (std::size_t c = 0; c < links.channels(); ++c)
        if (links.connected(c) &&
            partition.rank_of(static_cast<std::uint32_t>(c / P)) != partition.rank_of(links.down(c)))
            detail::require(pd.switch_allocation + pd.switch_traversal + links.serialisation(c) - 1 +
                                    links.latency(c) >= 1,
                            "a partitioned run needs every link between ranks to take at least one cycle; the "
                            "link of channel ", c, " delivers in 0");
}

/// The packets a message of `flits` flits becomes (split into packets of at most `most` flits; 0: one).
[[nodiscard]] inline std::uint64_t packets_of(std::uint32_t flits, std::uint32_t most) {
    return most ? (std::uint64_t{flits} + most - 1) / most : 1;
}

template <class Core>
void check_switching(const Core& core, std::uint32_t largest) {
    const CycleConfig& cfg = core.cfg();
    if (cfg.max_packet_flits) largest = std::min(largest, cfg.max_packet_flits);
    if (cfg.switching == Switching::virtual_cut_through)
        detail::require(largest <= core.buffer_flits(), "virtual cut-through needs a buffer of a whole packet: "
                        "the largest packet has ", largest, " flits, the buffer per VC ", core.buffer_flits(),
                        "; raise the buffer or use wormhole switching");
}

/// Deals the routers to the ranks for the next run (alone: all here), and
/// refuses alike at every rank count what a split run cannot do, so that a
/// configuration that runs at one rank runs at four.
template <class Core, CycleTransport Tx>
void place_routers(Core& core, const Partition& partition, Tx& tx) {
    if constexpr (std::is_same_v<Tx, Alone>) {
        core.channels().remote().alone();
    } else {
        check_partitionable(core, partition);
        if (partition.ranks() > 1) core.channels().remote().split(partition.ranks_of(), tx.rank(), tx.ranks());
        else core.channels().remote().alone();
        Lookahead plan = plan_lookahead(core, partition);
        if constexpr (requires { tx.connect(plan.neighbours, plan.everyone); })
            tx.connect(plan.neighbours, plan.everyone);
        else plan.everyone = true;  // a transport that only exchanges with every rank
        core.channels().remote().plan(std::move(plan));
    }
}

/// run() with the arrival process chosen, one per class: each arrival draws a destination and a size.
template <class Core, class Sampler, class Arrivals, CycleTransport Tx>
CycleResult run_arrivals(Core& core, const Sampler& sampler, std::vector<Arrivals>& arrivals,
                         std::span<const OfferedLoad> loads, Tx& tx) {
    const CycleConfig& cfg = core.cfg();
    Sources& sources = core.sources();
    CycleResult& res = core.observer().res;
    auto inject = [&](std::uint64_t now, Random& rng) {
        for (std::uint32_t c = 0; c < arrivals.size(); ++c)
            arrivals[c].step(
                now, rng, [&](std::uint32_t n) { return sampler.sends(n); },
                [&](std::uint32_t n) {
                    if (sources.at_limit(n)) return;  // with max_outstanding: a source at the limit makes none
                    const auto dst = static_cast<std::uint32_t>(sampler(n, rng));
                    const std::uint32_t size = loads[c].sizes.draw(rng);
                    if (!cfg.source_queue_packets || sources.queues().held(n) < cfg.source_queue_packets)
                        return sources.create_message(n, dst, size, now, rng, c, core);
                    res.flits_refused += size;  // refused: the terminal's source queues are full
                    if (!cfg.in_window(now)) return;
                    res.flits_refused_in_window += size;
                    core.observer().classes.refused(c, size);
                    if (!res.nodes.empty()) {
                        res.nodes[n].flits_offered += size;
                        res.nodes[n].flits_refused += size;
                    }
                });
    };
    // At most one message a terminal and class a cycle, each of at most `parts` packets.
    std::uint32_t largest = 1;
    for (const OfferedLoad& load : loads) largest = std::max(largest, load.sizes.max());
    const std::uint64_t most = std::uint64_t{core.shape().terminals} * arrivals.size() *
                               packets_of(largest, cfg.max_packet_flits);
    return simulate(core, std::nullopt, Injection::of(inject, most), tx);
}

template <class Core, TrafficPattern Pattern, CycleTransport Tx>
CycleResult run_loads(Core& core, const Pattern& pattern, std::span<const OfferedLoad> loads,
                      const Partition& partition, Tx& tx) {
    const Shape& shape = core.shape();
    const std::uint32_t classes = core.observer().classes.count();
    detail::require(loads.size() == classes, "give one load per traffic class: the configuration has ", classes,
                    " classes (CycleConfig::class_priority), the run ", loads.size(), " loads");
    detail::require(pattern.task_count() == shape.terminals, "the cycle kernel runs one task per terminal: the "
                    "pattern has ", pattern.task_count(), " tasks, the topology ", shape.terminals, " terminals (",
                    shape.routers, " routers of ", shape.per_node, ")");
    std::uint32_t largest = 1;
    for (const OfferedLoad& load : loads) {
        load.sizes.validate();
        detail::require(load.rate >= 0 && load.rate <= load.sizes.mean(), "offered load must be in [0, mean "
                        "packet size = ", load.sizes.mean(), "] flits/cycle/terminal; got ", load.rate);
        largest = std::max(largest, load.sizes.max());
    }
    check_switching(core, largest);
    place_routers(core, partition, tx);
    const DestinationSampler<Pattern> sampler(pattern);
    const OnOffInjection& burst = core.cfg().on_off;
    if (burst.enabled()) {
        std::vector<OnOffArrivals> arrivals;
        for (const OfferedLoad& load : loads)
            arrivals.emplace_back(shape.terminals, load.rate / load.sizes.mean(), burst.alpha, burst.beta);
        return run_arrivals(core, sampler, arrivals, loads, tx);
    }
    std::vector<BernoulliArrivals> arrivals;
    for (const OfferedLoad& load : loads) arrivals.emplace_back(shape.terminals, load.rate / load.sizes.mean());
    return run_arrivals(core, sampler, arrivals, loads, tx);
}

/// Injects the messages of a trace (sorted by cycle) at their cycles.
template <class Core, CycleTransport Tx>
CycleResult run_trace(Core& core, std::span<const TraceMessage> trace, const Partition& partition, Tx& tx) {
    detail::require(!core.cfg().sampling.enabled(), "the converging sampler (CycleConfig::sampling) is for run(); "
                    "a trace run ends with its trace: set sampling.sample_period to 0");
    check_switching(core, validate_trace(trace, core.shape().terminals, core.observer().classes.count()));
    place_routers(core, partition, tx);
    std::size_t next = 0;
    const std::uint64_t last = trace.empty() ? 0 : trace.back().cycle;
    std::uint64_t packets = 0;  // the trace's, in all
    for (const TraceMessage& m : trace) packets += packets_of(m.flits, core.cfg().max_packet_flits);
    auto inject = [&](std::uint64_t now, Random& rng) {
        for (; next < trace.size() && trace[next].cycle == now; ++next)
            core.sources().create_message(trace[next].source, trace[next].destination, trace[next].flits, now,
                                             rng, trace[next].traffic_class, core);
    };
    return simulate(core, last, Injection::of(inject, packets), tx);
}

}  // namespace fabric::cycle
