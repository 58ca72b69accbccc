// The cycle kernel set up as BookSim2's input-queued router ("router = iq") and
// its run methodology, so that a configuration run in both gives the same numbers.
// Each setting below names the BookSim parameter it mirrors (defaults from its
// src/booksim_config.cpp; timing traced through src/trafficmanager.cpp,
// src/channel.hpp and src/routers/iq_router.cpp).
//
//   BookSim                                  here
//   routing_delay = 1, vc_alloc_delay = 1,   PipelineDelays{1, 1, 1, 1}
//   sw_alloc_delay = 1, st_prepare_delay = 0,
//   st_final_delay = 1
//   sw_allocator = islip, alloc_iters = 1    Islip<1>
//   routing_function = dim_order (torus)     DorTieSplit<DatelineWholeRing>: a leg
//                                            that wraps uses the upper VC for its
//                                            whole ring; a tie at k/2 goes either
//                                            way (BookSim draws it per packet, here
//                                            half the pairs each way)
//   vc_buf_size = 8, credit_delay = 0,       Credit{8, 2}: BookSim's router makes a
//   credits over a one-cycle channel         credit as the flit leaves its buffer (cycle
//                                            t), writes it on the channel then; the
//                                            sender reads it at t + 2 (latency 1, and
//                                            a channel is read the cycle after the
//                                            write) and counts it from t + 2 +
//                                            credit_delay
//   channel latency 1                        link_latency = 1
//   injection channel (latency 1)            injection_latency = 2: the source
//                                            writes a flit into the channel in the
//                                            cycle the packet is created, and the
//                                            router reads it two cycles later (a
//                                            channel of latency L delivers to the
//                                            reader L + 1 cycles after the write).
//                                            Between routers this kernel counts the
//                                            write cycle as switch traversal; a
//                                            source has no such stage, so the extra
//                                            cycle is the channel's.
//   ejection channel (latency 1)             ejection_latency = 1
//   the input VC routes the next head a      head_turnaround = 1
//   cycle after the tail leaves
//   the source may use every injection VC    injection_queues = the link's VCs
//   include_queuing = 1                      latency counts the source queue (always)
//   injection_rate_uses_flits = 1            rates are in flits a cycle a node
//   a fixed window (sample_period = 10000    warmup = 1000, measure = 10000
//   after 1000 warm-up cycles)
//
// Not mirrored yet: BookSim's own default sampling (sample periods of 1000 cycles
// until latency and throughput converge), its VC allocator's iSLIP (VCs here are
// granted round robin per output VC), num_vcs = 16 (the VC count is the link
// type's: BasicLink<2> here, as in the comparison this preset is tested on).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include <fabric/composition.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/link/basic.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

struct BookSimIq {
    /// sw_allocator = islip with alloc_iters = 1.
    using Allocator = Islip<1>;
    /// dim_order on a torus, with BookSim's dateline.
    using Routing = DorTieSplit<DatelineWholeRing>;
    /// A BookSim torus ("topology = torus", n = Rank): two VCs per link.
    template <std::size_t Rank>
    using TorusFabric = Fabric<Torus<Rank, BasicLink<2>>, Routing, Credit>;
    /// The simulator of such a fabric with BookSim's switch allocator.
    template <class Fab>
    using Simulator = CycleSimulator<Fab, Allocator>;

    /// vc_buf_size = 8; a credit counts two cycles after its slot is freed.
    [[nodiscard]] static constexpr Credit flow() {
        Credit c;
        c.buffer_flits_per_vc = 8;
        c.credit_delay = 2;
        return c;
    }

    /// The router pipeline, terminal channels and methodology listed above, for a
    /// fabric whose links have `vcs` virtual channels (every one an injection queue).
    [[nodiscard]] static CycleConfig config(std::uint32_t vcs = 2) {
        CycleConfig c;
        c.pipeline = {1, 1, 1, 1};
        c.switching = Switching::wormhole;
        c.link_latency = 1;
        c.injection_latency = 2;
        c.ejection_latency = 1;
        c.head_turnaround = 1;
        c.injection_queues = vcs;
        c.warmup = 1000;
        c.measure = 10000;
        return c;
    }

    /// BookSim's k-ary n-cube torus ("k" and "n" become the extents).
    /// `BookSimIq::torus<2>({8, 8})` is BookSim's default network.
    template <std::size_t Rank>
    [[nodiscard]] static TorusFabric<Rank> torus(std::initializer_list<long long> extents) {
        return TorusFabric<Rank>(Torus<Rank, BasicLink<2>>(extents), {}, flow());
    }
};

}  // namespace fabric
