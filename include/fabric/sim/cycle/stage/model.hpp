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
#include <fabric/sim/cycle/stage/ends.hpp>

namespace fabric::cycle {

/// The phases of a cycle over a network of shape S (ends.hpp: the state they
/// share, the sources and the sinks).
template <class S, class A, class Route>
struct StageModel : StageEnds<S, A, Route> {
    using Base = StageEnds<S, A, Route>;
    using typename Base::Switch;
    using typename Base::View;
    using typename Base::Pk;
    using typename Base::Ov;
    using typename Base::Slot;
    using typename Base::ArrivalSlot;
    using Base::P, Base::V, Base::NP, Base::L, Base::NV, Base::LP, Base::NVP, Base::adaptive;
    using Base::net, Base::route, Base::time, Base::obs, Base::window, Base::node_statistics, Base::exit_eject;
    using Base::route_head, Base::eject, Base::queue_of, Base::pop_source, Base::write_route;

    // --- arrivals -------------------------------------------------------------------------
    /// The flits due at `now` enter their input VCs.
    [[gnu::noinline]] void arrive(const View& pv, std::uint64_t now) const {
        const View v = pv;  // by value: its pointers stay in registers
        const StageArrival* a = v.arrivals.begin(now);
        const std::uint32_t n = v.arrivals.size(now);
        v.arrivals.clear(now);
        auto asks = v.va.slot(now + time.routing), bids = v.sa.slot(now);  // three lists: vc_allocation >= 1
        auto ejects = v.sa.slot(now + time.routing + time.vc_allocation);
        const std::uint32_t depth = v.depth, ring = v.ring;
        [[maybe_unused]] const Pk* const packets = v.live->packets;  // adaptive: no packet is made in this phase
        for (const StageArrival* end = a + n; a != end; ++a) {
            StageVc& vc = v.vcs[a->vc];
            if (vc.count == 0) {
                vc.front = a->flit;
                vc.count = 1;
                vc.since = now;
                if (vc.state == StageState::idle) {  // a head: routed, then it asks for its output VC
                    route_head(vc, a->step);
                    if constexpr (adaptive)
                        v.backlog[std::size_t{a->vc / LP} * NP + vc.port] += packets[a->flit.packet].size;
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
        asks.done();
        bids.done();
        ejects.done();
    }

    // --- VC allocation ----------------------------------------------------------------------
    /// One pass over the asks: a free output VC goes at once to its asker, listed
    /// for the switch, with its pointer moved past it (the winner's record keeps the
    /// pointer before and where it is listed); a later asker of the same cycle nearer
    /// that pointer displaces it, taking its place in the list, the displaced waiting
    /// on the VC. So the winners, their pointers and their order in the list are those
    /// of granting once every ask is seen. A holder was granted in this pass exactly
    /// when it is listed where its record says: a VC asks for one output VC at a time,
    /// and one that holds a VC from an earlier cycle does not ask.
    [[gnu::noinline]] void allocate_vcs(const View& pv, std::uint64_t now) const {
        const View v = pv;
        const std::uint32_t* x = v.va.begin(now);
        const std::uint32_t n = v.va.size(now);
        v.va.clear(now);
        auto bids = v.sa.slot(now + time.vc_allocation);
        std::uint32_t* const listed = bids.end;  // this pass's winners, one a grant
        std::uint32_t granted = 0;               // how many (bids.end - listed, counted)
        for (const std::uint32_t* end = x + n; x != end; ++x) {
            StageVc& vc = v.vcs[*x];
            const std::uint32_t r = *x / LP, local = *x - r * LP;
            Ov& ov = v.ovs[r * NVP + vc.out];
            if (ov.owner == Ov::free) {
                ov.owner = static_cast<std::uint16_t>(local);
                vc.pointer_before = ov.pointer;
                vc.listed = static_cast<std::uint16_t>(std::min(granted++, std::uint32_t{0xffff}));
                ov.pointer = static_cast<std::uint8_t>(local + 1);  // at L: orders askers as at 0 (ahead())
                vc.state = StageState::active;
                bids.push(*x);
                continue;
            }
            ask_held(v.vcs, vc, ov, *x, r, local, listed, granted);
        }
        bids.done();
    }

    /// Input VC x (local index `local` of router r, record `vc`) asks for output VC `ov`,
    /// held: where its holder was granted it in this pass (among the `granted` winners
    /// from `listed`) and x is nearer the pointer, x takes it and its place in the list,
    /// the holder waiting on it; else x waits on it. Out of line: the asks that find
    /// their VC free keep their values in registers without this path's.
    [[gnu::noinline]] static void ask_held(StageVc* vcs, StageVc& vc, Ov& ov, std::uint32_t x, std::uint32_t r,
                                           std::uint32_t local, std::uint32_t* listed, std::uint32_t granted) {
        const std::uint32_t held = ov.owner, hx = r * LP + held;
        StageVc& hv = vcs[hx];
        std::uint32_t k = hv.listed;
        bool now_granted = k < granted && listed[k] == hx;
        if (k == 0xffff && !now_granted) [[unlikely]]  // past 0xffff grants: after where it says
            for (std::uint32_t j = k + 1; j < granted && !now_granted; ++j)
                if (listed[j] == hx) now_granted = true, k = j;
        if (now_granted) [[unlikely]] {  // given this cycle: the asker nearer its pointer takes it
            const std::uint32_t pointer = hv.pointer_before;
            if (stage_detail::ahead(local, pointer, L) < stage_detail::ahead(held, pointer, L)) {
                ov.waiters.set(held);
                hv.state = StageState::waiting;
                ov.owner = static_cast<std::uint16_t>(local);
                ov.pointer = static_cast<std::uint8_t>(local + 1);
                vc.pointer_before = static_cast<std::uint8_t>(pointer);
                vc.listed = hv.listed;
                vc.state = StageState::active;
                listed[k] = x;
                return;
            }
        }
        ov.waiters.set(local);  // held: it asks again once the VC is freed
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

    /// Pass 2: per router with bids, its allocator's grants (switch.hpp: a lone bid
    /// wins at once); each winner moves; the losers bid again next cycle. Compiled
    /// apart for links all alike (one list of arrivals, `v.delay`) and unlike ones, each
    /// with credits of one cycle and of more (one list of credits), so that a move asks
    /// neither.
    void grant_bids(const View& pv, std::uint64_t now) {
        if (pv.credit_delay > 1) [[unlikely]] {
            if (pv.delay) grant_all<true, true>(pv, now);
            else grant_all<false, true>(pv, now);
        } else if (pv.delay) grant_all<true>(pv, now);
        else grant_all<false>(pv, now);
    }
    template <bool Alike, bool Delayed = false>
    [[gnu::noinline]] void grant_all(const View& pv, std::uint64_t now) {
        const View v = pv;
        // Nothing else of this phase pushes to these two lists: a next head asks at
        // now + 1 at the earliest and bids vc_allocation >= 1 later; with links of
        // unlike delays (v.delay 0) the arrivals go to the lists of their own cycles.
        auto again = v.sa.slot(now + 1);
        auto wire = v.arrivals.slot(now + v.delay);
        // Credits of more than one cycle: nothing else pushes to the list of the cycle they reach their senders.
        Slot credited = Delayed ? v.credits.slot(now + v.credit_delay) : Slot{};
        const std::uint32_t bidding = v.live->n_bidding;
        for (std::uint32_t i = 0; i < bidding; ++i) {
            const std::uint32_t r = v.bidding[i];
            auto& router = v.rt[r];
            if constexpr (BitSet<L>::words == 1) {
                const std::uint64_t bids = router.bids.w[0];
                if ((bids & (bids - 1)) == 0) {
                    router.bids.w[0] = 0;
                    const auto l = static_cast<std::uint32_t>(std::countr_zero(bids));
                    if (l >= L) __builtin_unreachable();  // a bidding router has a bid (else GCC sees l = 64)
                    Switch::lone(router.sw, S::port_of(l), S::vc_of(l), v.vcs[r * LP + l].port);
                    move<Alike, Delayed>(v, pv, r, l, now, again, wire, credited);
                    continue;
                }
            }
            contended<Alike, Delayed>(v, pv, r, now, again, wire, credited);
        }
        again.done();
        if constexpr (Alike) wire.done();
        if constexpr (Delayed) credited.done();
    }

    /// A router with more than one bid (or, of more than 64 input VCs, any). Where it
    /// has more than 8 switch ports, bids that share no input port and no output port
    /// all win, each moving its allocator's pointers as a lone bid would (every
    /// allocator here grants such a set whole); others go through the allocator. The
    /// winners move by increasing output port (where an adaptive route read at a move
    /// could see another's effects; else in any order), the losers bid again next cycle.
    template <bool Alike, bool Delayed = false>
    [[gnu::always_inline]] void contended(const View& v, const View& pv, std::uint32_t r, std::uint64_t now, Slot& again,
                                          ArrivalSlot& wire, Slot& credited) {
        auto& router = v.rt[r];
        BitSet<L> bids = router.bids;
        router.bids.clear();
        const StageVc* const vcs = v.vcs + std::size_t{r} * LP;
        // With few ports the separable allocator costs less than this pass (on the tori;
        // measured); iSLIP's does not.
        if constexpr ((NP > 8 || stage_detail::islip_of<A> > 0) && NP <= 64) {
            std::uint64_t ins = 0, outs = 0, clash = 0;
            std::uint8_t by_out[NP];  // read only where `outs` has its bit
            bids.for_each([&](std::uint32_t l) {
                const std::uint64_t in = std::uint64_t{1} << S::port_of(l), out = std::uint64_t{1} << vcs[l].port;
                clash |= (ins & in) | (outs & out);
                ins |= in;
                outs |= out;
                by_out[vcs[l].port] = static_cast<std::uint8_t>(l);
            });
            if (!clash) {
                if constexpr (adaptive) {
                    for (; outs; outs &= outs - 1) {
                        const std::uint32_t l = by_out[std::countr_zero(outs)];
                        Switch::lone(router.sw, S::port_of(l), S::vc_of(l), vcs[l].port);
                        move<Alike, Delayed>(v, pv, r, l, now, again, wire, credited);
                    }
                } else {
                    bids.for_each([&](std::uint32_t l) {
                        Switch::lone(router.sw, S::port_of(l), S::vc_of(l), vcs[l].port);
                        move<Alike, Delayed>(v, pv, r, l, now, again, wire, credited);
                    });
                }
                return;
            }
        }
        Switch::allocate(router.sw, bids, vcs, [&](std::uint32_t l) __attribute__((always_inline)) {
            bids.reset(l);
            move<Alike, Delayed>(v, pv, r, l, now, again, wire, credited);
        });
        bids.for_each([&](std::uint32_t l) { again.push(r * LP + l); });
    }

    // --- moves ---------------------------------------------------------------------------------
    /// Input VC `l` of router r sends its front flit across the switch at `now`:
    /// out of its ring (a credit back upstream) or its terminal's source queue, onto
    /// its link or out to its terminal; then the VC's next flit bids, or the next
    /// head behind a tail is routed.
    /// `again`: the list of VCs bidding next cycle; `wire`: the arrivals due from this
    /// cycle's moves when every link takes as long; `credited`: with credits of more than
    /// one cycle, the credits due from this cycle's moves; `pv`: the run's view, for the
    /// rare steps out of line.
    template <bool Alike, bool Delayed = false>
    [[gnu::always_inline]] void move(const View& v, const View& pv, std::uint32_t r, std::uint32_t l, std::uint64_t now,
                                     Slot& again, ArrivalSlot& wire, Slot& credited) {
        const std::uint32_t x = r * LP + l;
        StageVc& vc = v.vcs[x];
        const Flit f = vc.front;
        const std::uint32_t out = vc.out;
        CycleResult& res = obs->res;
        if constexpr (adaptive) --v.backlog[std::size_t{r} * NP + vc.port];
        bool more;  // a flit at the front after this one
        Pk* pk = nullptr;
        if (l < NV) {  // out of its ring; its slot's credit goes back upstream
            if (--vc.count != 0) {
                vc.front = v.flits[(std::size_t{r} * NV + l) * v.ring + vc.head];
                vc.head = static_cast<std::uint16_t>(vc.head + 1u == v.ring ? 0 : vc.head + 1);
            }
            more = vc.count != 0;
            if constexpr (Delayed) {
                credited.push(vc.up);  // counted when it arrives (StageNetwork::return_credits)
            } else {
                Ov& up = v.ovs[vc.up];
                ++up.credits;
                if constexpr (adaptive) v.seen_from[vc.up] = now + 1;  // the wake kernel delivers it next cycle
                if (up.credit_wait) {  // its holder waits for it: it bids next cycle
                    up.credit_wait = 0;
                    again.push(vc.up / NVP * LP + up.owner);
                }
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
            if constexpr (Alike) wire.push(StageArrival{ov.down, onward, step});  // every link alike: one list
            else v.arrivals.push(now + ov.delay, StageArrival{ov.down, onward, step});
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
        if (more) next_head(pv, x, now);  // one value kept for it through the move, not two
    }

    /// The input VCs that waited for output VC `ov` of router r ask again next cycle.
    [[gnu::noinline]] void release(const View& v, Ov& ov, std::uint32_t r, std::uint64_t now) const {
        ov.waiters.for_each([&](std::uint32_t w) { v.va.push(now + 1, r * LP + w); });
        ov.waiters.clear();
    }

    /// The head now at the front of input VC x (local VC l of router r, behind a tail
    /// that left at `now`) is routed from now + head_turnaround, or, from a source queue,
    /// not before it has crossed the injection channel; then it asks for its output VC.
    [[gnu::noinline]] void next_head(const View& v, std::uint32_t x, std::uint64_t now) {
        const std::uint32_t r = x / LP, l = x - r * LP;
        StageVc& vc = v.vcs[x];
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

    [[noreturn]] [[gnu::noinline]] static void overflow(std::uint32_t x) {
        throw std::logic_error(detail::message("buffer overflow at node ", x / LP, " port ", x % LP / V, " vc ", x % V,
                                               ": the flow-control protocol let too many flits through"));
    }
};

}  // namespace fabric::cycle
