// How packets leave a cycle-kernel run: ejected at a router (counted, their latency
// recorded, their message told), or lost where a link fails (the rest dropped and
// reported; at the end of the cycle the packet is cut behind its last flit to get
// across, and counted lost, losses.hpp). A layer over wires.hpp, under the router
// pipeline (router.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <fabric/concepts/fabric.hpp>
#include <fabric/sim/cycle/wires.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab>
class Delivery : protected Wires<Fab> {
protected:
    using Base = Wires<Fab>;
    using Base::Base;
    using Base::P, Base::LOCAL, Base::none;
    using typename Base::Arrival;
    using Base::cfg_, Base::links_, Base::in_, Base::out_, Base::owner_, Base::wake_, Base::failures_, Base::arrivals_,
        Base::packets_, Base::routes_, Base::messages_, Base::reorder_, Base::res_, Base::latency_hist_,
        Base::network_hist_, Base::message_hist_, Base::transaction_hist_, Base::in_flight_links_, Base::watch_,
        Base::replies_, Base::outstanding_, Base::classes_;
    using Base::activate;

    /// Copy `id` of a packet cut at flit `index` (the lowest lost at a failed link;
    /// the flits before it got across): downstream, the flit before it becomes the
    /// packet's tail. Virtual channels that already passed it on are released now,
    /// the others when it passes. A rare event: it scans every input VC.
    void cut_packet(std::uint32_t id, std::uint32_t index) {
        Packet& pk = packets_[id];
        if (pk.cut != 0 || index == 0) return;  // already cut, or nothing got across
        pk.cut = static_cast<std::uint16_t>(index);
        for (std::size_t iv = 0; iv < in_.size(); ++iv) {
            InputVc& v = in_[iv];
            if (v.packet != id || v.state == VcState::idle || v.count != 0 || v.last + 1 != index) continue;
            const std::uint32_t node = in_.node_of(iv);
            if (v.out_port < LOCAL) owner_[in_.index(node, v.out_port, v.out_vc)] = none;
            v.state = VcState::idle;
            activate(node, wake_[node]);
        }
    }

    /// Flit `index` of `id` is gone: with a failed link (`cuts`: the flits ahead
    /// got across; copies that begin at hop `past` or later never see it), or
    /// arriving for a packet already lost. Reported at the end of the cycle.
    void drop_flit(std::uint32_t id, std::uint16_t index, std::uint16_t past, bool cuts) {
        Packet& pk = packets_[id];
        ++pk.dropped;
        ++res_.flits_dropped;
        this->notify_loss(pk, index, past, LossNotice::dropped | (cuts ? LossNotice::cuts : 0));
        if (pk.done()) finish(id);
    }

    /// Flit `f` is lost at a failed link, at its router or on the wire (where its hop
    /// already counts the link): the flits ahead of it got across, and no copy that
    /// begins at its hop + 1 or later sees it.
    void drop_at_failed_link(const Flit& f) {
        drop_flit(f.packet, f.index, static_cast<std::uint16_t>(f.hop + 1), true);
    }

    /// Every flit of copy `id` has left it. At the packet's destination (it ejected
    /// some) a packet of which flits were dropped ends lost; one of which every flit
    /// was dropped ends where its losses settle (settle_losses).
    void finish(std::uint32_t id) {
        const Packet& pk = packets_[id];
        if (pk.ejected > 0 && cfg_.max_packet_flits) messages_.part_done(pk.message, pk.part, 0, false, res_, message_hist_);
        release(id);
    }

    void release(std::uint32_t id) {
        const Packet& pk = packets_[id];
        if (pk.watched) watch_.released(id);
        // A transaction ends with its reply, delivered or lost, or with its request lost.
        if (!outstanding_.empty() && (pk.reply || pk.lost_any())) --outstanding_[pk.reply ? pk.dst : pk.src];
        this->retire(id);
    }

    /// At the end of every cycle, at every rank alike: the losses of the cycle
    /// settle. A packet's first is counted (by its destination's rank), copies
    /// learn that their packet is lost, where it was cut and what they will not
    /// see; a packet all of whose flits were dropped ends.
    void settle_losses() {
        this->losses_.settle();
        if (!this->losses_.settled().empty()) apply_losses();
        this->free_retired();
    }

    /// The settled losses of the cycle applied to this rank's counters, messages and copies.
    void apply_losses() {
        for (const SettledLoss& s : this->losses_.settled()) {
            if (!this->part_.mine(this->router_of(s.first.dst))) continue;
            if (s.new_loss) {
                ++res_.packets_lost;
                if (s.first.flags & LossNotice::measured) ++res_.measured_lost;
            }
            if (s.dropped_total == s.first.size && cfg_.max_packet_flits)
                messages_.part_done(s.first.message, s.first.part, 0, false, res_, message_hist_);
        }
        for (std::uint32_t id = 0; id < packets_.size(); ++id) {
            Packet& pk = packets_[id];
            if (pk.number == Losses::unnumbered) continue;
            const SettledLoss* s = this->losses_.find(pk.number);
            if (!s) continue;
            pk.lost = true;
            cut_packet(id, s->cut);
            if (const std::uint16_t unseen = this->losses_.dropped_before(*s, pk.entry)) {
                pk.before = static_cast<std::uint16_t>(pk.before + unseen);
                if (pk.done()) finish(id);
            }
        }
    }

    /// Request-reply: a reply delivered at `at` closes its transaction; a request
    /// is answered from its destination at `at` (the simulator creates the reply
    /// then; the due cycles come in order, every ejection being the same number of
    /// cycles after its switch grant). A measured request's reply is counted as
    /// measured now, so that the run waits for it.
    void answer(const Packet& pk, std::uint64_t at) {
        if (pk.reply) {
            ++res_.replies_delivered;
            if (pk.measured) transaction_hist_.add(at - pk.request_created);
            return;
        }
        replies_.push(typename Base::PendingReply{at, pk.created, pk.dst, pk.src, pk.measured, pk.klass});
        if (pk.measured) ++res_.measured_packets;
    }

    /// The link of `channel` has just failed: flits on the wire are lost with it.
    void link_failed(std::uint32_t channel, std::uint64_t now) {
        for (auto& bucket : arrivals_.buckets()) {
            std::size_t keep = 0;
            for (const Arrival& a : bucket) {
                if (failures_.broken(links_.up(static_cast<std::size_t>(in_.node_of(a.ivc)) * P + in_.port_of(a.ivc)))) {
                    --in_flight_links_;
                    drop_at_failed_link(a.flit);
                } else {
                    bucket[keep++] = a;
                }
            }
            bucket.resize(keep);
        }
        for (const std::uint32_t n : {channel / P, links_.down(channel)}) {
            if (!this->part_.mine(n)) continue;  // another rank's router: woken there
            activate(n, now);
            if (out_.enabled()) out_.wake(n) = now;
        }
    }

    /// The last flit of a packet, or a flit of one, leaves the network at router n,
    /// for its terminal `terminal`, at cycle `at`.
    void eject(std::uint32_t n, std::uint32_t terminal, const Flit& f, Packet& pk, std::uint64_t at) {
        if (pk.lost) {  // the rest of a packet that lost a flit: discarded here, reported
            drop_flit(f.packet, f.index, LossNotice::at_the_end, false);
            return;
        }
        ++res_.flits_ejected;
        if (pk.watched) watch_.event(f.packet, FlitEventKind::ejected, at, f.index, n, LOCAL + (terminal - n * this->per_node_), 0);
        classes_.ejected(pk.klass, cfg_.in_window(at));
        if (cfg_.in_window(at)) {
            ++res_.flits_ejected_in_window;
            if (!res_.nodes.empty()) ++res_.nodes[terminal].flits_accepted;
        }
        if (f.index != pk.ejected) ++res_.out_of_order;
        ++pk.ejected;
        if (!pk.done()) return;
        if (pk.lost_any()) return finish(f.packet);  // a flit dropped this cycle: lost, not yet told here
        ++res_.packets_delivered;
        res_.delivered_latency_sum += at - pk.created;
        if (terminal != pk.dst) ++res_.misdelivered;
        if (cfg_.track_reorder) reorder_.arrived(pk.src, pk.dst, pk.sequence, res_);
        if (pk.measured) {
            ++res_.measured_delivered;
            res_.measured_hops += pk.route_len;
            latency_hist_.add(at - pk.created);
            network_hist_.add(at - pk.injected);
            classes_.delivered(pk.klass, at - pk.created);
            if (!res_.nodes.empty()) {
                NodeCounters &from = res_.nodes[pk.src], &to = res_.nodes[terminal];
                ++from.packets_sent;
                from.latency_sent += at - pk.created;
                ++to.packets_received;
                to.latency_received += at - pk.created;
            }
        }
        if (cfg_.max_packet_flits) messages_.part_done(pk.message, pk.part, at, true, res_, message_hist_);
        if (cfg_.request_reply.enabled()) answer(pk, at);
        release(f.packet);
    }
};

}  // namespace fabric::cycle
