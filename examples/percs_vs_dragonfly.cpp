// PERCS beside a dragonfly of the same size and global bandwidth. The PERCS system
// of the interconnect paper's all-to-all model (Arimilli et al., section VII.A,
// d = 1) has 33 supernodes of 32 hubs, one 10 GB/s D link between every pair of
// supernodes, and inside a supernode every hub joined to every other (24 GB/s LL
// links within a drawer of 8, 5 GB/s LR links across drawers). It is a dragonfly
// of a = 32 routers a group, h = 1 global link a router and g = 33 groups (Kim et
// al.), but for its two-speed groups; the dragonfly beside it has the same 1,056
// routers, global links and wiring count, and its local links all LR (5 GB/s) or
// all LL (24 GB/s). One task a hub or router; GB/s a hub that the busiest link
// allows (the flow kernel, exact), under
//  - uniform traffic (every hub to every other alike),
//  - the worst case (every hub of supernode / group i to group i + 1), and
//  - the mapping study's halo (a 32 x 33 grid of tasks, one row a supernode, each
//    task to its 4 neighbours),
// for PERCS's direct (L-D-L) and indirect (through a random third supernode)
// routes and the dragonfly's minimal and Valiant routing.
#include <fabric/composition.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/topology/dragonfly.hpp>

#include "no_options.hpp"
#include "percs_dragonfly_setup.hpp"

#include <array>
#include <cstdio>
#include <variant>

namespace {
using namespace fabric;

using Pattern = fabric_examples::ComparisonPattern;

/// GB/s a hub under `pattern` on fabric `fab`, and the class of the busiest link.
template <class Fab>
void row(const char* name, const Fab& fab, const std::array<Pattern, 3>& patterns, const char* const (&classes)[3]) {
    std::printf("| %s |", name);
    for (const Pattern& p : patterns) {
        const auto loads = std::visit([&](const auto& pattern) { return link_load(fab, pattern); }, p);
        std::printf(" %.3f (%s) |", loads.throughput(), classes[loads.bottleneck()]);
    }
    std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    const fabric_examples::PercsDragonflyComparison setup;
    const PercsTopology& percs = setup.percs;
    const std::uint32_t a = setup.a, groups = setup.groups;
    const std::size_t hubs = percs.node_count();
    const auto patterns = setup.patterns();
    std::printf("PERCS (d = 1: %u supernodes of %u hubs, %zu hubs) beside a dragonfly of a = %u, h = 1, g = %u\n",
                groups, a, hubs, a, groups);
    std::printf("GB/s a hub the busiest link allows (its class):\n\n");
    std::printf("| network, routing | uniform | worst case | halo |\n|---|---|---|---|\n");
    const char* const percs_classes[3] = {"LL", "LR", "D"};
    const char* const df_classes[3] = {"local", "global", "-"};
    row("PERCS, direct", PercsFabric<Direct>{percs}, patterns, percs_classes);
    row("PERCS, indirect", PercsFabric<Indirect>{percs}, patterns, percs_classes);
    using DfLR = Dragonfly<32, PercsLR, PercsD>;
    using DfLL = Dragonfly<32, PercsLL, PercsD>;
    const DfLR lr(a, 1, groups);
    const DfLL ll(a, 1, groups, PercsLL(GBps{24.0}));
    row("dragonfly, local 5 GB/s, MIN", Fabric<DfLR, DragonflyMinimal>{lr}, patterns, df_classes);
    row("dragonfly, local 5 GB/s, VAL", Fabric<DfLR, DragonflyValiant>{lr}, patterns, df_classes);
    row("dragonfly, local 24 GB/s, MIN", Fabric<DfLL, DragonflyMinimal>{ll}, patterns, df_classes);
    row("dragonfly, local 24 GB/s, VAL", Fabric<DfLL, DragonflyValiant>{ll}, patterns, df_classes);
    return 0;
}
