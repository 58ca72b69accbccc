// What a user's program that runs one torus through the cycle kernel costs to
// compile (bench/kernel_speed compile times it at -O2 beside compile_flow.cpp,
// the same torus through the flow kernel, and against the headers of adcbdf6).
// It uses only the public API every version of the kernel since then has had.
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include <cstdio>

int main() {
    using namespace fabric;
    const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({8, 8})};
    const CycleResult r = simulate_cycles(net, UniformTraffic(64), 0.1, PacketSizes::fixed(4), CycleConfig{});
    std::printf("%.3f\n", r.latency.mean);
}
