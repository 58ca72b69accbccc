// How packets leave a cycle-kernel run: ejected at a router (counted, their latency
// recorded, their message told), or lost where a link fails (the packet cut
// behind its last flit to get across, the rest dropped and reported). A layer
// over network.hpp, under the router pipeline (router.hpp).
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
    using Base::activate, Base::mark_lost;

    /// Flit `index` of packet `id` is lost where a link failed, and so are the
    /// flits behind it. Downstream, the flit before it becomes the packet's tail:
    /// virtual channels that already passed it on are released now, the others
    /// when it passes. A rare event: it scans every input VC.
    void cut_packet(std::uint32_t id, std::uint32_t index) {
        Packet& pk = packets_[id];
        if (pk.cut != 0 || index == 0) return;  // already cut (at its first dropped flit), or nothing got across
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

    /// A flit of `id` is gone with a failed link (or arrives for a packet that lost one).
    void drop_flit(std::uint32_t id) {
        Packet& pk = packets_[id];
        mark_lost(pk);
        ++pk.dropped;
        ++res_.flits_dropped;
        if (pk.ejected + pk.dropped != pk.size) return;
        if (cfg_.max_packet_flits) messages_.part_done(pk.message, pk.part, 0, false, res_, message_hist_);
        release(id);
    }

    void release(std::uint32_t id) {
        const Packet& pk = packets_[id];
        if (pk.watched) watch_.released(id);
        // A transaction ends with its reply, delivered or lost, or with its request lost.
        if (!outstanding_.empty() && (pk.reply || pk.lost)) --outstanding_[pk.reply ? pk.dst : pk.src];
        routes_.release(pk.route_slot);
        packets_.release(id);
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
                    cut_packet(a.flit.packet, a.flit.index);
                    drop_flit(a.flit.packet);
                } else {
                    bucket[keep++] = a;
                }
            }
            bucket.resize(keep);
        }
        const std::uint32_t node = channel / P, far = links_.down(channel);
        activate(node, now);
        activate(far, now);
        if (out_.enabled()) out_.wake(node) = out_.wake(far) = now;
    }

    /// The last flit of a packet, or a flit of one, leaves the network at router n,
    /// for its terminal `terminal`, at cycle `at`.
    void eject(std::uint32_t n, std::uint32_t terminal, const Flit& f, Packet& pk, std::uint64_t at) {
        if (pk.lost) {  // the rest of a packet that lost a flit: discarded here, already reported
            drop_flit(f.packet);
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
        if (pk.ejected + pk.dropped < pk.size) return;
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
