// Saturation throughput of an 8x8 torus (dimension order, dateline, 2 VCs of 8
// flits) under uniform, row-column all-to-all (PERCS "transpose") and tornado traffic, from the cycle kernel,
// against the bound the flow-level kernel gives (link bandwidth over the busiest
// channel's load).
//
// Options and configuration files: apps/common/tool.hpp.
#include <fabric/fabric.hpp>

#include "common/kernel_cost.hpp"
#include "common/tool.hpp"

#include <algorithm>

#include <cstdio>
#include <iostream>
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
Row measure(const Fab& net, const char* name, const Pattern& pattern, std::uint32_t flits, std::uint64_t window,
            std::uint64_t seed) {
    Row row{name, link_load(net, pattern).throughput()};
    CycleConfig cfg;
    cfg.seed = seed;
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
struct Settings : fabric_apps::Common {
    std::uint32_t packet = 1;     // flits per packet
    std::uint64_t measure = 5000;  // measurement window, cycles (warm-up: a fifth of it)
    std::uint64_t seed = 1;        // of the traffic

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::packet, "--packet", "flits per packet", within<std::uint32_t>(1, 65535)),
            option<S>(&S::measure, "--measure", "measurement window, cycles", within<std::uint64_t>(1, std::uint64_t{1} << 40)),
            seed_option<S>(&S::seed, "seed of the traffic"),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

int saturation(const Settings& s, fabric_apps::OutputFile& out) {
    detail::require(s.packet >= 1 && s.measure >= 1, "--packet and --measure must be positive");
    using T = Torus<2>;
    const Fabric<T, DorTieSplit<>> net{T({8, 8})};
    // Three patterns, loads in steps of 0.02 up to each flow bound, the search ending 0.1 past the most accepted.
    // Before the runs, the most accepted is taken as half the smaller of the bound and 1 (a terminal's channel
    // carries a flit a cycle; the 8x8 torus under dimension order accepts 0.22 to 0.35 of the bound at --measure
    // 1500), the search as ending 0.12 past it, and the moves of a run past it as those it accepts there. Every
    // run is one the stage-list kernel serves (credits, the separable allocator, wormhole, dimension order,
    // Bernoulli arrivals of one class): priced at its figures.
    fabric_apps::KernelCounts runs;
    fabric_apps::KernelRun k;
    k.routers = k.terminals = 64;
    k.channels = 256;
    k.packet_flits = s.packet;
    k.cycles = 1.2 * static_cast<double>(s.measure) + 60 + s.packet;
    auto loads = [&](double bound, double hops) {
        k.hops = hops;
        k.accepted = 0.5 * std::min(bound, 1.0);
        for (double rate = 0.02; rate <= std::min(bound, k.accepted + 0.12) + 1e-9; rate += 0.02) {
            k.flits_per_cycle = rate * 64;
            runs.add(k);
        }
    };
    loads(link_load(net, UniformTraffic(64)).throughput(), 4);
    loads(link_load(net, RowColumnAllToAllTraffic(8, 8)).throughput(), 2.29);
    loads(link_load(net, TornadoTraffic(Grid{8, 8})).throughput(), 3);
    fabric_apps::Cost cost;
    runs.into<fabric_apps::StageKernelCost>(cost, "cycle-kernel runs");
    fabric_apps::check(cost);
    const Row rows[] = {measure(net, "uniform", UniformTraffic(64), s.packet, s.measure, s.seed),
                        measure(net, "row_column_alltoall", RowColumnAllToAllTraffic(8, 8), s.packet, s.measure, s.seed),
                        measure(net, "tornado", TornadoTraffic(Grid{8, 8}), s.packet, s.measure, s.seed)};
    if (s.format == "json") {
        nlohmann::json j{{"packet_flits", s.packet}, {"rows", nlohmann::json::array()}};
        for (const Row& r : rows)
            j["rows"].push_back({{"pattern", r.pattern}, {"bound", r.bound}, {"saturation", r.saturation},
                                   {"fraction", r.saturation / r.bound}});
        fabric_apps::write_json(out.stream(), j, -1);
        return 0;
    }
    out.printf("8x8 torus, DOR + dateline, 2 VCs x 8 flits, %u-flit packets (flits/cycle/node)\n\n", s.packet);
    out.printf("%-20s %12s %12s %10s\n", "pattern", "flow bound", "saturation", "fraction");
    for (const Row& r : rows)
        out.printf("%-20s %12.4f %12.4f %9.0f%%\n", r.pattern.c_str(), r.bound, r.saturation,
                    100 * r.saturation / r.bound);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "torus_saturation",
        "saturation throughput of the 8x8 torus (dimension order, dateline) under uniform, row-column all-to-all and "
        "tornado traffic from the cycle kernel, beside the flow-level bound.",
        saturation);
}
