// The cycle kernel's units of traffic: a flit names its packet, its place in it
// and the links it has crossed; a packet carries what the source, the network and
// the destination need to know of it; its route is kept in a RouteStore slot
// while it is in the network.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/concepts/routing.hpp>
#include <fabric/core/large_pages.hpp>

namespace fabric::cycle {

/// The kernel counts a route's hops in 15 bits (a flit's hop; a route's length):
/// the simulator refuses a routing policy whose max_hops is larger.
inline constexpr std::uint32_t max_route_hops = 32767;

/// A flit as the buffers hold it: its packet, its place in it, the links it has
/// crossed, and whether it is the packet's last (so that a hop need not look at
/// the packet's record to know).
struct Flit {
    std::uint32_t packet;
    std::uint16_t index;
    std::uint16_t hop_and_tail;  // links crossed so far (15 bits), and the tail bit on top

    constexpr Flit() = default;
    constexpr Flit(std::uint32_t p, std::uint16_t i, std::uint16_t hop, bool tail = false)
        : packet(p), index(i), hop_and_tail(static_cast<std::uint16_t>(hop | (tail ? tail_bit : 0))) {}
    [[nodiscard]] constexpr std::uint16_t hop() const { return hop_and_tail & ~tail_bit; }
    [[nodiscard]] constexpr bool tail() const { return (hop_and_tail & tail_bit) != 0; }
    /// The same flit, one link further.
    [[nodiscard]] constexpr Flit onward() const {
        Flit f = *this;
        ++f.hop_and_tail;
        return f;
    }
    static constexpr std::uint16_t tail_bit = 0x8000;
};
static_assert(sizeof(Flit) == 8, "a flit is two words of the buffer rings");

struct Packet {
    std::uint32_t src = 0, dst = 0;
    std::uint16_t size = 0, route_len = 0;
    std::uint16_t sent = 0, ejected = 0;  // flits that left the source queue / were ejected
    bool measured = false;
    bool watched = false;          // its flits' events go to the watch trace
    bool reply = false;            // with request_reply: a reply (else a request)
    std::uint8_t klass = 0;        // its traffic class, and that class's priority level (0 the highest)
    std::uint8_t level = 0;
    bool lost = false;
    // Where this copy of the packet stands (a partitioned run keeps a copy on each
    // rank its route passes through; a run alone, one): the hop at which its
    // stretch of the route begins, its flits passed on to another rank, and those
    // dropped before its stretch (losses.hpp).
    std::uint16_t entry = 0;
    std::uint64_t created = 0, injected = 0;
    std::uint64_t choice = 0;      // which of the policy's routes
    std::uint32_t route_slot = 0;  // where its route is kept while it is in the network
    std::uint16_t dropped = 0;     // flits lost here (with a failed link, or arriving for a lost packet)
    std::uint16_t cut = 0;         // cut by a failed link: flits 0 .. cut - 1 got across (0: not cut)
    std::uint32_t sequence = 0;    // per source-destination pair, with track_reorder
    std::uint32_t message = 0;     // with max_packet_flits: its message, and which part of it
    std::uint32_t part = 0;        // (a message port's packet: its message's parts, and which it is)
    std::uint16_t passed = 0, before = 0;
    std::uint64_t request_created = 0;  // a reply: when its request was created (a port's packet: its handle)
    std::uint64_t number = std::numeric_limits<std::uint64_t>::max();  // the same at every rank

    /// Whether every flit this copy will see has left it (passed on, ejected or dropped).
    [[nodiscard]] bool done() const { return passed + ejected + dropped + before == size; }
    /// Whether a flit of it is known here to be lost.
    [[nodiscard]] bool lost_any() const { return lost || dropped > 0 || before > 0; }
};
static_assert(sizeof(Packet) <= 88, "a packet record is counted in the memory model: keep it packed");

/// One step of a source route: the output port and the virtual channel.
struct RouteStep {
    std::uint16_t port;
    std::uint8_t vc;
    /// A routing policy's hop, as a step (a policy may write steps in place of hops).
    constexpr RouteStep& operator=(const Hop& h) {
        port = static_cast<std::uint16_t>(h.port.value);
        vc = h.vc;
        return *this;
    }
};

/// Routes of the packets in the network, each in a slot of max_hops + 1 steps:
/// a route's hops, then the step out to its destination's terminal port (so that
/// a hop reads what comes next from the route alone).
class RouteStore {
public:
    void reset(std::uint32_t max_hops) {
        hops_ = max_hops + 1;
        steps_.clear();
        free_.clear();
    }
    std::uint32_t take() {
        if (free_.empty()) [[unlikely]]
            return grow();
        const std::uint32_t slot = free_.back();
        free_.pop_back();
        return slot;
    }
    void release(std::uint32_t slot) { free_.push_back(slot); }
    [[nodiscard]] RouteStep* steps(std::uint32_t slot) { return &steps_[static_cast<std::size_t>(slot) * hops_]; }
    /// Writes `len` hops as steps first .. first + len - 1 of the route in `slot`.
    void write(std::uint32_t slot, std::size_t first, const Hop* hops, std::size_t len) {
        RouteStep* out = steps(slot) + first;
        for (std::size_t i = 0; i < len; ++i) out[i] = hops[i];
    }
    [[nodiscard]] const RouteStep& step(std::uint32_t slot, std::uint32_t hop) const {
        return steps_[static_cast<std::size_t>(slot) * hops_ + hop];
    }
    /// The route in `slot` ends after `len` hops, at terminal port `port`.
    void end(std::uint32_t slot, std::size_t len, std::uint32_t port) {
        steps(slot)[len] = RouteStep{static_cast<std::uint16_t>(port), 0};
    }

private:
    /// A new slot, past the others (apart from take, which then needs no frame).
    [[gnu::noinline]] std::uint32_t grow() {
        steps_.resize(steps_.size() + hops_);
        return static_cast<std::uint32_t>(steps_.size() / hops_ - 1);
    }

    std::uint32_t hops_ = 1;
    std::vector<RouteStep, detail::LargePageAllocator<RouteStep>> steps_;  // read at random: large pages past 2 MiB
    std::vector<std::uint32_t> free_;
};

}  // namespace fabric::cycle
