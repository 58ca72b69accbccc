// Where traffic enters a cycle-kernel run: a message becomes one packet (or, with
// max_packet_flits, its packets) in a source queue of its terminal, with its route
// choice drawn now; request-reply answers enter when due. The sources own the
// terminals' queues and, with max_outstanding, the requests each terminal awaits
// an answer to. A terminal simulated elsewhere (a partitioned run) still draws
// what it would draw, so that the one stream of random numbers stays the serial
// kernel's, and creates nothing here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/message_port.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/sinks.hpp>

namespace fabric::cycle {

class Sources {
public:
    void reset(const Shape& shape, const TerminalSettings& cfg, std::uint32_t classes) {
        queues_.reset(shape.terminals, cfg.injection_queues, classes);
        outstanding_.assign(cfg.request_reply.max_outstanding ? shape.terminals : 0, 0);
        limit_ = cfg.request_reply.max_outstanding;
        port_.reset();
    }

    [[nodiscard]] SourceQueues& queues() { return queues_; }
    [[nodiscard]] const SourceQueues& queues() const { return queues_; }
    /// With max_outstanding: whether terminal t has that many requests unanswered (it makes no draw).
    [[nodiscard]] bool at_limit(std::uint32_t t) const { return !outstanding_.empty() && outstanding_[t] >= limit_; }
    /// A transaction of terminal t ended (its reply arrived or was lost, or its request was lost).
    void transaction_over(std::uint32_t t) {
        if (!outstanding_.empty()) --outstanding_[t];
    }

    /// A message of `size` flits from src to dst in traffic class `klass` at
    /// `now`: one packet, or with max_packet_flits its packets, all through one
    /// injection queue (dealt to the class's queues at the node in turn, message
    /// by message). A message split over ranks is held by its destination's rank.
    /// (A message of one packet is made where the workload draws it, with no call.)
    template <class Kernel>
    [[gnu::always_inline]] void create_message(std::uint32_t src, std::uint32_t dst, std::uint32_t size,
                                               std::uint64_t now, Random& rng, std::uint32_t klass, Kernel& k) {
        const std::uint32_t queue = queues_.deal(src, klass);
        if (!k.cfg().max_packet_flits)
            return create_packet(src, dst, size, now, rng, queue, klass, none, 0, nullptr, k);
        create_parts(src, dst, size, now, rng, queue, klass, k);
    }

    /// The hook a driver injects through and reads reports from (message_port.hpp).
    [[nodiscard]] MessagePort& port() { return port_; }
    [[nodiscard]] const MessagePort& port() const { return port_; }

    /// The port's messages due by `now` enter their source queues: each a message
    /// of packets of at most max_packet_flits (a driven run sets it), their route
    /// choices drawn from the port's generator for the message's handle. At a
    /// partitioned run's rank only the messages of its terminals are scheduled.
    template <class Kernel>
    void inject_port(std::uint64_t now, Kernel& k) {
        PortMessage m;
        while (port_.take_due(now, m)) {
            const std::uint32_t most = k.cfg().max_packet_flits;
            Random rng = port_.choices(m.handle);
            const std::uint32_t queue = queues_.deal(m.source, m.traffic_class);
            const std::uint32_t parts = (m.flits + most - 1) / most;
            detail::require(m.flits >= 1 && parts < MessagePort::part_limit, "a message port's message takes 1 "
                            "to 2^24 - 1 packets of max_packet_flits = ", most, "; message ", m.handle, " has ",
                            m.flits, " flits");
            for (std::uint32_t part = 0; part < parts; ++part)
                create_packet<true>(m.source, m.destination, std::min(most, m.flits - part * most), now, rng, queue,
                                    m.traffic_class, parts, part, nullptr, k, m.handle);
        }
    }

    /// Request-reply: the replies due by `now` enter their source queues, each at the cycle its request arrived.
    template <class Kernel>
    void create_replies(std::uint64_t now, Random& rng, Kernel& k) {
        for (auto& due = k.sinks().replies(); !due.empty() && due.front().at <= now; due.pop()) {
            const PendingReply reply = due.front();
            create_packet(reply.from, reply.to, k.cfg().request_reply.reply_flits, reply.at, rng,
                          queues_.deal(reply.from, reply.klass), reply.klass, none, 0, &reply, k);
        }
    }

private:
    /// A message split into packets of at most max_packet_flits, all through source queue `queue` (of class `klass`).
    template <class Kernel>
    [[gnu::noinline]] void create_parts(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now,
                                        Random& rng, std::uint32_t queue, std::uint32_t klass, Kernel& k) {
        const std::uint32_t most = k.cfg().max_packet_flits;
        const bool measured = k.cfg().in_window(now);
        MessageTable& messages = k.sinks().messages();
        std::uint32_t id = none;
        const bool numbered = k.split();  // every rank numbers every message
        if (numbered) id = messages.next_number();
        if (!numbered || k.terminal_here(dst)) {
            id = messages.open((size + most - 1) / most, now, measured);
            if (measured) ++k.observer().res.measured_messages;
        }
        for (std::uint32_t part = 0; part * most < size; ++part)
            create_packet(src, dst, std::min(most, size - part * most), now, rng, queue, klass, id, part, nullptr, k);
    }

    /// A packet (a reply when `answers` names its request; FromPort: part `part` of
    /// the `message` parts of a port message `handle`) enters source queue `queue`
    /// of src (one of class `klass`'s) at `now`.
    template <bool FromPort = false, class Kernel>
    [[gnu::always_inline]] void create_packet(std::uint32_t src, std::uint32_t dst, std::uint32_t size,
                                              std::uint64_t now, Random& rng, std::uint32_t queue,
                                              std::uint32_t class_index, std::uint32_t message, std::uint32_t part,
                                              const PendingReply* answers, Kernel& k,
                                              [[maybe_unused]] std::uint64_t handle = 0) {
        // Counted at every rank alike; a port message's, from its handle (its rank alone creates it).
        const std::uint64_t number = FromPort ? MessagePort::number(handle, part) : k.losses().next_number();
        if (!k.terminal_here(src)) {  // simulated elsewhere: only its draw, as the serial kernel
            (void)rng.next();
            return;
        }
        const CycleConfig& cfg = k.cfg();
        auto& obs = k.observer();
        const bool in_window = cfg.in_window(now);
        const std::uint32_t id = k.packets().take_raw();
        const auto klass = static_cast<std::uint8_t>(class_index);
        const bool measured = answers ? answers->measured : in_window;
        obs.classes.created(klass, size, in_window, measured);
        if (!answers && !outstanding_.empty()) ++outstanding_[src];
        // The route is drawn now, written when the packet reaches the queue's head.
        const std::uint64_t choice = rng.next();
        Packet& pk = k.packets()[id];
        pk = Packet{.src = src, .dst = dst, .size = static_cast<std::uint16_t>(size), .measured = measured,
                    .reply = answers != nullptr, .klass = klass, .level = obs.classes.level(klass), .created = now,
                    .choice = choice, .message = message, .part = part,
                    .request_created = FromPort ? handle : answers ? answers->request_created : 0,
                    .number = number};  // written once
        if (cfg.track_reorder) pk.sequence = k.sinks().next_sequence(src, dst);
        if (!obs.res.nodes.empty() && in_window) obs.res.nodes[src].flits_offered += size;
        if (obs.watch.on() && (pk.watched = obs.watch.created(id))) {
            const Shape& s = k.shape();
            for (std::uint32_t i = 0; i < size; ++i)
                obs.watch.event(id, FlitEventKind::created, now, i, s.router_of(src), s.port_of_terminal(src), queue);
        }
        if (pk.measured && !answers) ++obs.res.measured_packets;  // a reply was counted with its request
        if (in_window) obs.res.flits_created_in_window += size;
        // At the head of its queue it is routed at once, and its injection VC has a front flit.
        auto& routers = k.routers();
        const Shape& shape = k.shape();
        const std::uint32_t router = shape.router_of(src);
        if (!queues_.push(src, queue, id)) return routers.activate(router, routers.wake(router));
        const std::uint32_t local = shape.port_of_terminal(src) * shape.vcs + queue;
        const RouteStep first = k.write_route_inline(id);
        const std::uint32_t slot = k.packets()[id].route_slot;
        if (k.reroutes()) routers.start_head(router, local, id, slot, 0, now + cfg.injection_latency, k);
        else routers.start_head(router, local, id, slot, first, now + cfg.injection_latency, k);  // as just written
        routers.inputs().mark(router, local, true);
        routers.activate(router, routers.inputs().router(router)[local].ready);
    }

    SourceQueues queues_;
    MessagePort port_;
    std::vector<std::uint32_t> outstanding_;  // with max_outstanding: per terminal, requests awaiting their reply
    std::uint32_t limit_ = 0;
};

}  // namespace fabric::cycle
