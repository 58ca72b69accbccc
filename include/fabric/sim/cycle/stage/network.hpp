// The state of a stage-list run (stage/kernel.hpp) in flat arrays behind one
// object: input VCs and their rings, output VCs, routers' switch state, the
// wiring of every network port, the packets' hot records, the source queues, and
// the lists by cycle (arrivals on the wires; VCs due at VC allocation and at the
// switch). Sized once when a run starts, from the topology's constants
// (layout.hpp) and the run's router count, buffer depth and delays.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/large_pages.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/stage/layout.hpp>
#include <fabric/sim/cycle/stage/wheel.hpp>

namespace fabric::cycle {

template <class S>
struct StageNetwork {
    using Pk = StagePacket<S>;
    using Ov = StageOutVc<S::L>;
    using Router = StageRouter<S::L, S::NP>;
    template <class X>
    using Array = std::vector<X, detail::LargePageAllocator<X>>;

    std::uint32_t routers = 0, terminals = 0, per_node = 1, queues = 1, depth = 1, ring = 0;
    Array<StageVc> vcs;        // per input VC
    Array<Flit> flits;         // per network input VC: ring slots behind its front flit
    Array<Ov> ovs;             // per network output VC
    std::vector<Router> rt;    // per router
    std::vector<StageWire> wires;  // per network port (channel)
    Array<Pk> packets;         // by packet id
    std::vector<std::uint32_t> free_packets;
    std::vector<RingQueue<std::uint32_t>> source;  // per terminal and injection queue: packet ids
    std::vector<std::uint32_t> deal;               // per terminal: the queue its next message goes to
    CycleLists<StageArrival> arrivals;             // by the cycle they are due
    CycleLists<std::uint32_t> va, sa;              // input VCs due at VC allocation, at the switch
    Bucket<std::uint32_t> granted;                 // output VCs granted in this cycle's VC allocation
    Bucket<std::uint32_t> bidding;                 // routers with bids in this cycle
    std::uint64_t buffered = 0, in_flight = 0, queued = 0;
    std::vector<std::uint64_t> sent;               // per channel: flits put on the link in the window

    /// Every buffer empty, every sender with its credits, the wiring read from
    /// `links`; `exit` the cycles from a switch grant to the link (switch
    /// allocation and traversal), `va_ahead` and `sa_ahead` the furthest a VC is
    /// listed ahead for VC allocation and for the switch.
    void reset(const Shape& shape, const Links& links, std::uint32_t buffer, std::uint32_t injection_queues,
               std::uint64_t exit, std::uint64_t va_ahead, std::uint64_t sa_ahead) {
        routers = shape.routers;
        terminals = shape.terminals;
        per_node = shape.per_node;
        queues = injection_queues;
        depth = buffer;
        ring = buffer - 1;
        vcs.assign(std::size_t{routers} * S::L, StageVc{});
        flits.assign(std::size_t{routers} * S::NV * ring, Flit{0, 0, 0});
        Ov fresh;
        fresh.credits = static_cast<std::int32_t>(buffer);
        ovs.assign(std::size_t{routers} * S::NV, fresh);
        rt.assign(routers, Router{});
        wires.assign(std::size_t{routers} * S::P, StageWire{});
        std::uint64_t longest = 1;
        for (std::size_t c = 0; c < wires.size(); ++c) {
            StageWire& w = wires[c];
            if (links.connected(c)) {
                w.down_vc = links.down(c) * S::L + links.down_port(c) * S::V;
                w.delay = static_cast<std::uint32_t>(exit + links.serialisation(c) - 1 + links.latency(c));
                longest = std::max<std::uint64_t>(longest, w.delay);
            }
            if (const std::uint32_t up = links.up(c); up != Links::none) w.up_ov = up * S::V;
        }
        packets.clear();
        free_packets.clear();
        source.assign(std::size_t{terminals} * queues, RingQueue<std::uint32_t>{});
        deal.assign(terminals, 0);
        arrivals.reset(longest);
        va.reset(std::max<std::uint64_t>(va_ahead, 1));
        sa.reset(std::max<std::uint64_t>(sa_ahead, 1));
        granted.clear();
        bidding.clear();
        buffered = in_flight = queued = 0;
        sent.assign(wires.size(), 0);
    }

    /// A packet record's slot (its fields are the caller's to write).
    [[gnu::always_inline]] std::uint32_t take_packet() {
        if (free_packets.empty()) [[unlikely]]
            return grow_packets();
        const std::uint32_t id = free_packets.back();
        free_packets.pop_back();
        return id;
    }
    [[gnu::always_inline]] void free_packet(std::uint32_t id) { free_packets.push_back(id); }

private:
    [[gnu::noinline]] std::uint32_t grow_packets() {
        packets.emplace_back();
        return static_cast<std::uint32_t>(packets.size() - 1);
    }
};

}  // namespace fabric::cycle
