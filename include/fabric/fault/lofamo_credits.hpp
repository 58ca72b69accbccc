// When a LiFaMa Diagnostic Message reaches the neighbour (EURETILE 2012 report,
// vol. II, section 2.3): it rides in "the spare bits of the Credit without adding
// protocol overhead", and the transmit side "updates the LiFaMa Diagnostic Message
// only when the LINK CTRL completes sending a Credit containing the previous one":
// one message a Credit. A Credit leaves in the credit slots of every frame of the
// link, whatever the data traffic (flow/apenet_credit.hpp: C data words, then the
// Credit and its Magic word), and reaches the other end L_R + L_L cycles later.
// So the k-th message a DFM posts at cycle p (k from 0, all posted at p) arrives
// k frames after the first credit slot at or after p, plus L_R + L_L: at most one
// frame less a cycle plus L_R + L_L after it was posted, and the same under any
// load, as the cycle kernel's frames (sim/cycle/framing.hpp) send Credits.
//
// The event model (fault/lofamo.hpp) takes one delay for a LiFaMa message,
// Timing::lifama, 1 us by default (the library's figure);
// lifama_worst_case_us gives what the link protocol allows instead: 91 cycles,
// 0.26 us at 350 MHz with the report's C = 35, L_R = 35 and L_L = 20.
#pragma once

#include <cstdint>

#include <fabric/core/error.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/sim/cycle/framing.hpp>

namespace fabric::lofamo {

/// The first cycle at or after `t` at which the link's receiver sends a Credit.
constexpr std::uint64_t next_credit_slot(const ApenetCredit& link, std::uint64_t t) {
    using F = cycle::Framing<ApenetCredit>;
    const std::uint64_t frame = F::frame(link), phase = t % frame, at = link.frame_data_slots();
    return phase <= at ? t + (at - phase) : t + frame - phase + at;
}

/// The cycle at which the neighbour's DFM has the k-th (from 0) of the messages a
/// DFM posted at cycle `posted`.
constexpr std::uint64_t lifama_arrival(const ApenetCredit& link, std::uint64_t posted, std::uint64_t k = 0) {
    return next_credit_slot(link, posted) + k * cycle::Framing<ApenetCredit>::frame(link) + link.feedback_delay();
}

/// The longest a single message waits, in LINK CTRL cycles: posted just after a
/// Credit left, it waits a frame less a cycle, then the Credit's flight.
constexpr std::uint64_t lifama_worst_case_cycles(const ApenetCredit& link) {
    return cycle::Framing<ApenetCredit>::frame(link) - 1 + link.feedback_delay();
}
/// The same in microseconds at a LINK CTRL clock of `clock_mhz` (350 MHz: the report's 28 Gbps).
constexpr double lifama_worst_case_us(const ApenetCredit& link, double clock_mhz = 350) {
    fabric::detail::require(clock_mhz > 0, "LO|FA|MO: the link clock must be positive; got ", clock_mhz, " MHz");
    return static_cast<double>(lifama_worst_case_cycles(link)) / clock_mhz;
}

}  // namespace fabric::lofamo
