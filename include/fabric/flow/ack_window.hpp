// The QCDOC SCU link protocol as a flow-control policy: every word is
// acknowledged, and at most `window` words may be unacknowledged ("three in the
// air", Boyle et al., section 2.2). A word is acknowledged once the receiver has
// taken it out of its register into memory; the acknowledgement is an 8-bit
// packet on the reverse link, so it reaches the sender after the receiver's
// turnaround, 8 bit times on the wire and the link latency.
//
// In the cycle kernel this drives any link; the receiver's register holds
// `window` words. The SCU-specific behaviour that is not flow control (idle
// receive, supervisor packets, parity resend, checksums) is modelled by the
// word-level link simulation in sim/scu_link.hpp, which uses this policy's window.
#pragma once

#include <cstdint>
#include <string_view>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/core/error.hpp>

namespace fabric {

struct AckWindow {
    static constexpr std::string_view name = "acknowledgement window";
    static constexpr std::uint32_t ack_bits = 8;

    /// Words that may be sent before the first is acknowledged.
    std::uint32_t window = 3;
    /// Cycles from a word leaving the receiver's register to its acknowledgement
    /// arriving at the sender: turnaround + ack_bits + link latency.
    std::uint32_t ack_delay = 8 + ack_bits + 32;

    template <LinkType L>
    static constexpr bool drives = true;

    constexpr void validate() const {
        detail::require(window >= 1, "an acknowledgement window needs at least 1 word in the air; got 0");
        detail::require(ack_delay >= 1, "an acknowledgement needs at least 1 cycle to come back; got 0");
    }

    // --- cycle-kernel hooks (see flow/credit.hpp) ----------------------------------------
    struct sender_vc {
        std::uint32_t unacknowledged = 0;
    };
    struct receiver_vc {};
    static constexpr bool needs_packet_size = false;

    [[nodiscard]] constexpr std::uint32_t buffer_flits() const { return window; }
    [[nodiscard]] constexpr std::uint32_t feedback_delay() const { return ack_delay; }
    constexpr void init(sender_vc& s) const { s.unacknowledged = 0; }
    [[nodiscard]] constexpr bool can_send(const sender_vc& s, bool head, std::uint32_t size, bool whole_packet) const {
        return head && whole_packet ? s.unacknowledged + size <= window : s.unacknowledged < window;
    }
    static constexpr void on_send(sender_vc& s) { ++s.unacknowledged; }
    template <class Emit>
    static constexpr void on_arrive(receiver_vc&, Emit&&) {}
    template <class Emit>
    static constexpr void on_free(receiver_vc&, Emit&& emit) {
        emit(std::uint64_t{1});  // one acknowledgement per word
    }
    static constexpr void on_feedback(sender_vc& s, std::uint64_t acks) { s.unacknowledged -= static_cast<std::uint32_t>(acks); }
};

}  // namespace fabric
