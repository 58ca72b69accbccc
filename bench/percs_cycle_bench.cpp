// Rate of the flit-level kernel on PERCS: a 16-supernode system (n_d = 2, 512
// hubs, 48 ports each) under uniform traffic, direct and random-indirect
// routing, 2048-byte packets of 128-byte flits; node-cycles per second and peak
// memory.
#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>

namespace {
using namespace fabric;
template <class R>
void bench(const char* name, double gbps) {
    const PercsTopology t(16, 2);
    const PercsFabric<R> net{t, R{}, Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.warmup = 5000;
    cfg.measure = 50000;
    const auto start = std::chrono::steady_clock::now();
    const auto r = simulate_cycles(net, UniformTraffic(t.node_count(), UniformTraffic::Self::excluded),
                                   percs_flits_per_cycle(t, gbps), PacketSizes::fixed(percs_packet_flits), cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double node_cycles = static_cast<double>(r.cycles) * static_cast<double>(t.node_count());
    std::printf("{\"bench\": \"percs_cycle\", \"system\": \"n_s=16 n_d=2\", \"routing\": \"%s\", \"offered_GBps\": %.1f, "
                "\"cycles\": %llu, \"seconds\": %.3f, \"node_cycles_per_second\": %.3g, \"accepted_GBps\": %.3f, "
                "\"saturated\": %s, \"peak_rss_MiB\": %.1f}\n",
                name, gbps, static_cast<unsigned long long>(r.cycles), s, node_cycles / s,
                percs_gbps(t, r.accepted), r.saturated ? "true" : "false",
                fabric_bench::peak_rss_mib());
}
}  // namespace

int main() {
    bench<Direct>("direct", 2.0);
    bench<Indirect>("indirect", 2.0);
    return 0;
}
