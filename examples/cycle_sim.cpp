// The flit-level cycle kernel from the command line: one run as JSON, or a
// latency-versus-offered-load sweep as CSV.
//
//   cycle_sim --topology torus|mesh --dims 8,8 [--routing dor|dor-positive] [--vcs 1|2]
//             [--vc-buf 8] [--packet N | --packet SMALL:LARGE:P_SMALL] --rate 0.1
//             [--pattern uniform|neighbour|transpose|bitcomp|tornado|randperm]
//             [--warmup C] [--measure C] [--seed S] [--router-delay R,VA,SA,ST]
//             [--link-latency L] [--credit-delay C] [--switching wormhole|vct]
//             [--watchdog C] [--json] [--sweep FROM:TO:STEP]
#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include "common/any_pattern.hpp"
#include "common/cli.hpp"
#include "common/progress.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace fabric;
using fabric_examples::AnyPattern;
using fabric_examples::Cli;

const char* const usage =
    "usage: cycle_sim --topology torus|mesh --dims K0,K1,... --rate R [options]\n"
    "  --routing dor|dor-positive   dimension order, ties at k/2 split evenly or taken + (dor)\n"
    "  --vcs 1|2                    virtual channels per link; 2 uses the dateline (2)\n"
    "  --vc-buf N                   flits of buffer per virtual channel (8)\n"
    "  --packet N | S:L:P           fixed packets of N flits, or S flits with probability P else L (1)\n"
    "  --pattern NAME               uniform, neighbour, transpose, bitcomp, tornado, randperm (uniform)\n"
    "  --warmup C --measure C       warm-up and measurement window in cycles (1000, 10000)\n"
    "  --seed S                     random seed (1)\n"
    "  --router-delay R,VA,SA,ST    routing, VC allocation, switch allocation, switch traversal (1,1,1,1)\n"
    "  --link-latency L             cycles per link (1); --credit-delay C cycles (1)\n"
    "  --switching wormhole|vct     (wormhole); --watchdog C deadlock watchdog cycles (10000)\n"
    "  --json                       one JSON object; --sweep FROM:TO:STEP a CSV latency-load curve\n";

std::string json_of(const CycleResult& r, double rate) {
    char buffer[1024];
    std::snprintf(buffer, sizeof buffer,
                  "{\"offered\": %.6f, \"rate\": %.6f, \"accepted\": %.6f, \"latency_mean\": %.4f, "
                  "\"latency_p50\": %llu, \"latency_p99\": %llu, \"latency_max\": %llu, "
                  "\"network_latency_mean\": %.4f, \"hops_mean\": %.4f, \"cycles\": %llu, \"saturated\": %s, "
                  "\"drained\": %s, \"measured_packets\": %llu, \"flits_injected\": %llu, \"flits_ejected\": %llu, "
                  "\"flits_in_flight\": %llu, \"deadlock\": %s}",
                  r.offered, rate, r.accepted, r.latency.mean, static_cast<unsigned long long>(r.latency.p50),
                  static_cast<unsigned long long>(r.latency.p99), static_cast<unsigned long long>(r.latency.max),
                  r.network_latency.mean, r.hops_mean, static_cast<unsigned long long>(r.cycles),
                  r.saturated ? "true" : "false", r.drained ? "true" : "false",
                  static_cast<unsigned long long>(r.measured_packets),
                  static_cast<unsigned long long>(r.flits_injected), static_cast<unsigned long long>(r.flits_ejected),
                  static_cast<unsigned long long>(r.flits_in_flight),
                  r.deadlock ? ("\"" + r.deadlock->describe() + "\"").c_str() : "null");
    return buffer;
}

struct Options {
    Options(std::vector<long long> d, AnyPattern p) : dims(std::move(d)), pattern(std::move(p)) {}
    std::vector<long long> dims;
    AnyPattern pattern;
    PacketSizes sizes{};
    CycleConfig cfg = [] {
        CycleConfig c;
        c.on_progress = fabric_examples::print_progress;  // long runs show where they are
        return c;
    }();
    Credit flow{};
    double rate = 0;
    bool json = false;
    bool sweep = false;
    double from = 0, to = 0, step = 0;
};

template <class Fab>
int run(const Fab& net, const Options& o) {
    CycleSimulator<Fab> sim(net, o.cfg);
    if (!o.sweep) {
        const auto r = sim.run(o.pattern, o.rate, o.sizes);
        if (o.json) {
            std::printf("%s\n", json_of(r, o.rate).c_str());
        } else {
            std::printf("offered %.4f accepted %.4f flits/cycle/node; latency mean %.2f p50 %llu p99 %llu cycles; "
                        "hops %.2f; %s\n",
                        r.offered, r.accepted, r.latency.mean, static_cast<unsigned long long>(r.latency.p50),
                        static_cast<unsigned long long>(r.latency.p99), r.hops_mean,
                        r.saturated ? "saturated" : "not saturated");
            if (r.deadlock) std::printf("%s\n", r.deadlock->describe().c_str());
        }
        return r.deadlock ? 3 : 0;
    }
    std::printf("rate,offered,accepted,latency_mean,latency_p50,latency_p99,hops_mean,saturated\n");
    for (double rate = o.from; rate <= o.to + 1e-9; rate += o.step) {
        const auto r = sim.run(o.pattern, rate, o.sizes);
        std::printf("%.4f,%.6f,%.6f,%.4f,%llu,%llu,%.4f,%d\n", rate, r.offered, r.accepted, r.latency.mean,
                    static_cast<unsigned long long>(r.latency.p50), static_cast<unsigned long long>(r.latency.p99),
                    r.hops_mean, r.saturated ? 1 : 0);
        std::fflush(stdout);
        if (r.deadlock || (r.saturated && !r.drained)) break;  // past saturation: the curve has ended
    }
    return 0;
}

template <std::size_t Rank, Boundary B, std::size_t Vcs, TieRule Tie>
int dispatch_routing(const Options& o) {
    using T = KAryNCube<Rank, BasicLink<Vcs>, DynamicExtents, B>;
    using Vc = std::conditional_t<Vcs == 1, NoDateline, Dateline>;
    using Net = Fabric<T, DimensionOrder<Tie, Vc>>;
    const T topo(o.dims);
    // One VC on a torus can deadlock: allowed here, so that the watchdog can show it.
    const Net net = Vcs == 1 ? Net(topo, allow_deadlock, {}, o.flow) : Net(topo, {}, o.flow);
    return run(net, o);
}

template <std::size_t Rank, Boundary B>
int dispatch_vcs(const Options& o, long long vcs, bool positive) {
    if (vcs == 1) return positive ? dispatch_routing<Rank, B, 1, TieRule::positive>(o)
                                  : dispatch_routing<Rank, B, 1, TieRule::split>(o);
    return positive ? dispatch_routing<Rank, B, 2, TieRule::positive>(o) : dispatch_routing<Rank, B, 2, TieRule::split>(o);
}

template <Boundary B>
int dispatch_rank(const Options& o, long long vcs, bool positive) {
    switch (o.dims.size()) {
        case 1: return dispatch_vcs<1, B>(o, vcs, positive);
        case 2: return dispatch_vcs<2, B>(o, vcs, positive);
        case 3: return dispatch_vcs<3, B>(o, vcs, positive);
        case 4: return dispatch_vcs<4, B>(o, vcs, positive);
        default: throw config_error("fabric: cycle_sim handles 1 to 4 dimensions; got " + std::to_string(o.dims.size()));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Cli cli(argc, argv,
                  {"topology", "dims", "routing", "vcs", "vc-buf", "packet", "rate", "pattern", "warmup", "measure",
                   "seed", "router-delay", "link-latency", "credit-delay", "switching", "watchdog", "sweep"},
                  {"json"}, usage);
    try {
        if (cli.empty()) cli.fail("no arguments");
        const std::string topology = cli.text("topology", "torus");
        if (topology != "torus" && topology != "mesh") cli.fail("--topology must be torus or mesh");
        const std::string routing = cli.text("routing", "dor");
        if (routing != "dor" && routing != "dor-positive") cli.fail("--routing must be dor or dor-positive");
        const long long vcs = cli.integer("vcs", 2);
        if (vcs != 1 && vcs != 2) cli.fail("--vcs must be 1 or 2");
        const auto seed = static_cast<std::uint64_t>(cli.integer("seed", 1));
        Options o(cli.list("dims"), AnyPattern::make(cli.text("pattern", "uniform"), cli.list("dims"), seed));
        o.cfg.seed = seed;
        o.cfg.warmup = static_cast<std::uint64_t>(cli.integer("warmup", 1000));
        o.cfg.measure = static_cast<std::uint64_t>(cli.integer("measure", 10000));
        o.cfg.watchdog = static_cast<std::uint64_t>(cli.integer("watchdog", 10000));
        o.cfg.link_latency = static_cast<std::uint32_t>(cli.integer("link-latency", 1));
        if (cli.has("router-delay")) {
            const auto d = cli.list("router-delay");
            if (d.size() != 4) cli.fail("--router-delay needs four numbers: R,VA,SA,ST");
            for (const auto x : d)
                if (x < 0) cli.fail("--router-delay values must not be negative");
            o.cfg.pipeline = {static_cast<std::uint32_t>(d[0]), static_cast<std::uint32_t>(d[1]),
                              static_cast<std::uint32_t>(d[2]), static_cast<std::uint32_t>(d[3])};
        }
        const std::string switching = cli.text("switching", "wormhole");
        if (switching != "wormhole" && switching != "vct") cli.fail("--switching must be wormhole or vct");
        o.cfg.switching = switching == "vct" ? Switching::virtual_cut_through : Switching::wormhole;
        o.flow.buffer_flits_per_vc = static_cast<std::uint32_t>(cli.integer("vc-buf", 8));
        o.flow.credit_delay = static_cast<std::uint32_t>(cli.integer("credit-delay", 1));
        const std::string packet = cli.text("packet", "1");
        if (packet.find(':') != std::string::npos) {
            const auto p = packet.substr(packet.rfind(':') + 1);
            const auto sl = packet.substr(0, packet.rfind(':'));
            const auto small = std::stoul(sl.substr(0, sl.find(':')));
            const auto large = std::stoul(sl.substr(sl.find(':') + 1));
            o.sizes = PacketSizes::bimodal(static_cast<std::uint32_t>(small), static_cast<std::uint32_t>(large), std::stod(p));
        } else {
            o.sizes = PacketSizes::fixed(static_cast<std::uint32_t>(cli.integer("packet", 1)));
        }
        o.json = cli.flag("json");
        if (cli.has("sweep")) {
            const std::string s = cli.text("sweep");
            const auto a = s.find(':'), b = s.rfind(':');
            if (a == std::string::npos || a == b) cli.fail("--sweep needs FROM:TO:STEP");
            o.sweep = true;
            o.from = std::stod(s.substr(0, a));
            o.to = std::stod(s.substr(a + 1, b - a - 1));
            o.step = std::stod(s.substr(b + 1));
            if (o.step <= 0 || o.from < 0 || o.to < o.from) cli.fail("--sweep needs 0 <= FROM <= TO and STEP > 0");
        } else {
            o.rate = cli.number("rate", -1);
            if (o.rate < 0) cli.fail("--rate is needed (flits/cycle/node)");
        }
        const bool positive = routing == "dor-positive";
        return topology == "torus" ? dispatch_rank<Boundary::wrap>(o, vcs, positive)
                                   : dispatch_rank<Boundary::open>(o, vcs, positive);
    } catch (const config_error& e) {
        std::fprintf(stderr, "%s\n%s", e.what(), usage);
        return 2;
    } catch (const std::invalid_argument&) {
        cli.fail("a number could not be read");
    }
}
