// A 1,024-rank ring allreduce of 1 MiB on a 32 x 32 torus at flit level (issue
// 53's goal: under a minute on one core), its figure printed beside the goal:
// the simulated cycles beside the alpha-beta cost (alpha 8 cycles, beta 1/16 a
// byte: one link, 16-byte flits, tests/collective/runs.cpp), the CPU seconds of
// the run, the messages, the engine's frontier at its largest and the peak
// resident memory (bounded by the frontier, not the graph's two million messages).
//
//   collective_bench [K [BYTES]]   a K x K torus (32), BYTES (1 MiB)
#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/policies.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "memory.hpp"

int main(int argc, char** argv) {
    using namespace fabric;
    const auto k = static_cast<std::uint32_t>(argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 32);
    const std::uint64_t bytes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::uint64_t{1} << 20;
    if (k < 2 || k > 256 || bytes == 0) {
        std::fprintf(stderr, "fabric: usage: collective_bench [K in 2..256 [BYTES >= 1]]\n");
        return 2;
    }
    using T = Torus<2>;
    const T torus({k, k});
    const Fabric<T, DorTieSplit<>> net{torus};
    const CollectiveRequest req{.bytes = bytes};
    const auto graph = Allreduce<Ring>{}.graph(torus, req);
    const double model = Allreduce<Ring>{}.cost(torus, req, collective::AlphaBeta{8, 1.0 / 16, 16});
    CycleSimulator<decltype(net)> sim(net);
    const std::clock_t start = std::clock();
    const WorkloadResult r = sim.run_workload(graph, {});
    const double cpu = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    std::printf("ring allreduce of %llu bytes, %u ranks on a %u x %u torus: %s, %llu cycles (alpha-beta %.0f, "
                "ratio %.4f)\n", static_cast<unsigned long long>(bytes), k * k, k, k,
                r.finished ? "finished" : "NOT finished", static_cast<unsigned long long>(r.finish_cycle), model,
                static_cast<double>(r.finish_cycle) / model);
    std::printf("  %.1f s of CPU (goal: under 60 s on one core, at 32 x 32 and 1 MiB), %llu nodes, frontier at most "
                "%zu, peak resident %.1f MiB\n", cpu, static_cast<unsigned long long>(graph.size()), r.frontier_peak,
                fabric_bench::peak_rss_mib());
    return r.finished ? 0 : 3;
}
