// The stage-list cycle kernel's model: the same decisions as the wake kernel
// (routers.hpp and its parts), on lists of what is due in each cycle instead of
// router steps that pass over every live VC. Per cycle:
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
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/stage/network.hpp>

namespace fabric::cycle {

namespace stage_detail {
constexpr std::uint32_t past(std::uint32_t x, std::uint32_t n) { return x + 1 == n ? 0 : x + 1; }
/// How far x lies at or after pointer p on a ring of n.
constexpr std::uint32_t ahead(std::uint32_t x, std::uint32_t p, std::uint32_t n) { return x >= p ? x - p : x + n - p; }
}  // namespace stage_detail

/// The delays of a router's pipeline and of the terminals' channels, in cycles.
struct StageTiming {
    std::uint64_t routing = 1, vc_allocation = 1, exit = 2, head_turnaround = 0, injection = 0, ejection = 0;
};

/// The phases of a cycle over a network of shape S (`View`: its arrays by pointer);
/// `Route` writes a packet's route (route(src router, dst router, choice, steps)
/// returns its hops).
template <class S, class Route>
struct StageModel {
    using Net = StageNetwork<S>;
    using View = typename Net::View;
    using Pk = typename Net::Pk;
    using Ov = typename Net::Ov;
    using Slot = typename CycleLists<std::uint32_t>::Slot;
    using ArrivalSlot = typename CycleLists<StageArrival>::Slot;
    static constexpr std::uint32_t P = S::P, V = S::V, NP = S::NP, L = S::L, NV = S::NV, LP = S::LP, NVP = S::NVP;
    static constexpr std::uint16_t granted_bit = 0x8000;

    Net* net;
    Route route;
    StageTiming time;
    Observer* obs;
    const MethodSettings* window;
    bool node_statistics;
    std::uint64_t exit_eject;  // a grant to the ejection of its flit at the terminal: time.exit + time.ejection

    /// Whether routes read the routers' queues (at the source: what occupancy.hpp's view gives the wake kernel).
    static constexpr bool adaptive = Route::adaptive;

    /// What an adaptive policy reads of router n's output port p, as the wake kernel's
    /// PortOccupancy has it: the backlog routed there, and the flits its senders have
    /// out (the buffer less their credits, a credit counted only from the cycle the wake
    /// kernel delivers it: `seen` is the last cycle whose credits it has delivered).
    struct Occupancy {
        const View* v;
        std::uint64_t seen;
        std::int32_t buffer;
        [[nodiscard]] std::uint32_t occupancy(NodeId n, PortId p) const {
            std::uint32_t flits = v->backlog[std::size_t{n.value} * NP + p.value];
            if (p.value < P)
                for (std::uint32_t vc = 0; vc < V; ++vc) {
                    const std::size_t o = std::size_t{n.value} * NVP + p.value * V + vc;
                    const std::int32_t credits = v->ovs[o].credits - (v->seen_from[o] > seen ? 1 : 0);
                    flits += static_cast<std::uint32_t>(buffer - credits);
                }
            return flits;
        }
    };

    [[gnu::always_inline]] static std::uint32_t out_port(std::uint32_t step) {
        return step < NV ? step / V : P + (step - NV);
    }

    /// A head at the front of `vc` takes route step `step`: it asks for that output VC,
    /// or, bound for its terminal, holds the ejection port at once (it has no VC to
    /// ask for: the wake kernel grants it at its VC allocation, with no other effect).
    [[gnu::always_inline]] static void route_head(StageVc& vc, std::uint32_t step) {
        vc.out = static_cast<std::uint16_t>(step);
        vc.port = static_cast<std::uint16_t>(out_port(step));
        vc.state = step < NV ? StageState::waiting : StageState::active;
    }

    // --- arrivals -------------------------------------------------------------------------
    /// The flits due at `now` enter their input VCs.
    [[gnu::noinline]] void arrive(const View& pv, std::uint64_t now) const {
        const View v = pv;  // by value: its pointers stay in registers
        const StageArrival* a = v.arrivals.begin(now);
        const std::uint32_t n = v.arrivals.size(now);
        v.arrivals.clear(now);
        v.live->in_flight -= n;
        v.live->buffered += n;
        const auto asks = v.va.slot(now + time.routing), bids = v.sa.slot(now);
        const auto ejects = v.sa.slot(now + time.routing + time.vc_allocation);
        const std::uint32_t depth = v.depth, ring = v.ring;
        for (const StageArrival* end = a + n; a != end; ++a) {
            StageVc& vc = v.vcs[a->vc];
            if (vc.count == 0) {
                vc.front = a->flit;
                vc.count = 1;
                vc.since = now;
                if (vc.state == StageState::idle) {  // a head: routed, then it asks for its output VC
                    route_head(vc, a->step);
                    if constexpr (adaptive)
                        v.backlog[std::size_t{a->vc / LP} * NP + vc.port] += v.live->packets[a->flit.packet].size;
                    if (a->step < NV) asks.push(a->vc);
                    else ejects.push(a->vc);  // bound for its terminal: no VC to ask for
                } else {  // its packet holds the output VC: it bids now
                    bids.push(a->vc);
                }
                continue;
            }
            if (vc.count == depth) [[unlikely]]
                overflow(a->vc);
            std::uint32_t slot = vc.head + vc.count - 1u;
            if (slot >= ring) slot -= ring;
            v.flits[(std::size_t{a->vc / LP} * NV + a->vc % LP) * ring + slot] = a->flit;
            ++vc.count;
        }
    }

    // --- VC allocation ----------------------------------------------------------------------
    [[gnu::noinline]] void allocate_vcs(const View& pv, std::uint64_t now) const {
        const View v = pv;
        const std::uint32_t* x = v.va.begin(now);
        const std::uint32_t n = v.va.size(now);
        v.va.clear(now);
        const auto bids = v.sa.slot(now + time.vc_allocation);
        std::uint32_t granted = 0;
        for (const std::uint32_t* end = x + n; x != end; ++x) {
            StageVc& vc = v.vcs[*x];
            const std::uint32_t r = *x / LP, local = *x - r * LP, o = r * NVP + vc.out;
            Ov& ov = v.ovs[o];
            if (ov.owner == Ov::free) {
                ov.owner = static_cast<std::uint16_t>(local | granted_bit);
                v.granted[granted++] = o;
            } else if (ov.owner & granted_bit) {  // given this cycle: the asker nearer its pointer takes it
                const std::uint32_t held = ov.owner & ~granted_bit;
                if (stage_detail::ahead(local, ov.pointer, L) < stage_detail::ahead(held, ov.pointer, L)) {
                    ov.waiters.set(held);
                    ov.owner = static_cast<std::uint16_t>(local | granted_bit);
                } else {
                    ov.waiters.set(local);
                }
            } else {
                ov.waiters.set(local);  // held: it asks again once the VC is freed
            }
        }
        for (std::uint32_t i = 0; i < granted; ++i) {
            const std::uint32_t o = v.granted[i];
            Ov& ov = v.ovs[o];
            const std::uint32_t local = ov.owner & ~granted_bit;
            ov.owner = static_cast<std::uint16_t>(local);
            ov.pointer = static_cast<std::uint8_t>(stage_detail::past(local, L));
            const std::uint32_t winner = o / NVP * LP + local;
            v.vcs[winner].state = StageState::active;
            bids.push(winner);
        }
    }

    // --- the switch ---------------------------------------------------------------------------
    /// Pass 1 over the VCs listed for the switch now: each with a credit (or bound
    /// for a terminal) bids in its router; one without waits for the credit.
    [[gnu::noinline]] void collect_bids(const View& pv, std::uint64_t now) const {
        const View v = pv;
        const std::uint32_t* x = v.sa.begin(now);
        const std::uint32_t n = v.sa.size(now);
        v.sa.clear(now);
        std::uint32_t bidding = 0;
        for (const std::uint32_t* end = x + n; x != end; ++x) {
            const std::uint32_t out = v.vcs[*x].out, r = *x / LP;
            if (out < NV) {
                Ov& ov = v.ovs[r * NVP + out];
                if (ov.credits <= 0) {
                    ov.credit_wait = 1;  // bids again the cycle after a credit comes back
                    continue;
                }
            }
            auto& router = v.rt[r];
            if (!router.bids.any()) v.bidding[bidding++] = r;
            router.bids.set(*x - r * LP);
        }
        v.live->n_bidding = bidding;
    }

    /// Pass 2: per router with bids, the separable allocator's grants (a lone bid
    /// wins at once, moving both pointers past it, as the allocator would); each
    /// winner moves; the losers bid again next cycle.
    [[gnu::noinline]] void grant_bids(const View& pv, std::uint64_t now) {
        const View v = pv;
        const auto again = v.sa.slot(now + 1);
        const auto wire = v.arrivals.slot(now + v.delay);
        const std::uint32_t bidding = v.live->n_bidding;
        for (std::uint32_t i = 0; i < bidding; ++i) {
            const std::uint32_t r = v.bidding[i];
            auto& router = v.rt[r];
            if constexpr (BitSet<L>::words == 1) {
                const std::uint64_t bids = router.bids.w[0];
                if ((bids & (bids - 1)) == 0) {
                    router.bids.w[0] = 0;
                    const auto l = static_cast<std::uint32_t>(std::countr_zero(bids));
                    const std::uint32_t in = l / V;
                    router.out_rr[v.vcs[r * LP + l].port] = static_cast<std::uint8_t>(stage_detail::past(in, NP));
                    router.in_rr[in] = static_cast<std::uint8_t>(stage_detail::past(l % V, V));
                    move(v, pv, r, l, now, again, wire);
                    continue;
                }
            }
            separable(v, pv, r, now, again, wire);
        }
    }

    /// The separable input-first allocator over a router's bids: per input port the
    /// VC nearest at or after its pointer, per output port the input nearest at or
    /// after its pointer; grants by increasing output port (switch_allocators.hpp).
    [[gnu::always_inline]] void separable(const View& v, const View& pv, std::uint32_t r, std::uint64_t now, Slot again,
                                          ArrivalSlot wire) {
        static_assert(NP <= 64, "fabric: the stage-list kernel's separable allocator takes at most 64 ports");
        auto& router = v.rt[r];
        const BitSet<L> bids = router.bids;
        router.bids.clear();
        std::uint32_t vc_of[NP], out_of[NP], winner[NP];
        std::uint64_t ins = 0, outs = 0;
        const StageVc* const vcs = v.vcs + std::size_t{r} * LP;
        bids.for_each([&](std::uint32_t l) {
            const std::uint32_t in = l / V, vc = l % V;
            const std::uint64_t bit = std::uint64_t{1} << in;
            if ((ins & bit) &&
                stage_detail::ahead(vc, router.in_rr[in], V) >= stage_detail::ahead(vc_of[in], router.in_rr[in], V))
                return;
            ins |= bit;
            vc_of[in] = vc;
            out_of[in] = vcs[l].port;
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
            move(v, pv, r, in * V + vc, now, again, wire);
        }
        lost.for_each([&](std::uint32_t l) { again.push(r * LP + l); });
    }

    // --- moves ---------------------------------------------------------------------------------
    /// Input VC `l` of router r sends its front flit across the switch at `now`:
    /// out of its ring (a credit back upstream) or its terminal's source queue, onto
    /// its link or out to its terminal; then the VC's next flit bids, or the next
    /// head behind a tail is routed.
    /// `again`: the list of VCs bidding next cycle; `wire`: the arrivals due from this
    /// cycle's moves when every link takes as long; `pv`: the run's view, for the rare steps out of line.
    [[gnu::always_inline]] void move(const View& v, const View& pv, std::uint32_t r, std::uint32_t l, std::uint64_t now,
                                     Slot again, ArrivalSlot wire) {
        const std::uint32_t x = r * LP + l;
        StageVc& vc = v.vcs[x];
        const Flit f = vc.front;
        const std::uint32_t out = vc.out;
        CycleResult& res = obs->res;
        ++res.flit_moves;
        if constexpr (adaptive) --v.backlog[std::size_t{r} * NP + vc.port];
        bool more;  // a flit at the front after this one
        Pk* pk = nullptr;
        if (l < NV) {  // out of its ring; its slot's credit goes back upstream
            --v.live->buffered;
            if (--vc.count != 0) {
                vc.front = v.flits[(std::size_t{r} * NV + l) * v.ring + vc.head];
                vc.head = static_cast<std::uint16_t>(vc.head + 1u == v.ring ? 0 : vc.head + 1);
            }
            more = vc.count != 0;
            Ov& up = v.ovs[vc.up];
            ++up.credits;
            if constexpr (adaptive) v.seen_from[vc.up] = now + 1;  // the wake kernel delivers it next cycle
            if (up.credit_wait) {  // its holder waits for it: it bids next cycle
                up.credit_wait = 0;
                again.push(vc.up / NVP * LP + up.owner);
            }
        } else {  // out of its terminal's source queue
            pk = &v.live->packets[f.packet];
            if (f.index == 0) pk->injected = now;
            ++pk->sent;
            ++res.flits_injected;
            if (node_statistics && window->in_window(now)) ++res.nodes[pk->src].flits_injected;
            if (f.tail()) {
                more = pop_source(v, r, l, *pk);
                vc.count = more ? 1 : 0;
            } else {
                vc.front = Flit{f.packet, static_cast<std::uint16_t>(f.index + 1), 0, f.index + 2u == pk->size};
                more = true;
            }
        }
        if (out < NV) {  // onto its link
            Ov& ov = v.ovs[std::size_t{r} * NVP + out];
            --ov.credits;
            ++ov.sent;  // counted in the window by the run (kernel.hpp)
            const Flit onward = f.onward();
            std::uint32_t step = 0;
            if (f.index == 0) {  // a head brings the step its route takes at the next router
                if (!pk) pk = &v.live->packets[f.packet];
                step = pk->route[onward.hop()].step;
            }
            if (v.delay) wire.push(StageArrival{ov.down, onward, step});  // every link alike: one list
            else v.arrivals.push(now + ov.delay, StageArrival{ov.down, onward, step});
            ++v.live->in_flight;
            if (f.tail()) {  // the tail frees its output VC: those that asked for it ask again
                ov.owner = Ov::free;
                if (ov.waiters.any()) [[unlikely]]
                    release(pv, ov, r, now);
            }
        } else {
            eject(v, r * v.per_node + (out - NV), f, now + exit_eject);
        }
        if (!f.tail()) {
            vc.since = now + 1;
            if (more) again.push(x);
            return;
        }
        vc.state = StageState::idle;
        if (more) next_head(pv, r, l, now);
    }

    /// The input VCs that waited for output VC `ov` of router r ask again next cycle.
    [[gnu::noinline]] void release(const View& v, Ov& ov, std::uint32_t r, std::uint64_t now) const {
        ov.waiters.for_each([&](std::uint32_t w) { v.va.push(now + 1, r * LP + w); });
        ov.waiters.clear();
    }

    /// The head now at the front of input VC `l` of router r (behind a tail that
    /// left at `now`) is routed from now + head_turnaround, or, from a source queue,
    /// not before it has crossed the injection channel; then it asks for its output VC.
    [[gnu::noinline]] void next_head(const View& v, std::uint32_t r, std::uint32_t l, std::uint64_t now) {
        StageVc& vc = v.vcs[std::size_t{r} * LP + l];
        std::uint64_t from = now + time.head_turnaround;
        std::uint32_t step;
        if (l < NV) {
            step = v.live->packets[vc.front.packet].route[vc.front.hop()].step;
        } else {
            const std::uint32_t id = queue_of(v, r, l).head;
            Pk& pk = v.live->packets[id];
            write_route(v, pk, pk.choice(), now);
            step = pk.route[0].step;
            from = std::max(from, pk.created + time.injection);
            vc.front = Flit{id, 0, 0, pk.size == 1};
        }
        vc.since = from;
        route_head(vc, step);
        if constexpr (adaptive) v.backlog[std::size_t{r} * NP + vc.port] += v.live->packets[vc.front.packet].size;
        const std::uint64_t asks = std::max(from + time.routing, now + 1);
        if (step < NV) v.va.push(asks, r * LP + l);
        else v.sa.push(asks + time.vc_allocation, r * LP + l);  // bound for its terminal: no VC to ask for
    }

    // --- sinks ----------------------------------------------------------------------------------
    /// Flit `f` reaches terminal `terminal` at `at`; its packet is delivered with its last flit.
    [[gnu::always_inline]] void eject(const View& v, std::uint32_t terminal, const Flit& f, std::uint64_t at) const {
        Pk& pk = v.live->packets[f.packet];
        CycleResult& res = obs->res;
        ++res.flits_ejected;  // in the window: counted by the run (kernel.hpp)
        if (node_statistics && window->in_window(at)) ++res.nodes[terminal].flits_accepted;
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
        v.live->free[v.live->n_free++] = f.packet;
    }

    // --- sources --------------------------------------------------------------------------------
    /// A packet of `size` flits from terminal src to dst, created at `now` (its
    /// route choice drawn now): into the next of src's source queues; at the head of
    /// an empty one it is routed at once and its injection VC asks for its output VC.
    [[gnu::always_inline]] void create(const View& v, std::uint32_t src, std::uint32_t dst, std::uint32_t size,
                                       std::uint64_t now, Random& rng) {
        std::uint32_t& next = v.deal[src];
        const std::uint32_t q = next;
        next = next + 1 == v.queues_per ? 0 : next + 1;
        typename Net::Live& live = *v.live;
        if (live.n_free == 0) [[unlikely]]
            net->grow_packets();
        const std::uint32_t id = live.free[--live.n_free];
        const bool in_window = window->in_window(now);
        const std::uint64_t choice = rng.next();
        Pk& pk = live.packets[id];
        pk.created = now;
        pk.src = src;
        pk.dst = dst;
        pk.size = static_cast<std::uint16_t>(size);
        pk.sent = pk.ejected = 0;
        pk.measured = in_window;
        pk.next = none;
        CycleResult& res = obs->res;
        if (in_window) {
            if (node_statistics) res.nodes[src].flits_offered += size;
            ++res.measured_packets;
            res.flits_created_in_window += size;
        }
        StageQueue& queue = v.queues[std::size_t{src} * v.queues_per + q];
        ++live.queued;
        ++v.held[src];
        if (queue.count++ != 0) {  // behind others: routed when it reaches the head
            live.packets[queue.tail].next = id;
            queue.tail = id;
            pk.keep_choice(choice);
            return;
        }
        queue.head = queue.tail = id;
        write_route(v, pk, choice, now - 1);  // before the wake kernel delivers this cycle's credits
        const std::uint32_t r = src / v.per_node, l = (P + src % v.per_node) * V + q;
        StageVc& vc = v.vcs[std::size_t{r} * LP + l];
        vc.front = Flit{id, 0, 0, size == 1};
        vc.count = 1;
        vc.since = now + time.injection;
        route_head(vc, pk.route[0].step);
        if constexpr (adaptive) v.backlog[std::size_t{r} * NP + vc.port] += size;
        if (vc.out < NV) v.va.push(now + time.injection + time.routing, r * LP + l);
        else v.sa.push(now + time.injection + time.routing + time.vc_allocation, r * LP + l);
    }

    /// The source queue behind injection VC `l` of router r.
    [[gnu::always_inline]] static StageQueue& queue_of(const View& v, std::uint32_t r, std::uint32_t l) {
        const std::uint32_t terminal = r * v.per_node + (l / V - P);
        return v.queues[std::size_t{terminal} * v.queues_per + l % V];
    }
    /// The tail of `pk`, the head of its source queue, left: whether another packet is at the head now.
    [[gnu::always_inline]] static bool pop_source(const View& v, std::uint32_t r, std::uint32_t l, const Pk& pk) {
        StageQueue& queue = queue_of(v, r, l);
        --v.live->queued;
        --v.held[pk.src];
        queue.head = pk.next;
        return --queue.count != 0;
    }

    /// `seen`: the last cycle whose credits the wake kernel has delivered where the route is written.
    [[gnu::always_inline]] void write_route(const View& v, Pk& pk, std::uint64_t choice, std::uint64_t seen) {
        const std::size_t len = route(pk.src / v.per_node, pk.dst / v.per_node, choice, pk.route,
                                      Occupancy{&v, seen, static_cast<std::int32_t>(v.depth)});
        pk.route_len = static_cast<std::uint8_t>(len);
        pk.route[len].step = static_cast<typename S::Step>(NV + pk.dst % v.per_node);  // out to its terminal
    }

    [[noreturn]] [[gnu::noinline]] static void overflow(std::uint32_t x) {
        throw std::logic_error(detail::message("buffer overflow at node ", x / LP, " port ", x % LP / V, " vc ", x % V,
                                               ": the flow-control protocol let too many flits through"));
    }
};

}  // namespace fabric::cycle
