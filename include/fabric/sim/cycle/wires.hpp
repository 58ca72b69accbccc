// Flits and flow-control feedback on the wires of a cycle-kernel run: put on a
// link, delivered to their receiver at their cycle. In a partitioned run
// (partition.hpp) an event whose receiver another rank steps is written to that
// rank's bytes instead, with the packet's record and route when the flit is a
// head, and handed over by exchange() at the end of the cycle; the receiving rank
// keeps a copy of the packet while its flits are there (mapped by input VC: a
// virtual channel carries one packet's flits at a time), and every rank hears the
// cycle's losses (losses.hpp). A layer over network.hpp, under delivery.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <fabric/concepts/fabric.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/network.hpp>
#include <fabric/sim/cycle/partition.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab>
class Wires : protected Network<Fab> {
protected:
    using Base = Network<Fab>;
    using Base::Base;
    using Base::P, Base::V, Base::none, Base::protocol_flits;
    using typename Base::Arrival, typename Base::Feedback, typename Base::Frames;
    using Base::cfg_, Base::fab_, Base::links_, Base::nodes_, Base::in_, Base::out_, Base::sender_, Base::receiver_,
        Base::wake_, Base::arrivals_, Base::feedback_, Base::packets_, Base::routes_, Base::watch_,
        Base::sent_in_window_, Base::in_flight_links_, Base::buffered_;
    using Base::activate, Base::start_head;

    void reset() {
        Base::reset();
        outbox_.assign(part_.ranks(), {});
        inbound_.assign(part_.split() ? in_.size() : 0, none);
        this->messages_.clear(part_.split());  // split: each message held by its destination's rank, by number
    }

    /// Puts flit `f` on the link of `channel`, VC `vc`, from cycle `leaves` on;
    /// returns the cycle from which the link is free again.
    std::uint64_t put_on_link(std::size_t channel, std::uint32_t vc, const Flit& f, std::uint64_t leaves) {
        // Words the protocol puts before a head (Magic, Start), then the flit;
        // each takes the next data slot of the link's frame.
        std::uint64_t enter = Frames::next_data_slot(fab_.flow(), leaves);
        if constexpr (protocol_flits > 0) {
            if (f.index == 0)
                for (std::uint32_t w = 0; w < protocol_flits; ++w)
                    enter = Frames::next_data_slot(fab_.flow(), enter + links_.serialisation(channel));
        }
        fab_.flow().on_send(sender_[channel * V + vc]);
        if (cfg_.in_window(enter)) ++sent_in_window_[channel];
        const std::size_t target = in_.index(links_.down(channel), links_.down_port(channel), vc);
        // Received once its last bit is in: serialisation - 1 cycles after its first, plus the latency.
        const std::uint64_t due = enter + links_.serialisation(channel) - 1 + links_.latency(channel);
        const Arrival a{static_cast<std::uint32_t>(target), Flit{f.packet, f.index, static_cast<std::uint16_t>(f.hop + 1)}};
        if (part_.mine(links_.down(channel))) {
            arrivals_.schedule(due, a);
            ++in_flight_links_;
        } else {
            post_arrival(links_.down(channel), due, a);
        }
        return enter + links_.serialisation(channel);
    }


    /// Flits and feedback due at `now` reach their receivers.
    void deliver_events(std::uint64_t now) {
        auto& fb = feedback_.due(now);
        for (const Feedback& f : fb) {
            fab_.flow().on_feedback(sender_[f.sender], f.value);
            const auto node = static_cast<std::uint32_t>(f.sender / (static_cast<std::size_t>(P) * V));
            wake_[node] = std::min(wake_[node], now);  // a blocked flit there may go now
            if (out_.enabled()) out_.wake(node) = now;
        }
        fb.clear();
        auto& arr = arrivals_.due(now);
        for (const Arrival& a : arr) {
            --in_flight_links_;
            ++buffered_;
            const std::uint32_t node = in_.node_of(a.ivc), port = in_.port_of(a.ivc), vc = in_.vc_of(a.ivc);
            const bool first = in_.push(a.ivc, a.flit);
            if (watch_.on() && packets_[a.flit.packet].watched)
                watch_.event(a.flit.packet, FlitEventKind::arrived, now, a.flit.index, node, port, vc);
            const std::size_t channel = static_cast<std::size_t>(node) * P + port;
            const std::uint32_t up = links_.up(channel);
            fab_.flow().on_arrive(receiver_[channel * V + vc],
                                  [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
            std::uint64_t wake = now;  // a body flit may go now
            if (first) {
                InputVc& v = in_[a.ivc];
                if (v.state == VcState::idle) {
                    start_head(a.ivc, a.flit.packet, a.flit.hop, now);
                    wake = v.ready;  // a head can act once routed
                } else {
                    v.since = now;
                }
            } else {
                wake = wake_[node];  // a flit behind others changes nothing
            }
            activate(node, wake);
        }
        arr.clear();
    }

    /// The receiver of `channel`, VC `vc`, tells its sender `value` (a credit).
    void send_feedback(std::uint32_t channel, std::uint32_t vc, std::uint64_t value, std::uint64_t now) {
        const Feedback f{static_cast<std::uint32_t>(static_cast<std::size_t>(channel) * V + vc), value};
        const std::uint64_t due = now + fab_.flow().feedback_delay();
        if (part_.mine(channel / P)) return feedback_.schedule(due, f);
        std::vector<std::byte>& out = outbox_[part_.rank_of(channel / P)];
        put_bytes(out, record_feedback);
        put_bytes(out, due);
        put_bytes(out, f);
    }

    /// At the start of every frame's credit slots each receiver sends its Credit.
    void tick_receivers(std::uint64_t now) {
        if constexpr (Frames::ticks) {
            if (!Frames::credit_tick(fab_.flow(), now)) return;
            for (std::size_t channel = 0; channel < static_cast<std::size_t>(nodes_) * P; ++channel) {
                const std::uint32_t up = links_.up(channel);
                if (up == none || !part_.mine(static_cast<std::uint32_t>(channel / P))) continue;
                for (std::uint32_t vc = 0; vc < V; ++vc)
                    fab_.flow().tick(receiver_[channel * V + vc],
                                     [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
            }
        } else {
            (void)now;
        }
    }

    /// A partitioned run, at the end of cycle `now`: every rank's events for the
    /// others' routers, and its losses, change hands.
    /// Returns the records sent.
    template <CycleTransport Tx>
    std::uint64_t exchange(std::uint64_t now, Tx& tx) {
        // Every rank hears of every loss: the cycle's losses settle alike everywhere.
        for (const LossNotice& n : this->losses_.pending())
            for (std::uint32_t r = 0; r < part_.ranks(); ++r)
                if (r != part_.rank()) {
                    put_bytes(outbox_[r], record_loss);
                    put_bytes(outbox_[r], n);
                }
        std::uint64_t sent = 0;
        for (const auto& out : outbox_) sent += !out.empty();
        tx.exchange(outbox_, inbox_);
        for (auto& out : outbox_) out.clear();
        const std::span<const std::byte> in(inbox_);
        for (std::size_t at = 0; at < in.size();) {
            const auto kind = take_bytes<std::uint8_t>(in, at);
            if (kind == record_loss) {
                this->losses_.post(take_bytes<LossNotice>(in, at));
                continue;
            }
            const auto due = take_bytes<std::uint64_t>(in, at);
            detail::require(due > now, "a partitioned run received an event due at cycle ", due, " at cycle ", now,
                            ": every link between ranks must take at least one cycle");
            if (kind == record_feedback) {
                feedback_.schedule(due, take_bytes<Feedback>(in, at));
                continue;
            }
            auto a = take_bytes<Arrival>(in, at);
            if (kind == record_head) {
                const std::uint32_t id = packets_.take();
                Packet& pk = packets_[id] = take_bytes<Packet>(in, at);
                // A new copy: its stretch begins at this hop, behind what was dropped before it.
                pk.entry = a.flit.hop;
                pk.passed = pk.ejected = pk.dropped = 0;
                pk.before = this->losses_.any() ? this->losses_.dropped_before(pk.number, pk.entry) : 0;
                pk.route_slot = routes_.take();
                RouteStep* steps = routes_.steps(pk.route_slot);
                for (std::uint32_t h = 0; h < pk.route_len; ++h) steps[h] = take_bytes<RouteStep>(in, at);
                inbound_[a.ivc] = id;
            }
            a.flit.packet = inbound_[a.ivc];
            arrivals_.schedule(due, a);
            ++in_flight_links_;
        }
        inbox_.clear();
        return sent;
    }

    Partition part_;

private:
    static constexpr std::uint8_t record_flit = 0, record_head = 1, record_feedback = 2, record_loss = 3;

    /// A flit for router `node` of another rank, arriving at `due`.
    void post_arrival(std::uint32_t node, std::uint64_t due, const Arrival& a) {
        std::vector<std::byte>& out = outbox_[part_.rank_of(node)];
        Packet& pk = packets_[a.flit.packet];
        put_bytes(out, a.flit.index == 0 ? record_head : record_flit);
        put_bytes(out, due);
        put_bytes(out, a);
        if (a.flit.index == 0) {
            put_bytes(out, pk);
            for (std::uint32_t h = 0; h < pk.route_len; ++h) put_bytes(out, routes_.step(pk.route_slot, h));
        }
        ++pk.passed;
        if (pk.done()) this->retire(a.flit.packet);  // its last flit here has left
    }

    std::vector<std::vector<std::byte>> outbox_;  // per rank: records for its routers
    std::vector<std::byte> inbox_;
    std::vector<std::uint32_t> inbound_;  // per input VC: this rank's copy of the packet arriving from another rank
};

}  // namespace fabric::cycle
