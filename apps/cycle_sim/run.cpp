// cycle_sim's parts that do not depend on the fabric: options to a CycleConfig,
// packet sizes and loads, the estimates made before a run, and the results and
// the per-node and watch files written after it. Compiled once.
#include "run.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fabric/experiment/json.hpp>

#include "../common/numbers.hpp"
#include "../common/progress.hpp"

namespace fabric_apps::cycle_sim {
using namespace fabric;

PacketSizes packet_sizes(const std::string& s) {
    using fabric_apps::parse_number;
    const auto parts = fabric_apps::parse_numbers<double>(s, ':', "packet");  // shape first; each part again below
    detail::require(parts.size() == 1 || parts.size() == 3,
                    "packet: give N, or S:L:P (S flits with probability P, else L); got '", s, "'");
    if (parts.size() == 1) return PacketSizes::fixed(parse_number<std::uint32_t>(s, "packet"));
    const auto a = s.find(':'), b = s.rfind(':');
    return PacketSizes::bimodal(parse_number<std::uint32_t>(std::string_view(s).substr(0, a), "packet S"),
                                parse_number<std::uint32_t>(std::string_view(s).substr(a + 1, b - a - 1), "packet L"),
                                parse_number<double>(std::string_view(s).substr(b + 1), "packet P"));
}

Credit credit_flow(const RunSettings& s) {
    Credit flow;
    flow.buffer_flits_per_vc = s.vc_buf;
    flow.credit_delay = s.credit_delay;
    return flow;
}

CycleConfig cycle_config(const RunSettings& s) {
    detail::require(s.router_delay.size() == 4, "router_delay: four cycle counts (routing, VC allocation, switch "
                    "allocation, switch traversal); got ", s.router_delay.size());
    detail::require(s.terminal_latency.size() == 2, "terminal_latency: two cycle counts (injection, ejection); got ",
                    s.terminal_latency.size());
    detail::require(!s.seeds.empty(), "seeds: at least one");
    detail::require(s.class_rates.size() == s.kernel.class_priority.size(), "class_rates: one load per traffic class; "
                    "--class-priority names ", s.kernel.class_priority.size(), " classes, --class-rates ",
                    s.class_rates.size());
    CycleConfig c = s.kernel;  // what the options set as it is; the rest below
    c.seed = s.seeds.front();
    c.pipeline = {s.router_delay[0], s.router_delay[1], s.router_delay[2], s.router_delay[3]};
    c.switching = s.switching == "vct" ? Switching::virtual_cut_through : Switching::wormhole;
    c.vc_choice = s.vc_choice == "any" ? VcChoice::any : VcChoice::route;
    c.memory_limit_mb = s.memory_limit;
    c.injection_latency = s.terminal_latency[0];
    c.ejection_latency = s.terminal_latency[1];
    c.node_statistics = !s.node_stats.empty();
    c.class_latency.assign(s.class_latency.begin(), s.class_latency.end());
    if (!s.burst.empty()) {
        const auto ab = fabric_apps::parse_numbers<double>(s.burst, ':', "burst");
        detail::require(ab.size() == 2, "burst: ALPHA:BETA (off -> on and on -> off probabilities a cycle); got '",
                        s.burst, "'");
        c.on_off = {ab[0], ab[1]};
        detail::require(c.on_off.enabled(), "burst: ALPHA must be positive (leave --burst out for Bernoulli)");
    }
    c.on_progress = fabric_apps::terminal_progress();
    return c;
}

std::vector<double> sweep_loads(const RunSettings& s) {
    // (--channel-stats, --node-stats, --watch and --class-priority are refused with --sweep as the options are read.)
    const auto range = fabric_apps::parse_numbers<double>(s.sweep, ':', "sweep");
    detail::require(range.size() == 3, "sweep: FROM:TO:STEP; got '", s.sweep, "'");
    return experiment::loads(range[0], range[1], range[2]);
}

void add_runs(Cost& cost, const RunSettings& s, KernelRun base, bool staged) {
    const PacketSizes sizes = packet_sizes(s.packet);
    const auto& k = s.kernel;
    // The cycles a run takes: its window (a converging sampler's: its warm-up periods, 2 when it judges them, and
    // the 3 of convergence and one more, at most max_samples), and the drain, until the last measured packet is in:
    // twice the longest route's pipelines and links at zero load, and a packet's flits.
    const double per_hop = s.router_delay[0] + s.router_delay[1] + s.router_delay[2] + s.router_delay[3] +
                           static_cast<double>(k.link_latency);
    const double periods =
        std::min<double>(k.sampling.max_samples, std::max<double>(2, k.sampling.warmup_periods) + 4);
    const double window = k.sampling.enabled() ? static_cast<double>(k.sampling.sample_period) * periods
                                               : static_cast<double>(k.warmup) + static_cast<double>(k.measure);
    base.cycles = window + 2 * (base.max_hops + 1) * per_hop + sizes.max();
    base.packet_flits = sizes.mean();
    // Request-reply: every request brings a reply of reply_flits.
    const double replies = k.request_reply.enabled() ? 1 + k.request_reply.reply_flits / sizes.mean() : 1;
    if (!s.sweep.empty()) {  // every load, each once a seed (the curve may end before: this is at most)
        KernelCounts runs;
        for (const double rate : sweep_loads(s)) {
            base.flits_per_cycle = rate * replies * base.terminals;
            runs.add(base, static_cast<double>(s.seeds.size()));
        }
        staged ? runs.into<StageKernelCost>(cost, "sweep runs") : runs.into(cost, "sweep runs");
        return;
    }
    double rate = s.rate;
    if (!s.class_rates.empty()) {
        rate = 0;
        for (const double r : s.class_rates) rate += r;
    }
    base.flits_per_cycle = rate * replies * base.terminals;
    KernelCounts run;
    run.add(base);
    staged ? run.into<StageKernelCost>(cost, "run") : run.into(cost, "run");
}

void add_run_memory(Cost& cost, const cycle::MemoryNeed& need, const RunSettings& s, double terminals) {
    const PacketSizes sizes = packet_sizes(s.packet);
    double rate = s.rate;
    if (!s.class_rates.empty()) {
        rate = 0;
        for (const double r : s.class_rates) rate += r;
    }
    if (!s.sweep.empty()) rate = sweep_loads(s).back();
    const double per_hop = s.router_delay[0] + s.router_delay[1] + s.router_delay[2] + s.router_delay[3] +
                           static_cast<double>(s.kernel.link_latency);
    const double replies = s.kernel.request_reply.reply_flits;  // a reply's flits per request
    cycle::OfferedTraffic load;
    load.packets_per_cycle = rate * terminals / sizes.mean() * (replies > 0 ? 2 : 1);
    load.zero_load_cycles = static_cast<double>(need.max_hops + 1) * per_hop + sizes.max() + replies +
                            s.terminal_latency[0] + s.terminal_latency[1];
    const std::uint64_t bytes = cycle::expected_memory(need, load);
    cost.need("buffers", static_cast<double>(need.buffers));
    cost.need("packets in flight at the offered load", static_cast<double>(bytes - need.buffers));
}

std::string saturation_reason(const CycleResult& r) {
    if (r.window_cycles == 0 && r.sample_periods > 0)
        return "unstable in warm-up: the converging sampler stopped the run before it opened a measurement window";
    if (r.source_limit_reached) return "the source queues reached the memory limit, run stopped";
    if (r.deadlock) return "deadlocked";
    if (!r.drained) return "not drained: measured packets were still in the network when the run stopped";
    // Accepted below offered: saturation only past what the window's counts vary by
    // (3 standard deviations of the flits counted) and what the network holds at its
    // latency (offered flits a cycle times the mean network latency, from leaving the
    // source queue: a backlog at the sources is what saturation is, not an allowance),
    // which a window leaves in flight at its end without any backlog.
    const auto offered = static_cast<double>(r.flits_created_in_window + r.flits_refused_in_window);
    const auto accepted = static_cast<double>(r.flits_ejected_in_window);
    const double deficit = offered - accepted;
    const double window = std::max<double>(1, static_cast<double>(r.window_cycles));
    const double holds = offered / window * (r.measured_delivered ? r.network_latency.mean : 0.0);
    if (deficit <= 0.05 * offered || deficit <= 3 * std::sqrt(2 * std::max(offered, 1.0)) + holds) return {};
    char why[160];
    std::snprintf(why, sizeof why, "accepted %.4g of %.4g offered, %.0f flits short in the window, beyond the %.0f "
                  "its noise and latency allow", r.accepted, r.offered, deficit, 3 * std::sqrt(2 * offered) + holds);
    return why;
}

Outputs open_outputs(const RunSettings& s, OutputFile& result) {
    auto open = [](const std::string& path, const char* option) {
        return path.empty() || !fabric_apps::root_rank() ? OutputFile() : OutputFile(path, option);
    };
    const bool watching = !s.kernel.watch.packets.empty();
    detail::require(!watching || s.format == "text" || s.watch_file != "-" || s.output != "-", "watch_file: with "
                    "--format ", s.format, " the standard output carries the result; give the trace a file "
                    "(--watch-file FILE)");
    return {result, open(s.channel_stats, "--channel-stats"), open(s.node_stats, "--node-stats"),
            open(watching ? s.watch_file : "", "--watch-file")};
}

/// BookSim's per-node statistics: each terminal's rates in the window (flits a cycle)
/// and its measured packets' mean latency as source and as destination (empty when it
/// had none), as CSV.
void write_node_stats(OutputFile& file, const CycleResult& r) {
    std::ostream& out = file.stream();
    const auto per = [](std::uint64_t x, std::uint64_t n) { return n ? static_cast<double>(x) / static_cast<double>(n) : 0.0; };
    const auto mean = [](std::uint64_t sum, std::uint64_t n) {
        return n ? std::to_string(static_cast<double>(sum) / static_cast<double>(n)) : std::string();
    };
    write_csv_provenance(out);
    out << "node,offered,injected,accepted,packets_sent,latency_sent,packets_received,latency_received\n";
    for (std::size_t n = 0; n < r.nodes.size(); ++n) {
        const NodeCounters& c = r.nodes[n];
        out << n << ',' << per(c.flits_offered, r.window_cycles) << ',' << per(c.flits_injected, r.window_cycles) << ','
            << per(c.flits_accepted, r.window_cycles) << ',' << c.packets_sent << ',' << mean(c.latency_sent, c.packets_sent)
            << ',' << c.packets_received << ',' << mean(c.latency_received, c.packets_received) << '\n';
    }
    file.commit();
}

/// The watch trace, in cycle order (a flit's own events already are), as CSV.
void write_watch(OutputFile& file, std::vector<FlitEvent> events) {
    std::stable_sort(events.begin(), events.end(), [](const FlitEvent& a, const FlitEvent& b) { return a.cycle < b.cycle; });
    std::ostream& out = file.stream();
    static constexpr const char* kinds[] = {"created", "switched", "arrived", "ejected"};
    write_csv_provenance(out);
    out << "cycle,packet,flit,event,node,port,vc\n";
    for (const FlitEvent& e : events)
        out << e.cycle << ',' << e.packet << ',' << e.flit << ',' << kinds[static_cast<int>(e.kind)] << ',' << e.node
            << ',' << e.port << ',' << e.vc << '\n';
    file.commit();
}

namespace {

/// A JSON object's scalars as one CSV row under a header of their keys (nested lists and objects left out).
void write_csv_row(std::ostream& out, const nlohmann::json& j) {
    std::vector<std::string> keys, cells;
    for (const auto& [key, value] : j.items()) {
        if (value.is_structured()) continue;
        keys.push_back(key);
        cells.push_back(value.is_null() ? "" : value.is_string() ? value.get<std::string>() : value.dump());
    }
    for (auto* line : {&keys, &cells}) {
        for (std::size_t i = 0; i < line->size(); ++i) {
            out << (i ? "," : "");
            experiment::write_csv_value(out, std::string_view((*line)[i]));
        }
        out << '\n';
    }
}

}  // namespace

void write_run(const RunSettings& s, const CycleResult& r, OutputFile& out) {
    const std::string reason = saturation_reason(r);
    // A run stopped before its measurement window opened (the converging sampler found it unstable in
    // warm-up, or the memory limit stopped it) measured no load: its loads are left out, not written 0.
    const bool windowless = r.window_cycles == 0;
    if (s.format != "text") {
        nlohmann::json j = experiment::to_json(r);
        j["saturated"] = !reason.empty();  // only when the run shows it (saturation_reason)
        j["saturated_reason"] = reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(reason);
        if (windowless)
            for (const char* key : {"offered", "accepted", "refused"}) j[key] = nullptr;
        if (s.format == "json") {
            write_json(out.stream(), j);
        } else {
            write_csv_provenance(out.stream());
            write_csv_row(out.stream(), j);
        }
        return;
    }
    const char* per = r.terminals_per_node > 1 ? "terminal" : "node";
    const std::string verdict = reason.empty() ? "not saturated" : "saturated: " + reason;
    if (windowless)
        out.printf("offered %.4f flits/cycle/%s asked; no measurement window opened in %llu cycles: no load, latency "
                   "or hops measured; %s\n", s.class_rates.empty() ? s.rate : 0.0, per,
                   static_cast<unsigned long long>(r.cycles), verdict.c_str());
    else if (r.measured_delivered == 0)
        out.printf("offered %.4f accepted %.4f flits/cycle/%s; no measured packet delivered (%llu created in the "
                   "window): no latency or hops to report; %s\n", r.offered, r.accepted, per,
                   static_cast<unsigned long long>(r.measured_packets), verdict.c_str());
    else
        out.printf("offered %.4f accepted %.4f flits/cycle/%s; latency mean %.2f p50 %llu p99 %llu cycles; hops %.2f; "
                   "%s\n", r.offered, r.accepted, per, r.latency.mean, static_cast<unsigned long long>(r.latency.p50),
                   static_cast<unsigned long long>(r.latency.p99), r.hops_mean, verdict.c_str());
    if (r.refused > 0)
        out.printf("refused %.4f flits/cycle/%s: messages drawn at terminals whose source queues held %u packets "
                   "(--source-queue)\n", r.refused, per, s.kernel.source_queue_packets);
    if (s.kernel.sampling.enabled() && !windowless)
        out.printf("window: %llu cycles from cycle %llu, chosen in %u sample periods (%s)\n",
                   static_cast<unsigned long long>(r.window_cycles), static_cast<unsigned long long>(r.window_start),
                   r.sample_periods, r.sampling_converged ? "converged" : r.saturated ? "unstable" : "not converged");
    if (s.kernel.request_reply.enabled()) {
        const std::uint64_t transactions = r.transaction_latency.count();
        if (transactions == 0)
            out.printf("transactions (request to reply): none measured completed; %llu replies delivered\n",
                       static_cast<unsigned long long>(r.replies_delivered));
        else
            out.printf("transactions (request to reply): latency mean %.2f p99 %llu cycles; %llu replies delivered\n",
                       r.transaction_latency.mean, static_cast<unsigned long long>(r.transaction_latency.p99),
                       static_cast<unsigned long long>(r.replies_delivered));
    }
    for (std::size_t c = 0; c < r.classes.size(); ++c) {
        const ClassResult& k = r.classes[c];
        if (k.measured_delivered == 0)
            out.printf("class %zu (priority %u): offered %.4f accepted %.4f; no measured packet delivered\n", c,
                       s.kernel.class_priority[c], k.offered, k.accepted);
        else
            out.printf("class %zu (priority %u): offered %.4f accepted %.4f; latency mean %.2f p99 %llu cycles\n", c,
                       s.kernel.class_priority[c], k.offered, k.accepted, k.latency.mean,
                       static_cast<unsigned long long>(k.latency.p99));
    }
    if (r.deadlock) out.printf("%s\n", r.deadlock->describe().c_str());
}

void write_sweep(const RunSettings& s, std::span<const experiment::LoadPoint> curve, OutputFile& out) {
    // With request-reply traffic every request of the load asked brings a reply: the
    // offered load is both, as one run's figures (and the accepted column) count it.
    std::vector<experiment::LoadPoint> points(curve.begin(), curve.end());
    if (s.kernel.request_reply.enabled()) {
        const double factor = 1 + s.kernel.request_reply.reply_flits / packet_sizes(s.packet).mean();
        for (auto& p : points) p.offered *= factor;
    }
    if (s.format == "json")
        write_json(out.stream(), experiment::to_json(std::span<const experiment::LoadPoint>(points)));
    else {  // text and csv: the curve is a table
        write_csv_provenance(out.stream());
        experiment::write_csv(out.stream(), points);
    }
    end_progress_line();  // the reports start their own lines (results written to a file leave it open)
    for (const auto& p : points)
        if (p.deadlock) std::fprintf(stderr, "fabric: at offered %g: %s\n", p.offered, p.deadlock->describe().c_str());
}

}  // namespace fabric_apps::cycle_sim
