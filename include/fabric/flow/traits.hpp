// The optional parts of a flow-control protocol, with the defaults the cycle
// kernel uses when a protocol leaves them out (the required hooks are the
// CycleFlowControl concept, concepts/flow_control.hpp):
//   protocol_flits_per_packet  words the protocol puts on the link before each
//                              head (APEnet+: Magic and Start); default 0
//   needs_packet_size          whether can_send looks at head and size when the
//                              whole packet is not asked for; default true
//   frame_data_slots(), frame_credit_slots()
//                              the link runs in frames of data cycles followed by
//                              cycles that carry the protocol's own words; default:
//                              no frames
//   tick(receiver_vc&, emit)   called at the start of each frame's credit slots
//                              (periodic Credits); default: none
//   returns_unit_credits       true when the feedback is exactly one credit per
//                              flit freed (on_free emits 1, on_arrive nothing, no
//                              ticks): the kernel then sends the credit without
//                              calling the receiver's hooks; default: false
#pragma once

#include <cstdint>

#include <fabric/concepts/flow_control.hpp>

namespace fabric {

template <class F>
struct flow_traits {
    static constexpr std::uint32_t protocol_flits = [] {
        if constexpr (requires { F::protocol_flits_per_packet; }) return F::protocol_flits_per_packet;
        else return 0U;
    }();
    static constexpr bool needs_packet_size = [] {
        if constexpr (requires { F::needs_packet_size; }) return F::needs_packet_size;
        else return true;
    }();
    static constexpr bool framed = requires(const F& f) {
        f.frame_data_slots();
        f.frame_credit_slots();
    };
    static constexpr bool ticks = requires(const F& f, typename F::receiver_vc& r) {
        f.tick(r, detail::feedback_sink{});
    };
    static constexpr bool returns_unit_credits = [] {
        if constexpr (requires { F::returns_unit_credits; }) return F::returns_unit_credits && !ticks;
        else return false;
    }();
};

/// A flow control whose link runs in frames and whose receivers send a Credit at
/// every frame, whatever the traffic (ApenetCredit): what carrying words in the
/// Credits' spare bits (CycleSimulator::post_side_band) needs.
template <class F>
concept PeriodicCreditFlow = flow_traits<F>::framed && flow_traits<F>::ticks;

}  // namespace fabric
