// One APEnet+ torus link: the efficiency model of the EURETILE report and the
// cycle simulation of the saturated link, side by side.
//
//   apenet_link --fifo-depth D [--lane-gbps G] [--credit-period C] [--t-red R] [--json]
//   apenet_link --table        the report's Table 8, model and simulation, at 28 and 34 Gbps
#include <fabric/sim/analytic/apenet_efficiency.hpp>
#include <fabric/sim/presets/apenet.hpp>
#include <fabric/systems/apenet.hpp>

#include "common/cli.hpp"

#include <cstdio>

int main(int argc, char** argv) {
    using namespace fabric;
    const fabric_examples::Cli cli(argc, argv, {"fifo-depth", "lane-gbps", "credit-period", "t-red", "cycles"},
                                   {"json", "table"},
                                   "usage: apenet_link --fifo-depth D [--lane-gbps G] [--credit-period C] [--t-red R] "
                                   "[--json]\n       apenet_link --table\n");
    const auto cycles = static_cast<std::uint64_t>(cli.integer("cycles", 100000));
    try {
        if (cli.flag("table")) {
            std::printf("APEnet+ link efficiency against RX LINK FIFO depth (C = 35, L_R = 35, L_L = 20, T_RED = depth - 6,\n"
                        "4096-byte payloads): the model of the report and the cycle simulation\n\n");
            std::printf("%6s %8s %8s %8s %10s %12s %12s %12s %12s\n", "depth", "E_3", "E_T", "E_T sim", "sim/model",
                        "model@28", "sim@28", "model@34", "sim@34");
            for (const std::uint32_t depth : {512U, 1024U, 2048U, 4096U}) {
                const auto m = analytic::ApenetEfficiency::with_fifo(depth);
                const auto s = simulate_apenet_link(ApenetCredit::with_fifo(depth), 4096, cycles);
                std::printf("%6u %8.3f %8.3f %8.3f %10.3f %9.0f MB/s %7.0f MB/s %7.0f MB/s %7.0f MB/s\n", depth, m.e3(),
                            m.et(), s.efficiency, s.efficiency / m.et(), m.bandwidth_MBps(28),
                            s.efficiency * 2800, m.bandwidth_MBps(34), s.efficiency * 3400);
            }
            return 0;
        }
        const long long depth = cli.integer("fifo-depth");
        if (depth < 8 || depth > 1 << 20) cli.fail("--fifo-depth must be between 8 and 2^20 words");
        ApenetCredit protocol = ApenetCredit::with_fifo(static_cast<std::uint32_t>(depth));
        protocol.credit_period = static_cast<std::uint32_t>(cli.integer("credit-period", 35));
        protocol.t_red = static_cast<std::uint32_t>(cli.integer("t-red", depth - 6));
        protocol.validate();
        const double lane = cli.number("lane-gbps", 7.0);
        const ApenetLink link(lane);  // validates the lane rate
        analytic::ApenetEfficiency model;
        model.credit_period = protocol.credit_period;
        model.t_red = protocol.t_red;
        const auto sim = simulate_apenet_link(protocol, 4096, cycles);
        const double line_MBps = link.bandwidth().megabytes_per_second();
        if (cli.flag("json")) {
            std::printf("{\"fifo_depth\": %lld, \"t_red\": %u, \"credit_period\": %u, \"lane_gbps\": %.3f, "
                        "\"E1\": %.4f, \"E2\": %.4f, \"E3\": %.4f, \"E3_without_whole_packet_rule\": %.4f, "
                        "\"ET_model\": %.4f, \"ET_sim\": %.4f, \"MBps_model\": %.1f, \"MBps_sim\": %.1f, "
                        "\"optimum_C\": %.2f}\n",
                        depth, protocol.t_red, protocol.credit_period, lane, model.e1(), model.e2(), model.e3(),
                        analytic::ApenetEfficiency{model.payload_bytes, model.word_bytes, model.protocol_bytes,
                                                   model.credit_period, model.remote_latency, model.local_latency,
                                                   model.t_red, false}
                            .e3(),
                        model.et(), sim.efficiency, model.et() * line_MBps, sim.efficiency * line_MBps,
                        model.optimum_credit_period());
        } else {
            std::printf("E1 %.3f  E2 %.3f  E3 %.3f  ->  E_T model %.3f, simulated %.3f\n", model.e1(), model.e2(),
                        model.e3(), model.et(), sim.efficiency);
            std::printf("link %.0f MB/s of %.0f (model %.0f)\n", sim.efficiency * line_MBps, line_MBps,
                        model.et() * line_MBps);
        }
    } catch (const config_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
