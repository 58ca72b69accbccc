// Rate of the cycle kernel on a dragonfly: the dragonfly paper's 1,056-terminal
// system (p = 4 terminals a router, a = 8, h = 4, 33 groups: 264 routers), uniform
// traffic at 0.1 flits/cycle/terminal (0.4 a router), 1-flit packets, under UGAL-L,
// MIN and VAL; and, in the same run, the 8x8 torus row of cycle_bench (one terminal
// a router, 0.1 flits/cycle/node). The goal the dragonfly issue sets: per router,
// at least the torus's node-cycles per second, so each dragonfly row prints the
// torus figure of this run as its goal. node_cycles counts router-cycles.
//
//   dragonfly_bench [--quick]
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace {
using namespace fabric;

struct Rate {
    double node_cycles_per_second;
    double flit_moves_per_second;  // flits through a switch: the kernel's work, whatever the load a router
    CycleResult result;
};

template <class Net>
Rate measure(const Net& net, std::uint64_t cycles) {
    CycleConfig cfg;
    cfg.warmup = cycles / 10;
    cfg.measure = cycles;
    const auto nodes = net.topology().node_count();
    const auto terminals = nodes * terminals_per_node(net.topology());
    const auto start = std::chrono::steady_clock::now();
    const CycleResult r = simulate_cycles(net, UniformTraffic(terminals), 0.1, PacketSizes::fixed(1), cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {static_cast<double>(r.cycles) * static_cast<double>(nodes) / s, static_cast<double>(r.flit_moves) / s, r};
}

void print(const char* network, const char* routing, const Rate& r, double goal) {
    std::printf("{\"bench\": \"dragonfly\", \"network\": \"%s\", \"routing\": \"%s\", \"rate\": 0.10, \"packet_flits\": 1, "
                "\"terminals\": %zu, \"cycles\": %llu, \"node_cycles_per_second\": %.3g, \"goal\": %.3g, "
                "\"flit_moves_per_second\": %.3g, \"accepted\": %.4f, "
                "\"latency_mean\": %.2f, \"hops_mean\": %.2f, \"peak_rss_MiB\": %.1f}\n",
                network, routing, r.result.terminals, static_cast<unsigned long long>(r.result.cycles), r.node_cycles_per_second, goal,
                r.flit_moves_per_second,
                r.result.accepted, r.result.latency.mean, r.result.hops_mean, fabric_bench::peak_rss_mib());
}

template <class Routing, std::size_t LocalVcs, std::size_t GlobalVcs>
void dragonfly(const char* routing, std::uint64_t cycles, double goal) {
    using Routers = Dragonfly<11, BasicLink<LocalVcs>, BasicLink<GlobalVcs>>;  // 7 local + 4 global ports
    using Df = Concentrated<Routers, 4>;
    print("dragonfly p=4 a=8 h=4 g=33", routing, measure(Fabric<Df, Routing>{Df(Routers(8, 4, 33), 4)}, cycles), goal);
}
}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const std::uint64_t cycles = quick ? 5000 : 50000;
    const Rate torus = measure(Fabric<Torus<2>, DorTieSplit<>>{Torus<2>({8, 8})}, cycles * 4);
    print("torus 8x8", "dor", torus, 0);
    dragonfly<DragonflyUgalL, 3, 2>("ugal-l", cycles, torus.node_cycles_per_second);
    dragonfly<DragonflyMinimal, 2, 1>("min", cycles, torus.node_cycles_per_second);
    dragonfly<DragonflyValiant, 3, 2>("val", cycles, torus.node_cycles_per_second);
    return 0;
}
