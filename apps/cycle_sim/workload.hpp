// cycle_sim --workload FILE: a workload whose messages wait for one another, run by
// the dependency engine (CycleSimulator::run_workload) on the fabric the other
// options describe: a CSV trace with id, after and delay columns (docs/traces.md),
// LogGOPSim's GOAL (workload/goal.hpp) or a Chakra execution trace in JSON
// (workload/chakra_json.hpp: FILE name.0.json with its siblings name.<rank>.json,
// one a rank), told apart by extension, else by content. Rank r runs
// on terminal r. Prints each rank's finish cycle and the whole workload's; exit
// status 3, with which ranks wait for what, when it cannot finish.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <sstream>
#include <string_view>

#include <fabric/experiment/json.hpp>
#include <fabric/fabric.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/workload/chakra_json.hpp>
#include <fabric/workload/goal.hpp>

#include "../common/files.hpp"
#include "../common/kernel_cost.hpp"
#include "../common/limits.hpp"
#include "../common/output.hpp"
#include "../cycle_sim_settings.hpp"

namespace fabric_apps::cycle_sim {
using namespace fabric;

CycleConfig cycle_config(const RunSettings& s);

/// Memory a workload node takes, made and held (the graph's tables and the builder's, its edges, the reader's op):
/// 256 Chakra traces of 100 all-to-alls each, 6.58 million nodes, held 2.0 GB at their peak, about 300 bytes a node.
inline constexpr double workload_node_bytes = 320;

/// The workload file's kind: "goal", "chakra" or "csv", by extension, else by its first word.
inline std::string workload_kind(const std::string& path, std::string_view text) {
    const auto ends = [&](std::string_view e) {
        return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
    };
    if (ends(".goal")) return "goal";
    if (ends(".json")) return "chakra";
    if (ends(".csv")) return "csv";
    workload::TextLines lines(text, path);
    std::string_view line;
    while (lines.next(line)) {
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos) continue;
        line.remove_prefix(first);
        if (line.front() == '{' || line.front() == '[') return "chakra";
        if (line.substr(0, 9) == "num_ranks") return "goal";
        return "csv";
    }
    return "csv";
}

template <class Net>
int run_workload_file(const Net& net, const RunSettings& s, OutputFile& file) {
    fabric::detail::require(s.sweep.empty() && s.kernel.watch.packets.empty() && s.kernel.request_reply.reply_flits == 0 &&
                                s.class_rates.empty() && s.trace.empty(),
                            "workload: a workload gives the load and its messages are its own: leave out --sweep, "
                            "--watch, --reply-flits, --class-rates and --trace");
    fabric::detail::require(fabric_apps::ranks() == 1, "workload: a workload runs on one rank (run it without mpirun)");
    const auto terminals = static_cast<std::uint32_t>(terminal_count(net.topology()));
    // Read as every input is (apps/common/files.hpp): a regular file, within --input-limit.
    const std::string text = read_input(s.workload, "--workload", "--workload file");
    const std::string kind = workload_kind(s.workload, text);
    workload::ExplicitGraph graph;
    if (kind == "goal") {
        graph = workload::parse_goal(text, s.workload);
    } else if (kind == "chakra") {
        collective::WorkloadAlgorithms chosen;
        chosen.choose(s.collective_algorithms);  // (checked as the option was read)
        workload::ChakraOptions chakra;
        double expanded = 0;  // the collectives' nodes so far: a few lines of a trace can stand for millions
        chakra.expand = [&](const workload::ops::CollectiveCall& call) {
            const collective::CollectiveGraph g = collective::expansion(chosen, call);  // its size, no node made
            expanded += static_cast<double>(g.size());
            fabric_apps::Cost cost = fabric_apps::tool_start();
            cost.need("the collectives' nodes, made and held", expanded * workload_node_bytes);
            try {
                fabric_apps::check_growing(cost);
            } catch (const config_error& e) {  // name the collective that takes the run past its limit
                detail::rethrow_at(call.where, e);
            }
            return workload::to_explicit(g, "collective");
        };
        graph = workload::read_chakra_json(s.workload, chakra, input_limit_bytes());
    } else {
        std::istringstream in(text);
        graph = parse_trace(in, s.workload, s.flit_bytes).graph(terminals, s.flit_bytes);
    }
    fabric::detail::require(graph.ranks() <= terminals, s.workload, ": the workload's ", graph.ranks(), " ranks need ",
                            graph.ranks(), " terminals (rank r runs on terminal r); this network has ", terminals);
    // What the run costs, before it starts (--work-limit, --memory-limit, --estimate): its flits moved, about
    // four moves a flit as collective_sim counts them, priced as the wake kernel that runs workloads.
    const auto [messages, flits] = fabric_apps::messages_and_flits(graph, s.flit_bytes);
    fabric_apps::Cost cost = fabric_apps::tool_start();
    cost.add("flit moves of the workload's messages", 4 * flits, fabric_apps::KernelCost::per_flit_move);
    cost.add("messages of the workload", messages, fabric_apps::KernelCost::per_packet);
    cost.need("the workload's nodes", static_cast<double>(graph.size()) * workload_node_bytes);
    fabric_apps::check(cost);
    RunSettings loads = s;  // the classes' loads are the workload's: none to give
    loads.class_rates.assign(s.kernel.class_priority.size(), 0.0);
    CycleSimulator<Net, NamedSwitch> sim(net, cycle_config(loads));
    WorkloadOptions opt;
    opt.endpoints = workload::Endpoints::loggp(s.overhead, s.gap);
    opt.bytes_per_flit = s.flit_bytes;
    const WorkloadResult r = sim.run_workload(graph, opt);
    std::ostream& out = file.stream();
    if (s.format == "json") {
        nlohmann::json j = experiment::to_json(r.network);
        nlohmann::json w;
        w["file"] = s.workload;
        w["kind"] = kind;
        w["finished"] = r.finished;
        w["finish_cycle"] = r.finish_cycle;
        w["ranks"] = r.ranks;
        w["nodes"] = r.total;
        w["completed"] = r.completed;
        nlohmann::json waits = nlohmann::json::array();
        for (const auto& x : r.waiting) waits.push_back({{"rank", x.rank}, {"node", x.node}, {"what", x.what}});
        w["waiting"] = waits;
        j["workload"] = w;
        write_json(out, j);
    } else {
        write_csv_provenance(out);
        out << "rank,finish_cycle\n";
        for (std::size_t i = 0; i < r.ranks.size(); ++i) out << i << ',' << r.ranks[i] << '\n';
        file.printf("# workload %s (%s): %llu nodes on %zu ranks, %s at cycle %llu; network latency mean %.2f max %llu "
                    "cycles over %llu packets\n",
                    s.workload.c_str(), kind.c_str(), static_cast<unsigned long long>(r.total), r.ranks.size(),
                    r.finished ? "finished" : "stopped", static_cast<unsigned long long>(r.finish_cycle),
                    r.network.latency.mean, static_cast<unsigned long long>(r.network.latency.max),
                    static_cast<unsigned long long>(r.network.packets_delivered));
        if (!r.finished)
            for (const auto& x : r.waiting) out << "# rank " << x.rank << ": " << x.what << '\n';
        if (r.network.deadlock) out << "# " << r.network.deadlock->describe() << '\n';
    }
    if (r.finished) return 0;
    std::fprintf(stderr, "%s\n", r.report().c_str());
    return 3;
}

}  // namespace fabric_apps::cycle_sim
