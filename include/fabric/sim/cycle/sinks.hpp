// Where packets leave a cycle-kernel run: ejected at a router (counted, their
// latency recorded, their message told, a request answered), or lost where a link
// fails (dropped and reported; at the end of the cycle the losses settle, alike at
// every rank of a partitioned run, losses.hpp). The sinks own the destination's
// view of order (messages put back together, packets overtaking) and the replies
// that requests are owed.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/message_port.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/packets.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>

namespace fabric::cycle {

/// Request-reply: a request delivered at `at` is answered from `from` to `to`.
struct PendingReply {
    std::uint64_t at = 0, request_created = 0;
    std::uint32_t from = 0, to = 0;
    bool measured = false;
    std::uint8_t klass = 0;  // the request's traffic class, which the reply keeps
};

class Sinks {
public:
    void reset(std::uint32_t terminals, bool numbered_messages) {
        messages_.clear(numbered_messages);
        reorder_ = ReorderTracker(terminals);
        replies_ = {};
    }
    [[nodiscard]] MessageTable& messages() { return messages_; }
    [[nodiscard]] RingQueue<PendingReply>& replies() { return replies_; }
    /// With track_reorder: the next packet's number in the order of its source-destination pair.
    [[nodiscard]] std::uint32_t next_sequence(std::uint32_t src, std::uint32_t dst) {
        return reorder_.next_sequence(src, dst);
    }

    /// Flit `f` of packet `pk` leaves the network at router n for terminal
    /// `terminal`, at cycle `at`; the packet is delivered with its last flit.
    template <class Kernel>
    void eject(std::uint32_t n, std::uint32_t terminal, const Flit& f, Packet& pk, std::uint64_t at, Kernel& k) {
        if (pk.lost) {  // the rest of a packet that lost a flit: discarded here, reported
            drop_flit(f.packet, f.index, LossNotice::at_the_end, false, k);
            return;
        }
        const CycleConfig& cfg = k.cfg();
        auto& obs = k.observer();
        CycleResult& res = obs.res;
        ++res.flits_ejected;
        if (pk.watched)
            obs.watch.event(f.packet, FlitEventKind::ejected, at, f.index, n, terminal - n * k.shape().per_node + k.shape().ports, 0);
        const bool in_window = cfg.in_window(at);
        obs.classes.ejected(pk.klass, in_window);
        if (in_window) {
            ++res.flits_ejected_in_window;
            if (!res.nodes.empty()) ++res.nodes[terminal].flits_accepted;
        }
        if (f.index != pk.ejected) ++res.out_of_order;
        ++pk.ejected;
        if (!pk.done()) return;
        if (pk.lost_any()) return finish(f.packet, k);  // a flit dropped this cycle: lost, not yet told here
        ++res.packets_delivered;
        res.delivered_latency_sum += at - pk.created;
        if (terminal != pk.dst) ++res.misdelivered;
        if (cfg.track_reorder) reorder_.arrived(pk.src, pk.dst, pk.sequence, res);
        if (pk.measured) {
            ++res.measured_delivered;
            res.measured_hops += pk.route_len;
            obs.latency.add(at - pk.created);
            obs.network.add(at - pk.injected);
            obs.classes.delivered(pk.klass, at - pk.created);
            if (!res.nodes.empty()) {
                NodeCounters &from = res.nodes[pk.src], &to = res.nodes[terminal];
                ++from.packets_sent;
                from.latency_sent += at - pk.created;
                ++to.packets_received;
                to.latency_received += at - pk.created;
            }
        }
        if (cfg.max_packet_flits) part_delivered(pk, terminal, at, k);
        if (cfg.request_reply.enabled()) answer(pk, at, k);
        release(f.packet, k);
    }

    /// Flit `f` is lost at a failed link, at its router or on the wire (where its hop
    /// already counts the link): the flits ahead of it got across, and no copy that
    /// begins at its hop + 1 or later sees it.
    template <class Kernel>
    void drop_at_failed_link(const Flit& f, Kernel& k) {
        drop_flit(f.packet, f.index, static_cast<std::uint16_t>(f.hop() + 1), true, k);
    }

    /// At the end of every cycle, at every rank alike: the losses of the cycle
    /// settle. A packet's first is counted (by its destination's rank), copies
    /// learn that their packet is lost, where it was cut and what they will not
    /// see; a packet all of whose flits were dropped ends. Then the packets
    /// retired this cycle are freed.
    template <class Kernel>
    void settle_losses(Kernel& k) {
        Losses& losses = k.losses();
        losses.settle();
        if (!losses.settled().empty()) apply_losses(k);
        k.packets().free_retired();
    }

    /// Flit `index` of packet `pk` is lost (with LossNotice::dropped in `flags`;
    /// without, the packet has no route): told where the cycle's losses settle.
    static void notify_loss(Losses& losses, const Packet& pk, std::uint16_t index, std::uint16_t past,
                            std::uint8_t flags) {
        if (pk.measured) flags |= LossNotice::measured;
        losses.post(LossNotice{pk.number, pk.dst, pk.message, pk.part, pk.size, index, past, flags});
    }

private:
    /// Flit `index` of `id` is gone: with a failed link (`cuts`: the flits ahead
    /// got across; copies that begin at hop `past` or later never see it), or
    /// arriving for a packet already lost. Reported at the end of the cycle.
    template <class Kernel>
    [[gnu::noinline]] void drop_flit(std::uint32_t id, std::uint16_t index, std::uint16_t past, bool cuts, Kernel& k) {
        Packet& pk = k.packets()[id];
        ++pk.dropped;
        ++k.observer().res.flits_dropped;
        notify_loss(k.losses(), pk, index, past, LossNotice::dropped | (cuts ? LossNotice::cuts : 0));
        if (pk.done()) finish(id, k);
    }

    /// Every flit of copy `id` has left it. At the packet's destination (it ejected
    /// some) a packet of which flits were dropped ends lost; one of which every flit
    /// was dropped ends where its losses settle.
    template <class Kernel>
    [[gnu::noinline]] void finish(std::uint32_t id, Kernel& k) {
        const Packet& pk = k.packets()[id];
        if (pk.ejected > 0 && k.cfg().max_packet_flits) part_lost(pk.message, pk.part, pk.number, k);
        release(id, k);
    }

    /// A packet of a message (max_packet_flits: every packet of a driven run, whose
    /// messages the port reports) delivered at `at` at `terminal`.
    template <class Kernel>
    [[gnu::always_inline]] void part_delivered(const Packet& pk, std::uint32_t terminal, std::uint64_t at, Kernel& k) {
        Observer& obs = k.observer();
        MessagePort& port = k.sources().port();
        if (port.is_open()) [[unlikely]]
            return port.delivered(pk, terminal, at, obs.res, obs.message);
        messages_.part_done(pk.message, pk.part, at, true, obs.res, obs.message);
    }
    /// Part `part` of message `message` (packet number `number`) is lost.
    template <class Kernel>
    void part_lost(std::uint32_t message, std::uint32_t part, std::uint64_t number, Kernel& k) {
        Observer& obs = k.observer();
        MessagePort& port = k.sources().port();
        if (port.is_open()) return port.part_lost(MessagePort::handle_of_number(number), obs.res);
        messages_.part_done(message, part, 0, false, obs.res, obs.message);
    }

    template <class Kernel>
    void release(std::uint32_t id, Kernel& k) {
        const Packet& pk = k.packets()[id];
        if (pk.watched) k.observer().watch.released(id);
        // A transaction ends with its reply, delivered or lost, or with its request lost.
        if (pk.reply || pk.lost_any()) k.transaction_over(pk.reply ? pk.dst : pk.src);
        k.packets().retire(id);
    }

    /// Request-reply: a reply delivered at `at` closes its transaction; a request
    /// is answered from its destination at `at` (the reply is created then; the
    /// due cycles come in order, every ejection being the same number of cycles
    /// after its switch grant). A measured request's reply is counted as measured
    /// now, so that the run waits for it.
    template <class Kernel>
    [[gnu::noinline]] void answer(const Packet& pk, std::uint64_t at, Kernel& k) {
        CycleResult& res = k.observer().res;
        if (pk.reply) {
            ++res.replies_delivered;
            if (pk.measured) k.observer().transaction.add(at - pk.request_created);
            return;
        }
        replies_.push(PendingReply{at, pk.created, pk.dst, pk.src, pk.measured, pk.klass});
        if (pk.measured) ++res.measured_packets;
    }

    /// The settled losses of the cycle applied to this rank's counters, messages and copies.
    template <class Kernel>
    void apply_losses(Kernel& k) {
        Losses& losses = k.losses();
        CycleResult& res = k.observer().res;
        for (const SettledLoss& s : losses.settled()) {
            if (!k.terminal_here(s.first.dst)) continue;
            if (s.new_loss) {
                ++res.packets_lost;
                if (s.first.flags & LossNotice::measured) ++res.measured_lost;
            }
            if (s.dropped_total == s.first.size && k.cfg().max_packet_flits)
                part_lost(s.first.message, s.first.part, s.first.packet, k);
        }
        PacketTable& packets = k.packets();
        for (std::uint32_t id = 0; id < packets.size(); ++id) {
            Packet& pk = packets[id];
            if (pk.number == Losses::unnumbered) continue;
            const SettledLoss* s = losses.find(pk.number);
            if (!s) continue;
            pk.lost = true;
            if (pk.cut == 0 && s->cut != 0) {  // cut: the flits before s->cut got across
                pk.cut = s->cut;
                k.routers().cut(id, s->cut);
            }
            if (const std::uint16_t unseen = losses.dropped_before(*s, pk.entry)) {
                pk.before = static_cast<std::uint16_t>(pk.before + unseen);
                if (pk.done()) finish(id, k);
            }
        }
    }

    MessageTable messages_;   // with max_packet_flits
    ReorderTracker reorder_;  // with track_reorder
    RingQueue<PendingReply> replies_;  // with request_reply, in the order (and cycles) they are due
};

}  // namespace fabric::cycle
