// cycle_sim: the flit-level cycle kernel on a k-ary n-cube, a HyperX, a
// hypercube, a dragonfly, a fat tree or a graph read from a file, from the command
// line or a configuration file. One run (text, JSON or CSV), or a latency-load sweep with several seeds
// per point (CSV or JSON with 95% confidence intervals); under mpirun the sweep's
// loads are dealt over the ranks, and one run is partitioned (its routers dealt
// over the ranks: dist/partitioned.hpp), with the same output. Exit status: 0
// done, 2 bad options, configuration or output, 3 a deadlock (in one run or any of
// a sweep). The options are declared once, below; the convention every tool
// shares is docs/tools.md.
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include <fabric/collective/expander.hpp>
#include <fabric/core/error.hpp>
#include <fabric/mapping/named_pattern.hpp>
#include <fabric/topology/dragonfly.hpp>

#include "common/booksim_file.hpp"
#include "common/dist.hpp"
#include "common/tool.hpp"
#include "cycle_sim/families.hpp"
#include "cycle_sim_settings.hpp"

namespace {
using namespace fabric;
using fabric_apps::RunSettings;
namespace cs = fabric_apps::cycle_sim;

/// --collective-algorithms: "OP=ALG,..." checked as collective::WorkloadAlgorithms reads it.
struct AlgorithmChoices {
    using value_type = std::string;
    [[nodiscard]] std::string type() const { return "OP=ALG[,OP=ALG...]"; }
    [[nodiscard]] std::string parse(std::string_view text, std::string_view what) const {
        std::string list = fabric_apps::utf8(text, what);
        try {
            collective::WorkloadAlgorithms().choose(list);
        } catch (const config_error& e) {
            detail::rethrow_at(std::string(what) + ": ", e);
        }
        return list;
    }
    static constexpr auto json_type = nlohmann::json::value_t::string;
};

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

int simulate(const RunSettings& s, fabric_apps::OutputFile& result) {
    detail::require(s.seeds.size() == 1 || !s.sweep.empty(), "seeds: one run takes one seed (a sweep runs each point "
                    "once per seed); give one, or --sweep; got ", s.seeds.size());
    cs::Outputs out = cs::open_outputs(s, result);  // every file this run writes, before the network is built
    const bool worst = s.pattern == "worst-case";
    if (s.topology == "graph") {  // the patterns see its terminals in a line
        detail::require(!worst, "pattern: worst-case is not defined for a graph read from a file; name the pattern "
                        "(e.g. uniform, randperm)");
        const GraphDescription d = cs::read_graph(s);
        const NamedPattern pattern = NamedPattern::make(s.pattern, {static_cast<long long>(cs::graph_terminals(d))},
                                                        s.seeds.empty() ? 1 : s.seeds.front());
        return cs::simulate_graph(d, s, pattern, out);
    }
    detail::require(s.vcs <= 2 || (s.vcs == 4 && s.topology == "fattree"), "vcs: a ", s.topology, " has 1 or 2 "
                    "virtual channels a link (up to 4 on a graph, 4 on a fat tree); got ", s.vcs);
    const NamedPattern pattern = NamedPattern::make(worst ? "group_shift" : s.pattern,
                                                    worst ? worst_case_grid(s) : node_grid(s),
                                                    s.seeds.empty() ? 1 : s.seeds.front());
    if (s.topology == "hypercube") return cs::simulate_hypercube(s, pattern, out);
    if (s.topology == "dragonfly") return cs::simulate_dragonfly(s, pattern, out);
    if (s.topology == "hyperx") return cs::simulate_hyperx(s, pattern, out);
    if (s.topology == "fattree") return cs::simulate_fat_tree(s, pattern, out);
    detail::require(s.routing == "dor" || s.routing == "dor-positive" || s.routing == "adaptive", "routing: a ",
                    s.topology, " routes dor, dor-positive or adaptive; got '", s.routing, "'");
    switch (s.dims.size()) {
        case 1: return cs::simulate_cube<1>(s, pattern, out);
        case 2: return cs::simulate_cube<2>(s, pattern, out);
        case 3: return cs::simulate_cube<3>(s, pattern, out);
        case 4: return cs::simulate_cube<4>(s, pattern, out);
        default: throw config_error(detail::message("dims: 1 to 4 extents; got ", s.dims.size()));
    }
}

}  // namespace

namespace fabric_apps {

Options<RunSettings> RunSettings::options() {
    using S = RunSettings;
    using fabric::CycleConfig;
    const std::vector<std::string> cubes{"torus", "mesh", "hyperx"};
    const auto cycles = within<std::uint64_t>(0, (std::uint64_t{1} << 60) - 1);
    const auto delay = within<std::uint32_t>(0, fabric::max_delay_cycles);
    Options<S> o{
        option<S>(&S::topology, "--topology", "torus, mesh, hypercube, hyperx, dragonfly (one terminal a router, or "
                  "--p), fattree (k terminals a leaf switch) or graph (read from --graph FILE)",
                  one_of({"torus", "mesh", "hypercube", "hyperx", "dragonfly", "fattree", "graph"})),
        option<S>(&S::graph, "--graph", "the network's file: fabric's edge list or BookSim's anynet file "
                  "(docs/graph_topology.md); at most 64 ports and 16 terminals a router", input_file()).only_for({"graph"}),
        option<S>(&S::dims, "--dims", "extents, e.g. 8,8 (1 to 4 dimensions)", within<long long>(1, 1LL << 30)).only_for(cubes),
        option<S>(&S::n, "--n", "dimensions (hypercube: 2^n nodes, n up to 16) or levels (fattree: k^n terminals, n "
                  "up to 8)",
                  within<std::uint32_t>(1, 16)).only_for({"hypercube", "fattree"}),
        option<S>(&S::k, "--k", "arity, 2 to 8 (k terminals a leaf, k up and k down ports a switch)",
                  within<std::uint32_t>(2, 8)).only_for({"fattree"}),
        option<S>(&S::a, "--a", "routers per group", within<std::uint32_t>(1, 32)).only_for({"dragonfly"}),
        option<S>(&S::h, "--h", "global ports per router", within<std::uint32_t>(1, 32)).only_for({"dragonfly"}),
        option<S>(&S::g, "--g", "groups, 2 to a h + 1 (0: a h + 1)", within<std::uint32_t>(0, 1025)).only_for({"dragonfly"}),
        option<S>(&S::p, "--p", "terminals per router, 1 to 4 (loads are then per terminal)",
                  within<std::uint32_t>(1, 4)).also("--terminals").only_for({"dragonfly", "hyperx"}),
        option<S>(&S::routing, "--routing", "default the topology's own (the first named here): torus, mesh: dor (ties "
                  "at k/2 split evenly), dor-positive (taken +) or adaptive (minimal adaptive, with its own VCs: "
                  "2 + 2^(n-1) on a torus of n dimensions, 2^(n-1) on a mesh); hyperx: dor or adaptive; hypercube: ecube (or dor, the "
                  "same); dragonfly: min, val (Valiant), ugal-l or ugal-g; fattree: nca or adaptive; graph: shortest",
                  one_of({"dor", "dor-positive", "ecube", "min", "val", "ugal-l", "ugal-g", "nca", "adaptive",
                          "shortest"})),
        option<S>(&S::dateline, "--dateline", "wraparound (VC 1 from the wraparound hop on) or whole-ring (VC 1 for "
                  "the whole ring when the leg will wrap: BookSim's dim_order_torus)",
                  one_of({"wraparound", "whole-ring"})).only_for({"torus"}).with("--vcs", "2"),
        option<S>(&S::vcs, "--vcs", "virtual channels per link: 2 with the dateline, 1 without (may deadlock); a "
                  "graph's routes are layered on at most this many, 1 to 4 (its links have 2, or 4 past 2); a "
                  "dragonfly has what its routing needs; a fat tree one VC, or 4 (nca, k up to 4) for --vc-choice any",
                  within(1, 4))
            .only_for({"torus", "mesh", "hyperx", "hypercube", "graph", "fattree"}).without("--routing", "adaptive"),
        option<S>(&S::vc_buf, "--vc-buf", "buffer per virtual channel, flits", at_least<std::uint32_t>(1)),
        option<S>(&S::credit_delay, "--credit-delay", "cycles for a credit to return",
                  within<std::uint32_t>(1, fabric::max_delay_cycles)),
        option<S>(&S::packet, "--packet", "packet size: N flits, or S:L:P (S with probability P, else L)", Text{}),
        option<S>(&S::burst, "--burst", "ALPHA:BETA: on/off (bursty) injection, BookSim's on_off: off -> on with "
                  "probability ALPHA a cycle, on -> off with BETA; the mean stays --rate", Text{}).without("--trace")
            .without("--workload"),
        option<S>(&S::pattern, "--pattern", std::string("traffic: ") + NamedPattern::names + ", worst-case (dragonfly: "
                  "group i to group i + 1; fattree: top-level subtree i to i + 1; hyperx: router i to router i + 1)", Text{})
            .without("--trace").without("--workload"),
        option<S>(&S::rate, "--rate", "offered load, flits/cycle/terminal (a terminal is a router unless --p > 1; "
                  "Bernoulli injection; at most the mean packet size)", within(0.0, 65535.0))
            .without("--class-priority").without("--trace").without("--workload"),
        option<S>(&S::sweep, "--sweep", "FROM:TO:STEP: a latency-load curve instead of one run (as CSV, or JSON)", Text{})
            .without("--trace").without("--workload"),
        option<S>(&S::seeds, "--seeds", "random seeds: a sweep runs each point once per seed (95% intervals); one run "
                  "uses the first", any_seed()).also("--seed"),
        option<S>(at(&S::kernel, &CycleConfig::warmup), "--warmup", "warm-up, cycles", cycles)
            .without("--sample-period").without("--trace").without("--workload"),
        option<S>(at(&S::kernel, &CycleConfig::measure), "--measure", "measurement window, cycles",
                  within<std::uint64_t>(1, (std::uint64_t{1} << 60) - 1)).without("--sample-period").without("--trace")
            .without("--workload"),
        option<S>(&S::router_delay, "--router-delay", "R,VA,SA,ST: cycles of routing, VC allocation, switch "
                  "allocation, switch traversal", delay),
        option<S>(at(&S::kernel, &CycleConfig::link_latency), "--link-latency", "cycles per link",
                  within<std::uint32_t>(1, fabric::max_delay_cycles)).without("--class-latency"),
        option<S>(&S::class_latency, "--class-latency", "cycles per link class, one a class the topology has, in "
                  "place of --link-latency (a dragonfly: local,global, e.g. 10,100 as BookSim's dragonflynew; the "
                  "others have one class)", within<std::uint32_t>(1, fabric::max_delay_cycles)),
        flag<S>(at(&S::kernel, &CycleConfig::feedback_over_link), "--credits-over-link", "a credit crosses its "
                "link back: it takes the link's latency on top of --credit-delay (BookSim's credit channels)"),
        option<S>(&S::terminal_latency, "--terminal-latency", "IN,OUT: cycles of the injection and ejection channels "
                  "between a terminal and its router (BookSim: 1,1)", delay),
        option<S>(at(&S::kernel, &CycleConfig::head_turnaround), "--head-turnaround", "cycles after a tail leaves an "
                  "input VC before the head behind it routes (BookSim's input-queued router: 1)", delay),
        flag<S>(at(&S::kernel, &CycleConfig::wait_for_tail_credit), "--wait-for-tail-credit", "an output VC goes to "
                "another packet only once the last one's tail credit is back (BookSim's wait_for_tail_credit)"),
        flag<S>(at(&S::kernel, &CycleConfig::speculative), "--speculative", "speculative switch allocation: a head "
                "bids for the switch in its VC allocation cycle, below other requests (BookSim's speculative)"),
        option<S>(at(&S::kernel, &CycleConfig::injection_queues), "--injection-queues", "source queues per terminal, "
                  "each on its own injection VC, messages dealt to them in turn (at most the fabric's VCs); 0: one per "
                  "VC, as BookSim's sources use every VC", within<std::uint32_t>(0, 4)),
        option<S>(&S::switching, "--switching", "wormhole or vct (virtual cut-through)", one_of({"wormhole", "vct"})),
        option<S>(&S::vc_choice, "--vc-choice", "route (a head asks for the VC its route names) or any (any free VC "
                  "of the route's class: the VCs dealt evenly to the classes the routing needs, BookSim's VC ranges)",
                  one_of({"route", "any"})),
        option<S>(&S::allocator, "--allocator", "switch allocator: separable (input-first round robin), islip (one "
                  "iteration), output-first (separable output-first) or wavefront",
                  one_of({"separable", "islip", "output-first", "wavefront"})),
        option<S>(at(&S::kernel, &CycleConfig::watchdog), "--watchdog", "cycles a flit may wait before the deadlock "
                  "search looks", within<std::uint64_t>(1, (std::uint64_t{1} << 60) - 1)),
        option<S>(at(&S::kernel, &CycleConfig::drain_limit), "--drain-limit", "cycles a run may go on after its "
                  "window to deliver its measured packets (0: three windows, at least 20,000); with --workload: the "
                  "cycle the run stops at, finished or not (0: none)", within<std::uint64_t>(0, (std::uint64_t{1} << 60) - 1)),
        option<S>(at(&S::kernel, &CycleConfig::progress_seconds), "--progress-seconds", "seconds of wall time "
                  "between updates of the progress line on a terminal (the first after as many)",
                  within(0.0, 1e6, true)),
        option<S>(at(&S::kernel, &CycleConfig::source_queue_packets), "--source-queue", "packets a terminal's source "
                  "queues may hold: past it new messages are refused (reported as refused load); 0: unbounded",
                  within<std::uint32_t>(0, 1U << 30)).without("--trace"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::sample_period), "--sample-period",
                  "BookSim's converging sampler: sample periods of this many cycles choose the window, in place of "
                  "--warmup and --measure; 0: fixed window", within<std::uint64_t>(0, (std::uint64_t{1} << 40) - 1))
            .without("--trace").without("--workload"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::warmup_threshold),
                  "--warmup-thres", "warm-up ends when latency and accepted rate change by at "
                  "most this fraction between periods", within(0.0, 1e6)).with("--sample-period"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::stopping_threshold),
                  "--stopping-thres", "the window closes after three periods in a row that "
                  "change by at most this fraction", within(0.0, 1e6)).with("--sample-period"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::max_samples), "--max-samples",
                  "periods in all, warm-up included", within<std::uint32_t>(1, 1000000)).with("--sample-period"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::warmup_periods),
                  "--warmup-periods", "warm-up lasts this many periods (BookSim's "
                  "warmup_periods); 0: until the changes are within --warmup-thres", within<std::uint32_t>(0, 1000000))
            .with("--sample-period"),
        option<S>(at(&S::kernel, &CycleConfig::sampling, &fabric::ConvergingSampling::latency_threshold),
                  "--latency-thres", "a mean latency above this stops the run as unstable "
                  "(saturated); 0: no limit", within(0.0, 1e12)).with("--sample-period"),
        option<S>(&S::channel_stats, "--channel-stats", "write every link's utilisation in the window (flits a cycle) "
                  "to this CSV file: node,port,neighbour,flits_per_cycle", file()).without("--sweep").without("--trace")
            .without("--workload"),
        option<S>(at(&S::kernel, &CycleConfig::request_reply, &fabric::RequestReply::reply_flits), "--reply-flits",
                  "request-reply traffic (BookSim's use_read_write): every packet is a request, answered on delivery "
                  "by a reply of this many flits; loads then count both; 0: off", within<std::uint32_t>(0, 65535))
            .without("--trace").without("--workload"),
        option<S>(at(&S::kernel, &CycleConfig::request_reply, &fabric::RequestReply::max_outstanding),
                  "--max-outstanding", "a source with this many requests awaiting their reply "
                  "makes no new one (BookSim's max_outstanding_requests); 0: no limit", within<std::uint32_t>(0, 1U << 30))
            .with("--reply-flits"),
        option<S>(at(&S::kernel, &CycleConfig::class_priority), "--class-priority", "traffic classes (BookSim's "
                  "classes and class_priority): one priority per class, higher first in VC and switch allocation; "
                  "each class has --injection-queues injection VCs of its own (so at most --vcs VCs in all)",
                  within<std::uint32_t>(0, 1U << 30)).without("--sweep"),
        option<S>(&S::class_rates, "--class-rates", "each class's offered load, flits/cycle/terminal (BookSim's "
                  "injection_rate list), in place of --rate", within(0.0, 65535.0))
            .with("--class-priority").without("--trace").without("--workload"),
        option<S>(&S::node_stats, "--node-stats", "write each terminal's offered, injected and accepted flits a cycle "
                  "in the window and its measured packets' count and mean latency as source and as destination to "
                  "this CSV file", file()).without("--sweep").without("--trace").without("--workload"),
        option<S>(at(&S::kernel, &CycleConfig::watch, &fabric::WatchSettings::packets), "--watch", "trace every flit "
                  "of these packets (numbered from 0 in creation order): created, switched, arrived, ejected, with "
                  "cycle, node, port and VC", within<std::uint64_t>(0, std::uint64_t{1} << 62))
            .without("--sweep").without("--trace").without("--workload"),
        option<S>(&S::watch_file, "--watch-file", "where the watch trace goes (CSV); -: standard output", file())
            .with("--watch"),
        option<S>(&S::trace, "--trace", "replay this CSV message trace (cycle,source,destination,flits or bytes"
                  "[,class]; docs/traces.md) instead of the pattern, messages split into packets of at most --packet "
                  "flits; writes each message's latency (CSV) and their summary", input_file()),
        option<S>(&S::flit_bytes, "--flit-bytes", "bytes a flit (a trace in bytes)", within<std::uint32_t>(1, 1U << 20))
            .with("--trace").with("--workload"),
        option<S>(&S::workload, "--workload", "run this workload, whose messages wait for one another (a CSV trace "
                  "with id, after and delay columns, docs/traces.md, a LogGOPSim GOAL schedule, or a Chakra execution "
                  "trace in JSON, name.0.json read with name.1.json and on, a rank each; by extension, else by content), rank r on terminal r: each rank's finish cycle and the whole workload's; exit status 3 "
                  "with which ranks wait for what when it cannot finish", input_file()),
        option<S>(&S::overhead, "--overhead", "LogGP's o, cycles a send and a receive take their "
                  "rank's CPU", within<std::uint64_t>(0, std::uint64_t{1} << 40)).with("--workload"),
        option<S>(&S::gap, "--gap", "LogGP's g, cycles between two sends (or receives) of a rank",
                  within<std::uint64_t>(0, std::uint64_t{1} << 40)).with("--workload"),
        option<S>(&S::collective_algorithms, "--collective-algorithms", "the algorithm of each operation a Chakra "
                  "trace's collectives (COMM_COLL_NODE) run, as OP=ALG[,OP=ALG...] (flat algorithms: docs/collectives.md); "
                  "the others run allreduce, allgather and reduce-scatter by ring, broadcast and reduce by binomial, "
                  "alltoall by pairwise, barrier by dissemination", AlgorithmChoices{}).with("--workload"),
        option<S>(&S::preset, "--preset", "start from a named set of settings (a --config file and the options given "
                  "override it): booksim-iq is BookSim2's input-queued router and run methodology (fabric::BookSimIq: "
                  "islip, whole-ring dateline, terminal channels 2,1, head turnaround 1, every VC an injection queue, "
                  "1000 + 10000 cycles)", one_of({"none", "booksim-iq"})),
    };
    for (auto& f : format_options<S>({"text", "json", "csv"}, {"json"})) o.push_back(std::move(f));
    return o;
}

}  // namespace fabric_apps

int main(int argc, char** argv) {
    const fabric_apps::MpiScope mpi(argc, argv);
    // --booksim FILE [key=value ...]: BookSim's settings as the options they translate to (docs/booksim_files.md).
    std::vector<std::string> booksim_args;
    std::vector<char*> booksim_argv;
    std::string booksim_file;
    return fabric_apps::run_tool<RunSettings>(
        argc, argv, "cycle_sim",
        "the fabric cycle kernel on a k-ary n-cube (torus or mesh) under dimension-order routing, a HyperX under "
        "dimension order, a hypercube under e-cube routing, a dragonfly under minimal, Valiant or UGAL routing or a "
        "k-ary n-tree under nearest-common-ancestor routing, or a network read from a file under shortest-path "
        "routing; one run as text, JSON or CSV, or a sweep (--sweep) as "
        "CSV or JSON. A deadlock, in one run or any run of a sweep, exits with status 3. --booksim FILE [key=value ...] "
        "runs a BookSim2 configuration file as the options it translates to (docs/booksim_files.md).",
        simulate, [&](int& c, char**& v, auto&& option_of) {
            fabric_apps::booksim::expand(c, v, booksim_args, booksim_argv, option_of, booksim_file);
        });
}
