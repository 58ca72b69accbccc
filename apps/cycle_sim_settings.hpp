// cycle_sim's run, as one value: its options (declared once, in cycle_sim.cpp's
// RunSettings::options()) write these fields, the kernel's straight into its
// CycleConfig; a configuration file has a key of each option's name ('-' written
// '_'), which --dump-config writes, so that a run can be kept, shared and repeated
// exactly.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/presets/booksim.hpp>

#include "common/options.hpp"

namespace fabric_apps {

struct RunSettings : Common {
    std::string topology = "torus";          // torus | mesh | hyperx | hypercube | dragonfly | fattree | graph
    std::string graph;                       // graph: the network's file (edge list or BookSim anynet)
    std::vector<long long> dims{8, 8};       // torus, mesh, hyperx: extents, dimension 0 first
    std::uint32_t n = 6;                     // hypercube: dimensions; fat tree: levels
    std::uint32_t k = 4;                     // fat tree: arity (k terminals a leaf, 2k ports a switch)
    std::uint32_t a = 4;                     // dragonfly: routers per group
    std::uint32_t h = 2;                     // dragonfly: global ports per router
    std::uint32_t g = 0;                     // dragonfly: groups (0: a h + 1, the most)
    std::uint32_t p = 1;                     // dragonfly, hyperx: terminals per router (concentration), 1 to 4
    std::string routing;                     // empty: the topology's own (resolve())
    int vcs = 2;                             // 1 (no dateline) | 2 (dateline); a graph: 1 to 4 layers
    std::string dateline = "wraparound";     // wraparound | whole-ring (BookSim's), with 2 VCs on a torus
    std::uint32_t vc_buf = 8;                // flits per VC buffer
    std::uint32_t credit_delay = 1;          // cycles
    std::vector<std::uint32_t> class_latency;  // cycles per link class (a dragonfly: local, global); empty: --link-latency
    std::string packet = "1";                // N, or S:L:P (S flits with probability P, else L)
    std::string burst;                       // ALPHA:BETA on/off injection; empty: Bernoulli
    std::string pattern = "uniform";         // fabric::NamedPattern::names
    double rate = 0.1;                       // offered load, flits/cycle/terminal
    std::string sweep;                       // FROM:TO:STEP; empty: one run at `rate`
    std::vector<std::uint64_t> seeds{1};     // a sweep's seeds per point; a single run uses the first
    std::vector<std::uint32_t> router_delay{1, 1, 1, 1};  // routing, VC alloc., switch alloc., traversal
    std::vector<std::uint32_t> terminal_latency{0, 0};    // injection, ejection channel, cycles
    std::string switching = "wormhole";      // wormhole | vct
    std::string vc_choice = "route";         // route | any (CycleConfig::vc_choice)
    std::string allocator = "separable";     // separable | islip | output-first | wavefront
    std::vector<double> class_rates;         // with class_priority: each class's offered load (rate is unused)
    std::string channel_stats;               // file for per-channel utilisation (CSV); empty: none
    std::string node_stats;                  // file for per-node rates and latencies (CSV); empty: none
    std::string watch_file = "-";            // where the trace goes (CSV); -: standard output
    std::string trace;                       // a CSV message trace to replay (docs/traces.md); empty: the pattern
    std::uint32_t flit_bytes = 16;           // with a trace in bytes: bytes a flit
    std::string workload;                    // a workload whose messages wait (CSV with after, GOAL); empty: none
    std::uint64_t overhead = 0;              // with --workload: LogGP o at both ends, cycles
    std::uint64_t gap = 0;                   // with --workload: LogGP g, cycles between a rank's sends
    std::string collective_algorithms;       // with --workload: OP=ALG,... for a Chakra trace's collectives
    std::string preset = "none";             // none | booksim-iq: the settings it names, before any other
    /// The kernel's settings the options set as they are (warm-up, window, watchdog,
    /// delays, sampler, request-reply, classes, watch list); cycle_config() adds the rest.
    fabric::CycleConfig kernel;

    [[nodiscard]] std::string family() const { return topology; }

    /// What the options leave to the topology: its routing (dor on a torus, mesh and
    /// HyperX, ecube on a hypercube, min on a dragonfly, nca on a fat tree, shortest on a graph).
    void resolve() {
        if (!routing.empty()) return;
        routing = topology == "hypercube" ? "ecube" : topology == "dragonfly" ? "min" : topology == "fattree" ? "nca"
                  : topology == "graph"   ? "shortest" : "dor";
    }

    static Options<RunSettings> options();

    /// booksim-iq: the router, terminal channels and methodology of fabric::BookSimIq
    /// (BookSim2's input-queued router), taken from the library's preset itself. Its
    /// sources use every injection VC the fabric has (injection_queues 0), so that it
    /// runs on a network of any VC count.
    static void apply_preset(const std::string& name, RunSettings& s) {
        fabric::detail::require(name == "none" || name == "booksim-iq", "preset: none or booksim-iq; got '", name, "'");
        s.preset = name;
        if (name == "none") return;
        using P = fabric::BookSimIq;
        static_assert(std::is_same_v<P::Allocator, fabric::Islip<1>> &&
                          std::is_same_v<P::Routing, fabric::DorTieSplit<fabric::DatelineWholeRing>>,
                      "fabric: cycle_sim's booksim-iq preset names the allocator and routing of fabric::BookSimIq; "
                      "update it with the preset");
        const fabric::CycleConfig c = P::config(2);
        const fabric::Credit f = P::flow();
        s.dateline = "whole-ring";
        s.allocator = "islip";
        s.switching = c.switching == fabric::Switching::wormhole ? "wormhole" : "vct";
        s.vc_buf = f.buffer_flits_per_vc;
        s.credit_delay = f.credit_delay;
        s.router_delay = {c.pipeline.routing, c.pipeline.vc_allocation, c.pipeline.switch_allocation,
                          c.pipeline.switch_traversal};
        s.kernel.link_latency = c.link_latency;
        s.terminal_latency = {c.injection_latency, c.ejection_latency};
        s.kernel.head_turnaround = c.head_turnaround;
        s.kernel.injection_queues = 0;  // every VC, as P::config(vcs) gives for the fabric at hand
        s.kernel.warmup = c.warmup;
        s.kernel.measure = c.measure;
    }
};

}  // namespace fabric_apps
