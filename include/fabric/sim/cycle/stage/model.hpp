// The stage-list cycle kernel: the same model as the wake kernel (routers.hpp and
// its parts), decision for decision, on lists of what is due in each cycle
// instead of router steps that pass over every live VC. Per cycle:
//   1. creation: the Bernoulli successes of the cycle, in node order, each a packet
//      in its terminal's source queue; one at the head of its queue is routed and
//      listed for VC allocation `injection_latency + routing` cycles on;
//   2. arrivals: the flits due now enter their input VCs; a head is listed for VC
//      allocation `routing` cycles on, a flit into an empty VC whose packet holds
//      its output VC for the switch now;
//   3. VC allocation over the VCs listed for now: a free output VC goes to the
//      asker nearest at or after its pointer (an asker of the same cycle that is
//      nearer displaces an earlier one); an asker that finds it held waits on it and
//      asks again the cycle after it is freed; a winner is listed for the switch
//      `vc_allocation` cycles on;
//   4. the switch: pass 1 over the VCs listed for now, each with a credit, sets its
//      router's bid mask (a VC without one waits for it, and bids again the cycle
//      after the credit comes back); pass 2 over the routers with bids: a lone bid
//      wins at once, others go through the separable allocator; the winners move,
//      the losers bid again next cycle.
// Why every decision is the wake kernel's: a router step there looks at exactly
// the VCs that could act (a VC waits unlooked-at only where nothing can change
// until an event that wakes it), requests within a step are allocated by rules
// that do not depend on their order (the nearest to a pointer wins), and a
// credit counted when its flit leaves the receiver is seen by the sender's next
// check, as the wake kernel's credit one cycle later is (every check of a cycle
// precedes its moves). The pass over VCs is what a list spares.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>

#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/stage/network.hpp>

namespace fabric::cycle {

namespace stage_detail {
constexpr std::uint32_t past(std::uint32_t x, std::uint32_t n) { return x + 1 == n ? 0 : x + 1; }
/// How far x lies at or after pointer p on a ring of n.
constexpr std::uint32_t ahead(std::uint32_t x, std::uint32_t p, std::uint32_t n) { return x >= p ? x - p : x + n - p; }
}  // namespace stage_detail

/// The model's parts, joined: a network of shape S, its routing as `Route`
/// (route(src_router, dst_router, choice, steps) writes steps, returns the hops).
template <class S>
class StageModel {
public:
    using Net = StageNetwork<S>;
    using Pk = typename Net::Pk;
    static constexpr std::uint32_t P = S::P, V = S::V, NP = S::NP, L = S::L, NV = S::NV;

    struct Timing {
        std::uint64_t routing = 1, vc_allocation = 1, exit = 2, head_turnaround = 0, injection = 0, ejection = 0;
    };

    Net net;
    Observer* obs = nullptr;
    const MethodSettings* window = nullptr;  // in_window
    Timing time{};
    bool node_statistics = false;

    [[gnu::always_inline]] static std::uint32_t out_port(std::uint32_t step) {
        return step < NV ? step / V : P + (step - NV);
    }

    // --- arrivals -------------------------------------------------------------------------
    /// The flits due at `now` enter their input VCs.
    [[gnu::always_inline]] void arrive(std::uint64_t now) {
        Bucket<StageArrival>& due = net.arrivals.at(now);
        StageVc* const vcs = net.vcs.data();
        net.in_flight -= due.size();
        net.buffered += due.size();
        for (const StageArrival& a : due) {
            StageVc& v = vcs[a.vc];
            if (v.count == 0) {
                v.front = a.flit;
                v.count = 1;
                v.since = now;
                if (v.state == StageState::idle) {  // a head: routed, then it asks for its output VC
                    v.state = StageState::waiting;
                    v.out = static_cast<std::uint16_t>(a.step);
                    net.va.push(now + time.routing, a.vc);
                } else {  // its packet holds the output VC: it bids now
                    net.sa.push(now, a.vc);
                }
                continue;
            }
            if (v.count == net.depth) [[unlikely]]
                overflow(a.vc);
            const std::uint32_t local = a.vc % L;
            std::uint32_t slot = v.head + v.count - 1u;
            if (slot >= net.ring) slot -= net.ring;
            net.flits[(std::size_t{a.vc / L} * NV + local) * net.ring + slot] = a.flit;
            ++v.count;
        }
        due.clear();
    }

    // --- VC allocation ----------------------------------------------------------------------
    [[gnu::always_inline]] void allocate_vcs(std::uint64_t now) {
        Bucket<std::uint32_t>& due = net.va.at(now);
        StageVc* const vcs = net.vcs.data();
        typename Net::Ov* const ovs = net.ovs.data();
        const std::uint64_t ready = now + time.vc_allocation;
        for (const std::uint32_t x : due) {
            StageVc& v = vcs[x];
            if (v.out >= NV) {  // out to a terminal: no VC to hold
                v.state = StageState::active;
                net.sa.push(ready, x);
                continue;
            }
            const std::uint32_t r = x / L, local = x - r * L;
            const std::uint32_t o = r * NV + v.out;
            auto& ov = ovs[o];
            if (ov.owner == Net::Ov::free) {
                ov.owner = static_cast<std::uint16_t>(local | granted_bit);
                net.granted.push_back(o);
            } else if (ov.owner & granted_bit) {  // given this cycle: the nearer asker takes it
                const std::uint32_t held = ov.owner & ~granted_bit;
                if (stage_detail::ahead(local, ov.pointer, L) < stage_detail::ahead(held, ov.pointer, L)) {
                    ov.waiters.set(held);
                    ov.owner = static_cast<std::uint16_t>(local | granted_bit);
                } else {
                    ov.waiters.set(local);
                }
            } else {
                ov.waiters.set(local);  // held: asks again once it is freed
            }
        }
        due.clear();
        for (const std::uint32_t o : net.granted) {
            auto& ov = ovs[o];
            const std::uint32_t local = ov.owner & ~granted_bit;
            ov.owner = static_cast<std::uint16_t>(local);
            ov.pointer = static_cast<std::uint8_t>(stage_detail::past(local, L));
            const std::uint32_t x = o / NV * L + local;
            vcs[x].state = StageState::active;
            net.sa.push(ready, x);
        }
        net.granted.clear();
    }
    static constexpr std::uint16_t granted_bit = 0x8000;

    // --- the switch ---------------------------------------------------------------------------
    /// Pass 1 over the VCs listed for the switch now: each with a credit (or bound
    /// for a terminal) bids in its router; one without waits for the credit.
    [[gnu::always_inline]] void collect_bids(std::uint64_t now) {
        Bucket<std::uint32_t>& due = net.sa.at(now);
        const StageVc* const vcs = net.vcs.data();
        typename Net::Ov* const ovs = net.ovs.data();
        typename Net::Router* const rt = net.rt.data();
        for (const std::uint32_t x : due) {
            const std::uint32_t out = vcs[x].out, r = x / L;
            if (out < NV) {
                auto& ov = ovs[r * NV + out];
                if (ov.credits <= 0) {
                    ov.credit_wait = 1;  // bids again the cycle after a credit comes back
                    continue;
                }
            }
            auto& router = rt[r];
            if (!router.bids.any()) net.bidding.push_back(r);
            router.bids.set(x - r * L);
        }
        due.clear();
    }

    /// Pass 2: per router with bids, the separable allocator's grants (a lone bid
    /// wins at once, moving both pointers past it, as the allocator would); each
    /// winner moves; the losers bid again next cycle.
    template <class Mover>
    [[gnu::always_inline]] void grant_bids(std::uint64_t now, Mover&& move) {
        typename Net::Router* const rt = net.rt.data();
        for (const std::uint32_t r : net.bidding) {
            auto& router = rt[r];
            const BitSet<L> bids = router.bids;
            router.bids.clear();
            if (const std::uint32_t l = bids.lone(); l != ~0U) {
                const std::uint32_t in = l / V;
                router.out_rr[out_port(net.vcs[std::size_t{r} * L + l].out)] =
                    static_cast<std::uint8_t>(stage_detail::past(in, NP));
                router.in_rr[in] = static_cast<std::uint8_t>(stage_detail::past(l % V, V));
                move(r, l);
                continue;
            }
            separable(r, router, bids, now, move);
        }
        net.bidding.clear();
    }

    /// The separable input-first allocator over a router's bids: per input port the
    /// VC nearest at or after its pointer, per output port the input nearest at or
    /// after its pointer; grants by increasing output port (switch_allocators.hpp).
    template <class Mover>
    [[gnu::noinline]] void separable(std::uint32_t r, typename Net::Router& router, const BitSet<L>& bids,
                                     std::uint64_t now, Mover& move) {
        static_assert(NP <= 64, "fabric: the stage-list kernel's separable allocator takes at most 64 ports");
        std::uint32_t vc_of[NP], out_of[NP], winner[NP];
        std::uint64_t ins = 0, outs = 0;
        const StageVc* const vcs = net.vcs.data() + std::size_t{r} * L;
        bids.for_each([&](std::uint32_t l) {
            const std::uint32_t in = l / V, vc = l % V;
            const std::uint64_t bit = std::uint64_t{1} << in;
            if ((ins & bit) &&
                stage_detail::ahead(vc, router.in_rr[in], V) >= stage_detail::ahead(vc_of[in], router.in_rr[in], V))
                return;
            ins |= bit;
            vc_of[in] = vc;
            out_of[in] = out_port(vcs[l].out);
        });
        for (std::uint64_t b = ins; b; b &= b - 1) {
            const auto in = static_cast<std::uint32_t>(std::countr_zero(b));
            const std::uint32_t out = out_of[in];
            const std::uint64_t bit = std::uint64_t{1} << out;
            if ((outs & bit) &&
                stage_detail::ahead(in, router.out_rr[out], NP) >= stage_detail::ahead(winner[out], router.out_rr[out], NP))
                continue;
            outs |= bit;
            winner[out] = in;
        }
        BitSet<L> lost = bids;
        for (; outs; outs &= outs - 1) {
            const auto out = static_cast<std::uint32_t>(std::countr_zero(outs));
            const std::uint32_t in = winner[out], vc = vc_of[in];
            router.out_rr[out] = static_cast<std::uint8_t>(stage_detail::past(in, NP));
            router.in_rr[in] = static_cast<std::uint8_t>(stage_detail::past(vc, V));
            lost.reset(in * V + vc);
            move(r, in * V + vc);
        }
        lost.for_each([&](std::uint32_t l) { net.sa.push(now + 1, r * L + l); });
    }

    // --- moves ---------------------------------------------------------------------------------
    /// Input VC `l` of router r sends its front flit across the switch at `now`:
    /// out of its ring (a credit back upstream) or its terminal's source queue, onto
    /// its link or out to its terminal; then the VC's next flit bids, or the next
    /// head behind a tail is routed (Route writes a route leaving a source queue).
    template <class Route>
    [[gnu::always_inline]] void move(std::uint32_t r, std::uint32_t l, std::uint64_t now, Route& route) {
        const std::uint32_t x = r * L + l;
        StageVc& v = net.vcs[x];
        const Flit f = v.front;
        const std::uint32_t out = v.out;
        CycleResult& res = obs->res;
        ++res.flit_moves;
        bool more;  // a flit at the front after this one
        Pk* pk = nullptr;
        if (l < NV) {  // out of its ring; its slot's credit goes back upstream
            --net.buffered;
            if (--v.count != 0) {
                v.front = net.flits[(std::size_t{r} * NV + l) * net.ring + v.head];
                v.head = static_cast<std::uint16_t>(v.head + 1u == net.ring ? 0 : v.head + 1);
            }
            more = v.count != 0;
            const StageWire& w = net.wires[r * P + l / V];
            auto& up = net.ovs[w.up_ov + l % V];
            ++up.credits;
            if (up.credit_wait) {  // its holder waits for it: bids next cycle
                up.credit_wait = 0;
                net.sa.push(now + 1, w.up_ov / NV * L + up.owner);
            }
        } else {  // out of its terminal's source queue
            pk = &net.packets[f.packet];
            if (f.index == 0) pk->injected = now;
            ++pk->sent;
            ++res.flits_injected;
            if (node_statistics && window->in_window(now)) ++res.nodes[pk->src].flits_injected;
            if (f.tail()) {
                auto& queue = source_queue(r, l);
                queue.pop();
                --net.queued;
                more = !queue.empty();
                v.count = more ? 1 : 0;
            } else {
                v.front = Flit{f.packet, static_cast<std::uint16_t>(f.index + 1), 0, f.index + 2u == pk->size};
                more = true;
            }
        }
        if (out < NV) {  // onto its link
            --net.ovs[std::size_t{r} * NV + out].credits;
            const std::uint32_t c = r * P + out / V;
            const StageWire& w = net.wires[c];
            if (window->in_window(now + time.exit)) ++net.sent[c];
            const Flit onward = f.onward();
            std::uint32_t step = 0;
            if (f.index == 0) {  // a head brings the step its route takes at the next router
                if (!pk) pk = &net.packets[f.packet];
                step = pk->route[onward.hop()].step;
            }
            net.arrivals.push(now + w.delay, StageArrival{w.down_vc + out % V, onward, step});
            ++net.in_flight;
        } else {
            eject(r * net.per_node + (out - NV), f, now + time.exit + time.ejection);
        }
        if (!f.tail()) {
            v.since = now + 1;
            if (more) net.sa.push(now + 1, x);
            return;
        }
        if (out < NV) {  // the tail frees its output VC: those that asked for it ask again
            auto& ov = net.ovs[std::size_t{r} * NV + out];
            ov.owner = Net::Ov::free;
            if (ov.waiters.any()) {
                ov.waiters.for_each([&](std::uint32_t w) { net.va.push(now + 1, r * L + w); });
                ov.waiters.clear();
            }
        }
        v.state = StageState::idle;
        if (more) next_head(r, l, now, route);
    }

    /// The head now at the front of input VC `l` of router r (behind a tail that
    /// left at `now`) is routed from now + head_turnaround, or, from a source queue,
    /// not before it has crossed the injection channel; then it asks for its output VC.
    template <class Route>
    [[gnu::noinline]] void next_head(std::uint32_t r, std::uint32_t l, std::uint64_t now, Route& route) {
        StageVc& v = net.vcs[std::size_t{r} * L + l];
        std::uint64_t from = now + time.head_turnaround;
        std::uint32_t step;
        if (l < NV) {
            step = net.packets[v.front.packet].route[v.front.hop()].step;
        } else {
            const std::uint32_t id = source_queue(r, l).front();
            Pk& pk = net.packets[id];
            write_route(pk, route);
            step = pk.route[0].step;
            from = std::max(from, pk.created + time.injection);
            v.front = Flit{id, 0, 0, pk.size == 1};
        }
        v.state = StageState::waiting;
        v.out = static_cast<std::uint16_t>(step);
        v.since = from;
        net.va.push(std::max(from + time.routing, now + 1), r * L + l);
    }

    /// Flit `f` reaches terminal `terminal` at `at`; its packet is delivered with its last flit.
    [[gnu::always_inline]] void eject(std::uint32_t terminal, const Flit& f, std::uint64_t at) {
        Pk& pk = net.packets[f.packet];
        CycleResult& res = obs->res;
        ++res.flits_ejected;
        if (window->in_window(at)) {
            ++res.flits_ejected_in_window;
            if (node_statistics) ++res.nodes[terminal].flits_accepted;
        }
        if (f.index != pk.ejected) ++res.out_of_order;
        if (++pk.ejected != pk.size) return;
        ++res.packets_delivered;
        res.delivered_latency_sum += at - pk.created;
        if (terminal != pk.dst) ++res.misdelivered;
        if (pk.measured) {
            ++res.measured_delivered;
            res.measured_hops += pk.route_len;
            obs->latency.add(at - pk.created);
            obs->network.add(at - pk.injected);
            if (node_statistics) {
                NodeCounters &from = res.nodes[pk.src], &to = res.nodes[terminal];
                ++from.packets_sent;
                from.latency_sent += at - pk.created;
                ++to.packets_received;
                to.latency_received += at - pk.created;
            }
        }
        net.free_packet(f.packet);
    }

    // --- sources --------------------------------------------------------------------------------
    /// A packet of `size` flits from terminal src to dst, created at `now` (its
    /// route choice drawn now): into the next of src's source queues; at the head of
    /// an empty one it is routed at once and its injection VC asks for its output VC.
    template <class Route>
    [[gnu::always_inline]] void create(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now,
                                       Random& rng, Route& route) {
        std::uint32_t& next = net.deal[src];
        const std::uint32_t q = next;
        next = next + 1 == net.queues ? 0 : next + 1;
        const std::uint32_t id = net.take_packet();
        const bool in_window = window->in_window(now);
        const std::uint64_t choice = rng.next();
        Pk& pk = net.packets[id];
        pk.created = now;
        pk.src = src;
        pk.dst = dst;
        pk.size = static_cast<std::uint16_t>(size);
        pk.sent = pk.ejected = 0;
        pk.measured = in_window;
        CycleResult& res = obs->res;
        if (in_window) {
            if (node_statistics) res.nodes[src].flits_offered += size;
            ++res.measured_packets;
            res.flits_created_in_window += size;
        }
        auto& queue = net.source[std::size_t{src} * net.queues + q];
        queue.push(id);
        ++net.queued;
        if (queue.size() != 1) {
            pk.keep_choice(choice);  // routed when it reaches the head of its queue
            return;
        }
        write_route(pk, route, choice);
        const std::uint32_t r = src / net.per_node, l = (P + src % net.per_node) * V + q;
        StageVc& v = net.vcs[std::size_t{r} * L + l];
        v.front = Flit{id, 0, 0, size == 1};
        v.count = 1;
        v.state = StageState::waiting;
        v.out = pk.route[0].step;
        v.since = now + time.injection;
        net.va.push(now + time.injection + time.routing, r * L + l);
    }

    /// The source queue behind injection VC `l` of router r.
    [[gnu::always_inline]] RingQueue<std::uint32_t>& source_queue(std::uint32_t r, std::uint32_t l) {
        const std::uint32_t terminal = r * net.per_node + (l / V - P);
        return net.source[std::size_t{terminal} * net.queues + l % V];
    }

    template <class Route>
    [[gnu::always_inline]] void write_route(Pk& pk, Route& route, std::uint64_t choice) {
        const std::size_t len = route(pk.src / net.per_node, pk.dst / net.per_node, choice, pk.route);
        pk.route_len = static_cast<std::uint8_t>(len);
        pk.route[len].step = static_cast<typename S::Step>(NV + pk.dst % net.per_node);  // out to its terminal
    }
    template <class Route>
    void write_route(Pk& pk, Route& route) {
        write_route(pk, route, pk.choice());
    }

    [[noreturn]] [[gnu::noinline]] void overflow(std::uint32_t x) const {
        throw std::logic_error(detail::message("buffer overflow at node ", x / L, " port ", x % L / V, " vc ",
                                               x % V, ": the flow-control protocol let too many flits through"));
    }
};

}  // namespace fabric::cycle
