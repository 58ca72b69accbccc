// cycle_sim's run on one fabric, shared by the source files that each instantiate
// the simulators of one topology family (compiled together as one unit, where
// apps/CMakeLists.txt says so, since they share one cycle kernel). The non-template
// parts, the reading of the options and the writing of the results, are in run.cpp.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fabric/dist/results.hpp>
#include <fabric/experiment/json.hpp>
#include <fabric/experiment/sweep.hpp>
#include <fabric/fabric.hpp>
#include <fabric/sim/trace_file.hpp>

#include "../common/provenance.hpp"

#include "../common/dist.hpp"
#ifdef FABRIC_APPS_MPI
#include <fabric/dist/partitioned.hpp>
#endif
#include "../common/limits.hpp"
#include "../common/output.hpp"
#include "../common/switch_choice.hpp"
#include "../cycle_sim_settings.hpp"
#include "families.hpp"
#include "workload.hpp"

namespace fabric_apps::cycle_sim {
using namespace fabric;

PacketSizes packet_sizes(const std::string& s);
/// The options' credit flow control (--vc-buf, --credit-delay).
Credit credit_flow(const RunSettings& s);
/// The options' CycleConfig (every field but the watch sink, which needs the run's trace).
CycleConfig cycle_config(const RunSettings& s);
/// The loads of --sweep FROM:TO:STEP, each point's work and memory checked before the first runs.
std::vector<double> sweep_loads(const RunSettings& s);
/// Node-cycles of one run at most: the window, then the drain the kernel allows by default.
double node_cycles_per_run(const RunSettings& s, double nodes);
/// The memory a run at `rate` is estimated to take (cycle::estimate_peak), refused past --memory-limit.
void check_run_memory(const cycle::MemoryNeed& need, const RunSettings& s, double rate, double terminals);
/// Whether run `r` shows saturation, and why ("" when it does not): see run.cpp.
std::string saturation_reason(const CycleResult& r);

void write_node_stats(OutputFile& out, const CycleResult& r);
void write_watch(OutputFile& out, std::vector<FlitEvent> events);
void write_run(const RunSettings& s, const CycleResult& r, OutputFile& out);
void write_sweep(const RunSettings& s, std::span<const experiment::LoadPoint> curve, OutputFile& out);

/// BookSim's per-channel statistics: every link's flits a cycle in the window, as CSV.
template <class Topo>
void write_channel_stats(OutputFile& file, const Topo& topo, const CycleResult& r) {
    std::ostream& out = file.stream();
    write_csv_provenance(out);
    out << "node,port,neighbour,flits_per_cycle\n";
    for (std::uint32_t n = 0; n < topo.node_count(); ++n)
        for (std::uint32_t p = 0; p < r.ports_per_node; ++p)
            if (const NodeId to = topo.neighbour(NodeId{n}, PortId{p}); to.valid())
                out << n << ',' << p << ',' << to.value << ',' << r.channel_utilisation[n * r.ports_per_node + p] << '\n';
    file.commit();
}

template <class Sim, class Topo>
int run(Sim& sim, const RunSettings& s, const NamedPattern& pattern, const Topo& topo,
        const std::vector<FlitEvent>& watched, Outputs& out) {
    const PacketSizes sizes = packet_sizes(s.packet);
    if (!s.sweep.empty()) {
        const auto rates = sweep_loads(s);
        experiment::SweepSettings settings;
        settings.seeds = s.seeds;
        settings.saturated = [](const CycleResult& r) { return !saturation_reason(r).empty(); };
        settings.validate();
        // One load point a run of the list (all its seeds); under mpirun dealt over the ranks.
        const auto curve = fabric_apps::run_list(
            rates.size(), [&](std::size_t i) { return experiment::measure_validated(sim, pattern, rates[i], sizes, settings); },
            [&](const experiment::LoadPoint& p) { return settings.stop_at_saturation && p.saturated(); });
        if (!fabric_apps::root_rank()) return 0;
        write_sweep(s, curve, out.result);
        for (const auto& p : curve)
            if (p.deadlocked_runs > 0) return 3;
        return 0;
    }
    std::vector<OfferedLoad> loads;
    for (const double r : s.class_rates) loads.push_back({r, sizes});
    // Under mpirun the run is partitioned (the routers dealt over the ranks): every rank has its result, rank 0 writes it.
    const CycleResult r = loads.empty() ? sim.run(pattern, s.rate, sizes) : sim.run(pattern, loads);
    if (!fabric_apps::root_rank()) return r.deadlock ? 3 : 0;
    if (!s.channel_stats.empty()) write_channel_stats(out.channels, topo, r);
    if (!s.node_stats.empty()) write_node_stats(out.nodes, r);
    if (!s.kernel.watch.packets.empty()) write_watch(out.watch, watched);
    write_run(s, r, out.result);
    return r.deadlock ? 3 : 0;
}

/// Before anything runs: the time the run's loads take (and the deadlock check's, when
/// `checked`), and the memory its largest load takes, each refused past its limit.
template <class Sim>
void estimate(const Sim& sim, const RunSettings& s, double routers, double terminals, bool checked) {
    // The deadlock check routes every pair of routers: about 8e7 pairs a second measured (a line of 16,384).
    if (checked) fabric_apps::check_work(routers * routers, "router pairs routed by the deadlock check", 5e7);
    double rate = s.rate, runs = 1;
    if (!s.class_rates.empty()) {
        rate = 0;
        for (const double r : s.class_rates) rate += r;
    }
    if (!s.sweep.empty()) {
        const auto rates = sweep_loads(s);
        rate = rates.back();
        runs = static_cast<double>(rates.size() * s.seeds.size());
    }
    fabric_apps::check_work(node_cycles_per_run(s, routers) * runs, "node-cycles", 2e6);
    if constexpr (requires { sim.memory_need(); }) check_run_memory(sim.memory_need(), s, rate, terminals);
}

/// --trace FILE: the trace's messages replayed (sim/trace_file.hpp), each split into
/// packets of at most --packet flits; per message its latency, as CSV, then the summary.
template <class Net>
int replay(const Net& net, const RunSettings& s, OutputFile& file) {
    detail::require(s.sweep.empty() && s.kernel.watch.packets.empty() && s.kernel.request_reply.reply_flits == 0 &&
                        s.class_rates.empty(),
                    "trace: a trace gives the load, its messages are watched and have no replies: leave out --sweep, "
                    "--watch, --reply-flits and --class-rates");
    detail::require(fabric_apps::ranks() == 1, "trace: a trace is replayed on one rank (run it without mpirun)");
    const std::uint32_t most = fabric_apps::parse_number<std::uint32_t>(s.packet, "packet (with --trace: the largest "
                                                                        "packet a message is split into, N flits)");
    const Trace trace = read_trace(s.trace, s.flit_bytes);
    const auto classes = static_cast<std::uint32_t>(s.kernel.class_priority.size());
    trace.check(terminal_count(net.topology()), std::max<std::uint32_t>(1, classes));
    RunSettings loads = s;  // the classes' loads are the trace's: none to give
    loads.class_rates.assign(classes, 0.0);
    CycleConfig config = trace_settings(cycle_config(loads), trace, most);
    fabric_apps::check_work(static_cast<double>(net.topology().node_count()) * static_cast<double>(config.measure) * 4,
                            "node-cycles", 2e6);
    MessageLatencies each(trace);
    CycleSimulator<Net, NamedSwitch> sim(net, each.watching(std::move(config)));
    const CycleResult r = sim.run_trace(trace.messages);
    std::ostream& out = file.stream();
    if (s.format == "json") {
        nlohmann::json j = experiment::to_json(r);
        j["message_latencies"] = each.latencies();
        write_json(out, j);
    } else {
        write_csv_provenance(out);
        out << "message,cycle,source,destination,flits,class,latency\n";
        for (std::size_t i = 0; i < trace.messages.size(); ++i) {
            const TraceMessage& m = trace.messages[i];
            const std::uint64_t l = each.latencies()[i];
            out << i << ',' << m.cycle << ',' << m.source << ',' << m.destination << ',' << m.flits << ','
                << m.traffic_class << ',' << (l == MessageLatencies::lost ? std::string("lost") : std::to_string(l))
                << '\n';
        }
        file.printf("# %llu messages delivered, %llu lost; latency mean %.2f p50 %llu p99 %llu max %llu cycles "
                    "(creation to the last tail); packets of at most %u flits; last delivery at cycle %llu\n",
                    static_cast<unsigned long long>(r.messages_delivered),
                    static_cast<unsigned long long>(r.messages_lost), r.message_latency.mean,
                    static_cast<unsigned long long>(r.message_latency.p50),
                    static_cast<unsigned long long>(r.message_latency.p99),
                    static_cast<unsigned long long>(r.message_latency.max), most,
                    static_cast<unsigned long long>(r.cycles));
        if (r.deadlock) out << r.deadlock->describe() << '\n';
    }
    return r.deadlock ? 3 : 0;
}

/// One fabric's simulator with the tool's run-time allocator, run as the options say:
/// under mpirun, a sweep's loads are dealt over the ranks and one run is partitioned,
/// its routers dealt to the ranks by `policy` (contiguous slabs, or a family's groups).
/// `net` is built unchecked (allow_deadlock), so that the run is estimated before its
/// deadlock check, which routes every pair of routers; `checked`: the check is made then.
template <class Net, class Policy = Slabs>
int simulate_on(const Net& net, const RunSettings& s, const NamedPattern& pattern, Outputs& out,
                const Policy& policy = {}, bool checked = true) {
    NamedSwitch::choose(s.allocator);
    if (!s.trace.empty()) return replay(net, s, out.result);
    if (!s.workload.empty()) return run_workload_file(net, s, out.result);
    std::vector<FlitEvent> watched;
    CycleConfig config = cycle_config(s);
    if (config.injection_queues == 0) {  // one per VC of this fabric, shared by the traffic classes
        const auto classes = static_cast<std::uint32_t>(std::max<std::size_t>(1, config.class_priority.size()));
        config.injection_queues = std::max<std::uint32_t>(
            1, static_cast<std::uint32_t>(max_virtual_channels_v<typename Net::topology_type>) / classes);
    }
    if (!s.kernel.watch.packets.empty()) config.watch.sink = [&](const FlitEvent& e) { watched.push_back(e); };
    const auto routers = static_cast<double>(net.topology().node_count());
    const auto terminals = static_cast<double>(pattern.task_count());
    auto go = [&](auto& sim) {
        estimate(sim, s, routers, terminals, checked);
        if (checked) check_deadlock_free(net.topology(), net.routing());
        return run(sim, s, pattern, net.topology(), watched, out);
    };
#ifdef FABRIC_APPS_MPI
    if (fabric_apps::ranks() > 1 && s.sweep.empty()) {
        dist::PartitionedCycle<Net, NamedSwitch> sim(net, std::move(config), session_slot()->comm(), policy);
        return go(sim);
    }
#else
    (void)policy;
#endif
    CycleSimulator<Net, NamedSwitch> sim(net, std::move(config));
    return go(sim);
}

}  // namespace fabric_apps::cycle_sim
