// cycle_sim: the flit-level cycle kernel on a k-ary n-cube from the command line
// or a configuration file. One run (text or JSON), or a latency-load sweep with
// several seeds per point (CSV or JSON with 95% confidence intervals).
// Exit status: 0 done, 2 bad options or configuration, 3 deadlock. Options and
// configuration files: apps/common/tool.hpp.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fabric/fabric.hpp>
#include <fabric/experiment/json.hpp>

#include "common/progress.hpp"
#include "common/switch_choice.hpp"
#include "common/tool.hpp"
#include "common/numbers.hpp"
#include "cycle_sim_settings.hpp"

namespace {
using namespace fabric;
using fabric_apps::RunSettings;

PacketSizes packet_sizes(const std::string& s) {
    using fabric_apps::parse_number;
    const auto parts = fabric_apps::parse_numbers<double>(s, ':', "packet");  // shape first; each part again below
    detail::require(parts.size() == 1 || parts.size() == 3,
                    "packet: give N, or S:L:P (S flits with probability P, else L); got '", s, "'");
    if (parts.size() == 1) return PacketSizes::fixed(parse_number<std::uint32_t>(s, "packet"));
    const auto a = s.find(':'), b = s.rfind(':');
    return PacketSizes::bimodal(parse_number<std::uint32_t>(std::string_view(s).substr(0, a), "packet S"),
                                parse_number<std::uint32_t>(std::string_view(s).substr(a + 1, b - a - 1), "packet L"),
                                parse_number<double>(std::string_view(s).substr(b + 1), "packet P"));
}

CycleConfig cycle_config(const RunSettings& s) {
    detail::require(s.router_delay.size() == 4, "router_delay: four cycle counts (routing, VC allocation, switch "
                    "allocation, switch traversal); got ", s.router_delay.size());
    detail::require(s.switching == "wormhole" || s.switching == "vct", "switching: wormhole or vct; got '", s.switching, "'");
    detail::require(!s.seeds.empty(), "seeds: at least one");
    CycleConfig c;
    c.warmup = s.warmup;
    c.measure = s.measure;
    c.watchdog = s.watchdog;
    c.seed = s.seeds.front();
    c.link_latency = s.link_latency;
    c.pipeline = {s.router_delay[0], s.router_delay[1], s.router_delay[2], s.router_delay[3]};
    c.switching = s.switching == "vct" ? Switching::virtual_cut_through : Switching::wormhole;
    c.memory_limit_mb = s.memory_limit;
    detail::require(s.terminal_latency.size() == 2, "terminal_latency: two cycle counts (injection, ejection); got ",
                    s.terminal_latency.size());
    c.injection_latency = s.terminal_latency[0];
    c.ejection_latency = s.terminal_latency[1];
    c.head_turnaround = s.head_turnaround;
    c.wait_for_tail_credit = s.wait_for_tail_credit;
    c.speculative = s.speculative;
    c.node_statistics = !s.node_stats.empty();
    c.request_reply = {s.reply_flits, s.max_outstanding};
    c.injection_queues = s.injection_queues;
    c.class_priority = s.class_priority;
    detail::require(s.class_rates.size() == s.class_priority.size(), "class_rates: one load per traffic class; "
                    "--class-priority names ", s.class_priority.size(), " classes, --class-rates ", s.class_rates.size());
    if (!s.burst.empty()) {
        const auto ab = fabric_apps::parse_numbers<double>(s.burst, ':', "burst");
        detail::require(ab.size() == 2, "burst: ALPHA:BETA (off -> on and on -> off probabilities a cycle); got '",
                        s.burst, "'");
        c.on_off = {ab[0], ab[1]};
        detail::require(c.on_off.enabled(), "burst: ALPHA must be positive (leave --burst out for Bernoulli)");
    }
    c.sampling.sample_period = s.sample_period;
    c.sampling.warmup_threshold = s.warmup_thres;
    c.sampling.stopping_threshold = s.stopping_thres;
    c.sampling.max_samples = s.max_samples;
    c.sampling.latency_threshold = s.latency_thres;
    c.on_progress = fabric_apps::terminal_progress();
    return c;
}

/// Node-cycles of one run at most: the window, then the drain the kernel allows by default.
double node_cycles_per_run(const RunSettings& s) {
    double nodes = 1;
    for (const long long k : s.dims) nodes *= static_cast<double>(k);
    const double window = s.sample_period ? static_cast<double>(s.sample_period) * s.max_samples
                                          : static_cast<double>(s.warmup) + static_cast<double>(s.measure);
    return nodes * (window + std::max(3 * window, 20000.0));
}

/// BookSim's per-channel statistics: every link's flits a cycle in the window, as CSV.
template <class Topo>
void write_channel_stats(const std::string& file, const Topo& topo, const CycleResult& r) {
    std::ofstream out(file);
    detail::require(out.good(), "channel_stats: cannot write '", file, "'");
    out << "node,port,neighbour,flits_per_cycle\n";
    for (std::uint32_t n = 0; n < topo.node_count(); ++n)
        for (std::uint32_t p = 0; p < r.ports_per_node; ++p)
            if (const NodeId to = topo.neighbour(NodeId{n}, PortId{p}); to.valid())
                out << n << ',' << p << ',' << to.value << ',' << r.channel_utilisation[n * r.ports_per_node + p] << '\n';
    detail::require(out.good(), "channel_stats: writing '", file, "' failed");
}

/// BookSim's per-node statistics: each node's rates in the window (flits a cycle)
/// and its measured packets' mean latency as source and as destination, as CSV.
void write_node_stats(const std::string& file, const CycleResult& r) {
    std::ofstream out(file);
    detail::require(out.good(), "node_stats: cannot write '", file, "'");
    const auto per = [](std::uint64_t x, std::uint64_t n) { return n ? static_cast<double>(x) / static_cast<double>(n) : 0.0; };
    out << "node,offered,injected,accepted,packets_sent,latency_sent,packets_received,latency_received\n";
    for (std::size_t n = 0; n < r.nodes.size(); ++n) {
        const NodeCounters& c = r.nodes[n];
        out << n << ',' << per(c.flits_offered, r.window_cycles) << ',' << per(c.flits_injected, r.window_cycles) << ','
            << per(c.flits_accepted, r.window_cycles) << ',' << c.packets_sent << ',' << per(c.latency_sent, c.packets_sent)
            << ',' << c.packets_received << ',' << per(c.latency_received, c.packets_received) << '\n';
    }
    detail::require(out.good(), "node_stats: writing '", file, "' failed");
}

/// The watch trace, in cycle order (a flit's own events already are), as CSV.
void write_watch(const std::string& file, std::vector<FlitEvent> events) {
    std::stable_sort(events.begin(), events.end(), [](const FlitEvent& a, const FlitEvent& b) { return a.cycle < b.cycle; });
    std::ofstream file_out;
    if (file != "-") {
        file_out.open(file);
        detail::require(file_out.good(), "watch_file: cannot write '", file, "'");
    }
    std::ostream& out = file == "-" ? std::cout : file_out;
    static constexpr const char* kinds[] = {"created", "switched", "arrived", "ejected"};
    out << "cycle,packet,flit,event,node,port,vc\n";
    for (const FlitEvent& e : events)
        out << e.cycle << ',' << e.packet << ',' << e.flit << ',' << kinds[static_cast<int>(e.kind)] << ',' << e.node
            << ',' << e.port << ',' << e.vc << '\n';
    detail::require(out.good(), "watch_file: writing '", file, "' failed");
}

template <class Sim, class Topo>
int run(Sim& sim, const RunSettings& s, const NamedPattern& pattern, const Topo& topo,
        const std::vector<FlitEvent>& watched) {
    const PacketSizes sizes = packet_sizes(s.packet);
    if (!s.sweep.empty()) {
        detail::require(s.channel_stats.empty() && s.node_stats.empty() && s.watch.empty(), "channel_stats, "
                        "node_stats, watch: per-channel and per-node statistics and the watch trace are written for one "
                        "run; leave out --sweep or --channel-stats, --node-stats and --watch");
        const auto range = fabric_apps::parse_numbers<double>(s.sweep, ':', "sweep");
        detail::require(range.size() == 3, "sweep: FROM:TO:STEP; got '", s.sweep, "'");
        const auto rates = experiment::loads(range[0], range[1], range[2]);
        fabric_apps::check_work(node_cycles_per_run(s) * static_cast<double>(rates.size() * s.seeds.size()),
                                "node-cycles", 2e6);
        experiment::SweepSettings settings;
        settings.seeds = s.seeds;
        const auto curve = experiment::sweep(sim, pattern, rates, sizes, settings);
        if (s.json) std::cout << experiment::to_json(std::span<const experiment::LoadPoint>(curve)).dump(1) << '\n';
        else experiment::write_csv(std::cout, curve);
        return 0;
    }
    detail::require(s.class_priority.empty() || s.sweep.empty(), "class_priority: a sweep scales one load; run "
                    "traffic classes one point at a time (leave out --sweep)");
    detail::require(s.watch.empty() || !s.json || s.watch_file != "-", "watch_file: with --json the standard output "
                    "carries the result; give the trace a file (--watch-file FILE)");
    fabric_apps::check_work(node_cycles_per_run(s), "node-cycles", 2e6);
    std::vector<OfferedLoad> loads;
    for (const double rate : s.class_rates) loads.push_back({rate, sizes});
    const CycleResult r = loads.empty() ? sim.run(pattern, s.rate, sizes) : sim.run(pattern, loads);
    if (!s.channel_stats.empty()) write_channel_stats(s.channel_stats, topo, r);
    if (!s.node_stats.empty()) write_node_stats(s.node_stats, r);
    if (!s.watch.empty()) write_watch(s.watch_file, watched);
    if (s.json) {
        std::cout << experiment::to_json(r).dump(1) << '\n';
    } else {
        std::printf("offered %.4f accepted %.4f flits/cycle/node; latency mean %.2f p50 %llu p99 %llu cycles; "
                    "hops %.2f; %s\n", r.offered, r.accepted, r.latency.mean,
                    static_cast<unsigned long long>(r.latency.p50), static_cast<unsigned long long>(r.latency.p99),
                    r.hops_mean,
                    r.source_limit_reached ? "saturated: the source queues reached the memory limit, run stopped"
                    : r.saturated          ? "saturated"
                                           : "not saturated");
        if (s.sample_period)
            std::printf("window: %llu cycles from cycle %llu, chosen in %u sample periods (%s)\n",
                        static_cast<unsigned long long>(r.window_cycles), static_cast<unsigned long long>(r.window_start),
                        r.sample_periods, r.sampling_converged ? "converged" : r.saturated ? "unstable" : "not converged");
        if (s.reply_flits)
            std::printf("transactions (request to reply): latency mean %.2f p99 %llu cycles; %llu replies delivered\n",
                        r.transaction_latency.mean, static_cast<unsigned long long>(r.transaction_latency.p99),
                        static_cast<unsigned long long>(r.replies_delivered));
        for (std::size_t c = 0; c < r.classes.size(); ++c)
            std::printf("class %zu (priority %u): offered %.4f accepted %.4f; latency mean %.2f p99 %llu cycles\n", c,
                        s.class_priority[c], r.classes[c].offered, r.classes[c].accepted, r.classes[c].latency.mean,
                        static_cast<unsigned long long>(r.classes[c].latency.p99));
        if (r.deadlock) std::printf("%s\n", r.deadlock->describe().c_str());
    }
    return r.deadlock ? 3 : 0;
}

template <std::size_t Rank, Boundary B, std::size_t Vcs, TieRule Tie, class VcRule = Dateline>
int with_fabric(const RunSettings& s, const NamedPattern& pattern) {
    using T = KAryNCube<Rank, BasicLink<Vcs>, DynamicExtents, B>;
    using Net = Fabric<T, DimensionOrder<Tie, std::conditional_t<Vcs == 1, NoDateline, VcRule>>>;
    Credit flow;
    flow.buffer_flits_per_vc = s.vc_buf;
    flow.credit_delay = s.credit_delay;
    const T topo(s.dims);
    // One VC on a torus can deadlock: allowed here, so that the watchdog can show it.
    const Net net = Vcs == 1 ? Net(topo, allow_deadlock, {}, flow) : Net(topo, {}, flow);
    fabric_apps::NamedSwitch::choose(s.allocator);
    std::vector<FlitEvent> watched;
    CycleConfig config = cycle_config(s);
    if (!s.watch.empty()) config.watch = {s.watch, [&](const FlitEvent& e) { watched.push_back(e); }};
    CycleSimulator<Net, fabric_apps::NamedSwitch> sim(net, std::move(config));
    return run(sim, s, pattern, topo, watched);
}

template <std::size_t Rank, Boundary B>
int with_rank(const RunSettings& s, const NamedPattern& pattern) {
    const bool positive = s.routing == "dor-positive";
    if (s.vcs == 1) return positive ? with_fabric<Rank, B, 1, TieRule::positive>(s, pattern)
                                    : with_fabric<Rank, B, 1, TieRule::split>(s, pattern);
    if constexpr (B == Boundary::wrap)
        if (s.dateline == "whole-ring")
            return positive ? with_fabric<Rank, B, 2, TieRule::positive, DatelineWholeRing>(s, pattern)
                            : with_fabric<Rank, B, 2, TieRule::split, DatelineWholeRing>(s, pattern);
    return positive ? with_fabric<Rank, B, 2, TieRule::positive>(s, pattern) : with_fabric<Rank, B, 2, TieRule::split>(s, pattern);
}

template <Boundary B>
int with_boundary(const RunSettings& s, const NamedPattern& pattern) {
    switch (s.dims.size()) {
        case 1: return with_rank<1, B>(s, pattern);
        case 2: return with_rank<2, B>(s, pattern);
        case 3: return with_rank<3, B>(s, pattern);
        case 4: return with_rank<4, B>(s, pattern);
        default: throw config_error(detail::message("fabric: dims: 1 to 4 extents; got ", s.dims.size()));
    }
}

int simulate(const RunSettings& s) {
    detail::require(s.topology == "torus" || s.topology == "mesh", "topology: torus or mesh; got '", s.topology, "'");
    detail::require(s.routing == "dor" || s.routing == "dor-positive", "routing: dor or dor-positive; got '", s.routing, "'");
    detail::require(s.dateline == "wraparound" || s.dateline == "whole-ring", "dateline: wraparound or whole-ring; got '",
                    s.dateline, "'");
    detail::require(s.vcs == 1 || s.vcs == 2, "vcs: 1 or 2; got ", s.vcs);
    const NamedPattern pattern = NamedPattern::make(s.pattern, s.dims, s.seeds.empty() ? 1 : s.seeds.front());
    return s.topology == "torus" ? with_boundary<Boundary::wrap>(s, pattern) : with_boundary<Boundary::open>(s, pattern);
}

}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<RunSettings>(
        argc, argv, "cycle_sim",
        "the fabric cycle kernel on a k-ary n-cube (torus or mesh) under dimension-order routing; a deadlock "
        "exits with status 3.",
        [](CLI::App& app, RunSettings& s) {
            app.add_option("--topology", s.topology, "torus or mesh")->check(fabric_apps::one_of({"torus", "mesh"}))->capture_default_str();
            app.add_option("--dims", s.dims, "extents, e.g. 8,8 (1 to 4 dimensions)")->check(fabric_apps::within<long long>(1, 1LL << 30))->delimiter(',')->capture_default_str();
            app.add_option("--routing", s.routing, "dor (ties at k/2 split evenly) or dor-positive (taken +)")->check(fabric_apps::one_of({"dor", "dor-positive"}))->capture_default_str();
            app.add_option("--dateline", s.dateline, "with 2 VCs on a torus: wraparound (VC 1 from the wraparound hop on) "
                           "or whole-ring (VC 1 for the whole ring when the leg will wrap: BookSim's dim_order_torus)")
                ->check(fabric_apps::one_of({"wraparound", "whole-ring"}))->capture_default_str();
            app.add_option("--vcs", s.vcs, "virtual channels per link: 2 with the dateline, 1 without (may deadlock)")->check(fabric_apps::within(1, 2))->capture_default_str();
            app.add_option("--vc-buf", s.vc_buf, "buffer per virtual channel, flits")->check(fabric_apps::at_least<std::uint32_t>(1))->capture_default_str();
            app.add_option("--packet", s.packet, "packet size: N flits, or S:L:P (S with probability P, else L)")->capture_default_str();
            app.add_option("--burst", s.burst, "ALPHA:BETA: on/off (bursty) injection, BookSim's on_off: off -> on "
                           "with probability ALPHA a cycle, on -> off with BETA; the mean stays --rate");
            app.add_option("--pattern", s.pattern, std::string("traffic: ") + NamedPattern::names)->capture_default_str();
            app.add_option("--rate", s.rate, "offered load, flits/cycle/node (Bernoulli injection; at most the mean packet size)")->check(fabric_apps::within(0.0, 65535.0))->capture_default_str();
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
            app.add_option("--preset", s.preset, "start from a named set of settings (a --config file and the options "
                           "given override it): booksim-iq is BookSim2's input-queued router and run methodology "
                           "(fabric::BookSimIq: islip, whole-ring dateline, terminal channels 2,1, head turnaround 1, "
                           "both injection VCs, 1000 + 10000 cycles)")
                ->check(fabric_apps::one_of({"none", "booksim-iq"}))->capture_default_str();
        },
        simulate);
}
