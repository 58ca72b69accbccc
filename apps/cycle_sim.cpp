// cycle_sim: the flit-level cycle kernel on a k-ary n-cube, a HyperX, a
// hypercube, a dragonfly or a fat tree from the command line
// or a configuration file. One run (text or JSON), or a latency-load sweep with
// several seeds per point (CSV or JSON with 95% confidence intervals); under
// mpirun the sweep's loads are dealt over the ranks, and one run is partitioned
// (its routers dealt over the ranks: dist/partitioned.hpp), with the same output.
// Exit status: 0 done, 2 bad options or configuration, 3 deadlock. Options and
// configuration files: apps/common/tool.hpp.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <fabric/core/error.hpp>
#include <fabric/mapping/named_pattern.hpp>
#include <fabric/topology/dragonfly.hpp>

#include "common/booksim_file.hpp"
#include "common/dist.hpp"
#include "common/tool.hpp"
#include "common/numbers.hpp"
#include "cycle_sim_settings.hpp"
#include "cycle_sim/families.hpp"

namespace {
using namespace fabric;
using fabric_apps::RunSettings;
namespace cs = fabric_apps::cycle_sim;

/// The grid of terminals the patterns see: the extents of a torus or mesh (a
/// HyperX's with p terminals a router: p times the first), n extents of 2 for a
/// hypercube, (a p terminals, g groups) for a dragonfly, n digits of k for a k-ary
/// n-tree.
std::vector<long long> node_grid(const RunSettings& s) {
    if (s.topology == "hypercube") return std::vector<long long>(s.n, 2);
    if (s.topology == "fattree") return std::vector<long long>(s.n, s.k);
    if (s.topology == "dragonfly")
        return {static_cast<long long>(s.a) * s.p, static_cast<long long>(Dragonfly<64>(s.a, s.h, s.g).groups())};
    std::vector<long long> grid = s.dims;
    if (!grid.empty()) grid[0] *= s.p;
    return grid;
}

/// worst-case: the pattern the topology is judged by, a group shift (every terminal
/// of group i sends to group i + 1) given here as its grid (group size, groups):
/// the dragonfly's groups (Kim et al.), a fat tree's top-level subtrees (every packet
/// climbs to the roots), a HyperX's routers (the flattened butterfly's R_i to R_(i+1)).
std::vector<long long> worst_case_grid(const RunSettings& s) {
    if (s.topology == "dragonfly") return node_grid(s);
    if (s.topology == "fattree") {
        long long subtree = 1;
        for (std::uint32_t l = 1; l < s.n; ++l) subtree *= s.k;
        return {subtree, static_cast<long long>(s.k)};
    }
    detail::require(s.topology == "hyperx", "pattern: worst-case is defined here for the dragonfly (group i to group "
                    "i + 1), the fat tree (subtree i to subtree i + 1) and the HyperX (router i to router i + 1); for a ",
                    s.topology, " name the pattern (e.g. tornado or bitcomp)");
    long long routers = 1;
    for (const long long k : s.dims) routers *= k;
    return {static_cast<long long>(s.p), routers};
}

int simulate(const RunSettings& s) {
    detail::require(s.p == 1 || s.topology == "dragonfly" || s.topology == "hyperx", "p: terminals per router are an "
                    "option of the dragonfly and the HyperX here; a ", s.topology, " has one a router (leave out --p)");
    const bool worst = s.pattern == "worst-case";
    const NamedPattern pattern = NamedPattern::make(worst ? "group_shift" : s.pattern,
                                                    worst ? worst_case_grid(s) : node_grid(s),
                                                    s.seeds.empty() ? 1 : s.seeds.front());
    if (s.topology == "hypercube") return cs::simulate_hypercube(s, pattern);
    if (s.topology == "dragonfly") return cs::simulate_dragonfly(s, pattern);
    if (s.topology == "hyperx") return cs::simulate_hyperx(s, pattern);
    if (s.topology == "fattree") return cs::simulate_fat_tree(s, pattern);
    detail::require(s.topology == "torus" || s.topology == "mesh", "topology: torus, mesh, hypercube, hyperx, dragonfly "
                    "or fattree; got '",
                    s.topology, "'");
    detail::require(s.routing == "dor" || s.routing == "dor-positive", "routing: a ", s.topology, " routes dor or "
                    "dor-positive; got '", s.routing, "'");
    detail::require(s.dateline == "wraparound" || s.dateline == "whole-ring", "dateline: wraparound or whole-ring; got '",
                    s.dateline, "'");
    detail::require(s.vcs == 1 || s.vcs == 2, "vcs: 1 or 2; got ", s.vcs);
    switch (s.dims.size()) {
        case 1: return cs::simulate_cube<1>(s, pattern);
        case 2: return cs::simulate_cube<2>(s, pattern);
        case 3: return cs::simulate_cube<3>(s, pattern);
        case 4: return cs::simulate_cube<4>(s, pattern);
        default: throw config_error(detail::message("fabric: dims: 1 to 4 extents; got ", s.dims.size()));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const fabric_apps::MpiScope mpi(argc, argv);
    // --booksim FILE [key=value ...]: BookSim's settings as the options they translate to (docs/booksim_files.md).
    std::vector<std::string> booksim_args;
    std::vector<char*> booksim_argv;
    try {
        fabric_apps::booksim::expand(argc, argv, booksim_args, booksim_argv);
    } catch (const config_error& e) {
        if (fabric_apps::root_rank()) std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return fabric_apps::run_tool<RunSettings>(
        argc, argv, "cycle_sim",
        "the fabric cycle kernel on a k-ary n-cube (torus or mesh) under dimension-order routing, a "
        "HyperX under dimension order, a hypercube under e-cube routing, a dragonfly under minimal, Valiant or UGAL routing or "
        "a k-ary n-tree under nearest-common-ancestor routing; a deadlock exits with "
        "status 3. --booksim FILE [key=value ...] runs a BookSim2 configuration file as the options it translates "
        "to (docs/booksim_files.md).",
        [](CLI::App& app, RunSettings& s) {
            app.add_option("--topology", s.topology, "torus, mesh, hypercube, hyperx, dragonfly (one terminal a "
                           "router, or --p) or fattree (k terminals a leaf switch)")->check(fabric_apps::one_of({"torus", "mesh", "hypercube", "hyperx", "dragonfly", "fattree"}))->capture_default_str();
            app.add_option("--dims", s.dims, "torus, mesh, hyperx: extents, e.g. 8,8 (1 to 4 dimensions)")->check(fabric_apps::within<long long>(1, 1LL << 30))->delimiter(',')->capture_default_str();
            app.add_option("--n", s.n, "hypercube: dimensions (2^n nodes); fattree: levels (k^n terminals)")->check(fabric_apps::within<std::uint32_t>(1, 16))->capture_default_str();
            app.add_option("--k", s.k, "fattree: arity, 2 to 8 (k terminals a leaf, k up and k down ports a switch)")->check(fabric_apps::within<std::uint32_t>(2, 8))->capture_default_str();
            app.add_option("--a", s.a, "dragonfly: routers per group")->check(fabric_apps::within<std::uint32_t>(1, 32))->capture_default_str();
            app.add_option("--h", s.h, "dragonfly: global ports per router")->check(fabric_apps::within<std::uint32_t>(1, 32))->capture_default_str();
            app.add_option("--g", s.g, "dragonfly: groups, 2 to a h + 1 (0: a h + 1)")->check(fabric_apps::within<std::uint32_t>(0, 1025))->capture_default_str();
            app.add_option("--p,--terminals", s.p, "dragonfly, hyperx: terminals per router, 1 to 4 (loads are then per terminal)")->check(fabric_apps::within<std::uint32_t>(1, 4))->capture_default_str();
            app.add_option("--routing", s.routing, "torus, mesh: dor (ties at k/2 split evenly) or dor-positive (taken "
                           "+); hyperx: dor or adaptive; hypercube: ecube (or dor, the same); dragonfly: min, val (Valiant), ugal-l or ugal-g; fattree: nca or adaptive")->check(fabric_apps::one_of({"dor", "dor-positive", "ecube", "min", "val", "ugal-l", "ugal-g", "nca", "adaptive"}))->capture_default_str();
            app.add_option("--dateline", s.dateline, "with 2 VCs on a torus: wraparound (VC 1 from the wraparound hop on) "
                           "or whole-ring (VC 1 for the whole ring when the leg will wrap: BookSim's dim_order_torus)")
                ->check(fabric_apps::one_of({"wraparound", "whole-ring"}))->capture_default_str();
            app.add_option("--vcs", s.vcs, "torus, mesh, hyperx, hypercube: virtual channels per link: 2 with the dateline, 1 without (may deadlock); a dragonfly has what its routing needs")->check(fabric_apps::within(1, 2))->capture_default_str();
            app.add_option("--vc-buf", s.vc_buf, "buffer per virtual channel, flits")->check(fabric_apps::at_least<std::uint32_t>(1))->capture_default_str();
            app.add_option("--packet", s.packet, "packet size: N flits, or S:L:P (S with probability P, else L)")->capture_default_str();
            app.add_option("--burst", s.burst, "ALPHA:BETA: on/off (bursty) injection, BookSim's on_off: off -> on "
                           "with probability ALPHA a cycle, on -> off with BETA; the mean stays --rate");
            app.add_option("--pattern", s.pattern, std::string("traffic: ") + NamedPattern::names + ", worst-case (dragonfly: group i to group i + 1; fattree: top-level subtree i to i + 1; hyperx: router i to router i + 1)")->capture_default_str();
            app.add_option("--rate", s.rate, "offered load, flits/cycle/terminal (a terminal is a router unless --p > 1; Bernoulli injection; at most the mean packet size)")->check(fabric_apps::within(0.0, 65535.0))->capture_default_str();
            app.add_option("--sweep", s.sweep, "FROM:TO:STEP: a latency-load curve instead of one run (CSV, or JSON with --json)");
            app.add_option("--seeds", s.seeds, "random seeds: a sweep runs each point once per seed (95% intervals); one "
                           "run uses the first")->check(fabric_apps::any_seed())->delimiter(',')->capture_default_str();
            app.add_option("--warmup", s.warmup, "warm-up, cycles")->check(fabric_apps::within<std::uint64_t>(0, (std::uint64_t{1} << 60) - 1))->capture_default_str();
            app.add_option("--measure", s.measure, "measurement window, cycles")->check(fabric_apps::within<std::uint64_t>(1, (std::uint64_t{1} << 60) - 1))->capture_default_str();
            app.add_option("--router-delay", s.router_delay, "R,VA,SA,ST: cycles of routing, VC allocation, switch "
                           "allocation, switch traversal")->check(fabric_apps::within<std::uint32_t>(0, fabric::max_delay_cycles))->delimiter(',')->capture_default_str();
            app.add_option("--link-latency", s.link_latency, "cycles per link")->check(fabric_apps::within<std::uint32_t>(1, fabric::max_delay_cycles))->capture_default_str();
            app.add_option("--credit-delay", s.credit_delay, "cycles for a credit to return")->check(fabric_apps::within<std::uint32_t>(1, fabric::max_delay_cycles))->capture_default_str();
            app.add_option("--terminal-latency", s.terminal_latency, "IN,OUT: cycles of the injection and ejection "
                           "channels between a terminal and its router (BookSim: 1,1)")
                ->check(fabric_apps::within<std::uint32_t>(0, fabric::max_delay_cycles))->delimiter(',')->capture_default_str();
            app.add_option("--head-turnaround", s.head_turnaround, "cycles after a tail leaves an input VC before the "
                           "head behind it routes (BookSim's input-queued router: 1)")
                ->check(fabric_apps::within<std::uint32_t>(0, fabric::max_delay_cycles))->capture_default_str();
            app.add_flag("--wait-for-tail-credit", s.wait_for_tail_credit, "an output VC goes to another packet only "
                         "once the last one's tail credit is back (BookSim's wait_for_tail_credit)");
            app.add_flag("--speculative", s.speculative, "speculative switch allocation: a head bids for the switch "
                         "in its VC allocation cycle, below other requests (BookSim's speculative)");
            app.add_option("--injection-queues", s.injection_queues, "source queues per node, each on its own injection "
                           "VC, messages dealt to them in turn (at most --vcs; BookSim's sources use every VC)")
                ->check(fabric_apps::within<std::uint32_t>(1, 2))->capture_default_str();
            app.add_option("--switching", s.switching, "wormhole or vct (virtual cut-through)")->check(fabric_apps::one_of({"wormhole", "vct"}))->capture_default_str();
            app.add_option("--allocator", s.allocator, "switch allocator: separable (input-first round robin), islip "
                           "(one iteration), output-first (separable output-first) or wavefront")
                ->check(fabric_apps::one_of({"separable", "islip", "output-first", "wavefront"}))->capture_default_str();
            app.add_option("--watchdog", s.watchdog, "cycles a flit may wait before the deadlock search looks")->check(fabric_apps::within<std::uint64_t>(1, (std::uint64_t{1} << 60) - 1))->capture_default_str();
            app.add_option("--memory-limit", s.memory_limit, "MB a run may take: a larger configuration is refused "
                           "with the figure it needs; source queues that would outgrow it stop the run (saturated)")->check(fabric_apps::at_least<std::uint64_t>(1))
                ->capture_default_str();
            app.add_option("--source-queue", s.source_queue, "packets a terminal's source queues may hold: past it "
                           "new messages are refused (reported as refused load); 0: unbounded")
                ->check(fabric_apps::within<std::uint32_t>(0, 1U << 30))->capture_default_str();
            app.add_flag("--json", s.json, "JSON output");
            app.add_option("--sample-period", s.sample_period, "BookSim's converging sampler: sample periods of this "
                           "many cycles choose the window (--warmup and --measure are then unused); 0: fixed window")
                ->check(fabric_apps::within<std::uint64_t>(0, (std::uint64_t{1} << 40) - 1))->capture_default_str();
            app.add_option("--warmup-thres", s.warmup_thres, "with --sample-period: warm-up ends when latency and "
                           "accepted rate change by at most this fraction between periods")
                ->check(fabric_apps::within(0.0, 1e6))->capture_default_str();
            app.add_option("--stopping-thres", s.stopping_thres, "with --sample-period: the window closes after three "
                           "periods in a row that change by at most this fraction")
                ->check(fabric_apps::within(0.0, 1e6))->capture_default_str();
            app.add_option("--max-samples", s.max_samples, "with --sample-period: periods in all, warm-up included")
                ->check(fabric_apps::within<std::uint32_t>(1, 1000000))->capture_default_str();
            app.add_option("--warmup-periods", s.warmup_periods, "with --sample-period: warm-up lasts this many "
                           "periods (BookSim's warmup_periods); 0: until the changes are within --warmup-thres")
                ->check(fabric_apps::within<std::uint32_t>(0, 1000000))->capture_default_str();
            app.add_option("--latency-thres", s.latency_thres, "with --sample-period: a mean latency above this stops "
                           "the run as unstable (saturated); 0: no limit")
                ->check(fabric_apps::within(0.0, 1e12))->capture_default_str();
            app.add_option("--channel-stats", s.channel_stats, "write every link's utilisation in the window (flits a "
                           "cycle) to this CSV file: node,port,neighbour,flits_per_cycle (one run, not a sweep)");
            app.add_option("--reply-flits", s.reply_flits, "request-reply traffic (BookSim's use_read_write): every "
                           "packet is a request, answered on delivery by a reply of this many flits; 0: off")
                ->check(fabric_apps::within<std::uint32_t>(0, 65535))->capture_default_str();
            app.add_option("--max-outstanding", s.max_outstanding, "with --reply-flits: a source with this many "
                           "requests awaiting their reply makes no new one (BookSim's max_outstanding_requests); 0: no "
                           "limit")->check(fabric_apps::within<std::uint32_t>(0, 1U << 30))->capture_default_str();
            app.add_option("--class-priority", s.class_priority, "traffic classes (BookSim's classes and "
                           "class_priority): one priority per class, higher first in VC and switch allocation; each "
                           "class has --injection-queues injection VCs of its own (so at most --vcs VCs in all)")
                ->check(fabric_apps::within<std::uint32_t>(0, 1U << 30))->delimiter(',');
            app.add_option("--class-rates", s.class_rates, "with --class-priority: each class's offered load, "
                           "flits/cycle/node (BookSim's injection_rate list); --rate is then unused")
                ->check(fabric_apps::within(0.0, 65535.0))->delimiter(',');
            app.add_option("--node-stats", s.node_stats, "write each node's offered, injected and accepted flits "
                           "a cycle in the window and its measured packets' count and mean latency as source and as "
                           "destination to this CSV file (one run)");
            app.add_option("--watch", s.watch, "trace every flit of these packets (numbered from 0 in creation order): "
                           "created, switched, arrived, ejected, with cycle, node, port and VC (one run)")
                ->check(fabric_apps::within<std::uint64_t>(0, std::uint64_t{1} << 62))->delimiter(',');
            app.add_option("--watch-file", s.watch_file, "where --watch writes its CSV trace; -: standard output")
                ->capture_default_str();
            app.add_option("--trace", s.trace, "replay this CSV message trace (cycle,source,destination,flits or "
                           "bytes[,class]; docs/traces.md) instead of the pattern, messages split into packets of at "
                           "most --packet flits; prints each message's latency (CSV) and their summary");
            app.add_option("--flit-bytes", s.flit_bytes, "with --trace in bytes: bytes a flit")
                ->check(fabric_apps::within<std::uint32_t>(1, 1U << 20))->capture_default_str();
            app.add_option("--preset", s.preset, "start from a named set of settings (a --config file and the options "
                           "given override it): booksim-iq is BookSim2's input-queued router and run methodology "
                           "(fabric::BookSimIq: islip, whole-ring dateline, terminal channels 2,1, head turnaround 1, "
                           "both injection VCs, 1000 + 10000 cycles)")
                ->check(fabric_apps::one_of({"none", "booksim-iq"}))->capture_default_str();
        },
        simulate);
}
