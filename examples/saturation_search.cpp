// The experiment API on the 8x8 torus (dimension order, dateline, 2 VCs of 8
// flits), uniform traffic: a latency-load curve with three seeds per point and its
// 95% confidence intervals, written as CSV, then the saturation throughput found
// by bisection on the offered load.
//
//   saturation_search > curve.csv     (the curve on stdout, the search on stderr)
#include <fabric/fabric.hpp>

#include "no_options.hpp"

#include <cstdio>
#include <iostream>

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    using namespace fabric;
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>{{8, 8}}};
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 5000;
    CycleSimulator<Net> sim(net, cfg);
    const UniformTraffic uniform(64);

    // Offered loads 0.05 to 0.45 flits/cycle/node; the curve stops at the first saturated point.
    const auto curve = experiment::sweep(sim, uniform, experiment::loads(0.05, 0.45, 0.05));
    experiment::write_csv(std::cout, curve);

    experiment::SaturationSettings search;
    search.runs.seeds = {1};
    const auto s = experiment::saturation_search(sim, uniform, PacketSizes::fixed(1), search);
    std::fprintf(stderr, "saturation: %.4f flits/cycle/node offered and sustained (accepted %.4f), %.4f not; %zu probes\n",
                 s.offered, s.at.accepted.mean, s.unsustained, s.probes.size());
    return 0;
}
