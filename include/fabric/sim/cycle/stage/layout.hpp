// The records of the stage-list kernel (stage/kernel.hpp), sized at compile time
// from the fabric type: a router's network ports P, terminal ports TP and virtual
// channels V are constants of the topology and link types, so every per-router
// index is arithmetic on constants and only the router count is a run-time size.
//
// Indices (shape.hpp's, with per-router strides rounded up to powers of two):
//   local VC   l = port * V + vc            (ports P .. P + TP - 1: terminals' injection)
//   input VC   router * LP + l              (LP: L = (P + TP) * V rounded up)
//   output VC  router * NVP + port * V + vc (NVP: NV = P * V rounded up; network ports only)
//   step       a route's hop as the output VC it takes within its router (port * V + vc),
//              or NV + t: out to the router's terminal t (the route's last step)
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

/// A set of up to Bits small numbers (local VCs of one router), visited in increasing order.
template <std::uint32_t Bits>
struct BitSet {
    static constexpr std::uint32_t words = (Bits + 63) / 64;
    std::uint64_t w[words]{};
    [[gnu::always_inline]] void set(std::uint32_t i) { w[i / 64] |= std::uint64_t{1} << (i % 64); }
    [[gnu::always_inline]] void reset(std::uint32_t i) { w[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
    [[gnu::always_inline]] [[nodiscard]] bool test(std::uint32_t i) const { return (w[i / 64] >> (i % 64)) & 1U; }
    [[gnu::always_inline]] [[nodiscard]] bool any() const {
        if constexpr (words == 1) return w[0] != 0;
        else {
            std::uint64_t a = 0;
            for (const std::uint64_t x : w) a |= x;
            return a != 0;
        }
    }
    /// Exactly one member: it (else none).
    [[gnu::always_inline]] [[nodiscard]] std::uint32_t lone() const {
        if constexpr (words == 1) {
            return w[0] != 0 && (w[0] & (w[0] - 1)) == 0 ? static_cast<std::uint32_t>(std::countr_zero(w[0])) : ~0U;
        } else {
            std::uint32_t found = ~0U;
            for (std::uint32_t k = 0; k < words; ++k) {
                if (!w[k]) continue;
                if (found != ~0U || (w[k] & (w[k] - 1))) return ~0U;
                found = k * 64 + static_cast<std::uint32_t>(std::countr_zero(w[k]));
            }
            return found;
        }
    }
    [[gnu::always_inline]] void clear() {
        for (std::uint64_t& x : w) x = 0;
    }
    template <class F>
    [[gnu::always_inline]] void for_each(F&& f) const {
        for (std::uint32_t k = 0; k < words; ++k)
            for (std::uint64_t b = w[k]; b; b &= b - 1) f(k * 64 + static_cast<std::uint32_t>(std::countr_zero(b)));
    }
};

/// The per-router sizes of topology type T, as constants.
template <class T>
struct StaticShape {
    static constexpr std::uint32_t P = static_cast<std::uint32_t>(T::ports_per_node);
    static constexpr std::uint32_t TP = static_cast<std::uint32_t>(max_terminals_v<T>);
    static constexpr std::uint32_t V = static_cast<std::uint32_t>(max_virtual_channels_v<T>);
    static constexpr std::uint32_t NP = P + TP;  // switch ports: links and terminals
    static constexpr std::uint32_t L = NP * V;   // input VCs a router
    static constexpr std::uint32_t NV = P * V;   // network output VCs a router
    /// Strides of the input and output VCs' records per router: powers of two, so
    /// that a VC's router and local index are a shift and a mask of its index.
    static constexpr std::uint32_t LP = std::bit_ceil(L), NVP = std::bit_ceil(NV);
    static_assert(L < (1U << 15), "fabric: the cycle kernel numbers a router's input VCs in 15 bits");
    /// A route step: one byte where a router's output VCs and terminals fit.
    using Step = std::conditional_t<(NV + TP < 255), std::uint8_t, std::uint16_t>;
    /// A local input VC's port and VC: from a table where V is not a power of two (two
    /// loads cost less than the division), by shift and mask where it is.
    static constexpr bool tabled = !std::has_single_bit(V) && L <= 1024;
    struct PortVc {
        std::uint16_t port, vc;
    };
    static constexpr auto port_vc = [] {
        std::array<PortVc, tabled ? L : 1> t{};
        if constexpr (tabled)
            for (std::uint32_t l = 0; l < L; ++l) t[l] = {static_cast<std::uint16_t>(l / V), static_cast<std::uint16_t>(l % V)};
        return t;
    }();
    [[nodiscard]] static constexpr std::uint32_t port_of(std::uint32_t local) {
        if constexpr (tabled) {
            if (local >= L) __builtin_unreachable();
            return port_vc[local].port;
        } else {
            return local / V;
        }
    }
    [[nodiscard]] static constexpr std::uint32_t vc_of(std::uint32_t local) {
        if constexpr (tabled) {
            if (local >= L) __builtin_unreachable();
            return port_vc[local].vc;
        } else {
            return local % V;
        }
    }
};

/// A route step written by a routing policy that writes hops (select_route's `out`): the output VC it takes.
/// `Room`: the steps of the route it is written into (0: not known).
template <class Shape, std::size_t Room = 0>
struct StepOut {
    typename Shape::Step step;
    constexpr StepOut& operator=(const Hop& h) {
        auto v = static_cast<typename Shape::Step>(h.port.value * Shape::V + h.vc);
        // Opaque to the optimiser: a leg's steps are a few bytes, which GCC would
        // otherwise fill with a call of memset costing more than the stores.
        if (!std::is_constant_evaluated()) asm("" : "+r"(v));
        step = v;
        return *this;
    }
    /// out[n .. n + count) all take hop h's step (a run of hops of one port and VC,
    /// as a dimension-ordered leg has): where steps are bytes and eight fit from out[n]
    /// within the route, one store of eight. The steps it writes past the run are the
    /// next run's to write, or past the route's end, where nothing reads them.
    static constexpr void fill(StepOut* out, std::size_t n, std::uint32_t count, const Hop& h) {
        auto v = static_cast<typename Shape::Step>(h.port.value * Shape::V + h.vc);
        if constexpr (sizeof(StepOut) == 1 && Room >= 8) {
            if (!std::is_constant_evaluated() && count <= 8 && n + 8 <= Room) {
                const std::uint64_t word = std::uint64_t{v} * 0x0101010101010101ULL;
                __builtin_memcpy(out + n, &word, sizeof word);
                return;
            }
        }
        if (!std::is_constant_evaluated()) asm("" : "+r"(v));  // stores, not a call of memset (above)
        for (std::uint32_t i = 0; i < count; ++i) out[n + i].step = v;
    }
};

enum class StageState : std::uint8_t { idle, waiting, active };

/// An input VC (32 bytes): its front flit with its state, the flits behind it in a ring.
struct StageVc {
    Flit front{0, 0, 0};       // network VC: the front flit; source VC: its queue's front packet's next flit
    std::uint64_t since = 0;   // the cycle its front flit became the front (the watchdog's)
    std::uint32_t up = none;   // a network VC: the output VC upstream that its credits go back to
    std::uint16_t count = 0;   // flits held (a source VC: 1 while its queue holds a packet)
    std::uint16_t head = 0;    // ring slot of the flit behind the front
    StageState state = StageState::idle;
    std::uint8_t pointer_before = 0;  // granted its output VC: that VC's allocator pointer before,
    std::uint16_t out = 0;     // the step it asks for (waiting) or holds (active)
    std::uint16_t port = 0;    // that step's output port
    std::uint16_t listed = 0;  // and its place among that cycle's grants (up to 0xffff; model.hpp)
};
static_assert(sizeof(StageVc) == 32);

/// An output VC of a network port (32 bytes for up to 64 input VCs a router): its
/// holder, its VC allocator's round-robin pointer, the sender's credits, where its
/// flits arrive and when, the flits it has sent, and the input VCs waiting for it.
template <std::uint32_t L>
struct StageOutVc {
    static constexpr std::uint16_t free = 0xffff;
    std::int32_t credits = 0;
    std::uint16_t owner = free;    // the local input VC holding it
    std::uint8_t pointer = 0;      // the VC allocator's: the asker nearest at or after it wins
    std::uint8_t credit_wait = 0;  // its holder bids again when a credit comes back
    std::uint32_t down = none;     // the input VC its flits arrive at (router * LP + port * V + vc)
    std::uint32_t delay = 0;       // a switch grant to the arrival: switch stages + serialisation - 1 + latency
    BitSet<L> waiters{};           // local input VCs that asked while it was held: they ask again when it is freed
    std::uint64_t sent = 0;        // flits put on its link
};

/// A router's switch state: the bids of this cycle, its allocator's pointers (switch.hpp).
template <std::uint32_t L, class SwitchState>
struct StageRouter {
    BitSet<L> bids{};
    SwitchState sw{};
};

/// A terminal's source queue: its packets in order, linked through their records.
struct StageQueue {
    std::uint32_t head = none, tail = none, count = 0, pad = 0;
};

/// A flit due at an input VC; a head carries the step its route takes there.
struct StageArrival {
    std::uint32_t vc;  // input VC index
    Flit flit;
    std::uint32_t step;
};

/// A packet's hot record: what a move and a sink read, and its route as steps,
/// one byte each where they fit, written by the routing policy. `Bytes` is 64 or
/// a multiple; the route takes what the fields leave.
template <class Shape, std::uint32_t Bytes = 64>
struct alignas(64) StagePacket {
    using Step = StepOut<Shape, (Bytes - 36) / sizeof(typename Shape::Step)>;
    std::uint64_t created = 0;
    std::uint64_t injected = 0;  // the cycle its head left the source queue
    std::uint32_t src = 0, dst = 0;
    std::uint16_t size = 0;
    std::uint16_t sent = 0;      // flits that left the source queue
    std::uint16_t ejected = 0;
    std::uint8_t route_len = 0;
    std::uint8_t measured = 0;
    std::uint32_t next = none;   // the packet behind it in its source queue
    static constexpr std::uint32_t capacity = (Bytes - 36) / sizeof(Step);  // steps: hops, then the terminal's
    Step route[capacity];       // before the route is written (behind others in a source queue): the choice
    [[nodiscard]] std::uint64_t choice() const {
        std::uint64_t c;
        __builtin_memcpy(&c, route, sizeof c);
        return c;
    }
    void keep_choice(std::uint64_t c) { __builtin_memcpy(route, &c, sizeof c); }
};

}  // namespace fabric::cycle
