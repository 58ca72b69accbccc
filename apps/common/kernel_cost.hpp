// What a run of the cycle kernel costs, for the estimate a tool makes before it
// starts (limits.hpp): its instructions, from its flit moves (a flit through a
// switch, into or out of the network), its packets (each made, routed and delivered)
// and its router-cycles. Two tables: KernelCost, fitted with callgrind on 7d600f2's
// kernel (the wake kernel, which still serves every run the stage-list kernel does
// not), whose counts it followed within a few percent on every family, and
// StageKernelCost, fitted on the stage-list kernel (about 350 instructions a flit move
// where the wake kernel spent 775), for the runs that kernel serves: cycle_sim asks the
// simulator which kernel a run goes to (CycleSimulator::staged), torus_saturation's runs
// all go to it, percs_packet's and apenet_link's are priced with the first.
// tests/hostile/estimates.py holds every tool within 2x of callgrind's count. The
// counts come from the run's settings: the cycles it runs, its offered load, and the
// mean route of its traffic, drawn from the pattern and the routing itself; the flit
// moves a cycle are at most what half of the channels carry (a run past saturation
// accepts less than it offers, and its channels are never all busy), or what the run
// is known to accept (KernelRun::accepted).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <string>
#include <utility>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/workload.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/workload.hpp>

#include "limits.hpp"

namespace fabric_apps {

/// A workload graph's messages and their flits, a message at least one flit (its bytes over `flit_bytes`,
/// rounded up), for the estimate of a run of it. A message of more flits than the kernel counts (2^32 - 1) is
/// refused here, before the run, naming where it was read when the graph knows (`where`).
template <fabric::workload::WorkloadGraph G>
std::pair<double, double> messages_and_flits(const G& g, std::uint32_t flit_bytes) {
    double messages = 0, flits = 0;
    for (fabric::workload::NodeIndex i = 0; i < g.size(); ++i)
        if (const fabric::workload::Node n = g.node(i); n.is_message()) {
            ++messages;
            const std::uint64_t f = fabric::workload::flits_of(n.bytes, flit_bytes);
            if (f > 0xffffffffULL) {
                std::string where;
                if constexpr (requires { { g.where(i) } -> std::convertible_to<std::string>; }) where = g.where(i);
                throw fabric::config_error("fabric: " + where + "a message of " + std::to_string(n.bytes) +
                                           " bytes takes more than 2^32 - 1 flits of " + std::to_string(flit_bytes) +
                                           " bytes: split it, or give larger flits (--flit-bytes)");
            }
            flits += static_cast<double>(f);
        }
    return {messages, flits};
}

/// The cycle kernel's instructions a unit (callgrind, 7d600f2's kernel: the wake kernel).
struct KernelCost {
    static constexpr double per_flit_move = 600;
    static constexpr double per_packet = 1500;
    static constexpr double per_router_cycle = 50;
    static constexpr double per_run = 5e6;  // reading, building and tearing down a run
};

/// The stage-list kernel's (callgrind at 5af63cf, torus_saturation's runs on the 8x8
/// torus: 76 to 86 runs of 1- and 4-flit packets, every flit move and run counted, the
/// move and the packet fitted on --measure 1500 with 1- and 4-flit packets; the
/// router-cycle and the run kept from KernelCost).
struct StageKernelCost {
    static constexpr double per_flit_move = 220;
    static constexpr double per_packet = 750;
    static constexpr double per_router_cycle = KernelCost::per_router_cycle;
    static constexpr double per_run = KernelCost::per_run;
};

/// One run's counts, before it starts.
struct KernelRun {
    double routers = 0, terminals = 0;
    double channels = 0;        // network channels (links, each way)
    double cycles = 0;          // simulated
    double flits_per_cycle = 0;  // offered by all terminals together
    double packet_flits = 1;    // a packet's mean size
    double hops = 0;            // a packet's mean route, links
    double max_hops = 0;        // the longest route
    double accepted = 0;        // the most a terminal accepts, flits a cycle, where known (0: not known)
};

/// The counts of runs, added up (a sweep's loads and seeds), then added to a Cost.
struct KernelCounts {
    double moves = 0, packets = 0, router_cycles = 0, runs = 0;

    /// `runs` runs like `r`.
    void add(const KernelRun& r, double times = 1) {
        const double offered_moves = r.flits_per_cycle * (r.hops + 1);
        double moves_per_cycle = std::min(offered_moves, 0.5 * (r.channels + 2 * r.terminals));
        if (r.accepted > 0) moves_per_cycle = std::min(moves_per_cycle, r.accepted * r.terminals * (r.hops + 1));
        const double carried = offered_moves > 0 ? moves_per_cycle / offered_moves : 0;
        moves += times * r.cycles * moves_per_cycle;
        packets += times * r.cycles * r.flits_per_cycle * carried / std::max(1.0, r.packet_flits);
        router_cycles += times * r.cycles * r.routers;
        runs += times;
    }
    /// Priced by `Table` (KernelCost or StageKernelCost).
    template <class Table = KernelCost>
    void into(Cost& cost, const std::string& what) const {
        cost.add(what + ": flit moves", moves, Table::per_flit_move);
        cost.add(what + ": packets", packets, Table::per_packet);
        cost.add(what + ": router-cycles", router_cycles, Table::per_router_cycle);
        cost.add(what + ": set-up", runs, Table::per_run);
    }
};

/// The mean route, in links, of `samples` packets whose destinations `pattern` draws
/// (a terminal's router is terminal / its routers' terminals), each route weighted as
/// the routing splits it (for_each_hop's weights sum to the expected route).
template <class T, class R, class Pattern>
double mean_route(const T& topo, const R& routing, const Pattern& pattern, std::uint64_t seed, int samples = 512) {
    const fabric::DestinationSampler<Pattern> draw(pattern);
    const std::size_t per = std::max<std::size_t>(1, fabric::terminals_per_node(topo));
    const std::size_t terminals = pattern.task_count();
    if (terminals == 0) return 0;
    fabric::Random rng(seed ^ 0x5eed);
    double total = 0;
    int drawn = 0;
    for (int tries = 0; drawn < samples && tries < 64 * samples; ++tries) {
        const auto s = static_cast<std::size_t>(rng.below(terminals));
        if (!draw.sends(s)) continue;  // (a hot spot: most terminals send nothing)
        ++drawn;
        const auto d = static_cast<std::size_t>(draw(s, rng));
        const fabric::NodeId a{static_cast<std::uint32_t>(s / per)}, b{static_cast<std::uint32_t>(d / per)};
        if (a == b) continue;
        routing.for_each_hop(topo, a, b, [&](fabric::NodeId, fabric::PortId, double w) { total += w; });
    }
    return drawn ? total / drawn : 0;
}

/// The network channels of `topo` (every connected port of every router).
template <class T>
double network_channels(const T& topo) {
    double n = 0;
    for (std::uint32_t v = 0; v < topo.node_count(); ++v)
        for (std::uint32_t p = 0; p < T::ports_per_node; ++p)
            n += topo.neighbour(fabric::NodeId{v}, fabric::PortId{p}).valid() ? 1 : 0;
    return n;
}

}  // namespace fabric_apps
