// Credit-based flow control, the default protocol: the sender holds one credit per
// free buffer slot of the receiver's virtual channel, spends one per flit sent, and
// gets it back `credit_delay` cycles after the receiver frees the slot.
//
// The cycle kernel drives every protocol through the same hooks, per (channel,
// virtual channel): state kept at the sending end (sender_vc) and at the receiving
// end (receiver_vc), and feedback messages that travel back to the sender after
// feedback_delay() cycles:
//   init(sender_vc&), buffer_flits()       the receiver's buffer, in flits
//   can_send(const sender_vc&, head, size, whole_packet)
//                                          may a flit (the head of a size-flit
//                                          packet) leave now? whole_packet: the
//                                          receiver must take the whole packet
//   on_send(sender_vc&)                    a flit left
//   on_arrive(receiver_vc&, emit)          a flit entered the receiver's buffer
//   on_free(receiver_vc&, emit)            a flit left the receiver's buffer
//   on_feedback(sender_vc&, value)         a feedback message arrived
//   needs_packet_size (optional)           false: can_send ignores head and size
//                                          unless whole_packet is asked
// `emit(value)` sends a feedback message. This shape also carries an
// acknowledgement window (ack per word on arrival, at most W unacknowledged) and
// periodic threshold credits (an optional tick(receiver_vc&, now, emit) hook).
#pragma once

#include <cstdint>
#include <string_view>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/core/error.hpp>

namespace fabric {

struct Credit {
    static constexpr std::string_view name = "credit";

    /// Buffer slots (flits) per virtual channel at the receiving input port.
    std::uint32_t buffer_flits_per_vc = 8;
    /// Cycles from freeing a slot to the sender seeing the credit.
    std::uint32_t credit_delay = 1;

    template <LinkType L>
    static constexpr bool drives = L::virtual_channels >= 1;

    constexpr void validate() const {
        detail::require(buffer_flits_per_vc >= 1,
                        "Credit flow control needs at least 1 buffer slot per virtual channel; got ",
                        buffer_flits_per_vc);
        detail::require(credit_delay >= 1, "Credit flow control needs a credit delay of at least 1 cycle; got 0");
    }

    // --- cycle-kernel hooks ------------------------------------------------------------
    struct sender_vc {
        std::int32_t credits = 0;
    };
    struct receiver_vc {};

    /// can_send looks at the packet's size only under virtual cut-through.
    static constexpr bool needs_packet_size = false;
    /// Each freed slot returns one credit, and an arriving flit tells nothing
    /// (flow/traits.hpp).
    static constexpr bool returns_unit_credits = true;

    [[nodiscard]] constexpr std::uint32_t buffer_flits() const { return buffer_flits_per_vc; }
    [[nodiscard]] constexpr std::uint32_t feedback_delay() const { return credit_delay; }
    constexpr void init(sender_vc& s) const { s.credits = static_cast<std::int32_t>(buffer_flits_per_vc); }
    [[nodiscard]] static constexpr bool can_send(const sender_vc& s, bool head, std::uint32_t size, bool whole_packet) {
        return head && whole_packet ? s.credits >= static_cast<std::int32_t>(size) : s.credits >= 1;
    }
    static constexpr void on_send(sender_vc& s) { --s.credits; }
    template <class Emit>
    static constexpr void on_arrive(receiver_vc&, Emit&&) {}
    template <class Emit>
    static constexpr void on_free(receiver_vc&, Emit&& emit) {
        emit(std::uint64_t{1});
    }
    static constexpr void on_feedback(sender_vc& s, std::uint64_t credits) { s.credits += static_cast<std::int32_t>(credits); }
    /// Flits the receiver's buffer holds or will hold of what this sender sent:
    /// the credits out (OccupancyReportingFlow; adaptive routing reads it).
    [[nodiscard]] constexpr std::uint32_t occupied(const sender_vc& s) const {
        return static_cast<std::uint32_t>(static_cast<std::int32_t>(buffer_flits_per_vc) - s.credits);
    }
    /// Every credit is back: the receiver's buffer holds nothing this sender sent
    /// (DrainReportingFlow; the kernel's wait_for_tail_credit asks).
    [[nodiscard]] constexpr bool drained(const sender_vc& s) const {
        return s.credits == static_cast<std::int32_t>(buffer_flits_per_vc);
    }
};

}  // namespace fabric
