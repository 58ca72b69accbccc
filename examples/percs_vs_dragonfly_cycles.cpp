// The comparison of percs_vs_dragonfly.cpp in the cycle kernel, where buffers,
// pipelines and adaptive routing tell: PERCS (the all-to-all model, d = 1, 1,056
// hubs) and the dragonfly of a = 32, h = 1, g = 33 with 5 GB/s local links, both
// set up as the PERCS hub (percs_cycle_config: 128-byte flits, 2 KB packets, link
// timing from the bandwidths, two injection queues, output queues of two packets,
// 32-flit VC buffers). Each cell is the saturation throughput, GB/s a hub: the
// highest offered load every hub sustains (all measured packets delivered, 95%
// accepted; experiment::saturation_search, to 0.05 GB/s, one seed), under uniform
// traffic, the worst case and the mapping study's halo; PERCS direct and indirect,
// the dragonfly MIN, VAL, UGAL-L and UGAL-G. (Accepted load at overload would mislead
// under the halo: its flows inside a supernode keep flowing while those between
// supernodes wait, so more is accepted than the pattern as a whole can carry.)
#include <fabric/composition.hpp>
#include <fabric/experiment/saturation.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/topology/dragonfly.hpp>

#include "no_options.hpp"
#include "percs_dragonfly_setup.hpp"

#include <array>
#include <cstdio>
#include <variant>
#include <vector>

namespace {
using namespace fabric;

using Pattern = fabric_examples::ComparisonPattern;

template <class Fab>
void row(const char* name, const Fab& fab, const CycleConfig& cfg, const PercsTopology& percs,
         const std::array<Pattern, 3>& patterns) {
    experiment::SaturationSettings search;
    search.high = percs_flits_per_cycle(percs, 12.0);
    search.tolerance = percs_flits_per_cycle(percs, 0.05);
    search.runs.seeds = {1};
    std::printf("| %s |", name);
    for (const Pattern& p : patterns) {
        CycleSimulator<Fab> sim(fab, cfg);
        const auto s = std::visit(
            [&](const auto& pattern) {
                return experiment::saturation_search(sim, pattern, PacketSizes::fixed(percs_packet_flits), search);
            },
            p);
        std::printf(" %.2f |", percs_gbps(percs, s.offered));
        std::fflush(stdout);
    }
    std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    const fabric_examples::PercsDragonflyComparison setup;
    const PercsTopology& percs = setup.percs;
    const std::uint32_t a = setup.a, groups = setup.groups;
    const auto patterns = setup.patterns();
    CycleConfig cfg = percs_cycle_config(percs);
    cfg.warmup = 2000;
    cfg.measure = 8000;
    cfg.drain_limit = 8000;  // a run whose measured packets are not all in 8,000 cycles after is saturated
    const Credit flow{32, 1};
    std::printf("Cycle kernel: saturation throughput, GB/s a hub, %zu hubs\n\n", percs.node_count());
    std::printf("| network, routing | uniform | worst case | halo |\n|---|---|---|---|\n");
    row("PERCS, direct", PercsFabric<Direct>{percs, Direct{}, flow}, cfg, percs, patterns);
    row("PERCS, indirect", PercsFabric<Indirect>{percs, Indirect{}, flow}, cfg, percs, patterns);
    using Df = Dragonfly<32, PercsLR, PercsD>;
    const Df df(a, 1, groups);
    row("dragonfly, local 5 GB/s, MIN", Fabric<Df, DragonflyMinimal>{df, {}, flow}, cfg, percs, patterns);
    row("dragonfly, local 5 GB/s, VAL", Fabric<Df, DragonflyValiant>{df, {}, flow}, cfg, percs, patterns);
    row("dragonfly, local 5 GB/s, UGAL-L", Fabric<Df, DragonflyUgalL>{df, {}, flow}, cfg, percs, patterns);
    row("dragonfly, local 5 GB/s, UGAL-G", Fabric<Df, DragonflyUgalG>{df, {}, flow}, cfg, percs, patterns);
    return 0;
}
