// The state of a cycle-kernel run and how flits move between routers: input buffers, flow-control state per
// (channel, VC), output queues, links and their events (arrivals, feedback), packets and their routes, link
// failures, and the counters of the run. The router pipeline (router.hpp) and the simulator (simulator.hpp)
// build on it; see simulator.hpp for the timing model.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include <fabric/concepts/fabric.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/framing.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/occupancy.hpp>
#include <fabric/sim/cycle/output_queues.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/watch.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab>
class Network {
protected:
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    using F = typename Fab::flow_type;
    static constexpr std::uint32_t P = static_cast<std::uint32_t>(T::ports_per_node);  // network ports
    static constexpr std::uint32_t TM = static_cast<std::uint32_t>(max_terminals_v<T>);  // terminal ports
    static constexpr std::uint32_t LOCAL = P;  // ports LOCAL + t: terminal t's injection and ejection
    static constexpr std::uint32_t NP = P + TM;
    static constexpr std::uint32_t V = static_cast<std::uint32_t>(max_virtual_channels_v<T>);
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    static constexpr std::uint32_t tail_pending = none - 1;  // owner_: held until its tail's credit is back
    static constexpr std::uint32_t protocol_flits = flow_traits<F>::protocol_flits;
    static constexpr bool needs_packet_size = flow_traits<F>::needs_packet_size;
    static constexpr bool adaptive = AdaptiveRouting<R, T>;  // routes read the network's queues
    static constexpr bool hop_adaptive = HopAdaptive<R, T> && !SourceAdaptive<R, T>;  // and at every router
    using Frames = Framing<F>;

    struct Arrival {
        std::uint32_t ivc;  // where it arrives; the link it crosses is that input's upstream channel
        Flit flit;
    };
    struct PendingReply {  // request_reply: a request delivered at `at` is answered from `from`
        std::uint64_t at = 0, request_created = 0;
        std::uint32_t from = 0, to = 0;
        bool measured = false;
        std::uint8_t klass = 0;  // the request's traffic class, which the reply keeps
    };
    struct Feedback {
        std::uint32_t sender;  // channel * V + vc
        std::uint64_t value;
    };

    Network(const Fab& fabric, CycleConfig config)
        : fab_(fabric), cfg_((config.validate(), std::move(config))), links_(fabric.topology(), cfg_) {
        classes_.configure(cfg_.class_priority);
        detail::require(cfg_.injection_queues * classes_.count() <= V, "this fabric's links have ", V,
                        " virtual channels, so a node takes at most ", V, " injection queues (one input VC each); got "
                        "injection_queues = ", cfg_.injection_queues, " for each of ", classes_.count(),
                        " traffic classes");
        detail::require(fab_.flow().feedback_delay() <= max_delay_cycles, "flow control's feedback (a credit's "
                        "return) may take at most ", max_delay_cycles, " cycles; got ", fab_.flow().feedback_delay());
        if constexpr (!DrainReportingFlow<F>)
            detail::require(!cfg_.wait_for_tail_credit, "wait_for_tail_credit needs a flow control that says when a "
                            "receiver's buffer has emptied (drained(sender_vc), as Credit has)");
        nodes_ = static_cast<std::uint32_t>(fab_.topology().node_count());
        per_node_ = static_cast<std::uint32_t>(terminals_per_node(fab_.topology()));
        detail::require(per_node_ >= 1 && per_node_ <= TM, "the topology says ", per_node_, " terminals a router; its "
                        "type bounds them to 1 to ", TM);
        const std::size_t terminals = terminal_count(fab_.topology());
        detail::require(terminals >= 1 && terminals <= std::size_t{nodes_} * per_node_ && terminals % per_node_ == 0,
                        "the topology says ", terminals, " terminals; they must fill whole routers of ", per_node_,
                        " from router 0, at most ", std::size_t{nodes_} * per_node_);
        terminals_ = static_cast<std::uint32_t>(terminals);
        buffer_ = fab_.flow().buffer_flits();
        const std::uint64_t frame = Frames::frame(fab_.flow());
        const std::uint64_t longest = std::max<std::uint64_t>(
            cfg_.pipeline.switch_allocation + cfg_.pipeline.switch_traversal + links_.max_latency() +
                links_.max_serialisation() * (protocol_flits + 1) + 2 * frame,
            fab_.flow().feedback_delay());
        wheel_size_ = EventWheel<Arrival>::horizon_for(longest);
    }

    void reset() {
        // Route slots hold the longest route; detours round failed links may be longer.
        max_hops_ = static_cast<std::uint32_t>(R::max_hops(fab_.topology()));
        if constexpr (requires { R::max_detour_hops(fab_.topology()); })
            if (failures_.scheduled()) max_hops_ = static_cast<std::uint32_t>(R::max_detour_hops(fab_.topology()));
        detail::require(max_hops_ <= max_route_hops, "the routing policy's routes take up to ", max_hops_,
                        " hops; the cycle kernel counts hops in 16 bits, at most ", max_route_hops);
        source_packet_cap_ = check_memory(
            memory_need({nodes_, P, V, buffer_, cfg_.output_buffer_flits, max_hops_,
                         sizeof(typename F::sender_vc) + sizeof(typename F::receiver_vc), TM}),
            cfg_.memory_limit_mb);
        in_.reset(nodes_, buffer_);
        owner_.assign(in_.size(), none);
        va_rr_.assign(in_.size(), 0);
        const std::size_t channels = static_cast<std::size_t>(nodes_) * P;
        sender_.assign(channels * V, typename F::sender_vc{});
        for (auto& s : sender_) fab_.flow().init(s);
        receiver_.assign(channels * V, typename F::receiver_vc{});
        port_free_.assign(static_cast<std::size_t>(nodes_) * NP, 0);
        if constexpr (adaptive) occupancy_.reset(nodes_);
        sent_in_window_.assign(channels, 0);
        sources_.reset(terminals_, cfg_.injection_queues, classes_.count());
        out_.reset(nodes_, cfg_.output_buffer_flits);
        active_.clear();
        active_.reserve(nodes_);
        is_active_.assign(nodes_, 0);
        wake_.assign(nodes_, 0);
        arrivals_.reset(wheel_size_ - 1);
        feedback_.reset(wheel_size_ - 1);
        packets_.clear();
        retiring_.clear();
        losses_.reset();
        routes_.reset(max_hops_);
        scratch_route_.resize(max_hops_ + 1);
        latency_hist_ = network_hist_ = message_hist_ = transaction_hist_ = {};
        replies_ = {};
        outstanding_.assign(cfg_.request_reply.max_outstanding ? terminals_ : 0, 0);
        messages_.clear();
        res_ = CycleResult{};
        classes_.reset();
        if (cfg_.node_statistics) res_.nodes.assign(terminals_, NodeCounters{});
        watch_.reset(cfg_.watch);
        in_flight_links_ = buffered_ = 0;
        failures_.reset(channels);
        reorder_ = ReorderTracker(terminals_);
    }

    /// Router n has work from cycle `when` on (or earlier, if it already had).
    void activate(std::uint32_t n, std::uint64_t when) {
        wake_[n] = is_active_[n] ? std::min(wake_[n], when) : when;
        if (!is_active_[n]) {
            is_active_[n] = 1;
            active_.push_back(n);
        }
    }

    /// Terminals: the router of terminal t, the port it injects and ejects on, and
    /// the terminal on port `port` (at least LOCAL) of router n.
    [[nodiscard]] std::uint32_t router_of(std::uint32_t t) const { return per_node_ == 1 ? t : t / per_node_; }
    [[nodiscard]] std::uint32_t port_of_terminal(std::uint32_t t) const {
        return per_node_ == 1 ? LOCAL : LOCAL + t % per_node_;
    }
    [[nodiscard]] std::uint32_t terminal_at(std::uint32_t n, std::uint32_t port) const {
        return n * per_node_ + (port - LOCAL);
    }

    /// Packet `id`, in source queue `queue`, has just been created: counted for
    /// its terminal, and numbered (and its flits reported) for the watch trace.
    void note_created(std::uint32_t id, std::uint32_t queue) {
        Packet& pk = packets_[id];
        if (!res_.nodes.empty() && cfg_.in_window(pk.created)) res_.nodes[pk.src].flits_offered += pk.size;
        if (!watch_.on() || !(pk.watched = watch_.created(id))) return;
        for (std::uint32_t i = 0; i < pk.size; ++i)
            watch_.event(id, FlitEventKind::created, pk.created, i, router_of(pk.src), port_of_terminal(pk.src), queue);
    }

    /// Writes the route of packet `id`, which has reached the head of its source
    /// queue, into a route slot; slots are held only by packets in the network.
    void write_route(std::uint32_t id) {
        Packet& pk = packets_[id];
        const T& topo = fab_.topology();
        const NodeId src{router_of(pk.src)}, dst{router_of(pk.dst)};
        std::size_t len;
        if constexpr (adaptive && !hop_adaptive) {
            len = fab_.routing().select_route(topo, src, dst, pk.choice, scratch_route_.data(),
                                              occupancy_.network(fab_.flow(), sender_));
        } else if constexpr (requires(std::span<const std::uint8_t> b) {
                          fab_.routing().select_route(topo, NodeId{}, NodeId{}, std::uint64_t{}, scratch_route_.data(), b);
                      }) {
            len = failures_.any() ? fab_.routing().select_route(topo, src, dst, pk.choice, scratch_route_.data(),
                                                                failures_.flags())
                                  : fab_.routing().select_route(topo, src, dst, pk.choice, scratch_route_.data());
        } else {
            len = fab_.routing().select_route(topo, src, dst, pk.choice, scratch_route_.data());
        }
        if (len > max_hops_) {  // no route avoids the failed links: reported, and drained at the source
            len = 0;
            ++res_.packets_unroutable;
            pk.lost = true;
            notify_loss(pk, 0, 0, 0);  // counted lost where the cycle's losses settle
        }
        pk.route_len = static_cast<std::uint16_t>(len);
        pk.route_slot = routes_.take();
        routes_.write(pk.route_slot, 0, scratch_route_.data(), len);
    }

    /// Router `here` rewrites the rest of packet `id`'s route from its hop `hop` on.
    void reroute(std::uint32_t id, std::uint32_t here, std::uint32_t hop) {
        Packet& pk = packets_[id];
        const std::size_t len = fab_.routing().reroute(fab_.topology(), NodeId{here}, NodeId{router_of(pk.dst)}, hop,
                                                       pk.choice, scratch_route_.data(),
                                                       occupancy_.router(fab_.flow(), sender_, here));
        if (len == 0 || hop + len > max_hops_)
            throw std::logic_error(detail::message("the routing policy's reroute at router ", here, ", hop ", hop,
                                                   ", gave ", len, " hops, where 1 to max_hops - hop were due"));
        pk.route_len = static_cast<std::uint16_t>(hop + len);
        routes_.write(pk.route_slot, hop, scratch_route_.data(), len);
    }

    /// Input VC `ivc` starts passing on packet `id`, whose head is at hop `hop`
    /// and at the front since `front_since`: it asks for the route's next port and VC.
    void start_head(std::size_t ivc, std::uint32_t id, std::uint32_t hop, std::uint64_t front_since) {
        InputVc& v = in_[ivc];
        if constexpr (hop_adaptive)
            if (hop < packets_[id].route_len) reroute(id, static_cast<std::uint32_t>(decltype(in_)::node_of(ivc)), hop);
        const Packet& pk = packets_[id];
        if (hop >= pk.route_len) {
            v.out_port = static_cast<std::uint16_t>(port_of_terminal(pk.dst));
            v.out_vc = 0;
        } else {
            const RouteStep& s = routes_.step(pk.route_slot, hop);
            v.out_port = s.port;
            v.out_vc = s.vc;
        }
        if constexpr (adaptive) occupancy_.routed(static_cast<std::uint32_t>(decltype(in_)::node_of(ivc)), v.out_port, pk.size);
        v.state = VcState::waiting_vc;
        v.packet = id;
        v.ready = front_since + cfg_.pipeline.routing;
        v.since = front_since;
    }

    /// The flit at the front of an input VC (network port or source queue).
    [[nodiscard]] Flit front(std::uint32_t node, std::uint32_t port, std::uint32_t vc) const {
        if (port >= LOCAL) {
            const std::uint32_t id = sources_.front(terminal_at(node, port), vc);
            return Flit{id, packets_[id].sent, 0};
        }
        return in_.front(in_.index(node, port, vc));
    }

    /// Whether the flow control of sender (channel * V + vc) lets a flit go; the flit
    /// (`flit()`) is looked at only when the protocol or virtual cut-through needs its size.
    template <class FlitOf>
    [[nodiscard]] bool flow_allows(std::size_t sender, FlitOf&& flit) const {
        const bool whole = cfg_.switching == Switching::virtual_cut_through;
        if (!whole && !needs_packet_size) return fab_.flow().can_send(sender_[sender], false, 1, false);
        const Flit f = flit();
        return fab_.flow().can_send(sender_[sender], f.index == 0, packets_[f.packet].size, whole);
    }

    /// Flit `index` of packet `pk` is lost (with LossNotice::dropped in `flags`;
    /// without, the packet has no route): told where the cycle's losses settle.
    void notify_loss(const Packet& pk, std::uint16_t index, std::uint16_t past, std::uint8_t flags) {
        if (pk.measured) flags |= LossNotice::measured;
        losses_.post(LossNotice{pk.number, pk.dst, pk.message, pk.part, pk.size, index, past, flags});
    }

    /// This rank's copy of packet `id` has seen its last flit leave: its slots are
    /// freed at the end of the cycle, once the cycle's losses have settled (a copy
    /// cut this cycle still has virtual channels to release).
    void retire(std::uint32_t id) { retiring_.push_back(id); }
    void free_retired() {
        for (const std::uint32_t id : retiring_) {
            routes_.release(packets_[id].route_slot);
            packets_[id].number = Losses::unnumbered;
            packets_.release(id);
        }
        retiring_.clear();
    }

    /// Flits on links, in input buffers and in output queues (not the never injected ones of source queues).
    [[nodiscard]] std::uint64_t count_in_flight() const { return in_flight_links_ + in_.buffered() + out_.queued(); }

    const Fab& fab_;
    CycleConfig cfg_;
    Links links_;
    std::uint32_t nodes_ = 0;      // routers
    std::uint32_t per_node_ = 1;   // terminals a router (at most TM)
    std::uint32_t terminals_ = 0;  // where traffic starts and ends: per_node_ on each router from 0
    std::uint32_t max_hops_ = 0;
    std::uint64_t source_packet_cap_ = 0;  // packets the source queues may hold within the memory limit
    std::uint32_t buffer_ = 0;
    std::uint64_t wheel_size_ = 1;
    InputBuffers<P, V, TM> in_;
    std::vector<std::uint32_t> owner_;  // per output VC (an input VC index): the input VC holding it
    std::vector<std::uint32_t> va_rr_;
    std::vector<typename F::sender_vc> sender_;      // per (channel, vc)
    std::vector<typename F::receiver_vc> receiver_;  // per (channel, vc)
    std::vector<std::uint64_t> port_free_;           // per (node, port incl. local): the switch output is free from
    PortOccupancy<F, P, NP, V> occupancy_;           // with adaptive routing
    std::vector<std::uint64_t> sent_in_window_;      // per channel
    SourceQueues sources_;
    OutputQueues<P, V> out_;
    std::vector<std::uint32_t> active_;  // routers with a front flit or a queued one
    std::vector<std::uint8_t> is_active_;
    std::vector<std::uint64_t> wake_;  // per router: the first cycle at which stepping it can change anything
    LinkFailures failures_;
    EventWheel<Arrival> arrivals_;
    EventWheel<Feedback> feedback_;
    SlotPool<Packet> packets_;
    Losses losses_;           // flits lost this cycle, and the packets lost so far
    std::vector<std::uint32_t> retiring_;  // packets (copies) whose last flit here left this cycle
    MessageTable messages_;   // with max_packet_flits
    ReorderTracker reorder_;  // with track_reorder
    RouteStore routes_;
    ClassTable classes_;  // from CycleConfig::class_priority
    Watch watch_;  // with CycleConfig::watch
    std::vector<Hop> scratch_route_;
    LatencyHistogram latency_hist_, network_hist_, message_hist_, transaction_hist_;
    RingQueue<PendingReply> replies_;         // with request_reply, in the order (and cycles) they are due
    std::vector<std::uint32_t> outstanding_;  // with max_outstanding: per terminal, requests awaiting their reply
    CycleResult res_;  // counted into as the run goes
    std::uint64_t in_flight_links_ = 0;
    std::uint64_t buffered_ = 0;
};

}  // namespace fabric::cycle
