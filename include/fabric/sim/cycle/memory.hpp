// What a cycle-kernel run may take in memory, known before it starts: the fixed
// part (buffers, flow-control state, and the packets and routes that can be in the
// network at once, at worst) and the price of each packet waiting in a source
// queue. The simulator refuses a configuration whose fixed part exceeds
// CycleConfig::memory_limit_mb, and stops a run, reported saturated, when its
// source queues would take the rest.
#pragma once

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
    std::uint64_t in_network = 0;      // packets and routes that fit in the buffers at once
    std::uint64_t per_queued_packet = 0;
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
    const std::uint64_t packets = add(mul(input_vcs, s.buffer_flits), mul(output_vcs, s.output_flits));
    m.in_network = mul(packets, add(sizeof(Packet), mul(s.max_hops ? s.max_hops : 1, sizeof(RouteStep))));
    m.per_queued_packet = sizeof(Packet) + 2 * sizeof(std::uint32_t);  // the packet, its queue entry (rings double)
    return m;
}

/// "1,234 MB"-style figure for messages.
inline std::string megabytes(std::uint64_t bytes) { return std::to_string(bytes / (1 << 20) + (bytes % (1 << 20) != 0)) + " MB"; }

/// Refuses a run whose fixed part exceeds `limit_mb`; returns how many packets
/// the source queues may hold within it.
inline std::uint64_t check_memory(const MemoryNeed& need, std::uint64_t limit_mb) {
    const std::uint64_t limit = detail_memory::mul(limit_mb, std::uint64_t{1} << 20);
    detail::require(need.fixed() <= limit, "this configuration needs ", megabytes(need.fixed()),
                    " before any packet waits at a source (buffers ", megabytes(need.buffers),
                    ", packets and routes the buffers can hold ", megabytes(need.in_network),
                    "); memory_limit_mb is ", limit_mb, ": raise it, or make the network, its buffers or its routes "
                    "smaller");
    return (limit - need.fixed()) / need.per_queued_packet;
}

}  // namespace fabric::cycle
