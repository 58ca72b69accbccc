// cycle_sim's parts that do not depend on the fabric: options to a CycleConfig,
// packet sizes, and the per-node and watch files. Compiled once.
#include "run.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <string_view>

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
    detail::require(s.switching == "wormhole" || s.switching == "vct", "switching: wormhole or vct; got '", s.switching, "'");
    detail::require(!s.seeds.empty(), "seeds: at least one");
    CycleConfig c;
    c.warmup = s.warmup;
    c.measure = s.measure;
    c.watchdog = s.watchdog;
    c.seed = s.seeds.front();
    c.link_latency = s.link_latency;
    c.pipeline = {s.router_delay[0], s.router_delay[1], s.router_delay[2], s.router_delay[3]};
    c.switching = s.switching == "vct" ? Switching::virtual_cut_through : Switching::wormhole;
    c.memory_limit_mb = s.memory_limit;
    c.source_queue_packets = s.source_queue;
    detail::require(s.terminal_latency.size() == 2, "terminal_latency: two cycle counts (injection, ejection); got ",
                    s.terminal_latency.size());
    c.injection_latency = s.terminal_latency[0];
    c.ejection_latency = s.terminal_latency[1];
    c.head_turnaround = s.head_turnaround;
    c.wait_for_tail_credit = s.wait_for_tail_credit;
    c.speculative = s.speculative;
    c.node_statistics = !s.node_stats.empty();
    c.request_reply = {s.reply_flits, s.max_outstanding};
    c.injection_queues = s.injection_queues;
    c.class_priority = s.class_priority;
    detail::require(s.class_rates.size() == s.class_priority.size(), "class_rates: one load per traffic class; "
                    "--class-priority names ", s.class_priority.size(), " classes, --class-rates ", s.class_rates.size());
    if (!s.burst.empty()) {
        const auto ab = fabric_apps::parse_numbers<double>(s.burst, ':', "burst");
        detail::require(ab.size() == 2, "burst: ALPHA:BETA (off -> on and on -> off probabilities a cycle); got '",
                        s.burst, "'");
        c.on_off = {ab[0], ab[1]};
        detail::require(c.on_off.enabled(), "burst: ALPHA must be positive (leave --burst out for Bernoulli)");
    }
    c.sampling.sample_period = s.sample_period;
    c.sampling.warmup_threshold = s.warmup_thres;
    c.sampling.stopping_threshold = s.stopping_thres;
    c.sampling.max_samples = s.max_samples;
    c.sampling.warmup_periods = s.warmup_periods;
    c.sampling.latency_threshold = s.latency_thres;
    c.on_progress = fabric_apps::terminal_progress();
    return c;
}

/// Node-cycles of one run at most: the window, then the drain the kernel allows by default.
double node_cycles_per_run(const RunSettings& s, double nodes) {
    const double window = s.sample_period ? static_cast<double>(s.sample_period) * s.max_samples
                                          : static_cast<double>(s.warmup) + static_cast<double>(s.measure);
    return nodes * (window + std::max(3 * window, 20000.0));
}

/// BookSim's per-node statistics: each node's rates in the window (flits a cycle)
/// and its measured packets' mean latency as source and as destination, as CSV.
void write_node_stats(const std::string& file, const CycleResult& r) {
    std::ofstream out(file);
    detail::require(out.good(), "node_stats: cannot write '", file, "'");
    const auto per = [](std::uint64_t x, std::uint64_t n) { return n ? static_cast<double>(x) / static_cast<double>(n) : 0.0; };
    out << "node,offered,injected,accepted,packets_sent,latency_sent,packets_received,latency_received\n";
    for (std::size_t n = 0; n < r.nodes.size(); ++n) {
        const NodeCounters& c = r.nodes[n];
        out << n << ',' << per(c.flits_offered, r.window_cycles) << ',' << per(c.flits_injected, r.window_cycles) << ','
            << per(c.flits_accepted, r.window_cycles) << ',' << c.packets_sent << ',' << per(c.latency_sent, c.packets_sent)
            << ',' << c.packets_received << ',' << per(c.latency_received, c.packets_received) << '\n';
    }
    detail::require(out.good(), "node_stats: writing '", file, "' failed");
}

/// The watch trace, in cycle order (a flit's own events already are), as CSV.
void write_watch(const std::string& file, std::vector<FlitEvent> events) {
    std::stable_sort(events.begin(), events.end(), [](const FlitEvent& a, const FlitEvent& b) { return a.cycle < b.cycle; });
    std::ofstream file_out;
    if (file != "-") {
        file_out.open(file);
        detail::require(file_out.good(), "watch_file: cannot write '", file, "'");
    }
    std::ostream& out = file == "-" ? std::cout : file_out;
    static constexpr const char* kinds[] = {"created", "switched", "arrived", "ejected"};
    out << "cycle,packet,flit,event,node,port,vc\n";
    for (const FlitEvent& e : events)
        out << e.cycle << ',' << e.packet << ',' << e.flit << ',' << kinds[static_cast<int>(e.kind)] << ',' << e.node
            << ',' << e.port << ',' << e.vc << '\n';
    detail::require(out.good(), "watch_file: writing '", file, "' failed");
}

}  // namespace fabric_apps::cycle_sim
