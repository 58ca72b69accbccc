// One APEnet+ torus link: the efficiency model of the EURETILE report and the
// cycle simulation of the saturated link, side by side; with --table, the
// report's Table 8 at 28 and 34 Gbps; with --fig13, Fig. 13: the link's side
// (efficiency and bandwidth against message size) and the host side (the link
// held to the host read). Options and configuration files:
// apps/common/tool.hpp.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>

#include <fabric/sim/analytic/apenet_efficiency.hpp>
#include <fabric/sim/analytic/apenet_host.hpp>
#include <fabric/sim/presets/apenet.hpp>
#include <fabric/systems/apenet.hpp>

#include "common/kernel_cost.hpp"
#include "common/tool.hpp"

namespace {
using namespace fabric;

/// T_YELLOW, which the report fixes: T_RED must lie above it, so a FIFO of depth - 6 at least 129 words.
constexpr std::uint32_t t_yellow = ApenetCredit{}.t_yellow;

struct Settings : fabric_apps::Common {
    std::uint32_t fifo_depth = 512;    // RX LINK FIFO, words
    double lane_gbps = 7.0;
    std::uint32_t credit_period = 35;  // cycles between Credits
    std::uint32_t t_red = 0;           // almost-full threshold, words; 0: fifo_depth - 6
    std::uint64_t cycles = 100000;     // simulated
    bool table = false;
    bool fig13 = false;

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::fifo_depth, "--fifo-depth", "RX LINK FIFO depth, words (with T_RED at depth - 6, above "
                      "T_YELLOW = 128)", within<std::uint32_t>(t_yellow + 7, 1U << 20)).without("--table"),
            option<S>(&S::lane_gbps, "--lane-gbps", "lane rate, Gbps", within(0.0, 8.5, true)).without("--table"),
            option<S>(&S::credit_period, "--credit-period", "cycles between Credits (C)", within<std::uint32_t>(1, 65536))
                .without("--table"),
            option<S>(&S::t_red, "--t-red", "almost-full threshold T_RED, words: above T_YELLOW = 128, at most the "
                      "depth; 0: depth - 6", within<std::uint32_t>(0, 1U << 20)).without("--table"),
            option<S>(&S::cycles, "--cycles", "cycles simulated", at_least<std::uint64_t>(1)),
            flag<S>(&S::table, "--table", "the report's Table 8, model and simulation, at 28 and 34 Gbps (as text)"),
            flag<S>(&S::fig13, "--fig13", "the report's Fig. 13: the link's efficiency and bandwidth against "
                    "message size, 64 B to 1 MiB (a message past 4 KB cut into 4 KB packets), model and simulation, "
                    "and the host read that holds it below (the point-to-point estimate)"),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

/// What the runs of simulate_apenet_link cost, added up before the first starts: each a run of the cycle
/// kernel (common/kernel_cost.hpp's counts) on two nodes joined by one link, over its warm-up (a tenth of
/// the window), its window and the one cycle of drain it allows, carrying the words a cycle that the
/// model's efficiency E_T gives (the source offers more; the link carries what the credits let through),
/// in packets of the run's size.
struct LinkRuns {
    fabric_apps::KernelCounts counts;

    void add(std::uint64_t cycles, double efficiency, std::uint32_t payload_bytes) {
        fabric_apps::KernelRun k;
        k.routers = k.terminals = 2;
        k.channels = 2;
        k.cycles = static_cast<double>(cycles / 10) + static_cast<double>(cycles) + 1;
        k.flits_per_cycle = efficiency;
        k.packet_flits = apenet_packet_words(payload_bytes);
        k.hops = k.max_hops = 1;
        counts.add(k);
    }
    void check() const {
        fabric_apps::Cost cost = fabric_apps::tool_start();
        counts.into(cost, "link runs");
        fabric_apps::check(cost);
    }
};

int table(std::uint64_t cycles, fabric_apps::OutputFile& out) {
    out.printf("APEnet+ link efficiency against RX LINK FIFO depth (C = 35, L_R = 35, L_L = 20, T_RED = depth - 6,\n"
                "4096-byte payloads): the model of the report and the cycle simulation\n\n");
    out.printf("%6s %8s %8s %8s %10s %12s %12s %12s %12s\n", "depth", "E_3", "E_T", "E_T sim", "sim/model",
                "model@28", "sim@28", "model@34", "sim@34");
    static constexpr std::uint32_t depths[] = {512, 1024, 2048, 4096};
    LinkRuns runs;
    for (const std::uint32_t depth : depths) runs.add(cycles, analytic::ApenetEfficiency::with_fifo(depth).et(), 4096);
    runs.check();
    for (const std::uint32_t depth : depths) {
        const auto m = analytic::ApenetEfficiency::with_fifo(depth);
        const auto s = simulate_apenet_link(ApenetCredit::with_fifo(depth), 4096, cycles);
        out.printf("%6u %8.3f %8.3f %8.3f %10.3f %9.0f MB/s %7.0f MB/s %7.0f MB/s %7.0f MB/s\n", depth, m.e3(), m.et(),
                    s.efficiency, s.efficiency / m.et(), m.bandwidth_MBps(28), s.efficiency * 2800,
                    m.bandwidth_MBps(34), s.efficiency * 3400);
    }
    return 0;
}

/// Fig. 13: E_T and MB/s against message size, the model's and the simulated link's,
/// and the host side: the host read (sim/analytic/apenet_host.hpp) and the
/// point-to-point estimate, the link held to it.
int fig13(const Settings& s, const ApenetCredit& protocol, const analytic::ApenetEfficiency& model,
          double line_MBps, fabric_apps::OutputFile& out) {
    static constexpr std::uint64_t sizes[] = {64, 256, 1024, 2048, 4096, 8192, 16384, 32768, 1048576};
    const analytic::ApenetHostRead host;
    LinkRuns runs;
    for (const std::uint64_t m : sizes)
        runs.add(s.cycles, model.for_message(m).et(), static_cast<std::uint32_t>(std::min<std::uint64_t>(m, 4096)));
    runs.check();
    nlohmann::json rows = nlohmann::json::array();
    if (s.format != "json")
        out.printf("APEnet+ link against message size (FIFO depth %u, C = %u, T_RED = %u; a message up to 4 KB is one "
                   "packet): E_T and MB/s of %.0f; the host read (peak %.0f MB/s, half at %.1f KiB: ours) and the "
                   "point-to-point estimate, the lower of host read and model\n\n%10s %10s %12s %10s %12s %10s %10s\n",
                   protocol.fifo_depth, protocol.credit_period, protocol.t_red, line_MBps, host.peak_MBps,
                   host.half_bytes / 1024, "message", "E_T model", "model MB/s", "E_T sim", "sim MB/s", "host MB/s",
                   "p2p MB/s");
    for (const std::uint64_t m : sizes) {
        const double et = model.for_message(m).et();
        const auto packet = static_cast<std::uint32_t>(std::min<std::uint64_t>(m, 4096));
        const double sim = simulate_apenet_link(protocol, packet, s.cycles).efficiency;
        const double read = host.bandwidth_MBps(static_cast<double>(m));
        const double p2p = std::min(read, et * line_MBps);
        if (s.format == "json")
            rows.push_back({{"message_bytes", m}, {"ET_model", et}, {"MBps_model", et * line_MBps}, {"ET_sim", sim},
                            {"MBps_sim", sim * line_MBps}, {"MBps_host_read", read}, {"MBps_point_to_point", p2p}});
        else
            out.printf("%10llu %10.3f %12.0f %10.3f %12.0f %10.0f %10.0f\n", static_cast<unsigned long long>(m), et,
                       et * line_MBps, sim, sim * line_MBps, read, p2p);
    }
    if (s.format == "json") fabric_apps::write_json(out.stream(), nlohmann::json{{"fig13", rows}});
    return 0;
}

int one_link(const Settings& s, fabric_apps::OutputFile& out) {
    detail::require(!(s.table && s.fig13), "--table and --fig13 are two reports: give one");
    detail::require(!(s.table && s.format == "json"), "--table is printed as text: leave out --json (--format json), "
                    "or --table for one link's JSON");
    if (s.table) return table(s.cycles, out);
    detail::require(s.t_red == 0 || (s.t_red > t_yellow && s.t_red <= s.fifo_depth), "--t-red: T_RED must lie above "
                    "T_YELLOW = ", t_yellow, " words and within the FIFO depth = ", s.fifo_depth, "; got ", s.t_red);
    ApenetCredit protocol = ApenetCredit::with_fifo(s.fifo_depth);
    protocol.credit_period = s.credit_period;
    protocol.t_red = s.t_red ? s.t_red : s.fifo_depth - 6;
    protocol.validate();
    const ApenetLink lane(s.lane_gbps);  // validates the lane rate
    analytic::ApenetEfficiency model;
    model.credit_period = protocol.credit_period;
    model.t_red = protocol.t_red;
    const double line_MBps = lane.bandwidth().megabytes_per_second();
    if (s.fig13) return fig13(s, protocol, model, line_MBps, out);
    LinkRuns runs;
    runs.add(s.cycles, model.et(), 4096);
    runs.check();
    const auto sim = simulate_apenet_link(protocol, 4096, s.cycles);
    if (s.format == "json") {
        analytic::ApenetEfficiency without = model;
        without.whole_packet_rule = false;
        fabric_apps::write_json(out.stream(), nlohmann::json{{"fifo_depth", s.fifo_depth}, {"t_red", protocol.t_red},
                                    {"credit_period", protocol.credit_period}, {"lane_gbps", s.lane_gbps},
                                    {"E1", model.e1()}, {"E2", model.e2()}, {"E3", model.e3()},
                                    {"E3_without_whole_packet_rule", without.e3()}, {"ET_model", model.et()},
                                    {"ET_sim", sim.efficiency}, {"MBps_model", model.et() * line_MBps},
                                    {"MBps_sim", sim.efficiency * line_MBps},
                                    {"optimum_C", model.optimum_credit_period()}});
        return 0;
    }
    out.printf("E1 %.3f  E2 %.3f  E3 %.3f  ->  E_T model %.3f, simulated %.3f\n", model.e1(), model.e2(), model.e3(),
                model.et(), sim.efficiency);
    out.printf("link %.0f MB/s of %.0f (model %.0f)\n", sim.efficiency * line_MBps, line_MBps, model.et() * line_MBps);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(argc, argv, "apenet_link",
                                           "one APEnet+ link: the EURETILE efficiency model and the cycle simulation.",
                                           one_link);
}
