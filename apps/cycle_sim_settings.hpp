// cycle_sim's run, as one value: every command-line option has a key of the same
// name ('-' written '_') in the JSON file that --config reads and --dump-config
// writes, so that a run can be kept, shared and repeated exactly.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>
#include <fabric/sim/presets/booksim.hpp>

namespace fabric_apps {

struct RunSettings {
    std::string topology = "torus";          // torus | mesh | hyperx | hypercube | dragonfly | fattree
    std::vector<long long> dims{8, 8};       // torus, mesh, hyperx: extents, dimension 0 first
    std::uint32_t n = 6;                     // hypercube: dimensions; fat tree: levels
    std::uint32_t k = 4;                     // fat tree: arity (k terminals a leaf, 2k ports a switch)
    std::uint32_t a = 4;                     // dragonfly: routers per group
    std::uint32_t h = 2;                     // dragonfly: global ports per router
    std::uint32_t g = 0;                     // dragonfly: groups (0: a h + 1, the most)
    std::uint32_t p = 1;                     // dragonfly: terminals per router (concentration), 1 to 4
    std::string routing = "dor";             // torus, mesh: dor (ties split) | dor-positive; hypercube: ecube | dor; dragonfly: min | val | ugal-l | ugal-g
    int vcs = 2;                             // 1 (no dateline) | 2 (dateline)
    std::string dateline = "wraparound";     // wraparound | whole-ring (BookSim's), with 2 VCs on a torus
    std::uint32_t vc_buf = 8;                // flits per VC buffer
    std::string packet = "1";                // N, or S:L:P (S flits with probability P, else L)
    std::string burst;                       // ALPHA:BETA on/off injection; empty: Bernoulli
    std::string pattern = "uniform";         // fabric::NamedPattern::names
    double rate = 0.1;                       // offered load, flits/cycle/node
    std::string sweep;                       // FROM:TO:STEP; empty: one run at `rate`
    std::vector<std::uint64_t> seeds{1};     // a sweep's seeds per point; a single run uses the first
    std::uint64_t warmup = 1000;             // cycles
    std::uint64_t measure = 10000;           // cycles
    std::vector<std::uint32_t> router_delay{1, 1, 1, 1};  // routing, VC alloc., switch alloc., traversal
    std::uint32_t link_latency = 1;          // cycles
    std::uint32_t credit_delay = 1;          // cycles
    std::vector<std::uint32_t> terminal_latency{0, 0};  // injection, ejection channel, cycles
    std::uint32_t head_turnaround = 0;       // cycles before the head behind a tail routes
    std::uint32_t injection_queues = 1;      // source queues per node, one per injection VC
    std::string switching = "wormhole";      // wormhole | vct
    std::string allocator = "separable";     // separable | islip | output-first | wavefront
    std::uint64_t watchdog = 10000;          // cycles
    std::uint64_t memory_limit = 4096;       // MB a run may take (fabric::CycleConfig::memory_limit_mb)
    std::uint32_t source_queue = fabric::CycleConfig{}.source_queue_packets;  // packets a terminal may hold; 0: unbounded
    bool json = false;                       // JSON output (else text, or CSV for a sweep)
    std::uint64_t sample_period = 0;         // BookSim's converging sampler: period, cycles (0: fixed window)
    double warmup_thres = 0.05;              // relative change that ends warm-up
    double stopping_thres = 0.05;            // relative change that counts towards convergence
    std::uint32_t max_samples = 10;          // periods in all
    std::uint32_t warmup_periods = 0;        // warm-up periods (0: until the threshold is met)
    double latency_thres = 500;              // mean latency past which a run is unstable (0: none)
    bool wait_for_tail_credit = false;       // an output VC waits for its last packet's tail credit
    bool speculative = false;                // heads bid for the switch while VC allocation runs
    std::uint32_t reply_flits = 0;           // request-reply traffic: each packet answered with this many flits
    std::uint32_t max_outstanding = 0;       // requests a source may have awaiting replies (0: no limit)
    std::vector<std::uint32_t> class_priority;  // traffic classes' priorities, higher first; empty: one class
    std::vector<double> class_rates;         // with class_priority: each class's offered load (rate is unused)
    std::string channel_stats;               // file for per-channel utilisation (CSV); empty: none
    std::string node_stats;                  // file for per-node rates and latencies (CSV); empty: none
    std::vector<std::uint64_t> watch;        // packets (numbered in creation order) whose flits are traced
    std::string watch_file = "-";            // where the trace goes (CSV); -: standard output
    std::string trace;                       // a CSV message trace to replay (docs/traces.md); empty: the pattern
    std::uint32_t flit_bytes = 16;           // with a trace in bytes: bytes a flit
    std::string preset = "none";             // none | booksim-iq: the settings it names, before any other

    /// booksim-iq: the router, terminal channels and methodology of fabric::BookSimIq
    /// (BookSim2's input-queued router), taken from the library's preset itself.
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
        s.vcs = 2;
        s.routing = "dor";
        s.dateline = "whole-ring";
        s.allocator = "islip";
        s.switching = c.switching == fabric::Switching::wormhole ? "wormhole" : "vct";
        s.vc_buf = f.buffer_flits_per_vc;
        s.credit_delay = f.credit_delay;
        s.router_delay = {c.pipeline.routing, c.pipeline.vc_allocation, c.pipeline.switch_allocation,
                          c.pipeline.switch_traversal};
        s.link_latency = c.link_latency;
        s.terminal_latency = {c.injection_latency, c.ejection_latency};
        s.head_turnaround = c.head_turnaround;
        s.injection_queues = c.injection_queues;
        s.warmup = c.warmup;
        s.measure = c.measure;
    }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunSettings, topology, dims, n, k, a, h, g, p, routing, vcs, dateline, vc_buf, packet, burst, pattern, rate,
                                                sweep, seeds, warmup, measure, router_delay, link_latency,
                                                credit_delay, terminal_latency, head_turnaround,
                                                injection_queues, switching, allocator, watchdog, memory_limit, source_queue, json, sample_period, warmup_thres, stopping_thres, max_samples, warmup_periods,
                                                latency_thres, channel_stats, node_stats, watch, watch_file, wait_for_tail_credit, speculative, reply_flits, max_outstanding, class_priority, class_rates, trace, flit_bytes, preset)

}  // namespace fabric_apps
