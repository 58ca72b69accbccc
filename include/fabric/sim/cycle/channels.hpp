// The channels of a cycle-kernel run: the links (latency, serialisation, wiring),
// the flow control's state at both ends of every link VC, and the calendar of what
// is on the wires (flits arriving, feedback returning, words in the Credits). A flit put on a link is
// due at its receiver once its last bit is in; feedback a receiver emits reaches
// its sender after the protocol's delay. A channel whose far end is on another
// rank writes to an outbox instead (remote_channels.hpp); nothing else here, and
// nothing that uses it, knows ranks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/framing.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/packets.hpp>
#include <fabric/sim/cycle/remote_channels.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/side_band.hpp>

namespace fabric::cycle {

template <CycleFlowControl F>
class Channels {
public:
    using Frames = Framing<F>;
    static constexpr std::uint32_t protocol_flits = flow_traits<F>::protocol_flits;
    /// One credit per flit freed and nothing on arrival (flow/traits.hpp): the
    /// kernel sends the credit without asking the receiver's state.
    static constexpr bool unit_credits = flow_traits<F>::returns_unit_credits;

    /// Feedback takes its link's latency on top of the flow control's delay when `feedback_over_link`.
    Channels(Links links, const F& flow, bool feedback_over_link)
        : links_(std::move(links)), flow_(flow), feedback_over_link_(feedback_over_link) {}

    [[nodiscard]] Links& links() { return links_; }
    [[nodiscard]] const Links& links() const { return links_; }
    [[nodiscard]] const F& flow() const { return flow_; }
    /// Words carried in the periodic Credits of a protocol that has them (Frames::ticks).
    [[nodiscard]] SideBand& side_band() { return side_band_; }
    [[nodiscard]] const SideBand& side_band() const { return side_band_; }
    [[nodiscard]] RemoteChannels& remote() { return remote_; }
    [[nodiscard]] const RemoteChannels& remote() const { return remote_; }

    /// Before a run: every link idle, every sender with its initial state, wheels
    /// for delays below `horizon` cycles.
    void reset(const Shape& shape, std::uint64_t horizon) {
        ports_ = shape.ports;
        vcs_ = shape.vcs;
        per_router_ = shape.per_router();
        const std::size_t senders = shape.channels() * vcs_;
        sender_.assign(senders, typename F::sender_vc{});
        for (auto& s : sender_) flow_.init(s);
        receiver_.assign(senders, typename F::receiver_vc{});
        sent_in_window_.assign(shape.channels(), 0);
        feedback_to_.assign(senders, FeedbackTo{});
        for (std::size_t channel = 0; channel < shape.channels(); ++channel)
            if (const std::uint32_t up = links_.up(channel); up != Links::none)
                for (std::uint32_t vc = 0; vc < vcs_; ++vc)
                    feedback_to_[channel * vcs_ + vc] =
                        FeedbackTo{static_cast<std::uint32_t>(std::size_t{up} * vcs_ + vc), links_.up_node(channel),
                                   static_cast<std::uint32_t>(feedback_delay(up))};
        arrivals_.reset(horizon - 1);
        feedback_.reset(horizon - 1);
        in_flight_ = 0;
        side_band_.reset(shape.channels(), ports_);
        remote_.layout(per_router_);
        remote_.reset(shape.input_vcs());
    }

    /// Whether sender (channel * V + vc) may let a flit go: the head of a packet of
    /// `size` flits, or under virtual cut-through (`whole`) a whole packet.
    [[gnu::always_inline]] [[nodiscard]] bool can_send(std::size_t sender, bool head, std::uint32_t size,
                                                       bool whole) const {
        return flow_.can_send(sender_[sender], head, size, whole);
    }
    [[nodiscard]] const typename F::sender_vc& sender(std::size_t s) const { return sender_[s]; }
    [[nodiscard]] const std::vector<typename F::sender_vc>& senders() const { return sender_; }

    /// Puts flit `f` of packet `pk` on the link of `channel`, VC `vc`, from cycle
    /// `leaves` on; returns the cycle from which the link is free again. Flits put
    /// on in the window `cfg` names are counted per channel.
    [[gnu::always_inline]] std::uint64_t put_on_link(std::size_t channel, std::uint32_t vc, const Flit& f,
                                                     std::uint64_t leaves, const CycleConfig& cfg, PacketTable& packets,
                                                     std::uint32_t route) {
        const std::uint32_t ser = links_.serialisation(channel);
        // Words the protocol puts before a head (Magic, Start), then the flit;
        // each takes the next data slot of the link's frame.
        std::uint64_t enter = Frames::next_data_slot(flow_, leaves);
        if constexpr (protocol_flits > 0) {
            if (f.index == 0)
                for (std::uint32_t w = 0; w < protocol_flits; ++w) enter = Frames::next_data_slot(flow_, enter + ser);
        }
        flow_.on_send(sender_[channel * vcs_ + vc]);
        if (cfg.in_window(enter)) ++sent_in_window_[channel];
        // Received once its last bit is in: serialisation - 1 cycles after its first, plus the latency.
        const std::uint64_t due = enter + ser - 1 + links_.latency(channel);
        const std::uint32_t down = links_.down(channel);
        const Flit onward = f.onward();
        const Arrival a{onward, down, links_.down_port(channel) * vcs_ + vc, route,
                        f.index == 0 ? packets.routes().step(route, onward.hop()) : RouteStep{0, 0}};
        if (remote_.here(down)) {
            arrivals_.schedule(due, a);
            ++in_flight_;
        } else {
            Packet& pk = packets[f.packet];
            remote_.post_arrival(due, a, pk, packets.routes());
            ++pk.passed;
            if (pk.done()) packets.retire(f.packet);  // its last flit here has left
        }
        return enter + ser;
    }

    /// A flit left (freed) or entered input VC (port, vc) of router n: the
    /// receiver's protocol may send feedback upstream.
    /// `receiver`: the input VC as (channel * V + vc), that is n * P * V + port * V + vc.
    [[gnu::always_inline]] void freed(std::size_t receiver, std::uint64_t now) {
        if constexpr (unit_credits) {  // one credit per flit freed (flow/traits.hpp)
            send_feedback(receiver, 1, now);
        } else {
            flow_.on_free(receiver_[receiver], [&](std::uint64_t value) { send_feedback(receiver, value, now); });
        }
    }
    [[gnu::always_inline]] void arrived(std::uint32_t n, std::uint32_t port, std::uint32_t vc, std::uint64_t now) {
        if constexpr (!unit_credits) {  // such a protocol tells nothing on arrival
            const std::size_t receiver = (std::size_t{n} * ports_ + port) * vcs_ + vc;
            flow_.on_arrive(receiver_[receiver], [&](std::uint64_t value) { send_feedback(receiver, value, now); });
        } else {
            (void)n, (void)port, (void)vc, (void)now;
        }
    }

    /// At the start of every frame's credit slots each receiver here sends its
    /// Credit; the first VC's carries a side-band word (side_band.hpp) if one waits.
    void tick_receivers(std::uint64_t now) {
        if constexpr (Frames::ticks) {
            if (side_band_.any()) [[unlikely]]
                side_band_.step(now, [&](std::size_t channel) { return links_.up(channel) != Links::none; });
            if (!Frames::credit_tick(flow_, now)) return;
            for (std::size_t channel = 0; channel < sent_in_window_.size(); ++channel) {
                const std::uint32_t up = links_.up(channel);
                if (up == Links::none || !remote_.here(static_cast<std::uint32_t>(channel / ports_))) continue;
                for (std::uint32_t vc = 0; vc < vcs_; ++vc)
                    flow_.tick(receiver_[channel * vcs_ + vc], [&](std::uint64_t value) {
                        send_feedback(channel * vcs_ + vc, value, now);
                    });
                if (side_band_.any()) [[unlikely]]
                    side_band_.credit_sent(channel, feedback_to_[channel * vcs_].node, up % ports_,
                                           now + feedback_to_[channel * vcs_].delay);
            }
        } else {
            (void)now;
        }
    }

    /// What is due at `now`: feedback first (on_feedback(router) after the sender
    /// has it), then flits (on_arrival(arrival)), each in the order sent.
    template <class OnFeedback, class OnArrival>
    void deliver(std::uint64_t now, OnFeedback&& on_feedback, OnArrival&& on_arrival) {
        if constexpr (Frames::ticks) side_band_.deliver(now);
        auto& fb = feedback_.due(now);
        for (const Feedback& f : fb) {
            flow_.on_feedback(sender_[f.sender], f.value);
            on_feedback(f.node);
        }
        fb.clear();
        auto& arr = arrivals_.due(now);
        in_flight_ -= arr.size();
        for (const Arrival& a : arr) on_arrival(a);
        arr.clear();
    }

    /// A link has failed: every flit on the wire of a broken channel is lost (on_drop(flit)).
    template <class OnDrop>
    void drop_on_wires(const LinkFailures& failures, OnDrop&& on_drop) {
        for (auto& bucket : arrivals_.buckets()) {
            std::size_t keep = 0;
            for (const Arrival& a : bucket) {
                if (a.node != 0xffffffffU &&  // a replaying link's wake (cycle/link_errors.hpp) stays
                    failures.broken(links_.up(std::size_t{a.node} * ports_ + a.local / vcs_))) {
                    --in_flight_;
                    on_drop(a.flit);
                } else {
                    bucket[keep++] = a;
                }
            }
            bucket.resize(keep);
        }
    }

    /// At the end of a partitioned run's cycle: the outboxes change hands.
    template <CycleTransport Tx>
    std::uint64_t exchange(std::uint64_t now, Tx& tx, Losses& losses, PacketTable& packets) {
        return remote_.exchange(now, tx, losses, packets, arrivals_, in_flight_,
                                [&](std::uint64_t due, const Feedback& f) { feedback_.schedule(due, f); });
    }

    [[nodiscard]] std::uint64_t in_flight() const { return in_flight_; }
    /// A flit held at its receiver for replay stays in flight (cycle/link_errors.hpp).
    void adjust_in_flight(std::int64_t by) { in_flight_ += static_cast<std::uint64_t>(by); }
    /// A replaying link's wake (no flit, not counted in flight) at cycle `at`, within the wheel.
    void schedule_wake(std::uint64_t at, std::uint32_t entry) {
        arrivals_.schedule(at, Arrival{Flit{0, 0, 0}, 0xffffffffU, entry, 0, RouteStep{0, 0}});
    }
    /// The cycles feedback for the sender of `channel` takes to reach it.
    [[nodiscard]] std::uint64_t feedback_delay(std::size_t channel) const {
        return flow_.feedback_delay() + (feedback_over_link_ ? links_.latency(channel) : 0);
    }
    [[nodiscard]] std::vector<std::uint64_t>& sent_in_window() { return sent_in_window_; }

private:
    /// Receiver `receiver` (channel * V + vc, the channel being its input port's)
    /// tells its sender `value` (a credit), through the table set at reset.
    [[gnu::always_inline]] void send_feedback(std::size_t receiver, std::uint64_t value, std::uint64_t now) {
        const FeedbackTo& to = feedback_to_[receiver];
        const std::uint64_t due = now + to.delay;
        if (remote_.here(to.node)) {  // written in place in the wheel
            Feedback& f = feedback_.schedule_slot(due);
            f.sender = to.sender;
            f.node = to.node;
            f.value = value;
        } else {
            remote_.post_feedback(due, Feedback{to.sender, to.node, value});
        }
    }

    Links links_;
    F flow_;
    bool feedback_over_link_ = false;
    std::uint32_t ports_ = 0, vcs_ = 1, per_router_ = 1;
    std::vector<typename F::sender_vc> sender_;      // per (channel, vc) at the sending end
    std::vector<typename F::receiver_vc> receiver_;  // per (input port as a channel, vc) at the receiving end
    std::vector<std::uint64_t> sent_in_window_;      // per channel
    struct FeedbackTo {
        std::uint32_t sender = 0;  // the sender VC (channel * V + vc) feeding the receiver
        std::uint32_t node = 0;    // its router
        std::uint32_t delay = 0;   // the cycles feedback takes to reach it (feedback_delay)
    };
    std::vector<FeedbackTo> feedback_to_;            // per receiver (channel * V + vc), set at reset
    EventWheel<Arrival> arrivals_;
    EventWheel<Feedback> feedback_;
    std::uint64_t in_flight_ = 0;  // flits on this rank's wires
    SideBand side_band_;
    RemoteChannels remote_;
};

}  // namespace fabric::cycle
