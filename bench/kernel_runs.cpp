// The cycle kernel on the fixed runs its speed is measured by (bench/kernel_speed):
// uniform traffic at 0.1 flits/cycle/terminal, 1-flit packets, on the 8x8 torus
// (22,000 cycles), the 16x16x16 torus (690 cycles) and the 1,056-terminal
// dragonfly (p = 4, a = 8, h = 4) under UGAL-L (5,500 cycles); the kernel's
// defaults otherwise (4-stage routers, 2 VCs of 8 flits on the tori).
//
// It uses only the public API that every version of the kernel since the issue
// that set the goals has had, so that bench/kernel_speed can build it against
// an earlier version of the headers and time both in one run.
//
//   kernel_runs CASE [REPEAT]   CASE: torus8 | torus16 | dragonfly
// prints one JSON line per repetition: flit moves, cycles, seconds, mean latency.
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
using namespace fabric;

/// The kernel's whole run, and nothing else: what callgrind counts (--toggle-collect=*kernel_run*).
template <class Net>
[[gnu::noinline]] CycleResult kernel_run(const Net& net, std::size_t terminals, const CycleConfig& cfg) {
    return simulate_cycles(net, UniformTraffic(terminals), 0.1, PacketSizes::fixed(1), cfg);
}

template <class Net>
void run(const char* name, const Net& net, std::size_t terminals, std::uint64_t warmup, std::uint64_t measure) {
    CycleConfig cfg;
    cfg.warmup = warmup;
    cfg.measure = measure;
    const auto start = std::chrono::steady_clock::now();
    const CycleResult r = kernel_run(net, terminals, cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"case\": \"%s\", \"flit_moves\": %llu, \"cycles\": %llu, \"seconds\": %.6f, \"routers\": %zu, "
                "\"latency_mean\": %.4f}\n",
                name, static_cast<unsigned long long>(r.flit_moves), static_cast<unsigned long long>(r.cycles), s,
                static_cast<std::size_t>(net.topology().node_count()), r.latency.mean);
}
}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "";
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 1;
    for (int i = 0; i < repeat; ++i) {
        if (which == "torus8") {
            run("torus8", Fabric<Torus<2>, DorTieSplit<>>{Torus<2>({8, 8})}, 64, 2000, 20000);
        } else if (which == "torus16") {
            run("torus16", Fabric<Torus<3>, DorTieSplit<>>{Torus<3>({16, 16, 16})}, 4096, 50, 500);
        } else if (which == "dragonfly") {
            using Routers = Dragonfly<11, BasicLink<3>, BasicLink<2>>;  // 7 local + 4 global ports
            using Df = Concentrated<Routers, 4>;
            run("dragonfly", Fabric<Df, DragonflyUgalL>{Df(Routers(8, 4, 33), 4)}, 1056, 500, 5000);
        } else {
            std::fprintf(stderr, "usage: kernel_runs torus8|torus16|dragonfly [REPEAT]\n");
            return 2;
        }
    }
    return 0;
}
