// Rate of the flit-level cycle kernel: simulated node-cycles per second and peak
// memory, on an 8x8 torus and a 16x16x16 torus under uniform traffic at 0.1 and
// 0.3 flits/cycle/node, with 1-flit and 4-flit packets (dimension order, dateline,
// 2 VCs of 8 flits, the default 4-stage router pipeline). The rows and their goals
// are bench/cycle_rows.hpp's, which cycle_sim_bench runs through the tool; peak
// memory is this process's, so it never falls from one row to the next.
//
//   cycle_bench [--quick]
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include "cycle_rows.hpp"
#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace {
using namespace fabric;

template <std::size_t R>
void bench(const fabric_bench::CycleRow& row, bool quick) {
    using T = Torus<R>;
    const T topo(row.shape);
    const Fabric<T, DorTieSplit<>> net{topo};
    CycleConfig cfg;
    cfg.measure = quick ? row.measure / 10 : row.measure;
    cfg.warmup = cfg.measure / 10;
    cfg.source_queue_packets = row.source_queue;
    const auto start = std::chrono::steady_clock::now();
    const auto r = simulate_cycles(net, UniformTraffic(topo.node_count()), row.rate, PacketSizes::fixed(row.flits), cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double node_cycles = static_cast<double>(r.cycles) * static_cast<double>(topo.node_count());
    std::printf("{\"bench\": \"cycle\", \"torus\": \"%s\", \"rate\": %.2f, \"packet_flits\": %u, \"cycles\": %llu, "
                "\"seconds\": %.3f, \"node_cycles_per_second\": %.3g, \"goal\": %.3g, \"accepted\": %.4f, \"latency_mean\": %.2f, "
                "\"saturated\": %s, \"source_queue\": %u, \"refused\": %.4f, \"peak_rss_MiB\": %.1f, \"memory_goal_MiB\": %d}\n",
                fabric_bench::join_shape(row.shape, 'x').c_str(), row.rate, row.flits,
                static_cast<unsigned long long>(r.cycles), s, node_cycles / s, row.goal, r.accepted, r.latency.mean,
                r.saturated ? "true" : "false", row.source_queue, r.refused, fabric_bench::peak_rss_mib(),
                row.memory_goal_mib);
}
}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    for (const auto& row : fabric_bench::cycle_rows()) {
        if (row.shape.size() == 2) bench<2>(row, quick);
        else bench<3>(row, quick);
    }
    return 0;
}
