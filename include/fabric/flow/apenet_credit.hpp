// The APEnet+ torus link protocol as a flow-control policy (EURETILE 2012
// report, vol. II, section 3.1.1.1).
//
// The LINK CTRL counts the 16-byte words it sends into the receiver's RX LINK
// FIFO; when the count of words not known to have left the FIFO reaches T_RED it
// stops, and it resumes when a Credit shows the FIFO drained below T_YELLOW.
// Credits are sent every C cycles whatever the traffic; each Credit and the Magic
// word that marks it take two word slots of the link (so data get C of every
// C + 2). Every packet costs two more words (Magic and Start) before its header.
// The router starts a packet only if the FIFO, as the sender knows it, has room
// for all of it below T_RED. A Credit reaches the sender L_R (flight) + L_L
// (clock-domain crossing) cycles after it leaves.
//
// Modelling choice: a Credit carries the FIFO's occupancy and the count of words
// the receiver has received; the sender counts every word it sends as in the FIFO
// until a Credit that accounts for all of them replaces the count with the
// occupancy it reports. The report does not say what T_YELLOW is; 128 is our
// default.
#pragma once

#include <cstdint>
#include <string_view>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/core/error.hpp>

namespace fabric {

struct ApenetCredit {
    static constexpr std::string_view name = "APEnet+ threshold credits";
    static constexpr std::uint32_t protocol_flits_per_packet = 2;  // Magic and Start
    static constexpr std::uint32_t credit_words = 2;               // Credit and its Magic

    std::uint32_t fifo_depth = 512;   // words per RX LINK FIFO (one FIFO per virtual channel)
    std::uint32_t t_red = 506;        // stop once this many words may be in the FIFO
    std::uint32_t t_yellow = 128;     // resume when a Credit shows fewer than this (ours: the report gives none)
    std::uint32_t credit_period = 35; // C: data cycles between Credits
    std::uint32_t remote_latency = 35;  // L_R: flight of a word over the physical layer
    std::uint32_t local_latency = 20;   // L_L: clock-domain synchronisation

    template <class L>
    static constexpr bool drives = L::virtual_channels >= 1;

    /// The same protocol with T_RED = depth - 6, the report's safety margin.
    static constexpr ApenetCredit with_fifo(std::uint32_t depth, std::uint32_t period = 35) {
        ApenetCredit c;
        c.fifo_depth = depth;
        c.t_red = depth - 6;
        c.credit_period = period;
        return c;
    }

    constexpr void validate() const {
        detail::require(fifo_depth >= 8, "the RX LINK FIFO needs at least 8 words; got ", fifo_depth);
        detail::require(t_red <= fifo_depth && t_red >= 2, "T_RED must lie in [2, FIFO depth = ", fifo_depth, "]; got ",
                        t_red);
        detail::require(t_yellow < t_red && t_yellow >= 1, "T_YELLOW must be at least 1 and below T_RED (", t_red,
                        "); got ", t_yellow);
        detail::require(credit_period >= 1, "the Credit period C must be at least 1 cycle");
        detail::require(remote_latency + local_latency >= 1, "a Credit needs at least 1 cycle to arrive");
    }

    // --- cycle-kernel hooks (see flow/credit.hpp; the frame and tick hooks are optional) ---
    struct sender_vc {
        std::uint32_t sent = 0;     // words sent, modulo 2^32
        std::uint32_t in_fifo = 0;  // words that may be in the FIFO or on their way to it
        bool stopped = false;
    };
    struct receiver_vc {
        std::uint32_t received = 0;  // words received, modulo 2^32
        std::uint32_t occupancy = 0;
    };
    static constexpr bool needs_packet_size = true;

    [[nodiscard]] constexpr std::uint32_t buffer_flits() const { return fifo_depth; }
    [[nodiscard]] constexpr std::uint32_t feedback_delay() const { return remote_latency + local_latency; }
    /// The link carries `credit_period` data words, then a Credit and its Magic word.
    [[nodiscard]] constexpr std::uint32_t frame_data_slots() const { return credit_period; }
    [[nodiscard]] constexpr std::uint32_t frame_credit_slots() const { return credit_words; }

    constexpr void init(sender_vc& s) const { s = sender_vc{}; }
    [[nodiscard]] constexpr bool can_send(const sender_vc& s, bool head, std::uint32_t size, bool) const {
        if (s.stopped) return false;
        return head ? s.in_fifo + size <= t_red : s.in_fifo < t_red;  // a whole packet below T_RED
    }
    constexpr void on_send(sender_vc& s) const {
        ++s.sent;
        if (++s.in_fifo >= t_red) s.stopped = true;
    }
    template <class Emit>
    static constexpr void on_arrive(receiver_vc& r, Emit&&) {
        ++r.received;
        ++r.occupancy;
    }
    template <class Emit>
    static constexpr void on_free(receiver_vc& r, Emit&&) {
        --r.occupancy;  // reported at the next Credit, not now
    }
    /// Every frame a Credit: the words received so far and the FIFO's occupancy.
    template <class Emit>
    static constexpr void tick(receiver_vc& r, Emit&& emit) {
        emit((std::uint64_t{r.received} << 32) | r.occupancy);
    }
    /// Only a Credit that accounts for every word sent tells the FIFO's state:
    /// one sent before the last words arrived is stale and changes nothing. This is
    /// the wait for "the flight time of the last sent data and of Credit containing
    /// the actual status of RX LINK FIFO" (W = L_T + up to C cycles).
    constexpr void on_feedback(sender_vc& s, std::uint64_t credit) const {
        const auto received = static_cast<std::uint32_t>(credit >> 32);
        if (received != s.sent) return;
        s.in_fifo = static_cast<std::uint32_t>(credit & 0xffffffffU);
        if (s.stopped && s.in_fifo < t_yellow) s.stopped = false;
    }
};

}  // namespace fabric
