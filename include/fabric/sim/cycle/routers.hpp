// The routers of a cycle-kernel run: input VCs and their buffers, the output VCs
// they hold, the switch outputs' next free cycles, output queues, and which
// routers have work. A router is stepped (router_step.hpp) only in the cycles in
// which one of its front flits can act: every VC with a front flit is either
// waiting for a cycle (its `ready`, which sets the router's wake cycle) or blocked
// on something only an event at its router changes (a credit, an output VC's
// release, room in an output queue); such events clear the router's blocked mask.
//
// What lies outside the routers (packets, channels, sources, sinks, the
// observer, the routing policy) is reached through the kernel passed to each call
// (kernel.hpp); the routers own nothing of it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/occupancy.hpp>
#include <fabric/sim/cycle/output_queues.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/router_allocation.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

/// An output VC held until the credit of its last packet's tail is back (wait_for_tail_credit).
inline constexpr std::uint32_t tail_pending = none - 1;

/// Every router of a run, with its switch allocator A.
template <SwitchAllocator A>
class Routers {
public:
    void reset(const Shape& shape, const CycleConfig& cfg, std::uint32_t depth, std::uint32_t levels) {
        if constexpr (requires { A::output_speedup; })
            detail::require(A::output_speedup == 1 || cfg.output_buffer_flits > 0, "output speedup (Speedup<A, In, "
                            "Out> with Out > 1) needs output queues to take the flits a link cannot: set "
                            "output_buffer_flits, or use Out = 1");
        shape_ = shape;
        P_ = shape.ports;
        V_ = shape.vcs;
        NP_ = shape.all_ports();
        per_router_ = shape.per_router();
        pipeline_ = cfg.pipeline;
        exit_delay_ = std::uint64_t{cfg.pipeline.switch_allocation} + cfg.pipeline.switch_traversal;
        in_.reset(shape, depth);
        out_.reset(shape, cfg.output_buffer_flits);
        vc_.reset(in_.size(), per_router_);
        switch_.reset(shape.routers, NP_, V_, cfg.speculative && cfg.pipeline.vc_allocation > 0, levels);
        speculative_ = cfg.speculative;
        wait_for_tail_credit_ = cfg.wait_for_tail_credit;
        head_turnaround_ = cfg.head_turnaround;
        injection_latency_ = cfg.injection_latency;
        ejection_latency_ = cfg.ejection_latency;
        port_free_.assign(std::size_t{shape.routers} * NP_, 0);
        occupancy_.off();
        active_.clear();
        active_.reserve(shape.routers);
        is_active_.assign(shape.routers, 0);
        wake_.assign(shape.routers, 0);
        just_granted_.assign(per_router_, 0);
        port_of_.resize(per_router_);
        vc_of_.resize(per_router_);
        for (std::uint32_t local = 0; local < per_router_; ++local) {
            port_of_[local] = static_cast<std::uint16_t>(local / V_);
            vc_of_[local] = static_cast<std::uint8_t>(local % V_);
        }
        buffered_ = 0;
    }
    /// With adaptive routing: the backlog per (router, port) that policies read.
    void track_occupancy() { occupancy_.reset(shape_); }
    [[nodiscard]] const PortOccupancy& occupancy() const { return occupancy_; }

    [[nodiscard]] const Shape& shape() const { return shape_; }
    [[nodiscard]] InputBuffers& inputs() { return in_; }
    [[nodiscard]] const InputBuffers& inputs() const { return in_; }
    [[nodiscard]] OutputQueues& outputs() { return out_; }
    [[nodiscard]] const OutputQueues& outputs() const { return out_; }
    [[nodiscard]] const std::vector<std::uint32_t>& owners() const { return vc_.owners(); }
    /// Flits in input rings and output queues.
    [[nodiscard]] std::uint64_t buffered() const { return buffered_; }

    /// Router n has work from cycle `when` on (or earlier, if it already had).
    void activate(std::uint32_t n, std::uint64_t when) {
        if (is_active_[n]) {
            wake_[n] = std::min(wake_[n], when);
        } else {
            wake_[n] = when;
            is_active_[n] = 1;
            active_.push_back(n);
        }
    }
    [[nodiscard]] std::uint64_t wake(std::uint32_t n) const { return wake_[n]; }

    /// Feedback reached a sender of router n at `now`: a flit waiting for it may go.
    void feedback(std::uint32_t n, std::uint64_t now) {
        in_.unblock(n);
        wake_[n] = std::min(wake_[n], now);
        if (out_.enabled()) out_.wake(n) = now;
    }
    /// A link of router n failed at `now`: its flits bound there are dropped when they next bid.
    void link_failed(std::uint32_t n, std::uint64_t now) {
        in_.unblock(n);
        activate(n, now);
        if (out_.enabled()) out_.wake(n) = now;
    }

    /// Copy `id` of a packet cut at flit `index` (the lowest lost at a failed link;
    /// the flits before it got across): downstream, the flit before it becomes the
    /// packet's tail. Virtual channels that already passed it on are released now,
    /// the others when it passes. A rare event: it scans every input VC.
    void cut(std::uint32_t id, std::uint32_t index) {
        for (std::size_t iv = 0; iv < in_.size(); ++iv) {
            InputVc& v = in_[iv];
            if (v.packet != id || v.state == VcState::idle || v.count != 0 || v.last + 1 != index) continue;
            const std::uint32_t node = in_.node_of(iv);
            if (v.out_port < P_) vc_.owner(in_.index(node, v.out_port * V_ + v.out_vc)) = none;
            v.state = VcState::idle;
            in_.unblock(node);
            activate(node, wake_[node]);
        }
    }

    /// Input VC `local` of router n starts passing on packet `id`, whose head is at
    /// hop `hop` and at the front since `front_since`: it asks for the route's next
    /// port and VC (the kernel may rewrite the rest of the route first, k.rerouted).
    template <class Kernel>
    void start_head(std::uint32_t n, std::uint32_t local, std::uint32_t id, std::uint32_t hop,
                    std::uint64_t front_since, Kernel& k) {
        InputVc& v = in_.router(n)[local];
        k.rerouted(id, n, hop);
        const Packet& pk = k.packets()[id];
        if (hop >= pk.route_len) {
            v.out_port = static_cast<std::uint16_t>(shape_.port_of_terminal(pk.dst));
            v.out_vc = 0;
        } else {
            const RouteStep& s = k.packets().step(id, hop);
            v.out_port = s.port;
            v.out_vc = s.vc;
        }
        if (occupancy_.on()) occupancy_.routed(n, v.out_port, pk.size);
        v.state = VcState::waiting_vc;
        v.packet = id;
        v.ready = front_since + pipeline_.routing;
        v.since = front_since;
    }

    /// A flit arrives at its input VC at `now`.
    template <class Kernel>
    void arrive(std::uint32_t n, std::uint32_t local, const Flit& flit, std::uint64_t now, Kernel& k) {
        ++buffered_;
        const bool first = in_.push(n, local, flit);
        const std::uint32_t port = port_of_[local], vc = vc_of_[local];
        if (k.packets()[flit.packet].watched)
            k.observer().watch.event(flit.packet, FlitEventKind::arrived, now, flit.index, n, port, vc);
        k.channels().arrived(n, port, vc, now);
        std::uint64_t wake = now;  // a body flit may go now
        if (first) {
            InputVc& v = in_.router(n)[local];
            if (v.state == VcState::idle) {
                start_head(n, local, flit.packet, flit.hop, now, k);
                wake = v.ready;  // a head can act once routed
            } else {
                v.since = now;
            }
        } else {
            wake = wake_[n];  // a flit behind others changes nothing
        }
        activate(n, wake);
    }

    /// Steps every router whose wake cycle has come, in the order they became
    /// active; keeps those with work left.
    template <class Kernel>
    void step_all(std::uint64_t now, Kernel& k) {
        std::size_t keep = 0;
        for (std::size_t i = 0; i < active_.size(); ++i) {
            const std::uint32_t n = active_[i];
            if (wake_[n] <= now) wake_[n] = step(n, now, k);
            if ((out_.enabled() && out_.node_flits(n)) || in_.any_front(n)) active_[keep++] = n;
            else is_active_[n] = 0;
        }
        active_.resize(keep);
    }

    /// One cycle of router n: the link stage of its output queues, then VC
    /// allocation and switch allocation over its live front flits. Returns the
    /// first cycle at which stepping it again can change anything, short of an
    /// event that wakes it earlier (an arrival, feedback, a new packet).
    template <class Kernel>
    std::uint64_t step(std::uint32_t n, std::uint64_t now, Kernel& k) {
        std::uint64_t wake = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) { wake = t < wake ? t : wake; };
        if (out_.enabled() && out_.node_flits(n)) {
            if (now >= out_.wake(n)) link_stage(n, now, later, k);
            else later(out_.wake(n));
        }
        // One pass over the live front VCs collects both the VC-allocation
        // requests and the switch requests. A head granted its VC this step may
        // bid for the switch only from grant + vc_allocation, so with a VA delay
        // of 0 the VCs just granted make theirs after it.
        const bool prioritised = switch_.prioritised();
        std::size_t granted = 0;
        vc_.begin();
        switch_.begin(n);
        InputVc* const vcs = in_.router(n);
        const std::size_t vbase = std::size_t{n} * per_router_;
        const std::uint64_t* const port_free = port_free_.data() + std::size_t{n} * NP_;
        auto switch_request = [&](std::uint32_t local, InputVc& v) {
            if (v.state != VcState::active) return;
            if (v.ready > now) return later(v.ready);
            if (v.out_port < P_ && k.failures().any() && k.failures().broken(std::size_t{n} * P_ + v.out_port)) {
                transfer(n, local, now, k, /*drop=*/true);  // its link is gone: dropped, reported
                return later(now + 1);
            }
            const std::uint64_t free = port_free[v.out_port];
            if (free > now + exit_delay_) return later(free - exit_delay_);
            if (!output_ready(n, local, v, k)) return in_.block(n, local);  // feedback or room unblocks it
            switch_.request(port_of_[local], vc_of_[local], v.out_port, level_of(v, k, prioritised));
        };
        in_.for_each_live(n, [&](std::uint32_t local) {
            InputVc& v = vcs[local];
            if (v.state != VcState::waiting_vc) return switch_request(local, v);
            if (v.ready > now) return later(v.ready);
            if (v.out_port >= P_) {  // ejection: no virtual channel to hold
                v.state = VcState::active;
                v.ready = now + pipeline_.vc_allocation;
                later(v.ready);
                just_granted_[granted++] = local;
                return;
            }
            const std::size_t ov = vbase + v.out_port * V_ + v.out_vc;
            std::uint32_t& owner = vc_.owner(ov);
            if (owner == none || (owner == tail_pending && tail_credit_back(n, v, k))) {
                owner = none;
                vc_.request(vbase + local, ov, level_of(v, k, prioritised));
            } else {
                in_.block(n, local);  // the holder's tail frees the VC at this router
            }
        });
        vc_.allocate(
            prioritised,
            [&](std::size_t best) {
                InputVc& w = in_[best];
                w.state = VcState::active;
                w.ready = now + pipeline_.vc_allocation;
                later(w.ready);
                just_granted_[granted++] = static_cast<std::uint32_t>(best - vbase);
            },
            [&] { later(now + 1); });
        if (pipeline_.vc_allocation == 0)  // only the VCs granted now: the others have made their request
            for (std::size_t i = 0; i < granted; ++i) switch_request(just_granted_[i], vcs[just_granted_[i]]);
        const bool speculate = speculative_ && pipeline_.vc_allocation > 0 && granted > 0;
        if (speculate) {
            // BookSim's speculative switch allocation: the heads granted their VC now
            // bid at once, below every non-speculative request; those that lose bid
            // again once their VC allocation delay is over.
            switch_.begin_speculative();
            for (std::size_t i = 0; i < granted; ++i) {
                const std::uint32_t local = just_granted_[i];
                const InputVc& v = vcs[local];
                if (v.out_port < P_ && k.failures().any() && k.failures().broken(std::size_t{n} * P_ + v.out_port))
                    continue;  // dropped when it bids normally
                if (port_free[v.out_port] > now + exit_delay_) continue;
                if (output_ready(n, local, v, k)) switch_.request_speculative(port_of_[local], vc_of_[local], v.out_port);
            }
            later(now + 1);
        }
        if (!switch_.any(speculate)) return wake;
        switch_.allocate(speculate, [&](std::uint32_t port, std::uint32_t vc, std::uint32_t) {
            transfer(n, port * V_ + vc, now, k, false);
        });
        // A transfer changes what follows it (next flits, freed VCs), and a loser
        // of the switch bids again: look again next cycle.
        later(now + 1);
        return wake;
    }

    /// The front flit of input VC `local` of router n crosses the switch (or, with
    /// `drop`, is lost because its output link failed).
    template <class Kernel>
    void transfer(std::uint32_t n, std::uint32_t local, std::uint64_t now, Kernel& k, bool drop) {
        const std::uint32_t port = port_of_[local], vc = vc_of_[local];
        InputVc& v = in_.router(n)[local];
        const Flit f = front(n, local, k);
        Packet& pk = k.packets()[f.packet];
        // Past a link that failed under the packet, its last flit to get across is its tail.
        const bool tail = f.index + 1 == pk.size || (!drop && f.index + 1 == pk.cut);
        const std::uint64_t leaves = now + exit_delay_;
        v.last = f.index;
        auto& res = k.observer().res;
        ++res.flit_moves;
        if (occupancy_.on()) occupancy_.sent(n, v.out_port);
        // Out of the input buffer.
        if (port >= P_) {
            if (f.index == 0) pk.injected = now;
            ++pk.sent;
            ++res.flits_injected;
            if (!res.nodes.empty() && k.cfg().in_window(now)) ++res.nodes[pk.src].flits_injected;
            if (tail && k.source_pop(pk.src, vc)) in_.mark(n, local, false);
        } else {
            in_.pop(n, local);
            --buffered_;
            k.channels().freed(n, port, vc, now);
        }
        if (pk.watched && !drop)
            k.observer().watch.event(f.packet, FlitEventKind::switched, now, f.index, n, v.out_port, v.out_vc);
        // Into the output.
        std::uint64_t& port_free = port_free_[std::size_t{n} * NP_ + v.out_port];
        if (drop) {
            k.drop_at_failed_link(f);
        } else if (v.out_port >= P_) {  // one flit a cycle: with output speedup, a second waits its turn
            const std::uint64_t out = std::max(leaves, port_free);
            port_free = out + 1;
            k.eject(n, shape_.terminal_at(n, v.out_port), f, pk, out + ejection_latency_);
        } else if (out_.enabled()) {
            out_.push(n, (std::size_t{n} * P_ + v.out_port) * V_ + v.out_vc, f, leaves);
            ++buffered_;
            port_free = leaves + 1;
        } else {
            port_free = k.channels().put_on_link(std::size_t{n} * P_ + v.out_port, v.out_vc, f, leaves, k.cfg(),
                                                 k.packets());
        }
        // The input VC after this flit.
        if (!tail) {
            v.ready = now + 1;
            v.since = now + 1;
            return;
        }
        if (v.out_port < P_) {
            vc_.owner(std::size_t{n} * per_router_ + v.out_port * V_ + v.out_vc) =
                wait_for_tail_credit_ ? tail_pending : none;
            in_.unblock(n);  // a head waiting for that output VC may ask again
        }
        v.state = VcState::idle;
        if (!in_.has_front(n, local)) return;
        // The next head is at the front as this tail leaves: it is routed from now,
        // or after the head turnaround (and, from a source, not before it has
        // crossed the injection channel).
        const Flit next = front(n, local, k);
        std::uint64_t from = now + head_turnaround_;
        if (port >= P_) {
            k.write_route(next.packet);
            from = std::max(from, k.packets()[next.packet].created + injection_latency_);
        }
        start_head(n, local, next.packet, next.hop, from, k);
    }

    /// The flit at the front of input VC `local` of router n (a network port's
    /// ring, or a terminal's source queue).
    template <class Kernel>
    [[nodiscard]] Flit front(std::uint32_t n, std::uint32_t local, Kernel& k) const {
        if (port_of_[local] >= P_) {
            const std::uint32_t id = k.source_front(shape_.terminal_at(n, port_of_[local]), vc_of_[local]);
            return Flit{id, k.packets()[id].sent, 0};
        }
        return in_.front(n, local);
    }

    /// Whether the output the front flit of an active input VC wants can take it
    /// (the switch output's own availability is checked by the caller): room in
    /// the output queue, or what the link's flow control says.
    template <class Kernel>
    [[nodiscard]] bool output_ready(std::uint32_t n, std::uint32_t local, const InputVc& v, Kernel& k) const {
        if (v.out_port >= P_) return true;
        const std::size_t q = (std::size_t{n} * P_ + v.out_port) * V_ + v.out_vc;
        if (out_.enabled()) return !out_.full(q);
        return k.flow_allows(q, [&] { return front(n, local, k); });
    }

    /// wait_for_tail_credit: whether the output VC that input VC `v` of router n
    /// wants has its last packet's every credit back (a feedback event unblocks
    /// the router). Over a failed link, credits lost with it never come: taken as
    /// back, the head is then dropped at the switch like any other bound there.
    template <class Kernel>
    [[nodiscard]] bool tail_credit_back(std::uint32_t n, const InputVc& v, Kernel& k) const {
        const std::size_t channel = std::size_t{n} * P_ + v.out_port;
        if (k.failures().any() && k.failures().broken(channel)) return true;
        return k.drained(channel * V_ + v.out_vc);
    }

    /// The links of router n take flits from their output queues: per port, the
    /// ready VC nearest at or after the port's round-robin pointer. Room made in
    /// a full queue lets the switch move a flit into it in the same step.
    template <class Later, class Kernel>
    void link_stage(std::uint32_t n, std::uint64_t now, Later& outer_later, Kernel& k) {
        // The first cycle at which a link of this router can take a flit, short of
        // a flit entering a queue or a feedback event (both reset it).
        std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) {
            next = t < next ? t : next;
            outer_later(t);
        };
        out_.for_each_port(n, [&](std::uint32_t port) {
            const std::size_t channel = std::size_t{n} * P_ + port;
            if (k.failures().any() && k.failures().broken(channel)) {  // the link is gone: its queued flits are lost
                for (std::uint32_t vc = 0; vc < V_; ++vc)
                    while (out_.count(channel * V_ + vc)) k.drop_at_failed_link(pop_queue(n, channel * V_ + vc, now));
                return;
            }
            std::uint64_t& link_free = out_.link_free(channel);
            if (link_free > now) return later(link_free);
            std::uint32_t& pointer = out_.link_pointer(channel);
            for (std::uint32_t i = 0; i < V_; ++i) {
                const std::uint32_t vc = (pointer + i) % V_;
                const std::size_t q = channel * V_ + vc;
                if (!out_.count(q)) continue;
                if (const std::uint64_t ready = out_.front_ready(q); ready > now) {
                    later(ready);
                    continue;
                }
                if (!k.flow_allows(q, [&] { return out_.front(q); })) continue;  // a feedback event wakes us
                link_free = k.channels().put_on_link(channel, vc, pop_queue(n, q, now), now, k.cfg(), k.packets());
                pointer = vc + 1 == V_ ? 0 : vc + 1;
                return later(link_free);
            }
        });
        out_.wake(n) = next;
    }

    Flit pop_queue(std::uint32_t n, std::size_t q, std::uint64_t now) {
        --buffered_;
        in_.unblock(n);  // room in the queue: a flit waiting for it may cross the switch
        return out_.pop(n, q, now);
    }

    /// The priority level of the packet an input VC passes on (0 without levels).
    template <class Kernel>
    [[nodiscard]] static std::uint8_t level_of(const InputVc& v, Kernel& k, bool prioritised) {
        return prioritised ? k.packets()[v.packet].level : 0;
    }

private:
    Shape shape_{};
    std::uint32_t P_ = 0, V_ = 1, NP_ = 1, per_router_ = 1;
    PipelineDelays pipeline_{};
    std::uint64_t exit_delay_ = 0;
    InputBuffers in_;
    OutputQueues out_;
    VcAllocation vc_;
    SwitchArbitration<A> switch_;
    bool speculative_ = false, wait_for_tail_credit_ = false;
    std::uint32_t head_turnaround_ = 0, injection_latency_ = 0, ejection_latency_ = 0;
    std::vector<std::uint32_t> just_granted_;  // local VC indices granted their output VC in this step
    std::vector<std::uint64_t> port_free_;  // per (router, port incl. terminals): the switch output is free from
    PortOccupancy occupancy_;               // with adaptive routing
    std::vector<std::uint32_t> active_;     // routers with a front flit or a queued one
    std::vector<std::uint8_t> is_active_;
    std::vector<std::uint64_t> wake_;  // per router: the first cycle at which stepping it can change anything
    std::vector<std::uint16_t> port_of_;  // per local VC index: its port
    std::vector<std::uint8_t> vc_of_;     //  and its VC
    std::uint64_t buffered_ = 0;
};

}  // namespace fabric::cycle
