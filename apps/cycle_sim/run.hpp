// cycle_sim's run on one fabric, shared by the source files that each instantiate
// the simulators of one topology family (compiled together as one unit, where
// apps/CMakeLists.txt says so, since they share one cycle kernel). The non-template
// parts, the reading of the options and the writing of the results, are in run.cpp.
#pragma once

#include <algorithm>
#include <cmath>
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
#include "../common/kernel_cost.hpp"
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
/// The cost of the run the options describe on a network of `base`'s size and mean route
/// (its cycles and load from the options: every load and seed of a sweep), added to `cost`,
/// at the stage-list kernel's figures where that kernel runs it (`staged`), else the wake kernel's.
void add_runs(Cost& cost, const RunSettings& s, KernelRun base, bool staged = false);
/// The memory a run at the options' largest load is estimated to take (cycle::expected_memory), added to `cost`.
void add_run_memory(Cost& cost, const cycle::MemoryNeed& need, const RunSettings& s, double terminals);
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

/// The instructions a unit of the deadlock check takes (callgrind): a dependency named
/// by a policy's turns, or a hop of a route when it walks every pair's routes.
struct CheckCost {
    static constexpr double per_turn = 150;
    static constexpr double per_route_hop = 100;
};

/// The deadlock check of `net`'s routing, as check_deadlock_free makes it, added to `cost`:
/// none for a routing deadlock free by construction, the rings for a dimension-separable
/// one, the turns the policy names, or else every pair's routes (their hops sampled).
template <class Net>
void add_deadlock_check(Cost& cost, const Net& net) {
    using T = typename Net::topology_type;
    using R = typename Net::routing_type;
    const T& t = net.topology();
    const R& routing = net.routing();
    const auto routers = static_cast<double>(t.node_count());
    if constexpr (detail::deadlock_free_by_construction<R>()) {
        return;
    } else if constexpr (detail::checks_ring_by_ring<T, R>()) {
        double hops = 0;  // each dimension's ring: k^2 pairs of k/2 hops at most
        for (std::size_t d = 0; d < T::rank; ++d) hops += std::pow(static_cast<double>(t.extent(d)), 3) / 2;
        cost.add("deadlock check: ring hops", hops, CheckCost::per_route_hop);
    } else if constexpr (requires { routing.for_each_turn(t, [](const Hop&, const Hop&) {}); }) {
        cost.add("deadlock check: turns", routers * T::ports_per_node * T::ports_per_node * max_virtual_channels_v<T>,
                 CheckCost::per_turn);
    } else {
        // Every pair's every route: its hops, sampled over 64 pairs.
        Random rng(7);
        double hops = 0;
        const auto n = static_cast<std::uint64_t>(t.node_count());
        for (int i = 0; i < 64; ++i)
            routing.for_each_route(t, NodeId{static_cast<std::uint32_t>(rng.below(n))},
                                   NodeId{static_cast<std::uint32_t>(rng.below(n))},
                                   [&](std::span<const Hop> route, double) { hops += static_cast<double>(route.size()); });
        cost.add("deadlock check: route hops", routers * routers * hops / 64, CheckCost::per_route_hop);
    }
}

/// The run's network as the kernel's cost counts it: routers, terminals, channels and the
/// mean route of the pattern's packets under the routing.
template <class Net>
KernelRun kernel_run(const Net& net, const NamedPattern& pattern, const RunSettings& s) {
    KernelRun k;
    k.routers = static_cast<double>(net.topology().node_count());
    k.terminals = static_cast<double>(pattern.task_count());
    k.channels = network_channels(net.topology());
    k.hops = mean_route(net.topology(), net.routing(), pattern, s.seeds.empty() ? 1 : s.seeds.front());
    k.max_hops = static_cast<double>(net.routing().max_hops(net.topology()));
    return k;
}

/// Before anything runs: the time the run's loads take and the deadlock check's (when
/// `checked`), and the memory its largest load takes, each refused past its limit (or,
/// under --estimate, printed in place of the run). `prior`: set-up already checked (a
/// graph's layering), its figures shown again.
template <class Net, class Sim>
void estimate(const Net& net, const Sim& sim, const RunSettings& s, const NamedPattern& pattern, bool checked,
              Cost cost) {
    if (checked) add_deadlock_check(cost, net);
    bool staged = false;
    if constexpr (requires { sim.staged(); }) staged = sim.staged();
    add_runs(cost, s, kernel_run(net, pattern, s), staged);
    if constexpr (requires { sim.memory_need(); })
        add_run_memory(cost, sim.memory_need(), s, static_cast<double>(pattern.task_count()));
    fabric_apps::check(cost);
}

/// What replaying `trace` (in packets of at most `most` flits) costs: each message's flits
/// over its own route (the routing's expected hops for its pair), and the cycles until
/// the last delivery, no fewer than the last message's cycle, the flits the busiest
/// terminal sends or receives (a flit a cycle) and the longest message; its memory, the
/// trace's records and their latencies.
template <class Net>
Cost trace_cost(const Net& net, const Trace& trace, std::uint32_t most) {
    const auto& t = net.topology();
    const std::size_t per = std::max<std::size_t>(1, terminals_per_node(t));
    std::vector<double> sent(terminal_count(t), 0), received(terminal_count(t), 0);
    double moves = 0, packets = 0, longest = 0;
    for (const TraceMessage& m : trace.messages) {
        double hops = 0;
        const NodeId a{static_cast<std::uint32_t>(m.source / per)}, b{static_cast<std::uint32_t>(m.destination / per)};
        if (a != b) net.routing().for_each_hop(t, a, b, [&](NodeId, PortId, double w) { hops += w; });
        moves += m.flits * (hops + 1);
        packets += std::ceil(static_cast<double>(m.flits) / most);
        sent[m.source] += m.flits;
        received[m.destination] += m.flits;
        longest = std::max(longest, m.flits + 8 * (hops + 1));
    }
    double cycles = (trace.messages.empty() ? 0.0 : static_cast<double>(trace.messages.back().cycle)) + longest;
    for (std::size_t i = 0; i < sent.size(); ++i) cycles = std::max({cycles, sent[i], received[i]});
    Cost cost;
    cost.add("trace: flit moves", moves, KernelCost::per_flit_move);
    cost.add("trace: packets", packets, KernelCost::per_packet);
    cost.add("trace: router-cycles", cycles * static_cast<double>(t.node_count()), KernelCost::per_router_cycle);
    cost.add("trace: set-up", 1, KernelCost::per_run);
    cost.need("trace: messages, their packets' watch and latencies",
              static_cast<double>(trace.messages.size()) * 96 + packets * 16);
    return cost;
}

/// --trace FILE: the trace's messages replayed (sim/trace_file.hpp), each split into
/// packets of at most --packet flits; per message its latency, as CSV, then the summary.
template <class Net>
int replay(const Net& net, const RunSettings& s, OutputFile& file) {
    // (A trace gives the load: the options of a synthetic load are refused with --trace as the options are read.)
    detail::require(fabric_apps::ranks() == 1, "trace: a trace is replayed on one rank (run it without mpirun)");
    const std::uint32_t most = fabric_apps::parse_number<std::uint32_t>(s.packet, "packet (with --trace: the largest "
                                                                        "packet a message is split into, N flits)");
    const Trace trace = read_trace(s.trace, s.flit_bytes, fabric_apps::input_limit_bytes(), fabric_apps::raise_input_limit);
    const auto classes = static_cast<std::uint32_t>(s.kernel.class_priority.size());
    trace.check(terminal_count(net.topology()), std::max<std::uint32_t>(1, classes));
    RunSettings loads = s;  // the classes' loads are the trace's: none to give
    loads.class_rates.assign(classes, 0.0);
    CycleConfig config = trace_settings(cycle_config(loads), trace, most);
    check(trace_cost(net, trace, most));
    MessageLatencies each(trace);
    CycleSimulator<Net, NamedSwitch> sim(net, each.watching(std::move(config)));
    const CycleResult r = sim.run_trace(trace.messages);
    // Every message is delivered or counted lost (a run that stopped short of delivering one says why:
    // a deadlock, or the memory limit); the lost marker is never written as a number.
    std::uint64_t lost = 0;
    for (const std::uint64_t l : each.latencies()) lost += l == MessageLatencies::lost;
    const std::string stopped = r.deadlock ? "deadlocked"
                                : r.source_limit_reached ? "the source queues reached the memory limit (--memory-limit)"
                                : !r.drained ? "the drain limit" : "";
    std::ostream& out = file.stream();
    if (s.format == "json") {
        nlohmann::json j = experiment::to_json(r);
        // A trace gives no offered load and no window: loads and saturation are a synthetic run's figures.
        for (const char* key : {"offered", "accepted", "refused", "saturated", "window_start", "window_cycles",
                                "sample_periods", "sampling_converged", "flits_created_in_window",
                                "flits_ejected_in_window", "flits_refused_in_window"})
            j.erase(key);
        for (auto& c : j["classes"])
            for (const char* key : {"offered", "accepted", "refused"}) c.erase(key);
        j["units"].erase("offered");
        j["units"].erase("accepted");
        j["units"].erase("refused");
        j["units"].erase("window_start");
        j["units"].erase("window_cycles");
        j["messages"] = trace.messages.size();
        j["messages_delivered"] = trace.messages.size() - lost;
        j["messages_lost"] = lost;
        j["stopped"] = stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(stopped);
        nlohmann::json latencies = nlohmann::json::array();
        for (const std::uint64_t l : each.latencies())
            latencies.push_back(l == MessageLatencies::lost ? nlohmann::json(nullptr) : nlohmann::json(l));
        j["message_latencies"] = std::move(latencies);
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
        const auto delivered = static_cast<unsigned long long>(trace.messages.size() - lost);
        if (delivered == 0)
            file.printf("# 0 messages delivered, %llu lost: no latency to report; packets of at most %u flits\n",
                        static_cast<unsigned long long>(lost), most);
        else
            file.printf("# %llu messages delivered, %llu lost; latency mean %.2f p50 %llu p99 %llu max %llu cycles "
                        "(creation to the last tail); packets of at most %u flits; last delivery at cycle %llu\n",
                        delivered, static_cast<unsigned long long>(lost), r.message_latency.mean,
                        static_cast<unsigned long long>(r.message_latency.p50),
                        static_cast<unsigned long long>(r.message_latency.p99),
                        static_cast<unsigned long long>(r.message_latency.max), most,
                        static_cast<unsigned long long>(r.cycles));
        if (!stopped.empty())
            file.printf("# the run stopped at cycle %llu before every message was delivered: %s\n",
                        static_cast<unsigned long long>(r.cycles), stopped.c_str());
        if (r.deadlock) out << r.deadlock->describe() << '\n';
    }
    return stopped.empty() ? 0 : 3;
}

/// One fabric's simulator with the tool's run-time allocator, run as the options say:
/// under mpirun, a sweep's loads are dealt over the ranks and one run is partitioned,
/// its routers dealt to the ranks by `policy` (contiguous slabs, or a family's groups).
/// `net` is built unchecked (allow_deadlock), so that the run is estimated before its
/// deadlock check, which routes every pair of routers; `checked`: the check is made then.
template <class Net, class Policy = Slabs>
int simulate_on(const Net& net, const RunSettings& s, const NamedPattern& pattern, Outputs& out,
                const Policy& policy = {}, bool checked = true, const Cost& prior = {}) {
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
    auto go = [&](auto& sim) {
        estimate(net, sim, s, pattern, checked, prior);
        if (checked) check_deadlock_free(net.topology(), net.routing());
        return run(sim, s, pattern, net.topology(), watched, out);
    };
#ifdef FABRIC_APPS_MPI
    if (fabric_apps::ranks() > 1 && s.sweep.empty()) {
        fabric_apps::checkpoint();  // the ranks agree before they first wait on each other
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
