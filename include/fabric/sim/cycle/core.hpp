// The parts of a cycle-kernel run and how they are joined. Each part owns its
// state: the packets (packets.hpp), the channels with their flow control and
// wires (channels.hpp), the routers (routers.hpp), the sources (sources.hpp), the
// sinks (sinks.hpp), what the run counts (observer.hpp) and its losses
// (losses.hpp). A packet's way runs one direction: source -> router -> channel ->
// router -> ... -> sink. A part reaches another only through the core it is
// handed.
//
// The core depends on the flow control (its state is in every link VC) and the
// switch allocator (in every router step), not on the topology or the routing
// policy: those are the kernel's (kernel.hpp), which hands the core the links
// and, as plain functions, the routing policy's answers (once a packet, or once a
// hop for a policy that routes hop by hop). So every fabric of one flow control
// and one allocator shares one compiled core. The run itself, its phases in a
// fixed order, is run.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/flow_control.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/sim/cycle/channels.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/link_errors.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/packets.hpp>
#include <fabric/sim/cycle/routers.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/sinks.hpp>
#include <fabric/sim/cycle/sources.hpp>

namespace fabric::cycle {

/// What a routing policy answers, as the core asks it: a route from router `src`
/// to router `dst` for route choice `choice` written into `out`, the steps of a
/// route slot (its length; more than the longest route allowed: no route avoids
/// the failed links, and the steps written are not read), and, for a
/// policy that routes hop by hop, the rest of a route rewritten at router `here`
/// from hop `hop` on (its length). `fabric` is the kernel's fabric.
template <class Core>
struct RoutingHooks {
    const void* fabric = nullptr;
    std::size_t (*route)(const void* fabric, Core& core, std::uint32_t src, std::uint32_t dst, std::uint64_t choice,
                         RouteStep* out) = nullptr;
    std::size_t (*reroute)(const void* fabric, Core& core, std::uint32_t here, std::uint32_t dst, std::uint32_t hop,
                           std::uint64_t choice, Hop* out) = nullptr;  // null: the policy routes at the source only
    bool tracks_occupancy = false;  // the policy reads the routers' queues (adaptive routing)
    bool source_view = false;       // at the source, it reads the source's router only (UGAL-L)
    std::uint32_t max_hops = 0;     // the longest route, and with links failing (detours)
    std::uint32_t max_detour_hops = 0;
    std::uint32_t vc_classes = 0;   // the VC classes of its routes (vcs_required; 0: not one count on every link)
};

template <CycleFlowControl F, SwitchAllocator A>
class Core {
public:
    /// A run over `links` (shape `shape`, the links' far ends and timing) with
    /// flow control `flow`, the routing policy's answers `hooks`, and `config`.
    Core(const Shape& shape, Links links, const F& flow, RoutingHooks<Core> hooks, CycleConfig config)
        : cfg_((config.validate(), std::move(config))), shape_(shape), hooks_(hooks),
          channels_(std::move(links), flow, cfg_.feedback_over_link) {
        observer_.classes.configure(cfg_.class_priority);
        const std::uint32_t V = shape_.vcs;
        detail::require(cfg_.injection_queues * observer_.classes.count() <= V, "this fabric's links have ", V,
                        " virtual channels, so a node takes at most ", V, " injection queues (one input VC each); got "
                        "injection_queues = ", cfg_.injection_queues, " for each of ", observer_.classes.count(),
                        " traffic classes");
        detail::require(flow.feedback_delay() <= max_delay_cycles, "flow control's feedback (a credit's "
                        "return) may take at most ", max_delay_cycles, " cycles; got ", flow.feedback_delay());
        if constexpr (!DrainReportingFlow<F>)
            detail::require(!cfg_.wait_for_tail_credit, "wait_for_tail_credit needs a flow control that says when a "
                            "receiver's buffer has emptied (drained(sender_vc), as Credit has)");
        if (cfg_.vc_choice == VcChoice::any) {
            detail::require(hooks_.vc_classes >= 1, "vc_choice = any deals each link's VCs to the classes the routing "
                            "policy needs; this fabric's links differ in VCs or its policy's vcs_required is not one "
                            "count: use vc_choice = route");
            detail::require(V % hooks_.vc_classes == 0, "vc_choice = any deals a link's ", V, " VCs evenly to the ",
                            hooks_.vc_classes, " VC classes the routing policy needs: give the links a multiple of ",
                            hooks_.vc_classes, " VCs, or use vc_choice = route");
        }
        buffer_ = flow.buffer_flits();
        size_wheels();
    }

    // --- the parts --------------------------------------------------------------------
    [[nodiscard]] const CycleConfig& cfg() const { return cfg_; }
    /// The run's own copy of the settings (the converging sampler moves its window).
    [[nodiscard]] CycleConfig& settings() { return cfg_; }
    [[nodiscard]] const Shape& shape() const { return shape_; }
    [[nodiscard]] const F& flow() const { return channels_.flow(); }
    [[nodiscard]] const RoutingHooks<Core>& routing_hooks() const { return hooks_; }
    [[nodiscard]] PacketTable& packets() { return packets_; }
    [[nodiscard]] Channels<F>& channels() { return channels_; }
    [[nodiscard]] const Channels<F>& channels() const { return channels_; }
    [[nodiscard]] Routers<A>& routers() { return routers_; }
    [[nodiscard]] const Routers<A>& routers() const { return routers_; }
    [[nodiscard]] Sources& sources() { return sources_; }
    [[nodiscard]] Sinks& sinks() { return sinks_; }
    [[nodiscard]] Observer& observer() { return observer_; }
    [[nodiscard]] const Observer& observer() const { return observer_; }
    [[nodiscard]] Losses& losses() { return losses_; }
    [[nodiscard]] LinkFailures& failures() { return failures_; }
    [[nodiscard]] const LinkFailures& failures() const { return failures_; }
    [[nodiscard]] LinkErrors& link_errors() { return link_errors_; }
    [[nodiscard]] const LinkErrors& link_errors() const { return link_errors_; }
    [[nodiscard]] std::uint32_t buffer_flits() const { return buffer_; }
    [[nodiscard]] std::uint64_t source_packet_cap() const { return source_packet_cap_; }
    /// What this configuration's memory follows from (memory.hpp), before a run: its
    /// buffers, and what each packet in the network or in a source queue takes.
    [[nodiscard]] MemoryNeed memory_need() const {
        return cycle::memory_need({shape_.routers, shape_.ports, shape_.vcs, buffer_, cfg_.output_buffer_flits, longest_route(),
                                   sizeof(typename F::sender_vc) + sizeof(typename F::receiver_vc), shape_.terminal_ports});
    }

    /// Whether the run is split over ranks, and whether a router or a terminal is simulated here.
    [[nodiscard]] bool split() const { return channels_.remote().active(); }
    [[nodiscard]] bool router_here(std::uint32_t n) const { return channels_.remote().here(n); }
    [[nodiscard]] bool terminal_here(std::uint32_t t) const { return router_here(shape_.router_of(t)); }

    // --- the wiring the parts call ------------------------------------------------------
    /// Writes the route of packet `id`, which has reached the head of its source
    /// queue, into a route slot; slots are held only by packets in the network.
    void write_route(std::uint32_t id) { write_route_inline(id); }
    /// The same, inlined where a packet is created (at the head of an empty queue:
    /// most packets); returns the route's first step.
    [[gnu::always_inline]] RouteStep write_route_inline(std::uint32_t id) {
        Packet& pk = packets_[id];
        pk.route_slot = packets_.routes().take();
        RouteStep* const steps = packets_.routes().steps(pk.route_slot);  // the policy writes them itself
        std::size_t len = hooks_.route(hooks_.fabric, *this, shape_.router_of(pk.src), shape_.router_of(pk.dst),
                                       pk.choice, steps);
        if (len > max_hops_) [[unlikely]]
            len = unroutable(pk);
        pk.route_len = static_cast<std::uint16_t>(len);
        steps[len] = RouteStep{static_cast<std::uint16_t>(shape_.port_of_terminal(pk.dst)), 0};  // out to the terminal
        return steps[0];
    }
    /// Room for a route of hops, for a policy that cannot write steps (kernel.hpp), and the longest route.
    [[nodiscard]] Hop* scratch_route() { return scratch_route_.data(); }
    [[nodiscard]] std::uint32_t max_hops() const { return max_hops_; }

    /// A head of packet `id` reaches router `here` at hop `hop`: a policy that
    /// routes hop by hop rewrites the rest of its route from there.
    /// Whether the policy rewrites routes hop by hop.
    [[nodiscard]] bool reroutes() const { return hooks_.reroute != nullptr; }
    [[gnu::always_inline]] void rerouted(std::uint32_t id, std::uint32_t here, std::uint32_t hop) {
        if (hooks_.reroute != nullptr) [[unlikely]]
            reroute(id, here, hop);
    }

    /// The packet at the head of terminal t's source queue q, and taking it out
    /// (whether the queue is empty now).
    [[gnu::always_inline]] [[nodiscard]] std::uint32_t source_front(std::uint32_t t, std::uint32_t q) const {
        return sources_.queues().front(t, q);
    }
    [[gnu::always_inline]] bool source_pop(std::uint32_t t, std::uint32_t q) { return sources_.queues().pop(t, q); }
    void eject(std::uint32_t n, std::uint32_t terminal, const Flit& f, Packet& pk, std::uint64_t at) {
        sinks_.eject(n, terminal, f, pk, at, *this);
    }
    void drop_at_failed_link(const Flit& f) { sinks_.drop_at_failed_link(f, *this); }
    void transaction_over(std::uint32_t t) { sources_.transaction_over(t); }

    /// Whether the flow control of sender (channel * V + vc) lets a flit go; the
    /// flit (`flit()`) is looked at only when the protocol or virtual cut-through
    /// needs its size.
    template <class FlitOf>
    [[gnu::always_inline]] [[nodiscard]] bool flow_allows(std::size_t sender, FlitOf&& flit) const {
        const bool whole = cfg_.switching == Switching::virtual_cut_through;
        if (!whole && !flow_traits<F>::needs_packet_size) return channels_.can_send(sender, false, 1, false);
        const Flit f = flit();
        return channels_.can_send(sender, f.index == 0, packets_[f.packet].size, whole);
    }
    /// Whether flow_allows looks at the flit; if not, flow_allows_any(sender) answers alike.
    [[nodiscard]] bool flow_needs_flit() const {
        return cfg_.switching == Switching::virtual_cut_through || flow_traits<F>::needs_packet_size;
    }
    [[gnu::always_inline]] [[nodiscard]] bool flow_allows_any(std::size_t sender) const {
        return channels_.can_send(sender, false, 1, false);
    }
    /// wait_for_tail_credit: whether sender (channel * V + vc) has every credit back.
    [[nodiscard]] bool drained(std::size_t sender) const {
        if constexpr (DrainReportingFlow<F>) return channels_.flow().drained(channels_.sender(sender));
        else return true;  // not reached: the kernel refuses the setting without drained()
    }

    // --- before and during a run ----------------------------------------------------------
    /// Everything back to the start of a run; the memory the configuration needs
    /// checked against its limit.
    void reset() {
        // Route slots hold the longest route; detours round failed links may be longer.
        max_hops_ = longest_route();
        detail::require(max_hops_ <= max_route_hops, "the routing policy's routes take up to ", max_hops_,
                        " hops; the cycle kernel counts hops in 16 bits, at most ", max_route_hops);
        source_packet_cap_ = check_memory(memory_need(), cfg_.memory_limit_mb);
        routers_.reset(shape_, cfg_, cfg_, buffer_, observer_.classes.levels(), channels_.links().terminal_serialisation());
        if (hooks_.tracks_occupancy) routers_.track_occupancy();
        if (cfg_.vc_choice == VcChoice::any) routers_.any_vc(shape_.vcs / hooks_.vc_classes);
        if (cfg_.wait_for_tail_credit) routers_.hold_ejection(channels_.flow().feedback_delay());
        if (link_errors_.any())  // the wheel reaches a replaying link's longest wait (cycle/link_errors.hpp)
            while (wheel_size_ <= link_errors_.longest_replay_delay(channels_.links())) wheel_size_ *= 2;
        channels_.reset(shape_, wheel_size_);
        sources_.reset(shape_, cfg_, observer_.classes.count());
        sinks_.reset(shape_.terminals, split());
        packets_.reset(max_hops_);
        losses_.reset();
        observer_.reset(cfg_, shape_.terminals);
        failures_.reset(shape_.channels());
        link_errors_.reset(shape_.channels(), cfg_.flit_bytes, cfg_.seed, channels_.links());
        scratch_route_.resize(max_hops_ + 1);
    }

    /// A flit came over a link into input VC `local` of router n: its packet's tail
    /// is counted by the link's receiver, and a link found sick is routed round.
    /// False when the caller is not to let `a` in: a link that replays holds the flit
    /// back (cycle/link_errors.hpp). `a` may be such a link's wake, a marker in the
    /// wheel's bucket: when it lets a held flit in, the flit takes the marker's place
    /// in the bucket (the one call of Routers::arrive stays the only one).
    [[gnu::always_inline]] bool crossed_link(const Arrival& a, std::uint64_t now) {
        if (!link_errors_.on()) [[likely]]
            return true;
        return erring_arrival(a, now);
    }

    /// The link of `channel` has just failed at `now`: flits on its wires are lost
    /// with it, and the routers at both ends look at their flits bound there.
    void link_failed(std::uint32_t channel, std::uint64_t now) {
        channels_.drop_on_wires(failures_, [&](const Flit& f) { drop_at_failed_link(f); });
        for (const std::uint32_t n : {channel / shape_.ports, channels_.links().down(channel)})
            if (router_here(n)) routers_.link_failed(n, now);  // another rank's router: woken there
    }

    /// How many cycles from the end of cycle `now` this rank knows the run cannot
    /// end in, for what ends it (measured packets delivered, or, under a trace,
    /// every packet): a flit's delay over a channel between ranks while one of its
    /// packets held here has yet to cross to its destination's rank; until the
    /// last flit due from another rank arrives.
    [[nodiscard]] std::uint64_t run_goes_on(std::uint64_t now, bool measured_only) const {
        const RemoteChannels& remote = channels_.remote();
        const std::uint64_t due = remote.last_tail_due(measured_only);
        std::uint64_t reach = due > now ? due - now : 0;
        bool crossing = false;
        packets_.for_each_held([&](const Packet& pk) {
            crossing = crossing || ((pk.measured || !measured_only) && !router_here(shape_.router_of(pk.dst)));
        });
        if (crossing) reach = std::max<std::uint64_t>(reach, remote.lookahead().flit_delay);
        return reach;
    }

    /// Flits on links, in input buffers and in output queues (not the never injected ones of source queues).
    [[nodiscard]] std::uint64_t count_in_flight() const {
        return channels_.in_flight() + routers_.inputs().buffered() + routers_.outputs().queued();
    }

    /// A link slowed after construction may need a longer wheel.
    void size_wheels() {
        const F& flow = channels_.flow();
        const std::uint64_t frame = Channels<F>::Frames::frame(flow);
        const std::uint64_t longest = std::max<std::uint64_t>(
            std::uint64_t{cfg_.pipeline.switch_allocation} + cfg_.pipeline.switch_traversal +
                channels_.links().max_latency() +
                std::uint64_t{channels_.links().max_serialisation()} * (Channels<F>::protocol_flits + 1) + 2 * frame,
            flow.feedback_delay() + (cfg_.feedback_over_link ? channels_.links().max_latency() : 0));
        wheel_size_ = EventWheel<Arrival>::horizon_for(longest);
    }
    void grow_wheels_for_slow_links() {
        while (wheel_size_ <= std::uint64_t{channels_.links().max_serialisation()} * 4 + 4096) wheel_size_ *= 2;
    }

private:
    /// crossed_link where links have error rates: counts, holds, wakes.
    [[gnu::noinline, gnu::cold]] bool erring_arrival(const Arrival& a_in, std::uint64_t now) {
        Arrival& a = const_cast<Arrival&>(a_in);  // the wheel's own slot (crossed_link)
        const auto sicken = [&](std::uint32_t up) {
            failures_.sicken(up);
            ++observer_.res.links_sick;
        };
        if (LinkErrors::is_wake(a)) {
            channels_.adjust_in_flight(+1);  // a wake is no flit: undo the wheel's count of it
            const std::uint32_t entry = a.local;
            const LinkErrors::Outcome o = link_errors_.wake(
                entry, now, [&](const Arrival& f) { return packets_[f.flit.packet].size; }, a);
            if (o.wake_at != 0) channels_.schedule_wake(o.wake_at, entry);
            if (o.sick) sicken(link_errors_.channel_of_entry(entry));
            if (o.taken) channels_.adjust_in_flight(-1);  // the held flit, now in `a`, is in
            return o.taken;
        }
        const std::uint32_t up = channels_.links().up(std::size_t{a.node} * shape_.ports + a.local / shape_.vcs);
        if (link_errors_.replays(up)) {
            const LinkErrors::Outcome o = link_errors_.arrive_replaying(up, a, now, packets_[a.flit.packet].size);
            if (o.sick) sicken(up);
            if (o.taken) return true;
            channels_.adjust_in_flight(+1);  // held at the receiver: still in flight
            if (o.wake_at != 0) channels_.schedule_wake(o.wake_at, link_errors_.entry(up));
            return false;
        }
        if (a.flit.tail() && link_errors_.packet_arrived(up, packets_[a.flit.packet].size)) sicken(up);
        return true;
    }

    /// No route avoids the failed links: reported, and drained at the source (a route of 0 hops).
    [[gnu::noinline]] std::size_t unroutable(Packet& pk) {
        ++observer_.res.packets_unroutable;
        pk.lost = true;
        Sinks::notify_loss(losses_, pk, 0, 0, 0);  // counted lost where the cycle's losses settle
        return 0;
    }

    /// The longest route a slot holds: detours round failed links may be longer.
    [[nodiscard]] std::uint32_t longest_route() const {
        return failures_.scheduled() || link_errors_.any() ? hooks_.max_detour_hops : hooks_.max_hops;
    }

    /// A policy that routes hop by hop rewrites the rest of packet `id`'s route at router `here`, hop `hop`.
    [[gnu::noinline]] void reroute(std::uint32_t id, std::uint32_t here, std::uint32_t hop) {
        Packet& pk = packets_[id];
        if (hop >= pk.route_len) return;
        const std::size_t len = hooks_.reroute(hooks_.fabric, *this, here, shape_.router_of(pk.dst), hop, pk.choice,
                                               scratch_route_.data());
        if (len == 0 || hop + len > max_hops_)
            throw std::logic_error(detail::message("the routing policy's reroute at router ", here, ", hop ", hop,
                                                   ", gave ", len, " hops, where 1 to max_hops - hop were due"));
        pk.route_len = static_cast<std::uint16_t>(hop + len);
        packets_.routes().write(pk.route_slot, hop, scratch_route_.data(), len);
        packets_.routes().end(pk.route_slot, hop + len, shape_.port_of_terminal(pk.dst));
    }

    CycleConfig cfg_;
    Shape shape_{};
    RoutingHooks<Core> hooks_;
    std::uint32_t buffer_ = 0, max_hops_ = 0;
    std::uint64_t wheel_size_ = 1, source_packet_cap_ = 0;
    PacketTable packets_;
    Channels<F> channels_;
    Routers<A> routers_;
    Sources sources_;
    Sinks sinks_;
    Observer observer_;
    Losses losses_;
    LinkFailures failures_;
    LinkErrors link_errors_;
    std::vector<Hop> scratch_route_;
};

}  // namespace fabric::cycle
