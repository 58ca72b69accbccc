// The ends of the stage-list kernel's network (model.hpp): its sources, where
// packets are made, queued at their terminals and routed, and its sinks, where
// they are delivered; with the records and settings the model's phases share
// (the model derives from it). What each does is what the wake kernel's
// sources.hpp and sinks.hpp do in the runs this kernel serves, in the same order.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/stage/network.hpp>

namespace fabric::cycle {

namespace stage_detail {
/// How far x (below n) lies at or after pointer p on a ring of n; a pointer at n
/// (past the last) orders them as one at 0 does, so a pointer moves past x as x + 1.
constexpr std::uint32_t ahead(std::uint32_t x, std::uint32_t p, std::uint32_t n) { return x >= p ? x - p : x + n - p; }
}  // namespace stage_detail

/// The delays of a router's pipeline and of the terminals' channels, in cycles.
struct StageTiming {
    std::uint64_t routing = 1, vc_allocation = 1, exit = 2, head_turnaround = 0, injection = 0, ejection = 0;
};

/// The shared state of the model's phases over a network of shape S (`View`: its
/// arrays by pointer), and its sources and sinks; `Route` writes a packet's route
/// (route(src router, dst router, choice, steps, occupancy) returns its hops).
template <class S, class A, class Route>
struct StageEnds {
    using Net = StageNetwork<S, A>;
    using Switch = typename Net::Switch;
    using View = typename Net::View;
    using Pk = typename Net::Pk;
    using Ov = typename Net::Ov;
    using Slot = typename CycleLists<std::uint32_t>::Slot;
    using ArrivalSlot = typename CycleLists<StageArrival>::Slot;
    static constexpr std::uint32_t P = S::P, V = S::V, NP = S::NP, L = S::L, NV = S::NV, LP = S::LP, NVP = S::NVP;

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

    /// The output port of each route step: a table where V is not a power of two (a
    /// load costs less than the division; where it is, the shift costs less, measured).
    static constexpr auto port_of_step = [] {
        std::array<std::uint16_t, NV + S::TP> t{};
        for (std::uint32_t step = 0; step < t.size(); ++step)
            t[step] = static_cast<std::uint16_t>(step < NV ? step / V : P + (step - NV));
        return t;
    }();
    [[gnu::always_inline]] static std::uint32_t out_port(std::uint32_t step) {
        if constexpr (std::has_single_bit(V)) {
            return step < NV ? step / V : P + (step - NV);
        } else {
            if (step >= port_of_step.size()) __builtin_unreachable();  // a step is an output VC or a terminal
            return port_of_step[step];
        }
    }

    /// A head at the front of `vc` takes route step `step`: it asks for that output VC,
    /// or, bound for its terminal, holds the ejection port at once (it has no VC to
    /// ask for: the wake kernel grants it at its VC allocation, with no other effect).
    [[gnu::always_inline]] static void route_head(StageVc& vc, std::uint32_t step) {
        vc.out = static_cast<std::uint16_t>(step);
        vc.port = static_cast<std::uint16_t>(out_port(step));
        vc.state = step < NV ? StageState::waiting : StageState::active;
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
        const std::uint32_t terminal = r * v.per_node + (S::port_of(l) - P);
        return v.queues[std::size_t{terminal} * v.queues_per + S::vc_of(l)];
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
};

}  // namespace fabric::cycle
