// Rate of the flit-level cycle kernel: simulated node-cycles per second and peak
// memory, on an 8x8 torus and a 16x16x16 torus under uniform traffic at 0.1 and
// 0.3 flits/cycle/node, with 1-flit and 4-flit packets (dimension order, dateline,
// 2 VCs of 8 flits, the default 4-stage router pipeline). Each row prints its goal
// beside it: the node-cycles per second the kernel-speed issue sets (five times
// today's on one core), 0 where that issue sets none for the row. The saturated
// 16x16x16 rows run again with source queues bounded at 32 packets a node
// (CycleConfig::source_queue_packets), whose memory goal is 64 MiB; peak memory
// is the process's, so it never falls from one row to the next.
//
//   cycle_bench [--quick]
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {
using namespace fabric;

/// The kernel-speed goal for a row, node-cycles per second (0: none set).
double goal(std::size_t rank, double rate, std::uint32_t flits) {
    if (rank == 2 && rate < 0.2) return flits == 1 ? 1.0e8 : 1.2e8;
    if (rank == 2 && flits == 1) return 3.0e7;
    if (rank == 3 && rate < 0.2 && flits == 1) return 2.0e7;
    if (rank == 3 && rate > 0.2 && flits == 1) return 1.0e7;
    return 0;
}

template <std::size_t R>
void bench(const std::vector<long long>& shape, double rate, std::uint32_t flits, std::uint64_t measure,
           std::uint32_t source_queue = 0) {
    using T = Torus<R>;
    const T topo(shape);
    const Fabric<T, DorTieSplit<>> net{topo};
    CycleConfig cfg;
    cfg.warmup = measure / 10;
    cfg.measure = measure;
    cfg.source_queue_packets = source_queue;
    const auto start = std::chrono::steady_clock::now();
    const auto r = simulate_cycles(net, UniformTraffic(topo.node_count()), rate, PacketSizes::fixed(flits), cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double node_cycles = static_cast<double>(r.cycles) * static_cast<double>(topo.node_count());
    std::string name;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) name += 'x';
        name += std::to_string(shape[i]);
    }
    std::printf("{\"bench\": \"cycle\", \"torus\": \"%s\", \"rate\": %.2f, \"packet_flits\": %u, \"cycles\": %llu, "
                "\"seconds\": %.3f, \"node_cycles_per_second\": %.3g, \"goal\": %.3g, \"accepted\": %.4f, \"latency_mean\": %.2f, "
                "\"saturated\": %s, \"source_queue\": %u, \"refused\": %.4f, \"peak_rss_MiB\": %.1f, \"memory_goal_MiB\": %d}\n",
                name.c_str(), rate, flits, static_cast<unsigned long long>(r.cycles), s, node_cycles / s, goal(R, rate, flits), r.accepted,
                r.latency.mean, r.saturated ? "true" : "false", source_queue, r.refused, fabric_bench::peak_rss_mib(),
                source_queue ? 64 : 0);
}
}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    for (const double rate : {0.1, 0.3})
        for (const std::uint32_t flits : {1U, 4U}) bench<2>({8, 8}, rate, flits, quick ? 20000 : 200000);
    // Peak memory is the process's so far: the light rows, then the bounded saturated
    // ones, then the unbounded (which set the peak from there on).
    for (const std::uint32_t flits : {1U, 4U}) bench<3>({16, 16, 16}, 0.1, flits, quick ? 500 : 5000);
    for (const std::uint32_t flits : {1U, 4U}) bench<3>({16, 16, 16}, 0.3, flits, quick ? 500 : 5000, 32);
    for (const std::uint32_t flits : {1U, 4U}) bench<3>({16, 16, 16}, 0.3, flits, quick ? 500 : 5000);
    return 0;
}
