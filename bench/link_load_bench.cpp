// Rate of the flow-level kernel: flows per second on a 16x16x16 torus under
// uniform all-to-all (4096^2 = 16.7 million flows), dimension order with the tie
// split, and the peak memory of the run.
//
//   link_load_bench [--extent K] [--repeat R]
#include <fabric/fabric.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    long long k = 16;
    int repeat = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--extent") == 0) k = std::atoll(argv[i + 1]);
        else if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::atoi(argv[i + 1]);
    }
    using T = fabric::Torus<3>;
    const T topo{{k, k, k}};
    const fabric::Fabric<T, fabric::DorTieSplit<>> net{topo};
    const fabric::UniformTraffic uniform(topo.node_count());
    const double flows = static_cast<double>(topo.node_count()) * static_cast<double>(topo.node_count());

    double best = 1e300, max_load = 0;
    for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        const auto loads = fabric::link_load(net, uniform);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = took.count() < best ? took.count() : best;
        max_load = loads.max_load();
    }
    std::printf("{\"bench\": \"link_load\", \"topology\": \"%lldx%lldx%lld torus\", \"pattern\": \"uniform\", "
                "\"flows\": %.0f, \"seconds\": %.4f, \"flows_per_second\": %.4g, \"max_load\": %.6f, "
                "\"expected_max_load\": %.6f, \"peak_rss_MiB\": %.1f}\n",
                k, k, k, flows, best, flows / best, max_load, static_cast<double>(k) / 8, fabric_bench::peak_rss_mib());
    return 0;
}
