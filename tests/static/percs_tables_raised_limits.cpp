// The PERCS mapping paper (Chakaravarthy et al.), Table II at n_s = 16, n_d = 4:
// halo traffic under direct routing, with mod-colour mapping 64 GB/s per node
// (limited by LR links) and supernode blocking 40 (limited by D links). n_s = 16
// is the smallest system whose task grid (32 x 64) mod-colour mapping accepts;
// its flow-kernel run, 55,552 channel-load additions, is past the default
// fabric::constant_evaluation_budget and GCC's default limit, so this file is
// built with both raised (tests/CMakeLists.txt: GCC only; about 15 s and 700 MB
// per mapping).
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>

namespace {
using namespace fabric;

struct Cell {
    double throughput;
    std::size_t bottleneck;
};

constexpr Cell halo(PercsMapping mapping) {
    const PercsTopology t(16, 4);
    const TaskGrid grid = default_task_grid(128 * 16);
    const PercsFabric<Direct> net{t};
    // Grid extents fastest first: Q columns, then P rows.
    const auto loads = link_load(net, HaloTraffic(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)}),
                                 percs_placement(t, grid, mapping));
    return {loads.throughput(), loads.bottleneck()};
}

constexpr bool printed(double x, double paper) { return x > paper - 0.5 && x < paper + 0.5; }

static_assert(default_task_grid(128 * 16) == TaskGrid{32, 64});
static_assert([] {
    const Cell c = halo(PercsMapping::modcolor);
    return printed(c.throughput, 64) && c.bottleneck == PercsTopology::LR;
}(), "PERCS Table II, n_s = 16, n_d = 4: mod-colour mapping gives 64 GB/s per node, limited by LR");
static_assert([] {
    const Cell c = halo(PercsMapping::sn_seq);
    return printed(c.throughput, 40) && c.bottleneck == PercsTopology::D;
}(), "PERCS Table II, n_s = 16, n_d = 4: supernode blocking gives 40 GB/s per node, limited by D");

}  // namespace
