// The link framing of a flow-control protocol, as the cycle kernel uses it: a
// framed link (flow_traits<F>::framed) carries data in the first
// frame_data_slots() cycles of each frame and the protocol's own words (periodic
// Credits) in the frame_credit_slots() cycles after them; an unframed link takes
// data in every cycle.
#pragma once

#include <cstdint>

#include <fabric/flow/traits.hpp>

namespace fabric::cycle {

template <class F>
struct Framing {
    static constexpr bool framed = flow_traits<F>::framed;
    static constexpr bool ticks = PeriodicCreditFlow<F>;

    /// Cycles of one frame (1 on an unframed link).
    [[nodiscard]] static constexpr std::uint64_t frame(const F& flow) {
        if constexpr (framed) return flow.frame_data_slots() + flow.frame_credit_slots();
        else return 1;
    }

    /// The first cycle at or after t that is a data slot.
    [[nodiscard]] static constexpr std::uint64_t next_data_slot(const F& flow, std::uint64_t t) {
        if constexpr (framed) {
            const std::uint64_t data = flow.frame_data_slots();
            const std::uint64_t phase = t % frame(flow);
            return phase < data ? t : t + frame(flow) - phase;
        } else {
            (void)flow;
            return t;
        }
    }

    /// Whether cycle t starts a frame's credit slots, when receivers tick.
    [[nodiscard]] static constexpr bool credit_tick(const F& flow, std::uint64_t t) {
        if constexpr (ticks) return t % frame(flow) == flow.frame_data_slots();
        else {
            (void)flow;
            (void)t;
            return false;
        }
    }
};

}  // namespace fabric::cycle
