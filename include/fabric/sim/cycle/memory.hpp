// What a cycle-kernel run may take in memory: the buffers and flow-control state,
// allocated when it starts, and the packet records and routes, which grow with the
// packets in the network and in the source queues. The simulator refuses a
// configuration whose buffers exceed CycleConfig::memory_limit_mb, and stops a run,
// reported saturated, when its queued packets would take the rest (check_memory). Before
// a run, a tool that knows the load it offers estimates the whole
// (expected_memory): the buffers and the packets that load keeps in the network,
// not every packet the buffers could hold.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/packet.hpp>

namespace fabric::cycle {

namespace detail_memory {
constexpr std::uint64_t top = ~std::uint64_t{0};
/// Products and sums that stop at 2^64 - 1 rather than wrap: an absurd shape
/// still gives an absurd, refusable figure.
constexpr std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return a && b > top / a ? top : a * b; }
constexpr std::uint64_t add(std::uint64_t a, std::uint64_t b) { return b > top - a ? top : a + b; }
}  // namespace detail_memory

/// The sizes a run's memory follows from.
struct MemoryShape {
    std::uint64_t nodes = 0;
    std::uint64_t ports = 0;         // network ports per node (the injection ports come on top)
    std::uint64_t vcs = 0;           // virtual channels per port
    std::uint64_t buffer_flits = 0;  // per input VC
    std::uint64_t output_flits = 0;  // per output VC (0: input queued only)
    std::uint64_t max_hops = 0;      // the longest route a slot holds
    std::uint64_t flow_state_bytes = 0;  // sender and receiver state of one (channel, VC)
    std::uint64_t terminal_ports = 1;    // injection (and ejection) ports per node: its terminals
};

struct MemoryNeed {
    std::uint64_t buffers = 0;         // input rings, VC state, output queues, flow control
    std::uint64_t in_network = 0;      // packets and routes that fit in the buffers at once, at worst
    std::uint64_t network_packets = 0;     // the most packets the buffers hold (one a flit slot)
    std::uint64_t per_network_packet = 0;  // a packet record and its route slot
    std::uint64_t per_queued_packet = 0;   // a packet record and its source queue entry
    std::uint64_t max_hops = 0;            // the longest route
    [[nodiscard]] constexpr std::uint64_t fixed() const { return detail_memory::add(buffers, in_network); }
};

/// Bytes of each part, rounded up to whole structures (a bound, not a reading).
constexpr MemoryNeed memory_need(const MemoryShape& s) {
    using detail_memory::add;
    using detail_memory::mul;
    constexpr std::uint64_t flit = sizeof(Flit), vc = sizeof(InputVc) + 2 * sizeof(std::uint32_t);
    const std::uint64_t input_vcs = mul(mul(s.nodes, add(s.ports, s.terminal_ports)), s.vcs);
    const std::uint64_t output_vcs = mul(mul(s.nodes, s.ports), s.vcs);
    MemoryNeed m;
    // An input VC keeps its front flit in its state (InputVc) and the rest in a ring.
    m.buffers = add(mul(input_vcs, add(mul(s.buffer_flits ? s.buffer_flits - 1 : 0, flit), vc)),
                    mul(output_vcs, add(mul(s.output_flits, flit), s.flow_state_bytes)));
    // Every packet in the network has a flit in some buffer: at most one per slot.
    m.network_packets = add(mul(input_vcs, s.buffer_flits), mul(output_vcs, s.output_flits));
    m.per_network_packet = add(sizeof(Packet), mul(s.max_hops ? s.max_hops : 1, sizeof(RouteStep)));
    m.in_network = mul(m.network_packets, m.per_network_packet);
    // A queued packet: its record, its free-list and queue entries. Each is a vector or a ring
    // that doubles as it grows: while one is copied, its old block and the copied part of the
    // new one are both resident, twice what the packets take, which is what a limit must count.
    m.per_queued_packet = 2 * (sizeof(Packet) + 2 * sizeof(std::uint32_t));
    m.max_hops = s.max_hops;
    return m;
}

/// What a run's load asks of memory, for an estimate before it starts.
struct OfferedTraffic {
    double packets_per_cycle = 0;  // created by all terminals together
    double zero_load_cycles = 0;   // a packet's time in the network on the longest route with no contention
};

/// The memory a run is expected to take: its buffers, and the packets its load
/// keeps in the network (Little's law at the zero-load latency of the longest
/// route, which leaves room for some queueing), at most as many as the buffers
/// hold; the packet records and route slots are vectors that double as they grow,
/// so twice what they hold. Past saturation the source queues grow on top, until
/// the run stops at its limit (check_memory's count).
constexpr std::uint64_t expected_memory(const MemoryNeed& need, const OfferedTraffic& load) {
    const double in_flight = load.packets_per_cycle * load.zero_load_cycles;
    const double packets = std::min(static_cast<double>(need.network_packets), in_flight + 1);
    const double bytes = static_cast<double>(need.buffers) + 2 * packets * static_cast<double>(need.per_network_packet);
    return bytes >= 1.8e19 ? detail_memory::top : static_cast<std::uint64_t>(bytes);
}

/// "1,234 MB"-style figure for messages.
inline std::string megabytes(std::uint64_t bytes) { return std::to_string(bytes / (1 << 20) + (bytes % (1 << 20) != 0)) + " MB"; }

/// Refuses a run whose buffers exceed `limit_mb` (the packets the buffers could hold
/// at worst are not refused up front: a light load never puts them there); returns
/// how many packets the source queues may hold: what the limit leaves once the
/// packets the buffers can hold, or half of what is left if fewer, are set aside.
inline std::uint64_t check_memory(const MemoryNeed& need, std::uint64_t limit_mb) {
    const std::uint64_t limit = detail_memory::mul(limit_mb, std::uint64_t{1} << 20);
    detail::require(need.buffers <= limit, "this configuration needs ", megabytes(need.buffers),
                    " before any packet waits at a source (buffers ", megabytes(need.buffers),
                    "; and up to ", megabytes(need.in_network), " for the packets and routes they can hold); "
                    "memory_limit_mb is ", limit_mb, ": raise it, or make the network or its buffers smaller");
    const std::uint64_t left = limit - need.buffers;
    return (left - std::min(need.in_network, left / 2)) / need.per_queued_packet;
}

}  // namespace fabric::cycle
