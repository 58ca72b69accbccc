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
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/ejection_vcs.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/occupancy.hpp>
#include <fabric/sim/cycle/output_queues.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/router_allocation.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/terminal_links.hpp>

namespace fabric::cycle {

/// An output VC held until the credit of its last packet's tail is back (wait_for_tail_credit).
inline constexpr std::uint32_t tail_pending = none - 1;

/// Every router of a run, with its switch allocator A.
template <SwitchAllocator A>
class Routers {
public:
    /// `terminal_serial`: a flit's time on the links joining a terminal to its
    /// router, in 1/1024 cycles (Links::terminal_serialisation; 0: a flit a cycle).
    void reset(const Shape& shape, const RouterSettings& cfg, const TerminalSettings& terminals, std::uint32_t depth,
               std::uint32_t levels, std::uint32_t terminal_serial = 0) {
        if constexpr (requires { A::output_speedup; })
            detail::require(A::output_speedup == 1 || cfg.output_buffer_flits > 0, "output speedup (Speedup<A, In, "
                            "Out> with Out > 1) needs output queues to take the flits a link cannot: set "
                            "output_buffer_flits, or use Out = 1");
        shape_ = shape;
        P_ = shape.ports;
        V_ = shape.vcs;
        NP_ = shape.all_ports();
        per_router_ = shape.per_router();
        network_locals_ = shape.ports * shape.vcs;
        pipeline_ = cfg.pipeline;
        exit_delay_ = std::uint64_t{cfg.pipeline.switch_allocation} + cfg.pipeline.switch_traversal;
        in_.reset(shape, depth);
        out_.reset(shape, cfg.output_buffer_flits);
        vc_.reset(in_.size(), per_router_);
        switch_.reset(shape.routers, NP_, V_, cfg.speculative && cfg.pipeline.vc_allocation > 0, levels);
        speculative_ = cfg.speculative;
        wait_for_tail_credit_ = cfg.wait_for_tail_credit;
        head_turnaround_ = cfg.head_turnaround;
        injection_latency_ = terminals.injection_latency;
        ejection_latency_ = terminals.ejection_latency;
        port_free_.assign(std::size_t{shape.routers} * NP_, 0);
        terminal_links_.reset(std::size_t{shape.routers} * shape.terminal_ports, terminal_serial, depth);
        held_from_ = terminal_links_.limited() ? network_locals_ : none;
        occupancy_.off();
        active_.clear();
        activity_.assign(shape.routers, Activity{});
        just_granted_.assign(per_router_, 0);
        va_local_.assign(per_router_, 0);
        va_out_.assign(per_router_, 0);
        sw_local_.assign(per_router_, 0);
        out_enabled_ = cfg.output_buffer_flits > 0;
        // A lone VC's step is its own only where no stage looks further: no output
        // queues (a link stage), no VC allocation delay of 0 or speculation (a head
        // granted its VC bids in the same step); looked for in routers of one mask word.
        lone_steps_ = !out_enabled_ && cfg.pipeline.vc_allocation > 0 && !cfg.speculative && in_.words() == 1;
        port_of_.resize(per_router_);
        vc_of_.resize(per_router_);
        for (std::uint32_t local = 0; local < per_router_; ++local) {
            port_of_[local] = static_cast<std::uint16_t>(local / V_);
            vc_of_[local] = static_cast<std::uint8_t>(local % V_);
        }
        buffered_ = 0;
        any_vc(1);
        eject_vcs_.reset(0, 1, 0, false);
    }
    void hold_ejection(std::uint64_t feedback) {  // wait_for_tail_credit: ejection_vcs.hpp
        eject_vcs_.reset(std::size_t{shape_.routers} * shape_.terminal_ports, V_, feedback, true);
    }
    /// With adaptive routing: the backlog per (router, port) that policies read.
    void track_occupancy() { occupancy_.reset(shape_); }
    /// vc_choice = any (config.hpp): a head takes any free VC of its class, classes of `group` VCs.
    void any_vc(std::uint32_t group) { pointer_.assign((any_vc_ = (group_ = group) > 1) ? in_.size() : 0, 0); }
    [[nodiscard]] std::uint32_t vc_group() const { return group_; }
    [[nodiscard]] const PortOccupancy& occupancy() const { return occupancy_; }

    [[nodiscard]] const Shape& shape() const { return shape_; }
    [[nodiscard]] InputBuffers& inputs() { return in_; }
    [[nodiscard]] const InputBuffers& inputs() const { return in_; }
    [[nodiscard]] OutputQueues& outputs() { return out_; }
    [[nodiscard]] const OutputQueues& outputs() const { return out_; }
    /// The input VC holding output VC `ov` (an input VC index), none, or tail_pending.
    [[nodiscard]] std::uint32_t owner(std::size_t ov) const { return vc_.owner(ov); }
    /// Flits in input rings and output queues.
    [[nodiscard]] std::uint64_t buffered() const { return buffered_; }

    /// Router n has work from cycle `when` on (or earlier, if it already had).
    [[gnu::always_inline]] void activate(std::uint32_t n, std::uint64_t when) {
        Activity& a = activity_[n];
        if (a.active) {
            a.wake = std::min(a.wake, when);
        } else {
            a.wake = when;
            a.active = true;
            active_.push_back(n);
        }
    }
    [[nodiscard]] std::uint64_t wake(std::uint32_t n) const { return activity_[n].wake; }

    /// Feedback reached a sender of router n at `now`: a flit waiting for it may go.
    /// Without output queues only a blocked front flit waits for it: a router with
    /// none keeps its wake (a step before it would find nothing to do).
    [[gnu::always_inline]] void feedback(std::uint32_t n, std::uint64_t now) {
        if (!in_.unblock_any(n) && !out_enabled_) return;
        activity_[n].wake = std::min(activity_[n].wake, now);
        if (out_enabled_) out_.wake(n) = now;
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
            else if (eject_vcs_.on()) eject_vcs_.release(terminal_link(node, v.out_port), v.out_vc);
            v.state = VcState::idle;
            in_.unblock(node);
            activate(node, activity_[node].wake);
        }
    }

    /// Input VC `local` of router n starts passing on packet `id` (route slot
    /// `route`), whose head is at hop `hop` and at the front since `front_since`: it
    /// asks for the route's next port and VC (the kernel may rewrite the rest of the
    /// route first, k.rerouted; the route's last step leads out to the terminal).
    template <class Kernel>
    [[gnu::always_inline]] void start_head(std::uint32_t n, std::uint32_t local, std::uint32_t id, std::uint32_t route,
                                           std::uint32_t hop, std::uint64_t front_since, Kernel& k) {
        k.rerouted(id, n, hop);
        start_head(n, local, id, route, k.packets().routes().step(route, hop), front_since, k);
    }
    /// The same, its next step already known (read by the router the head came from).
    template <class Kernel>
    [[gnu::always_inline]] void start_head(std::uint32_t n, std::uint32_t local, std::uint32_t id, std::uint32_t route,
                                           RouteStep step, std::uint64_t front_since, Kernel& k) {
        InputVc& v = in_.router(n)[local];
        v.out_port = step.port;
        v.out_vc = any_vc_ ? class_first(step.vc) : step.vc;
        if (occupancy_.on()) occupancy_.routed(n, v.out_port, k.packets()[id].size);
        v.state = VcState::waiting_vc;
        v.packet = id;
        v.route = route;
        v.ready = front_since + pipeline_.routing;
        v.since = front_since;
    }

    /// A flit arrives at its input VC at `now`.
    template <class Kernel>
    void arrive(const Arrival& a, std::uint64_t now, Kernel& k) {
        const std::uint32_t n = a.node, local = a.local;
        const Flit& flit = a.flit;
        ++buffered_;
        const bool first = in_.push(n, local, flit);
        if (k.observer().watch.on() && k.packets()[flit.packet].watched)
            k.observer().watch.event(flit.packet, FlitEventKind::arrived, now, flit.index, n, port_of_[local],
                                     vc_of_[local]);
        k.channels().arrived(n, port_of_[local], vc_of_[local], now);
        std::uint64_t wake = now;  // a body flit may go now
        if (first) {
            InputVc& v = in_.router(n)[local];
            if (v.state == VcState::idle) {
                // A head: its next step came with it, unless the policy routes hop by hop.
                if (k.reroutes()) start_head(n, local, flit.packet, a.route, flit.hop(), now, k);
                else start_head(n, local, flit.packet, a.route, a.next, now, k);
                wake = v.ready;  // a head can act once routed
            } else {
                v.since = now;
            }
        } else {
            wake = activity_[n].wake;  // a flit behind others changes nothing
        }
        activate(n, wake);
    }

    /// Steps every router whose wake cycle has come, in the order they became
    /// active; keeps those with work left.
    template <class Kernel>
    void step_all(std::uint64_t now, Kernel& k);

    /// One cycle of router n (its input masks in_.masks(n)): the link stage of its output queues, then VC
    /// allocation and switch allocation over its live front flits. Returns the
    /// first cycle at which stepping it again can change anything, short of an
    /// event that wakes it earlier (an arrival, feedback, a new packet).
    template <class Kernel>
    std::uint64_t step(std::uint32_t n, const std::uint64_t* masks, std::uint64_t now, Kernel& k);
    /// A router step whose one live VC is `local` (v, its state): the VC or switch allocation it
    /// asks for is granted if it can be (as the allocators grant a lone request:
    /// their pointers move past it), with no pass over the router.
    template <class Kernel>
    std::uint64_t step_lone(std::uint32_t n, std::uint32_t local, InputVc& v, std::uint64_t now, Kernel& k);
    /// A router step with a pass over its live VCs.
    template <class Kernel>
    std::uint64_t step_all_vcs(std::uint32_t n, std::uint64_t now, Kernel& k);
    /// Switch allocation of a router step among its `n_sw` requesters (and, with
    /// speculation, the `granted` heads just granted their VC); the pairs matched
    /// cross the switch.
    template <class Kernel>
    [[gnu::noinline]] void allocate_switch(std::uint32_t n, std::uint64_t now, std::uint32_t n_sw,
                                           std::uint32_t granted, bool speculate, Kernel& k);
    /// VC allocation of a router step, among its `n_va` requesters: per output VC,
    /// the requester nearest at or after its pointer wins (among those of the
    /// highest priority level); returns the VCs granted in this step so far.
    template <class Kernel>
    [[gnu::noinline]] std::uint32_t allocate_vcs(std::uint32_t n, std::uint64_t now, std::uint32_t n_va,
                                                 std::uint32_t granted, std::uint64_t& wake, Kernel& k);
    /// The front flit of input VC `local` of router n is lost: its output link failed.
    template <class Kernel>
    [[gnu::noinline]] void drop(std::uint32_t n, std::uint32_t local, std::uint64_t now, Kernel& k);

    /// The front flit of input VC `local` of router n crosses the switch (or, with
    /// `drop`, is lost because its output link failed).
    template <class Kernel>
    [[gnu::always_inline]] inline void transfer(std::uint32_t n, std::uint32_t local, std::uint64_t now, Kernel& k, bool drop);
    /// A flit left terminal t's source queue through injection VC `local` of router n.
    template <class Kernel>
    void left_source(std::uint32_t n, std::uint32_t local, const Flit& f, bool tail, std::uint64_t now, Kernel& k);
    /// The next head is at the front of VC `local` as the last packet's tail leaves:
    /// it is routed from now, or after the head turnaround (and, from a source, not
    /// before it has crossed the injection channel).
    template <class Kernel>
    void next_head(std::uint32_t n, std::uint32_t local, bool from_source, std::uint64_t now, Kernel& k);

    /// The flit at the front of injection VC `local` of router n: its terminal's
    /// source queue's front packet, whose flits leave in order.
    template <class Kernel>
    [[gnu::always_inline]] [[nodiscard]] Flit source_front(std::uint32_t n, std::uint32_t local, Kernel& k) const {
        const std::uint32_t id = k.source_front(shape_.terminal_at(n, port_of_[local]), vc_of_[local]);
        const Packet& pk = k.packets()[id];
        return Flit{id, pk.sent, 0, pk.sent + 1 == pk.size};
    }
    /// The flit at the front of input VC `local` of router n (a network port's
    /// ring, or a terminal's source queue).
    template <class Kernel>
    [[gnu::always_inline]] [[nodiscard]] Flit front(std::uint32_t n, std::uint32_t local, Kernel& k) const {
        return local >= network_locals_ ? source_front(n, local, k) : in_.front(n, local);
    }

    /// Whether the output the front flit of an active input VC wants can take it
    /// (the switch output's own availability is checked by the caller): room in
    /// the output queue, or what the link's flow control says.
    template <class Kernel>
    [[gnu::always_inline]] [[nodiscard]] bool output_ready(std::uint32_t n, std::uint32_t local, const InputVc& v,
                                                           Kernel& k) const {
        if (v.out_port >= P_) return true;
        const std::size_t q = (std::size_t{n} * P_ + v.out_port) * V_ + v.out_vc;
        if (out_enabled_) return !out_.full(q);
        if (!k.flow_needs_flit()) return k.flow_allows_any(q);  // no closure to build for the common case
        return k.flow_allows(q, [&] { return front(n, local, k); });
    }

    /// A source VC granted its output VC at `ready` bids once its terminal's link
    /// (terminal_links.hpp), where slower than a flit a cycle, has its flit across.
    template <class Kernel>
    [[gnu::always_inline]] [[nodiscard]] std::uint64_t granted_ready(std::uint32_t n, std::uint32_t local,
                                                                     std::uint64_t ready, Kernel& k) const {
        if (local < held_from_) [[likely]]
            return ready;
        return terminal_links_.in_ready(terminal_link(n, port_of_[local]),
                                        k.packets()[in_.router(n)[local].packet].created + injection_latency_, ready);
    }
    /// A flit of packet `id` from source port `port` of router n crossed the
    /// switch at `now`: every live source VC there waits for the link's next flit.
    template <class Kernel>
    void hold_sources(std::uint32_t n, std::uint32_t port, std::uint32_t id, std::uint64_t now, Kernel& k) {
        const std::uint64_t next =
            terminal_links_.in_took(terminal_link(n, port), k.packets()[id].created + injection_latency_, now);
        InputVc* const vcs = in_.router(n) + std::size_t{port} * V_;
        for (std::uint32_t vc = 0; vc < V_; ++vc)
            if (vcs[vc].state == VcState::active && vcs[vc].ready < next) vcs[vc].ready = next;
    }
    [[nodiscard]] std::size_t terminal_link(std::uint32_t n, std::uint32_t port) const {
        return std::size_t{n} * shape_.terminal_ports + (port - P_);
    }

    /// wait_for_tail_credit: whether output VC `vc` of `port` at router n has its last packet's every credit
    /// back (a feedback event unblocks the router). Over a failed link, credits lost with it never come: taken
    /// as back, the head is then dropped at the switch like any other bound there.
    template <class Kernel>
    [[nodiscard]] bool tail_credit_back(std::uint32_t n, std::uint32_t port, std::uint32_t vc, Kernel& k) const {
        const std::size_t channel = std::size_t{n} * P_ + port;
        if (k.failures().any() && k.failures().broken(channel)) return true;
        return k.drained(channel * V_ + vc);
    }

    /// vc_choice = any: the output VC waiting head `v` (input VC `local` of router n) asks for
    /// (router_step.hpp), v.out_vc set to it; false, nothing changed, where its class's are all held.
    template <class Kernel>
    [[gnu::noinline]] bool pick_vc(std::uint32_t n, std::uint32_t local, InputVc& v, Kernel& k);
    [[nodiscard]] std::uint8_t class_first(std::uint32_t vc) const;  // vc_choice = any: a route's VC's class
    [[nodiscard]] std::uint64_t take_ejection(std::uint32_t n, InputVc& v, std::uint64_t now);  // router_step.hpp
    [[gnu::always_inline]] void picked(std::uint32_t n, std::uint32_t local, const InputVc& v) {  // it won v.out_vc
        if (any_vc_) pointer_[std::size_t{n} * per_router_ + local] = v.out_port * V_ + v.out_vc + 1;
    }

    /// The links of router n take flits from their output queues: per port, the
    /// ready VC nearest at or after the port's round-robin pointer. Room made in
    /// a full queue lets the switch move a flit into it in the same step.
    template <class Later, class Kernel>
    void link_stage(std::uint32_t n, std::uint64_t now, Later& outer_later, Kernel& k);

    /// A flit from an output queue onto its link (its route read from its packet:
    /// the queue does not keep which route slot it came with).
    template <class Kernel>
    std::uint64_t put_queued(std::uint32_t n, std::size_t channel, std::uint32_t vc, const Flit& f, std::uint64_t now,
                             Kernel& k) {
        (void)n;
        return k.channels().put_on_link(channel, vc, f, now, k.cfg(), k.packets(),
                                        k.packets()[f.packet].route_slot);
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
    std::uint32_t network_locals_ = 0;  // P * V: the local indices below it are network ports' VCs
    PipelineDelays pipeline_{};
    std::uint64_t exit_delay_ = 0;
    InputBuffers in_;
    OutputQueues out_;
    VcAllocation vc_;
    SwitchArbitration<A> switch_;
    bool speculative_ = false, wait_for_tail_credit_ = false;
    std::uint32_t head_turnaround_ = 0, injection_latency_ = 0, ejection_latency_ = 0;
    std::vector<std::uint32_t> just_granted_;  // local VC indices granted their output VC in this step
    std::vector<std::uint32_t> va_local_, sw_local_;  // this step's VC and switch requesters
    std::vector<std::size_t> va_out_;                 // the output VC each VC requester asks for
    bool out_enabled_ = false, lone_steps_ = false;
    bool any_vc_ = false;                    // vc_choice = any, with classes of group_ > 1 VCs (1: the route's VC)
    std::uint32_t group_ = 1;
    std::vector<std::uint32_t> pointer_;     // any_vc_: per input VC, its round-robin pointer over output VCs
    EjectionVcs eject_vcs_;                  // wait_for_tail_credit: the ejection ports' VCs
    static constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
    TerminalLinks terminal_links_;          // each terminal's own links, where slower than a flit a cycle
    std::uint32_t held_from_ = none;        // local VCs from here on wait for their terminal link (none: no such VC)
    std::vector<std::uint64_t> port_free_;  // per (router, port incl. terminals): the switch output is free from
    PortOccupancy occupancy_;               // with adaptive routing
    Bucket<std::uint32_t> active_;          // routers with a front flit or a queued one
    struct Activity {
        std::uint64_t wake = 0;  // the first cycle at which stepping the router can change anything
        bool active = false;     // in active_
    };
    std::vector<Activity> activity_;  // per router
    std::vector<std::uint16_t> port_of_;  // per local VC index: its port
    std::vector<std::uint8_t> vc_of_;     //  and its VC
    std::uint64_t buffered_ = 0;
};

}  // namespace fabric::cycle

#include <fabric/sim/cycle/router_step.hpp>        // step_all, step and the allocation stages
#include <fabric/sim/cycle/router_traversal.hpp>   // transfer, the link stage
