// A topology and routing policy of one's own (examples/own/chord_ring.hpp, the
// subject of docs/extending.md) through both kernels: the flow kernel's busiest
// channel per link class, and the cycle kernel's zero-load latency and a loaded run.
#include <cstdio>
#include <vector>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>

#include "own/chord_ring.hpp"
#include "no_options.hpp"

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    using Ring = own::ChordRing<8>;
    // Formed: the routing fits, the VCs per class suffice, the dependency graph is acyclic.
    const fabric::Fabric<Ring, own::ChordRouting<true>> net{Ring{}};

    const auto loads = fabric::link_load(net, fabric::UniformTraffic(8));
    std::printf("uniform traffic, busiest channel: ring %.3f, chord %.3f (by hand: 24/8 = 3, 1/8)\n",
                loads.link_class(Ring::ring_class).max_load, loads.link_class(Ring::chord_class).max_load);

    fabric::CycleConfig one;
    one.warmup = 0;
    one.measure = 1;
    fabric::CycleSimulator zero(net, one);
    const std::vector<fabric::TraceMessage> to3{{0, 0, 3, 1}};
    std::printf("one flit 0 -> 3 (3 ring hops): %llu cycles (by hand: 4 x 4 + 3 = 19)\n",
                static_cast<unsigned long long>(zero.run_trace(to3).latency.max));

    fabric::CycleSimulator sim(net);
    const auto r = sim.run(fabric::UniformTraffic(8), 0.1, fabric::PacketSizes::fixed(4));
    std::printf("uniform at 0.1 flits/cycle/node, 4-flit packets: accepted %.3f, latency %.1f cycles, %.3f hops, %s\n",
                r.accepted, r.latency.mean, r.hops_mean, r.deadlock ? "deadlock" : "no deadlock");
    return r.deadlock || r.saturated ? 1 : 0;
}
