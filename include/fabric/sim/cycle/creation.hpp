// How traffic enters a cycle-kernel run: a message becomes one packet (or, with
// max_packet_flits, its packets) in a source queue of its terminal, with its
// route choice drawn now; request-reply answers enter when due. In a partitioned
// run a rank creates only its own terminals' packets, but draws what the others
// draw, so that the one stream of random numbers stays the serial kernel's. A
// layer over the deadlock search, under the simulator (simulator.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/deadlock_search.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab, SwitchAllocator A>
class Creation : protected DeadlockSearch<Fab, A> {
protected:
    using Base = DeadlockSearch<Fab, A>;
    using Base::Base;
    using Base::none;
    using Base::cfg_, Base::in_, Base::sources_, Base::packets_, Base::res_, Base::wake_, Base::messages_,
        Base::reorder_;
    using Base::activate, Base::write_route, Base::start_head;

    /// A message of `size` flits from src to dst in traffic class `klass`: one
    /// packet, or with max_packet_flits its packets, all through one injection
    /// queue (dealt to the class's queues at the node in turn, message by message).
    void create_message(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now, Random& rng,
                        std::uint32_t klass = 0) {
        const std::uint32_t queue = sources_.deal(src, klass);
        const std::uint32_t most = cfg_.max_packet_flits;
        if (!most) return create_packet(src, dst, size, now, rng, queue, none, 0, nullptr);
        const bool measured = cfg_.in_window(now);
        std::uint32_t id = none;
        // Split over ranks: the destination's rank holds the message; every rank numbers it.
        const bool split = this->part_.split();
        if (split) id = messages_.next_number();
        if (!split || this->part_.mine(this->router_of(dst))) {
            id = messages_.open((size + most - 1) / most, now, measured);
            if (measured) ++res_.measured_messages;
        }
        for (std::uint32_t part = 0; part * most < size; ++part)
            create_packet(src, dst, std::min(most, size - part * most), now, rng, queue, id, part, nullptr);
    }

    /// Request-reply: the replies due by `now` enter their source queues, each at the cycle its request arrived.
    void create_replies(std::uint64_t now, Random& rng) {
        for (auto& due = this->replies_; !due.empty() && due.front().at <= now; due.pop()) {
            const auto reply = due.front();
            create_packet(reply.from, reply.to, cfg_.request_reply.reply_flits, reply.at, rng, sources_.deal(reply.from, reply.klass),
                          none, 0, &reply);
        }
    }

    /// A packet (a reply when `answers` names its request) enters source queue `queue` of src at `now`.
    void create_packet(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now, Random& rng,
                       std::uint32_t queue, std::uint32_t message, std::uint32_t part,
                       const typename Base::PendingReply* answers) {
        const std::uint64_t number = this->losses_.next_number();  // counted at every rank alike
        if (!this->part_.mine(this->router_of(src))) {  // another rank's terminal: only its draw, as the serial kernel
            (void)rng.next();
            return;
        }
        const std::uint32_t id = packets_.take();
        Packet& pk = packets_[id];
        pk = Packet{};
        pk.number = number;
        pk.src = src;
        pk.dst = dst;
        pk.size = static_cast<std::uint16_t>(size);
        pk.created = now;
        pk.measured = answers ? answers->measured : cfg_.in_window(now);
        pk.reply = answers != nullptr;
        pk.klass = static_cast<std::uint8_t>(sources_.class_of(queue));
        pk.level = this->classes_.level(pk.klass);
        this->classes_.created(pk.klass, size, cfg_.in_window(now), pk.measured);
        if (answers) pk.request_created = answers->request_created;
        else if (!this->outstanding_.empty()) ++this->outstanding_[src];
        pk.choice = rng.next();  // the route is drawn now, written when the packet reaches the queue's head
        pk.message = message;
        pk.part = part;
        if (cfg_.track_reorder) pk.sequence = reorder_.next_sequence(src, dst);
        this->note_created(id, queue);
        if (pk.measured && !answers) ++res_.measured_packets;  // a reply was counted with its request
        if (cfg_.in_window(now)) res_.flits_created_in_window += size;
        const std::uint32_t router = this->router_of(src);
        if (sources_.push(src, queue, id)) {
            const std::size_t iv = in_.index(router, this->port_of_terminal(src), queue);
            write_route(id);
            start_head(iv, id, 0, now + cfg_.injection_latency);
            in_.mark(iv, true);
            activate(router, in_[iv].ready);
        } else {
            activate(router, wake_[router]);
        }
    }

};

}  // namespace fabric::cycle
