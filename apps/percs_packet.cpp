// The Blue Waters sketches of the PERCS interconnect paper, section VII, from the
// flit-level kernel and the CAU model:
//   --alltoall D   all-to-all bandwidth per compute node against the VII.A bound, for
//                  d = 1 .. D, shortest (direct) and random indirect routing
//   --d LIST       the same for the d listed (e.g. 1,2,4,8,16)
//   --warmup C, --measure C  cycles of warm-up and of measurement (5000, 4000); an
//                  overloaded machine fills for a few thousand cycles, and a short
//                  warm-up reads low
//   --hotspot      the 32-to-32 hot spot between two supernodes, direct against indirect
//   --messages     16 KB messages (8 packets) between random hubs under random indirect
//                  routing: reassembly at the destination, its reorder depth, latency
//   --cau          a global sum of two double-complex values on the CAU against a
//                  software tree, latency per operation for growing systems
//   --format csv   the all-to-all table as CSV, for tools/plot percs-alltoall (--csv)
// With none of them: all, d up to 1. Options and configuration files:
// apps/common/tool.hpp; a progress line on a terminal. Under mpirun the
// all-to-all runs (two per d) are dealt over the ranks, largest d first, and rank
// 0 prints the same table; the hot spot and message runs are each partitioned
// over the ranks, whole supernodes to a rank (dist/partitioned.hpp), with the same
// output; the CAU sketch runs on rank 0.
#include <fabric/collective/cau.hpp>
#include <fabric/sim/analytic/percs_alltoall.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>

#include "common/dist.hpp"
#ifdef FABRIC_APPS_MPI
#include <fabric/dist/partitioned.hpp>
#endif
#include "common/kernel_cost.hpp"
#include "common/progress.hpp"
#include "common/tool.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {
using namespace fabric;
using ShortestDirect = PercsDirect<IntraRoute::single_hop, ZeroHop::skip>;
using RandomIndirect = PercsIndirect<IntraRoute::single_hop, ZeroHop::skip>;

/// One run, on this process alone, or under mpirun with `whole` partitioned over
/// the ranks, whole supernodes to a rank: the same result either way.
template <class Fab>
CycleResult run_cycles(const Fab& net, CycleConfig cfg, bool whole, auto&& go) {
#ifdef FABRIC_APPS_MPI
    if (whole && fabric_apps::ranks() > 1) {
        fabric_apps::checkpoint();  // the ranks agree before they first wait on each other
        const Groups supernodes{PercsTopology::nodes_per_supernode};
        dist::PartitionedCycle sim(net, std::move(cfg), fabric_apps::session_slot()->comm(), supernodes);
        return go(sim);
    }
#endif
    (void)whole;
    CycleSimulator sim(net, std::move(cfg));
    return go(sim);
}

template <class R, class Pattern>
double gbps_per_node(const PercsTopology& t, const Pattern& pattern, double offered, std::uint64_t warmup,
                     std::uint64_t window, std::uint64_t seed, bool whole = false) {
    const PercsFabric<R> net{t, R{}, Credit{32, 1}};
    CycleConfig cfg = percs_cycle_config(t);
    cfg.memory_limit_mb = fabric_apps::memory_limit_mb();  // the kernel states its need up front
    if (fabric_apps::ranks() == 1) cfg.on_progress = fabric_apps::terminal_progress();
    cfg.warmup = warmup;
    cfg.measure = window;
    cfg.drain_limit = 1;
    cfg.seed = seed;
    const auto r = run_cycles(net, cfg, whole, [&](auto& sim) {
        return sim.run(pattern, percs_flits_per_cycle(t, offered), PacketSizes::fixed(percs_packet_flits));
    });
    return percs_gbps(t, r.accepted);
}

/// Two double-complex values, summed component by component.
struct Complex2 {
    double v[4]{};
    friend Complex2 operator+(const Complex2& a, const Complex2& b) {
        return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
    }
};

struct Settings : fabric_apps::Common {
    std::uint32_t alltoall = 0;  // all-to-all for d = 1 .. alltoall (0: none)
    std::vector<std::uint32_t> d;  // and for these d
    std::uint64_t warmup = 5000;   // cycles
    std::uint64_t measure = 4000;  // cycles
    bool hotspot = false;
    bool messages = false;
    bool cau = false;
    std::uint64_t seed = 1;        // of the traffic (the cycle kernel's runs)

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::alltoall, "--alltoall", "all-to-all bandwidth per node for d = 1 .. D (0: none)",
                      within<std::uint32_t>(0, 16)),
            option<S>(&S::d, "--d", "the same for the d listed, e.g. 1,2,4", within<std::uint32_t>(1, 16)),
            option<S>(&S::warmup, "--warmup", "warm-up, cycles", within<std::uint64_t>(0, std::uint64_t{1} << 40))
                .with("--alltoall").with("--d").with("--hotspot"),
            option<S>(&S::measure, "--measure", "measurement window, cycles",
                      within<std::uint64_t>(1, std::uint64_t{1} << 40)).also("--window")
                .with("--alltoall").with("--d").with("--hotspot"),
            flag<S>(&S::hotspot, "--hotspot", "the 32-to-32 hot spot between two supernodes"),
            flag<S>(&S::messages, "--messages", "16 KB messages under random indirect routing: reassembly"),
            flag<S>(&S::cau, "--cau", "a global sum on the CAU against a software tree"),
            seed_option<S>(&S::seed, "seed of the traffic of the cycle-kernel runs")
                .with("--alltoall").with("--d").with("--hotspot").with("--messages"),
        };
        // csv: the all-to-all table (d, bound, direct, random indirect in GB/s), for tools/plot.
        for (auto& f : format_options<S>({"text", "csv"}, {"csv"})) o.push_back(std::move(f));
        return o;
    }
    /// No sketch named: every one of them, d = 1 (so that the options read as what runs).
    void resolve() {
        if (alltoall != 0 || !d.empty() || hotspot || messages || cau) return;
        alltoall = 1;
        hotspot = messages = cau = true;
    }
};

/// The kernel's counts of one run of `R` on `t` under `pattern`, `per_sender` GB/s offered by each of `senders`
/// hubs, over `cycles` (kernel_cost.hpp): the mean route drawn from the pattern and the routing.
template <class R, class Pattern>
fabric_apps::KernelRun percs_run(const PercsTopology& t, const Pattern& pattern, double per_sender, double senders,
                                 double cycles, std::uint64_t seed) {
    const PercsFabric<R> net{t, R{}, Credit{32, 1}};
    fabric_apps::KernelRun k;
    k.routers = k.terminals = static_cast<double>(t.node_count());
    k.channels = fabric_apps::network_channels(t);
    k.hops = fabric_apps::mean_route(t, net.routing(), pattern, seed);
    k.flits_per_cycle = percs_flits_per_cycle(t, per_sender) * senders;
    k.packet_flits = percs_packet_flits;
    k.cycles = cycles;
    return k;
}

/// What the sketches cost, before any runs: every cycle-kernel run (the CAU model's work is a few sums).
fabric_apps::Cost cost_of(const Settings& s, const std::vector<long long>& ds) {
    const double warmup = static_cast<double>(s.warmup), window = static_cast<double>(s.measure);
    fabric_apps::KernelCounts runs;
    const analytic::PercsAlltoall model;
    for (const long long d : ds) {  // two routings per d, each at 1.3 times the bound, drained for a cycle
        const auto t = PercsTopology::alltoall_model(static_cast<std::uint32_t>(d));
        const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
        const double offered = 1.3 * model.direct_bandwidth(static_cast<double>(d));
        const double hubs = static_cast<double>(t.node_count());
        runs.add(percs_run<ShortestDirect>(t, uniform, offered, hubs, warmup + window + 1, s.seed));
        runs.add(percs_run<RandomIndirect>(t, uniform, offered, hubs, warmup + window + 1, s.seed));
    }
    if (s.hotspot) {  // 32 senders at 16 GB/s, a window of at least 20,000 cycles, both routings
        const auto t = PercsTopology::alltoall_model(1);
        const auto hot = percs_supernode_hotspot(t, 0, 1);
        const double cycles = warmup + std::max(window, 20000.0) + 1;
        runs.add(percs_run<ShortestDirect>(t, hot, 16.0, 32, cycles, s.seed));
        runs.add(percs_run<RandomIndirect>(t, hot, 16.0, 32, cycles, s.seed));
    }
    if (s.messages) {  // 2,000 messages of 8 packets, one every 20 ns, among 8 supernodes
        const PercsTopology t(8, 4);
        const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
        const double gap = std::ceil(20.0 / percs_cycle_config(t).cycle_ns);
        fabric_apps::KernelRun k = percs_run<RandomIndirect>(t, uniform, 0, 0, 2000 * gap + 2000, s.seed);
        k.flits_per_cycle = 8.0 * percs_packet_flits / gap;
        runs.add(k);
    }
    fabric_apps::Cost cost;
    runs.into(cost, "cycle-kernel runs");
    return cost;
}

/// The all-to-all table: each d's bound, and the direct and random indirect runs' bandwidth.
void print_alltoall(const std::vector<long long>& ds, const std::vector<std::size_t>& by_size,
                    const std::vector<double>& runs, const analytic::PercsAlltoall& model, bool csv,
                    fabric_apps::OutputFile& out) {
    std::vector<double> direct_of(ds.size()), indirect_of(ds.size());
    bool nothing = false;
    for (std::size_t k = 0; k < ds.size(); ++k) {
        direct_of[by_size[k]] = runs[2 * k];
        indirect_of[by_size[k]] = runs[2 * k + 1];
    }
    if (csv) {
        fabric_apps::write_csv_provenance(out.stream());
        out.printf("d,bound[GB/s],direct[GB/s],random_indirect[GB/s]\n");
    } else {
        out.printf("All-to-all bandwidth per compute node, GB/s (system of 32d + 1 supernodes, LL 24 GB/s)\n");
        out.printf("%4s %10s %12s %10s %14s %10s\n", "d", "bound", "direct", "of bound", "random indir.", "ratio");
    }
    for (std::size_t i = 0; i < ds.size(); ++i) {
        const long long d = ds[i];
        const double bound = model.direct_bandwidth(static_cast<double>(d));
        const double direct = direct_of[i], indirect = indirect_of[i];
        if (csv)
            out.printf("%lld,%.4f,%.4f,%.4f\n", d, bound, direct, indirect);
        else if (indirect > 0)
            out.printf("%4lld %10.2f %12.2f %9.0f%% %14.2f %10.2f\n", d, bound, direct, 100 * direct / bound,
                       indirect, direct / indirect);
        else  // no ratio to a random indirect run that delivered nothing in its window
            out.printf("%4lld %10.2f %12.2f %9.0f%% %14.2f %10s\n", d, bound, direct, 100 * direct / bound,
                       indirect, "-");
        nothing = nothing || direct == 0 || indirect == 0;
    }
    if (nothing && !csv)
        out.printf("(a run delivered no packet in its window: lengthen --warmup and --measure)\n");
    if (!csv) out.printf("\n");
    out.stream().flush();
}

int sketches(const Settings& s, fabric_apps::OutputFile& out) {
    const bool all = s.alltoall == 0 && s.d.empty() && !s.hotspot && !s.messages && !s.cau;
    const std::uint64_t warmup = s.warmup, window = s.measure;
    const bool csv = s.format == "csv";
    std::vector<long long> ds(s.d.begin(), s.d.end());
    for (long long d = 1; d <= (s.alltoall ? s.alltoall : all ? 1 : 0); ++d) ds.push_back(d);
    for (const long long d : ds) detail::require(d >= 1 && d <= 16, "d (D links per hub) runs from 1 to 16; got ", d);
    detail::require(!csv || (!ds.empty() && !s.hotspot && !s.messages && !s.cau),
                    "--csv (--format csv) writes the all-to-all table only: give --alltoall or --d, and no other sketch");
    fabric_apps::check(cost_of(s, ds));
    if (!ds.empty()) {
        // Two runs per d (direct, random indirect), the largest d first: they take longest,
        // and dealt first they do not leave one rank running alone at the end.
        std::vector<std::size_t> by_size(ds.size());
        for (std::size_t i = 0; i < ds.size(); ++i) by_size[i] = i;
        std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) { return ds[a] > ds[b]; });
        const analytic::PercsAlltoall model;
        const auto runs = fabric_apps::run_list(2 * ds.size(), [&](std::size_t run) {
            const auto d = static_cast<std::uint32_t>(ds[by_size[run / 2]]);
            const auto t = PercsTopology::alltoall_model(d);
            const UniformTraffic uniform(t.node_count(), UniformTraffic::Self::excluded);
            const double offered = 1.3 * model.direct_bandwidth(static_cast<double>(d));
            return run % 2 == 0 ? gbps_per_node<ShortestDirect>(t, uniform, offered, warmup, window, s.seed)
                                : gbps_per_node<RandomIndirect>(t, uniform, offered, warmup, window, s.seed);
        });
        // Rank 0 prints (the others hold no results); every rank goes on to the sketches partitioned over them.
        if (fabric_apps::root_rank()) print_alltoall(ds, by_size, runs, model, csv, out);
    }
    // The hot spot and the messages are single runs: under mpirun each is partitioned, whole supernodes to a rank,
    // and rank 0 prints.
    const bool root = fabric_apps::root_rank();
    if (all || s.hotspot) {
        // Each of supernode 0's 32 hubs sends to its partner in supernode 1 at 16 GB/s.
        const auto t = PercsTopology::alltoall_model(1);
        const auto hot = percs_supernode_hotspot(t, 0, 1);
        const double per_sender = static_cast<double>(t.node_count()) / 32;  // accepted is per node of the machine
        const std::uint64_t cycles = std::max<std::uint64_t>(window, 20000);  // 32 senders: a longer window
        const double direct = gbps_per_node<ShortestDirect>(t, hot, 16.0, warmup, cycles, s.seed, true) * per_sender;
        const double indirect = gbps_per_node<RandomIndirect>(t, hot, 16.0, warmup, cycles, s.seed, true) * per_sender;
        char ratio[48] = "no ratio: direct delivered nothing";  // (a window too short for any packet)
        if (direct > 0) std::snprintf(ratio, sizeof ratio, "%.1fx direct", indirect / direct);
        if (root)
            out.printf("32-to-32 hot spot, supernode 0 to supernode 1, 16 GB/s offered per sending hub:\n"
                       "  direct %.2f GB/s per sending hub (one 10 GB/s D link shared by 32: %.2f)\n"
                       "  random indirect %.2f GB/s per sending hub (%s)\n\n",
                       direct, 10.0 / 32, indirect, ratio);
    }
    if (all || s.messages) {
        // One 16 KB message every 20 ns from a random hub to another, 8 supernodes.
        const PercsTopology t(8, 4);
        const PercsHub hub{t, PercsHubRouting<>(PercsModeMix::only(PercsMode::random_indirect)), Credit{32, 1}};
        CycleConfig cfg = percs_cycle_config(t);
        cfg.memory_limit_mb = fabric_apps::memory_limit_mb();
        cfg.seed = s.seed;
        const auto gap = static_cast<std::uint64_t>(std::ceil(20.0 / cfg.cycle_ns));
        cfg.warmup = 0;
        cfg.measure = 2000 * gap;  // every message is measured
        const auto trace = random_pairs_trace(static_cast<std::uint32_t>(t.node_count()), 2000, gap,
                                              8 * percs_packet_flits, 5);
        const auto r = run_cycles(hub, cfg, true, [&](auto& sim) { return sim.run_trace(trace); });
        if (root)
            out.printf("16 KB messages (8 packets of 2 KB) under random indirect routing, 8 supernodes:\n"
                       "  %llu of %zu messages reassembled; %llu packets arrived ahead of an earlier one of their "
                       "message;\n  reorder depth (most packets held for one message) %llu; message latency %.2f us "
                       "mean, %.2f us max\n\n",
                    static_cast<unsigned long long>(r.messages_delivered), trace.size(),
                    static_cast<unsigned long long>(r.packets_early),
                    static_cast<unsigned long long>(r.message_reorder_depth),
                    r.message_latency.mean * cfg.cycle_ns / 1e3,
                    static_cast<double>(r.message_latency.max) * cfg.cycle_ns / 1e3);
    }
    if (!root) return 0;
    if (all || s.cau) {
        // The software tree pays a message's send and receive overhead on every level.
        const cau::Timing hardware;
        cau::Timing software = hardware;
        software.cau_ns = 1500;  // our assumption for a software hop's send + receive overhead
        out.printf("Global sum of two double-complex values, latency per operation (16-ary trees over all hubs):\n");
        out.printf("%12s %8s %8s %12s %14s\n", "supernodes", "hubs", "depth", "CAU us", "software us");
        for (std::uint32_t ns : {1U, 2U, 4U, 8U, 16U, 64U, 256U}) {
            std::vector<std::uint32_t> hubs(32 * ns);
            for (std::uint32_t i = 0; i < hubs.size(); ++i) hubs[i] = i;
            const auto tree = cau::Tree::k_ary(hubs, 16);
            auto hops = [](std::uint32_t a, std::uint32_t b) { return a / 32 == b / 32 ? 1 : 3; };  // L, or L-D-L
            std::vector<Complex2> values(hubs.size());
            for (std::size_t i = 0; i < values.size(); ++i) values[i].v[i % 4] = 1.0 / static_cast<double>(i + 1);
            const auto hw = cau::reduce<Complex2>({tree}, cau::Op::sum, {values}, hops, hardware);
            const auto sw = cau::reduce<Complex2>({tree}, cau::Op::sum, {values}, hops, software);
            out.printf("%12u %8zu %8zu %12.2f %14.2f\n", ns, hubs.size(), tree.depth(), hw[0].done_ns / 1e3,
                        sw[0].done_ns / 1e3);
        }
    }
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    const fabric_apps::MpiScope mpi(argc, argv);
    return fabric_apps::run_tool<Settings>(
        argc, argv, "percs_packet",
        "the Blue Waters sketches of the PERCS interconnect paper (section VII) from the cycle kernel and the CAU "
        "model; with no sketch named, all of them with d = 1.",
        sketches);
}
