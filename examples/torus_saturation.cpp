// Saturation throughput of an 8x8 torus (dimension order, dateline, 2 VCs of 8
// flits) under uniform, transpose and tornado traffic, from the cycle kernel,
// against the bound the flow-level kernel gives (link bandwidth over the busiest
// channel's load).
//
//   torus_saturation [--packet N] [--measure C] [--json]
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include "common/cli.hpp"

#include <cstdio>
#include <string>

namespace {
using namespace fabric;

struct Row {
    std::string pattern;
    double bound = 0;
    double saturation = 0;
    double at_rate = 0;
};

template <class Fab, class Pattern>
Row measure(const Fab& net, const char* name, const Pattern& pattern, std::uint32_t flits, std::uint64_t window) {
    Row row{name, link_load(net, pattern).throughput()};
    CycleConfig cfg;
    cfg.warmup = window / 5;
    cfg.measure = window;
    CycleSimulator<Fab> sim(net, cfg);
    // Offered loads up to the bound: the largest accepted throughput is the saturation throughput.
    for (double rate = 0.02; rate <= row.bound + 1e-9; rate += 0.02) {
        const auto r = sim.run(pattern, rate, PacketSizes::fixed(flits));
        if (r.accepted > row.saturation) {
            row.saturation = r.accepted;
            row.at_rate = rate;
        }
        if (r.saturated && rate > row.at_rate + 0.1) break;
    }
    return row;
}
}  // namespace

int main(int argc, char** argv) {
    const fabric_examples::Cli cli(argc, argv, {"packet", "measure"}, {"json"},
                                   "usage: torus_saturation [--packet N] [--measure C] [--json]\n");
    const auto flits = static_cast<std::uint32_t>(cli.integer("packet", 1));
    const auto window = static_cast<std::uint64_t>(cli.integer("measure", 5000));
    if (flits < 1 || window < 1) cli.fail("--packet and --measure must be positive");
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8})};
    const Row rows[] = {measure(net, "uniform", UniformTraffic(64), flits, window),
                        measure(net, "transpose", TransposeTraffic(8, 8), flits, window),
                        measure(net, "tornado", TornadoTraffic(Grid{8, 8}), flits, window)};
    if (cli.flag("json")) {
        std::printf("{\"packet_flits\": %u, \"rows\": [", flits);
        for (std::size_t i = 0; i < 3; ++i)
            std::printf("%s{\"pattern\": \"%s\", \"bound\": %.4f, \"saturation\": %.4f, \"fraction\": %.4f}",
                        i ? ", " : "", rows[i].pattern.c_str(), rows[i].bound, rows[i].saturation,
                        rows[i].saturation / rows[i].bound);
        std::printf("]}\n");
        return 0;
    }
    std::printf("8x8 torus, DOR + dateline, 2 VCs x 8 flits, %u-flit packets (flits/cycle/node)\n\n", flits);
    std::printf("%-10s %12s %12s %10s\n", "pattern", "flow bound", "saturation", "fraction");
    for (const Row& r : rows)
        std::printf("%-10s %12.4f %12.4f %9.0f%%\n", r.pattern.c_str(), r.bound, r.saturation,
                    100 * r.saturation / r.bound);
    return 0;
}
