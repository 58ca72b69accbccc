// How a flit crosses a router of the cycle kernel (Routers<A>, routers.hpp): out
// of its input VC (a ring, or its terminal's source queue) into an output queue,
// onto a link or out to its sink; the next head behind a tail; the link stage that
// takes flits from output queues; a flit dropped where its link failed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <fabric/sim/cycle/routers.hpp>

namespace fabric::cycle {

/// Flit `f` was switched at router n towards (out_port, out_vc) at `now`: the watch
/// hears of a watched packet's; the message port of a packet's last flit leaving
/// its source queue (`left_source`), its message sent.
template <class Kernel>
[[gnu::noinline]] void flit_switched(const Flit& f, std::uint32_t n, std::uint32_t out_port, std::uint32_t out_vc,
                                     bool left_source, std::uint64_t now, Kernel& k) {
    const Packet& pk = k.packets()[f.packet];
    if (pk.watched) k.observer().watch.event(f.packet, FlitEventKind::switched, now, f.index, n, out_port, out_vc);
    if (left_source && k.sources().port().is_open()) k.sources().port().sent(pk, now);
}

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::drop(std::uint32_t n, std::uint32_t local, std::uint64_t now, Kernel& k) {
    transfer(n, local, now, k, true);
}

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::transfer(std::uint32_t n, std::uint32_t local, std::uint64_t now, Kernel& k, bool drop) {
    InputVc& v = in_.router(n)[local];
    const bool from_source = local >= network_locals_;  // a terminal's injection VC
    const Flit f = from_source ? source_front(n, local, k) : v.front;
    // The flit knows whether it is its packet's last; past a link that failed under
    // the packet (only once a loss has been told), its last flit to get across is.
    const bool tail = f.tail() || (!drop && k.losses().any() && f.index + 1 == k.packets()[f.packet].cut);
    v.last = f.index;
    ++k.observer().res.flit_moves;
    if (occupancy_.on()) occupancy_.sent(n, v.out_port);
    // Out of the input buffer.
    if (from_source) {
        left_source(n, local, f, tail, now, k);
    } else {
        in_.pop(v, n, local);
        --buffered_;
        k.channels().freed(std::size_t{n} * network_locals_ + local, now);
    }
    // Only what someone hears of: a watched packet's flit, a message's last flit leaving its source queue.
    if (k.observer().flit_events && !drop && ((from_source && tail) || k.observer().watch.on())) [[unlikely]]
        flit_switched(f, n, v.out_port, v.out_vc, from_source && tail, now, k);
    // Into the output.
    const std::uint32_t out = v.out_port;
    std::uint64_t& port_free = port_free_[std::size_t{n} * NP_ + out];
    const std::uint64_t leaves = now + exit_delay_;
    if (out < P_ && !drop && !out_enabled_) [[likely]] {
        port_free = k.channels().put_on_link(std::size_t{n} * P_ + out, v.out_vc, f, leaves, k.cfg(), k.packets(),
                                             v.route);
    } else if (drop) {
        k.drop_at_failed_link(f);
    } else if (out >= P_) {  // one flit a cycle: with output speedup, a second waits its turn
        const std::uint64_t at = std::max(leaves, port_free);
        std::uint64_t across = at;
        if (!terminal_links_.limited()) [[likely]] {
            port_free = at + 1;
        } else {  // the terminal's own link, slower than a flit a cycle
            const TerminalLinks::Crossing c = terminal_links_.out(terminal_link(n, out), at);
            port_free = c.next;
            across = c.across;
        }
        k.eject(n, shape_.terminal_at(n, out), f, k.packets()[f.packet], across + ejection_latency_);
        if (tail && eject_vcs_.on()) [[unlikely]] {  // its ejection VC is free once the tail's credit is back
            eject_vcs_.tail_out(terminal_link(n, out), v.out_vc, across + ejection_latency_);
            in_.unblock(n);
        }
    } else {
        out_.push(n, (std::size_t{n} * P_ + out) * V_ + v.out_vc, f, leaves);
        ++buffered_;
        port_free = leaves + 1;
    }
    // The input VC after this flit.
    if (!tail) {
        v.ready = now + 1;
        v.since = now + 1;
        if (local >= held_from_) [[unlikely]]
            hold_sources(n, port_of_[local], f.packet, now, k);
        return;
    }
    if (local >= held_from_) [[unlikely]]
        hold_sources(n, port_of_[local], f.packet, now, k);
    if (out < P_) {
        vc_.owner(std::size_t{n} * per_router_ + out * V_ + v.out_vc) = wait_for_tail_credit_ ? tail_pending : none;
        in_.unblock(n);  // a head waiting for that output VC may ask again
    }
    v.state = VcState::idle;
    if (in_.has_front(n, local)) next_head(n, local, from_source, now, k);
}

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::left_source(std::uint32_t n, std::uint32_t local, const Flit& f, bool tail, std::uint64_t now,
                             Kernel& k) {
    Packet& pk = k.packets()[f.packet];
    if (f.index == 0) pk.injected = now;
    ++pk.sent;
    CycleResult& res = k.observer().res;
    ++res.flits_injected;
    if (!res.nodes.empty() && k.cfg().in_window(now)) ++res.nodes[pk.src].flits_injected;
    if (tail && k.source_pop(pk.src, vc_of_[local])) in_.mark(n, local, false);
}

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::next_head(std::uint32_t n, std::uint32_t local, bool from_source, std::uint64_t now, Kernel& k) {
    const Flit next = from_source ? source_front(n, local, k) : in_.front(n, local);
    std::uint64_t from = now + head_turnaround_;
    if (from_source) {
        k.write_route(next.packet);
        from = std::max(from, k.packets()[next.packet].created + injection_latency_);
    }
    start_head(n, local, next.packet, k.packets()[next.packet].route_slot, next.hop(), from, k);
}

template <SwitchAllocator A>
template <class Later, class Kernel>
void Routers<A>::link_stage(std::uint32_t n, std::uint64_t now, Later& outer_later, Kernel& k) {
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
            link_free = put_queued(n, channel, vc, pop_queue(n, q, now), now, k);
            pointer = vc + 1 == V_ ? 0 : vc + 1;
            return later(link_free);
        }
    });
    out_.wake(n) = next;
}

}  // namespace fabric::cycle
