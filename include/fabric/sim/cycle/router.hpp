// The router pipeline of the cycle kernel, one router step at a time: routing
// delay, VC allocation (RoundRobinVcAllocator), switch allocation (the
// SwitchAllocator policy A; with CycleConfig::speculative a second stage of A
// for the heads granted their VC this cycle, below the first), switch traversal
// into an output queue, onto the link or out at the ejection port; and the link
// stage that takes flits from output queues. A router is stepped only when
// something can change there (its wake cycle); see simulator.hpp for the timing
// model.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include <fabric/concepts/allocator.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/delivery.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab, SwitchAllocator A>
class Router : protected Delivery<Fab> {
protected:
    using Base = Delivery<Fab>;
    using Base::Base;
    using Base::P, Base::LOCAL, Base::NP, Base::V, Base::none, Base::tail_pending;
    using Base::cfg_, Base::fab_, Base::links_, Base::nodes_, Base::in_, Base::out_, Base::owner_, Base::va_rr_,
        Base::sender_, Base::receiver_, Base::port_free_, Base::sources_, Base::active_, Base::is_active_, Base::wake_,
        Base::failures_, Base::packets_, Base::res_, Base::buffered_, Base::watch_, Base::classes_;
    using Base::front, Base::flow_allows, Base::put_on_link, Base::drop_at_failed_link, Base::eject,
        Base::write_route, Base::start_head, Base::send_feedback;

    void reset() {
        Base::reset();
        switch_.reset(nodes_);
        if (cfg_.speculative) speculative_.reset(nodes_);
        if constexpr (requires { A::output_speedup; })
            detail::require(A::output_speedup == 1 || cfg_.output_buffer_flits > 0, "output speedup (Speedup<A, In, "
                            "Out> with Out > 1) needs output queues to take the flits a link cannot: set "
                            "output_buffer_flits, or use Out = 1");
    }

    /// Steps every router whose wake cycle has come; keeps those with work left.
    void step_routers(std::uint64_t now) {
        const bool prioritised = classes_.levels() > 1;  // its own kernel: a run without priorities pays nothing for them
        std::size_t keep = 0;
        for (std::size_t i = 0; i < active_.size(); ++i) {
            const std::uint32_t n = active_[i];
            if (wake_[n] <= now) wake_[n] = prioritised ? step_router<true>(n, now) : step_router<false>(n, now);
            if ((out_.enabled() && out_.node_flits(n)) || in_.any_front(n)) active_[keep++] = n;
            else is_active_[n] = 0;
        }
        active_.resize(keep);
    }

    /// One cycle of router n; returns the first cycle at which stepping it again
    /// can change anything, short of an event (arrival, feedback, new packet) that
    /// wakes it earlier.
    template <bool prioritised>
    std::uint64_t step_router(std::uint32_t n, std::uint64_t now) {
        const PipelineDelays& pd = cfg_.pipeline;
        std::uint64_t wake = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) { wake = t < wake ? t : wake; };
        const std::uint64_t exit_delay = static_cast<std::uint64_t>(pd.switch_allocation) + pd.switch_traversal;
        if (out_.enabled() && out_.node_flits(n)) {
            if (now >= out_.wake(n)) link_stage(n, now, later);
            else later(out_.wake(n));
        }

        // One pass over the occupied input VCs collects both the VC-allocation
        // requests and the switch requests. A head granted its VC this cycle may
        // bid for the switch only from grant + vc_allocation, so with a VA delay
        // of 0 the VCs just granted make theirs after it.
        std::size_t requests = 0;
        std::size_t granted = 0;
        std::size_t ranked = 0;  // with priority levels: switch requests kept in ranked_, allocated level by level
        switch_.begin(n);
        const std::size_t base = static_cast<std::size_t>(n) * NP;
        // Per-router views: locals the compiler need not reload after every store.
        InputVc* const vcs = in_.router(n);
        std::uint32_t* const owner = owner_.data() + base * V;
        const std::uint64_t* const port_free = port_free_.data() + base;
        auto switch_request = [&](std::uint32_t port, std::uint32_t vc, const InputVc& v) {
            if (v.state != VcState::active) return;
            if (v.ready > now) return later(v.ready);
            if (failures_.any() && v.out_port < LOCAL && failures_.broken(static_cast<std::size_t>(n) * P + v.out_port)) {
                transfer(n, port, vc, now, exit_delay, /*drop=*/true);  // its link is gone: dropped, reported
                return later(now + 1);
            }
            const std::uint64_t free = port_free[v.out_port];
            if (free > now + exit_delay) return later(free - exit_delay);
            if (!output_ready(n, port, vc, v)) return;  // blocked: a feedback event wakes us
            if constexpr (prioritised) ranked_[ranked++] = {port, vc, v.out_port, level_of(v)};
            else switch_.request(port, vc, v.out_port);
        };
        in_.for_each_front(n, [&](std::uint32_t port, std::uint32_t vc) {
            InputVc& v = vcs[port * V + vc];
            if (v.state == VcState::waiting_vc) {
                if (v.ready > now) return later(v.ready);
                if (v.out_port >= LOCAL) {  // ejection: no virtual channel to hold
                    v.state = VcState::active;
                    v.ready = now + pd.vc_allocation;
                    later(v.ready);
                    just_granted_[granted++] = port * V + vc;
                } else if (const std::uint32_t ov = v.out_port * V + v.out_vc;
                           owner[ov] == none || (owner[ov] == tail_pending && tail_credit_back(n, v))) {
                    owner[ov] = none;
                    if constexpr (prioritised) va_levels_[requests] = level_of(v);
                    va_requests_[requests++] = {base * V + port * V + vc, base * V + ov};
                }
                // else: the holder's tail frees the VC when this router moves it (a transfer wakes us)
                return;
            }
            switch_request(port, vc, v);
        });
        // VC allocation: per output VC, the requester nearest at or after its
        // pointer wins (among those of the highest priority level).
        if (prioritised && requests > 1) requests = keep_highest_levels(requests, base * V);
        RoundRobinVcAllocator::allocate(
            std::span<const std::pair<std::size_t, std::size_t>>(va_requests_.data(), requests), owner_, va_rr_,
            in_.size(),
            [&](std::size_t best) {
                InputVc& w = in_[best];
                w.state = VcState::active;
                w.ready = now + pd.vc_allocation;
                later(w.ready);
                just_granted_[granted++] = static_cast<std::uint32_t>(best - base * V);
            },
            [&] { later(now + 1); });
        if (pd.vc_allocation == 0)  // only the VCs granted now: the others have made their request
            for (std::size_t i = 0; i < granted; ++i)
                switch_request(just_granted_[i] / V, just_granted_[i] % V, vcs[just_granted_[i]]);
        const bool speculate = cfg_.speculative && pd.vc_allocation > 0 && granted > 0;
        if (speculate) speculative_requests(n, now, exit_delay, granted, later);
        if (!switch_.any() && ranked == 0 && !(speculate && speculative_.any())) return wake;
        // Flits each switch port has taken this cycle: a later stage may use only what is left.
        std::array<std::uint32_t, NP> in_used{}, out_used{};
        auto room = [&](std::uint32_t port, std::uint32_t out) {
            return in_used[port] < in_speedup && out_used[out] < out_speedup;
        };
        auto grant = [&](std::uint32_t port, std::uint32_t vc, std::uint32_t out) {
            ++in_used[port];
            ++out_used[out];
            transfer(n, port, vc, now, exit_delay);
        };
        if constexpr (!prioritised) {
            if (switch_.any()) switch_.allocate(grant);
        } else {  // priority levels in turn, highest first, each on the ports the ones above left room on
            for (std::uint32_t level = 0; ranked > 0 && level < classes_.levels(); ++level) {
                switch_.begin(n);
                for (std::size_t i = 0; i < ranked; ++i)
                    if (const RankedRequest& r = ranked_[i]; r.level == level && room(r.in, r.out))
                        switch_.request(r.in, r.vc, r.out);
                if (switch_.any()) switch_.allocate(grant);
            }
        }
        // A speculative grant stands only where the stages before left its input and output port room.
        if (speculate && speculative_.any())
            speculative_.allocate([&](std::uint32_t port, std::uint32_t vc, std::uint32_t out) {
                if (room(port, out)) grant(port, vc, out);
            });
        // A transfer changes what follows it (next flits, freed VCs), and a loser
        // of the switch bids again: look again next cycle.
        later(now + 1);
        return wake;
    }

    /// Speculative switch allocation (BookSim's speculative = 1): the heads granted
    /// their output VC in this step also bid for the switch now, in the second
    /// stage, instead of from grant + vc_allocation; those that lose bid again,
    /// non-speculatively, once their VC allocation delay is over. BookSim bids in
    /// parallel with VC allocation, so a head that then loses its VC may still
    /// win (and waste) a speculative grant; here only the heads that won bid.
    template <class Later>
    void speculative_requests(std::uint32_t n, std::uint64_t now, std::uint64_t exit_delay, std::size_t granted,
                              Later& later) {
        speculative_.begin(n);
        const std::size_t base = static_cast<std::size_t>(n) * NP * V;
        for (std::size_t i = 0; i < granted; ++i) {
            const std::uint32_t port = just_granted_[i] / V, vc = just_granted_[i] % V;
            const InputVc& v = in_[base + just_granted_[i]];
            if (failures_.any() && v.out_port < LOCAL && failures_.broken(static_cast<std::size_t>(n) * P + v.out_port))
                continue;  // dropped when it bids normally
            if (port_free_[static_cast<std::size_t>(n) * NP + v.out_port] > now + exit_delay) continue;
            if (output_ready(n, port, vc, v)) speculative_.request(port, vc, v.out_port);
        }
        later(now + 1);
    }

    /// The priority level of the packet an input VC passes on.
    [[nodiscard]] std::uint8_t level_of(const InputVc& v) const { return packets_[v.packet].level; }

    /// Priority in VC allocation: keeps, of the first `requests` VC requests, those
    /// of the highest level among the requests for the same output VC.
    std::size_t keep_highest_levels(std::size_t requests, std::size_t vc_base) {
        std::array<std::uint8_t, NP * V> best;
        for (std::size_t i = 0; i < requests; ++i) best[va_requests_[i].second - vc_base] = 0xff;
        for (std::size_t i = 0; i < requests; ++i) {
            std::uint8_t& b = best[va_requests_[i].second - vc_base];
            b = std::min(b, va_levels_[i]);
        }
        std::size_t keep = 0;
        for (std::size_t i = 0; i < requests; ++i)
            if (va_levels_[i] == best[va_requests_[i].second - vc_base]) va_requests_[keep++] = va_requests_[i];
        return keep;
    }

    /// Whether the output the front flit of an active input VC wants can take it
    /// (the switch output's own availability is checked by the caller): room in
    /// the output queue, or what the link's flow control says.
    [[nodiscard]] bool output_ready(std::uint32_t n, std::uint32_t port, std::uint32_t vc, const InputVc& v) const {
        if (v.out_port >= LOCAL) return true;
        const std::size_t channel = static_cast<std::size_t>(n) * P + v.out_port;
        if (out_.enabled()) return !out_.full(channel * V + v.out_vc);
        return flow_allows(channel * V + v.out_vc, [&] { return front(n, port, vc); });
    }

    /// The front flit of input VC (n, port, vc) crosses the switch (or, with
    /// `drop`, is lost because its output link failed).
    void transfer(std::uint32_t n, std::uint32_t port, std::uint32_t vc, std::uint64_t now, std::uint64_t exit_delay,
                  bool drop = false) {
        const std::size_t iv = in_.index(n, port, vc);
        InputVc& v = in_[iv];
        const Flit f = front(n, port, vc);
        Packet& pk = packets_[f.packet];
        // Past a link that failed under the packet, its last flit to get across is its tail.
        const bool tail = f.index + 1 == pk.size || (!drop && f.index + 1 == pk.cut);
        const std::uint64_t leaves = now + exit_delay;
        v.last = f.index;
        ++res_.flit_moves;
        if constexpr (Base::adaptive) Base::occupancy_.sent(n, v.out_port);

        // Out of the input buffer.
        if (port >= LOCAL) {
            if (f.index == 0) pk.injected = now;
            ++pk.sent;
            ++res_.flits_injected;
            if (!res_.nodes.empty() && cfg_.in_window(now)) ++res_.nodes[pk.src].flits_injected;
            if (tail && sources_.pop(pk.src, vc)) in_.mark(iv, false);
        } else {
            in_.pop(iv);
            --buffered_;
            const std::size_t channel = static_cast<std::size_t>(n) * P + port;
            const std::uint32_t up = links_.up(channel);
            fab_.flow().on_free(receiver_[channel * V + vc],
                                [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
        }

        if (pk.watched && !drop) watch_.event(f.packet, FlitEventKind::switched, now, f.index, n, v.out_port, v.out_vc);
        // Into the output.
        std::uint64_t& port_free = port_free_[static_cast<std::size_t>(n) * NP + v.out_port];
        if (drop) {
            drop_at_failed_link(f);
        } else if (v.out_port >= LOCAL) {  // one flit a cycle: with output speedup, a second waits its turn
            const std::uint64_t out = std::max(leaves, port_free);
            port_free = out + 1;
            eject(n, this->terminal_at(n, v.out_port), f, pk, out + cfg_.ejection_latency);
        } else if (out_.enabled()) {
            out_.push(n, (static_cast<std::size_t>(n) * P + v.out_port) * V + v.out_vc, f, leaves);
            ++buffered_;
            port_free = leaves + 1;
        } else {
            port_free = put_on_link(static_cast<std::size_t>(n) * P + v.out_port, v.out_vc, f, leaves);
        }

        // The input VC after this flit.
        if (tail) {
            if (v.out_port < LOCAL) owner_[in_.index(n, v.out_port, v.out_vc)] = cfg_.wait_for_tail_credit ? tail_pending
                                                                                                            : none;
            v.state = VcState::idle;
            if (in_.has_front(iv)) {
                // The next head is at the front as this tail leaves: it is routed from
                // now, or after the head turnaround (and, from a source, not before it
                // has crossed the injection channel).
                const Flit next = front(n, port, vc);
                std::uint64_t from = now + cfg_.head_turnaround;
                if (port >= LOCAL) {
                    write_route(next.packet);
                    from = std::max(from, packets_[next.packet].created + cfg_.injection_latency);
                }
                start_head(iv, next.packet, next.hop, from);
            }
        } else {
            v.ready = now + 1;
            v.since = now + 1;
        }
    }

    /// wait_for_tail_credit: whether the output VC that input VC `v` of router n
    /// wants has its last packet's every credit back (a feedback event wakes the
    /// router). Over a failed link, credits lost with it never come: taken as back,
    /// the head is then dropped at the switch like any other bound for that link.
    [[nodiscard]] bool tail_credit_back(std::uint32_t n, const InputVc& v) const {
        const std::size_t channel = static_cast<std::size_t>(n) * P + v.out_port;
        if (failures_.any() && failures_.broken(channel)) return true;
        if constexpr (DrainReportingFlow<typename Base::F>)
            return fab_.flow().drained(sender_[channel * V + v.out_vc]);
        else
            return true;  // not reached: the network refuses the setting without drained()
    }

    /// Whether flow control lets the front flit of output queue `q` onto its link.
    [[nodiscard]] bool queue_can_send(std::size_t q) const {
        return flow_allows(q, [&] { return out_.front(q); });
    }

    /// The links of router n take flits from their output queues: per port, the
    /// ready VC nearest at or after the port's round-robin pointer. Room made in
    /// a full queue lets the switch move a flit into it in the same cycle.
    template <class Later>
    void link_stage(std::uint32_t n, std::uint64_t now, Later&& outer_later) {
        // The first cycle at which a link of this router can take a flit, short of
        // a flit entering a queue or a feedback event (both reset it).
        std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) {
            next = t < next ? t : next;
            outer_later(t);
        };
        out_.for_each_port(n, [&](std::uint32_t port) {
            const std::size_t channel = static_cast<std::size_t>(n) * P + port;
            if (failures_.any() && failures_.broken(channel)) {  // the link is gone: its queued flits are lost, reported
                for (std::uint32_t vc = 0; vc < V; ++vc)
                    while (out_.count(channel * V + vc)) {
                        const Flit f = pop_queue(n, channel * V + vc, now);
                        drop_at_failed_link(f);
                    }
                return;
            }
            std::uint64_t& link_free = out_.link_free(channel);
            if (link_free > now) return later(link_free);
            std::uint32_t& pointer = out_.link_pointer(channel);
            for (std::uint32_t k = 0; k < V; ++k) {
                const std::uint32_t vc = (pointer + k) % V;
                const std::size_t q = channel * V + vc;
                if (!out_.count(q)) continue;
                if (const std::uint64_t ready = out_.front_ready(q); ready > now) {
                    later(ready);
                    continue;
                }
                if (!queue_can_send(q)) continue;  // a feedback event wakes us
                link_free = put_on_link(channel, vc, pop_queue(n, q, now), now);
                pointer = vc + 1 == V ? 0 : vc + 1;
                return later(link_free);
            }
        });
        out_.wake(n) = next;
    }

    Flit pop_queue(std::uint32_t n, std::size_t q, std::uint64_t now) {
        --buffered_;
        return out_.pop(n, q, now);
    }

    static constexpr std::uint32_t in_speedup = [] {
        if constexpr (requires { A::input_speedup; }) return A::input_speedup;
        else return 1U;
    }();
    static constexpr std::uint32_t out_speedup = [] {
        if constexpr (requires { A::output_speedup; }) return A::output_speedup;
        else return 1U;
    }();
    struct RankedRequest {
        std::uint32_t in, vc, out;
        std::uint8_t level;
    };

    typename A::template stage<NP, V> switch_;
    std::array<RankedRequest, NP * V> ranked_{};             // with priority levels: this step's switch requests
    std::array<std::uint8_t, NP * V> va_levels_{};           // with priority levels: each VC request's level
    typename A::template stage<NP, V> speculative_;          // with CycleConfig::speculative
    std::array<std::uint32_t, NP * V> just_granted_{};       // port * V + vc: VCs granted in this step
    std::array<std::pair<std::size_t, std::size_t>, NP * V> va_requests_{};
};

}  // namespace fabric::cycle
