// Speed of the flow-level kernel on PERCS:
//  1. the largest system, n_s = 512, n_d = 1 (65,536 tasks on a 256 x 256 grid),
//     under Transpose (33.5 million communicating pairs), direct and indirect;
//  2. the whole sweep of the mapping study: n_s in {16, ..., 512} x n_d in
//     {1, ..., 16} (h whole, at most 16) x {halo, row-column all-to-all (the paper's transpose)} x every mapping x
//     {direct, indirect}. Mappings a grid does not allow are counted as skipped.
//
//   percs_bench [--skip-sweep]
#include <fabric/fabric.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/systems/percs.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace {
using namespace fabric;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
    return std::chrono::duration<double>(clock_type::now() - start).count();
}

template <class Routing>
LinkLoads run(const PercsTopology& t, TaskGrid grid, bool halo, const Placement& placement) {
    const PercsFabric<Routing> net{t};
    if (halo)
        return link_load(net, HaloTraffic(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)}),
                         placement);
    return link_load(net, RowColumnAllToAllTraffic(grid.rows, grid.cols), placement);
}
}  // namespace

int main(int argc, char** argv) {
    const bool sweep = !(argc > 1 && std::strcmp(argv[1], "--skip-sweep") == 0);

    const PercsTopology largest(512, 1);
    const auto grid = default_task_grid(largest.node_count() * PercsTopology::tasks_per_node);
    const auto placement = percs_placement(largest, grid, PercsMapping::hybrid);
    const double pairs = static_cast<double>(grid.size()) * static_cast<double>(grid.rows + grid.cols);
    for (const bool direct : {true, false}) {
        const auto start = clock_type::now();
        const auto loads = direct ? run<Direct>(largest, grid, false, placement)
                                  : run<Indirect>(largest, grid, false, placement);
        const double s = seconds_since(start);
        std::printf("{\"bench\": \"percs_link_load\", \"system\": \"n_s=512 n_d=1\", \"grid\": \"%zux%zu\", "
                    "\"pattern\": \"row_column_alltoall\", \"routing\": \"%s\", \"flows\": %.0f, \"seconds\": %.3f, "
                    "\"flows_per_second\": %.3g, \"throughput\": %.3f, \"peak_rss_MiB\": %.1f}\n",
                    grid.rows, grid.cols, direct ? "direct" : "indirect", pairs, s, pairs / s, loads.throughput(),
                    fabric_bench::peak_rss_mib());
    }
    if (!sweep) return 0;

    const auto start = clock_type::now();
    std::size_t runs = 0, skipped = 0;
    double flows = 0;
    for (std::uint32_t ns = 16; ns <= 512; ns *= 2)
        for (std::uint32_t nd = 1; nd <= 16; nd *= 2) {
            if ((ns * nd) % 32 != 0 || ns * nd > 512) continue;
            const PercsTopology t(ns, nd);
            const auto g = default_task_grid(t.node_count() * PercsTopology::tasks_per_node);
            for (std::size_t m = 0; m < percs_mapping_names.size(); ++m) {
                Placement p = Placement::blocked(g.size(), t.node_count());
                try {
                    p = percs_placement(t, g, static_cast<PercsMapping>(m), 1);
                } catch (const config_error&) {
                    skipped += 4;  // 2 patterns x 2 routings
                    continue;
                }
                for (const bool halo : {true, false}) {
                    const double f = halo ? 4.0 * static_cast<double>(g.size())
                                          : static_cast<double>(g.size()) * static_cast<double>(g.rows + g.cols);
                    (void)run<Direct>(t, g, halo, p);
                    (void)run<Indirect>(t, g, halo, p);
                    runs += 2;
                    flows += 2 * f;
                }
            }
        }
    const double s = seconds_since(start);
    std::printf("{\"bench\": \"percs_sweep\", \"runs\": %zu, \"skipped\": %zu, \"flows\": %.0f, \"seconds\": %.2f, "
                "\"flows_per_second\": %.3g, \"peak_rss_MiB\": %.1f}\n",
                runs, skipped, flows, s, flows / s, fabric_bench::peak_rss_mib());
    return 0;
}
