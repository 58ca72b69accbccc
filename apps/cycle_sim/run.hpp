// cycle_sim's run on one fabric, shared by the translation units that each
// instantiate the simulators of one topology family (so they compile in parallel
// and none holds every simulator at once). The non-template parts are in run.cpp.
#pragma once

#include <cstdio>
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fabric/dist/results.hpp>
#include <fabric/experiment/json.hpp>
#include <fabric/fabric.hpp>
#include <fabric/sim/trace_file.hpp>

#include "../common/dist.hpp"
#ifdef FABRIC_APPS_MPI
#include <fabric/dist/partitioned.hpp>
#endif
#include "../common/numbers.hpp"
#include "../common/switch_choice.hpp"
#include "../common/tool.hpp"
#include "../cycle_sim_settings.hpp"
#include "families.hpp"

namespace fabric_apps::cycle_sim {
using namespace fabric;

PacketSizes packet_sizes(const std::string& s);
/// The options' credit flow control (--vc-buf, --credit-delay).
Credit credit_flow(const RunSettings& s);
/// The options' CycleConfig (every field but the watch, which needs the run's trace).
CycleConfig cycle_config(const RunSettings& s);
/// Node-cycles of one run at most: the window, then the drain the kernel allows by default.
double node_cycles_per_run(const RunSettings& s, double nodes);
void write_node_stats(const std::string& file, const CycleResult& r);
void write_watch(const std::string& file, std::vector<FlitEvent> events);

/// BookSim's per-channel statistics: every link's flits a cycle in the window, as CSV.
template <class Topo>
void write_channel_stats(const std::string& file, const Topo& topo, const CycleResult& r) {
    std::ofstream out(file);
    detail::require(out.good(), "channel_stats: cannot write '", file, "'");
    out << "node,port,neighbour,flits_per_cycle\n";
    for (std::uint32_t n = 0; n < topo.node_count(); ++n)
        for (std::uint32_t p = 0; p < r.ports_per_node; ++p)
            if (const NodeId to = topo.neighbour(NodeId{n}, PortId{p}); to.valid())
                out << n << ',' << p << ',' << to.value << ',' << r.channel_utilisation[n * r.ports_per_node + p] << '\n';
    detail::require(out.good(), "channel_stats: writing '", file, "' failed");
}

template <class Sim, class Topo>
int run(Sim& sim, const RunSettings& s, const NamedPattern& pattern, const Topo& topo,
        const std::vector<FlitEvent>& watched) {
    const PacketSizes sizes = packet_sizes(s.packet);
    if (!s.sweep.empty()) {
        detail::require(s.channel_stats.empty() && s.node_stats.empty() && s.watch.empty(), "channel_stats, "
                        "node_stats, watch: per-channel and per-node statistics and the watch trace are written for one "
                        "run; leave out --sweep or --channel-stats, --node-stats and --watch");
        const auto range = fabric_apps::parse_numbers<double>(s.sweep, ':', "sweep");
        detail::require(range.size() == 3, "sweep: FROM:TO:STEP; got '", s.sweep, "'");
        const auto rates = experiment::loads(range[0], range[1], range[2]);
        fabric_apps::check_work(node_cycles_per_run(s, static_cast<double>(topo.node_count())) * static_cast<double>(rates.size() * s.seeds.size()),
                                "node-cycles", 2e6);
        experiment::SweepSettings settings;
        settings.seeds = s.seeds;
        settings.validate();
        // One load point a run of the list (all its seeds); under mpirun dealt over the ranks.
        const auto curve = fabric_apps::run_list(
            rates.size(), [&](std::size_t i) { return experiment::measure_validated(sim, pattern, rates[i], sizes, settings); },
            [&](const experiment::LoadPoint& p) { return settings.stop_at_saturation && p.saturated(); });
        if (!fabric_apps::root_rank()) return 0;
        if (s.json) std::cout << experiment::to_json(std::span<const experiment::LoadPoint>(curve)).dump(1) << '\n';
        else experiment::write_csv(std::cout, curve);
        return 0;
    }
    detail::require(s.class_priority.empty() || s.sweep.empty(), "class_priority: a sweep scales one load; run "
                    "traffic classes one point at a time (leave out --sweep)");
    detail::require(s.watch.empty() || !s.json || s.watch_file != "-", "watch_file: with --json the standard output "
                    "carries the result; give the trace a file (--watch-file FILE)");
    fabric_apps::check_work(node_cycles_per_run(s, static_cast<double>(topo.node_count())), "node-cycles", 2e6);
    std::vector<OfferedLoad> loads;
    for (const double rate : s.class_rates) loads.push_back({rate, sizes});
    // Under mpirun the run is partitioned (the routers dealt over the ranks): every rank has its result, rank 0 writes it.
    const CycleResult r = loads.empty() ? sim.run(pattern, s.rate, sizes) : sim.run(pattern, loads);
    if (!fabric_apps::root_rank()) return r.deadlock ? 3 : 0;
    if (!s.channel_stats.empty()) write_channel_stats(s.channel_stats, topo, r);
    if (!s.node_stats.empty()) write_node_stats(s.node_stats, r);
    if (!s.watch.empty()) write_watch(s.watch_file, watched);
    if (s.json) {
        std::cout << experiment::to_json(r).dump(1) << '\n';
    } else {
        std::printf("offered %.4f accepted %.4f flits/cycle/%s; latency mean %.2f p50 %llu p99 %llu cycles; "
                    "hops %.2f; %s\n", r.offered, r.accepted, r.terminals_per_node > 1 ? "terminal" : "node", r.latency.mean,
                    static_cast<unsigned long long>(r.latency.p50), static_cast<unsigned long long>(r.latency.p99),
                    r.hops_mean,
                    r.source_limit_reached ? "saturated: the source queues reached the memory limit, run stopped"
                    : r.saturated          ? "saturated"
                                           : "not saturated");
        if (r.refused > 0)
            std::printf("refused %.4f flits/cycle/%s: messages drawn at terminals whose source queues held %u packets "
                        "(--source-queue)\n", r.refused, r.terminals_per_node > 1 ? "terminal" : "node", s.source_queue);
        if (s.sample_period)
            std::printf("window: %llu cycles from cycle %llu, chosen in %u sample periods (%s)\n",
                        static_cast<unsigned long long>(r.window_cycles), static_cast<unsigned long long>(r.window_start),
                        r.sample_periods, r.sampling_converged ? "converged" : r.saturated ? "unstable" : "not converged");
        if (s.reply_flits)
            std::printf("transactions (request to reply): latency mean %.2f p99 %llu cycles; %llu replies delivered\n",
                        r.transaction_latency.mean, static_cast<unsigned long long>(r.transaction_latency.p99),
                        static_cast<unsigned long long>(r.replies_delivered));
        for (std::size_t c = 0; c < r.classes.size(); ++c)
            std::printf("class %zu (priority %u): offered %.4f accepted %.4f; latency mean %.2f p99 %llu cycles\n", c,
                        s.class_priority[c], r.classes[c].offered, r.classes[c].accepted, r.classes[c].latency.mean,
                        static_cast<unsigned long long>(r.classes[c].latency.p99));
        if (r.deadlock) std::printf("%s\n", r.deadlock->describe().c_str());
    }
    return r.deadlock ? 3 : 0;
}


/// --trace FILE: the trace's messages replayed (sim/trace_file.hpp), each split into
/// packets of at most --packet flits; per message its latency, as CSV, then the summary.
template <class Net>
int replay(const Net& net, const RunSettings& s) {
    detail::require(s.sweep.empty() && s.watch.empty() && s.reply_flits == 0 && s.class_rates.empty(), "trace: a "
                    "trace gives the load, its messages are watched and have no replies: leave out --sweep, --watch, "
                    "--reply-flits and --class-rates");
    detail::require(fabric_apps::ranks() == 1, "trace: a trace is replayed on one rank (run it without mpirun)");
    const std::uint32_t most = fabric_apps::parse_number<std::uint32_t>(s.packet, "packet (with --trace: the largest "
                                                                        "packet a message is split into, N flits)");
    const Trace trace = read_trace(s.trace, s.flit_bytes);
    trace.check(terminal_count(net.topology()), std::max<std::uint32_t>(1, static_cast<std::uint32_t>(s.class_priority.size())));
    RunSettings classes = s;  // the classes' loads are the trace's: none to give
    classes.class_rates.assign(s.class_priority.size(), 0.0);
    CycleConfig config = trace_settings(cycle_config(classes), trace, most);
    fabric_apps::check_work(static_cast<double>(net.topology().node_count()) * static_cast<double>(config.measure) * 4,
                            "node-cycles", 2e6);
    MessageLatencies each(trace);
    CycleSimulator<Net, NamedSwitch> sim(net, each.watching(std::move(config)));
    const CycleResult r = sim.run_trace(trace.messages);
    if (s.json) {
        nlohmann::json j = experiment::to_json(r);
        j["message_latencies"] = each.latencies();
        std::cout << j.dump(1) << '\n';
    } else {
        std::printf("message,cycle,source,destination,flits,class,latency\n");
        for (std::size_t i = 0; i < trace.messages.size(); ++i) {
            const TraceMessage& m = trace.messages[i];
            const std::uint64_t l = each.latencies()[i];
            std::printf("%zu,%llu,%u,%u,%u,%u,%s\n", i, static_cast<unsigned long long>(m.cycle), m.source,
                        m.destination, m.flits, m.traffic_class,
                        l == MessageLatencies::lost ? "lost" : std::to_string(l).c_str());
        }
        std::printf("# %llu messages delivered, %llu lost; latency mean %.2f p50 %llu p99 %llu max %llu cycles "
                    "(creation to the last tail); packets of at most %u flits; last delivery at cycle %llu\n",
                    static_cast<unsigned long long>(r.messages_delivered),
                    static_cast<unsigned long long>(r.messages_lost), r.message_latency.mean,
                    static_cast<unsigned long long>(r.message_latency.p50),
                    static_cast<unsigned long long>(r.message_latency.p99),
                    static_cast<unsigned long long>(r.message_latency.max), most,
                    static_cast<unsigned long long>(r.cycles));
        if (r.deadlock) std::printf("%s\n", r.deadlock->describe().c_str());
    }
    return r.deadlock ? 3 : 0;
}

/// One fabric's simulator with the tool's run-time allocator, run as the options say:
/// under mpirun, a sweep's loads are dealt over the ranks and one run is partitioned,
/// its routers dealt to the ranks by `policy` (contiguous slabs, or a family's groups).
template <class Net, class Policy = Slabs>
int simulate_on(const Net& net, const RunSettings& s, const NamedPattern& pattern, const Policy& policy = {}) {
    NamedSwitch::choose(s.allocator);
    if (!s.trace.empty()) return replay(net, s);
    std::vector<FlitEvent> watched;
    CycleConfig config = cycle_config(s);
    if (!s.watch.empty()) config.watch = {s.watch, [&](const FlitEvent& e) { watched.push_back(e); }};
#ifdef FABRIC_APPS_MPI
    if (fabric_apps::ranks() > 1 && s.sweep.empty()) {
        dist::PartitionedCycle<Net, NamedSwitch> sim(net, std::move(config), session_slot()->comm(), policy);
        return run(sim, s, pattern, net.topology(), watched);
    }
#else
    (void)policy;
#endif
    CycleSimulator<Net, NamedSwitch> sim(net, std::move(config));
    return run(sim, s, pattern, net.topology(), watched);
}

}  // namespace fabric_apps::cycle_sim
