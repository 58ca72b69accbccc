// The flit-level cycle kernel: a discrete-time simulation of any fabric type.
//
// Routers are input queued, with `V` virtual channels per input port and a buffer
// per VC whose depth the flow-control protocol sets. Every router has one input
// port per link plus an injection port (fed by an unbounded source queue), and
// one output port per link plus an ejection port (an infinite sink, one flit per
// cycle). Packets are source routed: at creation the routing policy writes the
// whole route, each hop naming its port and virtual channel (select_route).
//
// Timing, for a flit at the front of an input VC:
//   - a head that became the front at cycle f may ask for its output VC from
//     f + routing; the VC allocator grants at most one requester per output VC
//     per cycle (round robin per output VC);
//   - from grant + vc_allocation the packet's flits ask for the switch; the
//     separable switch allocator picks one VC per input port, then one input
//     port per output port (round robin at both stages), among flits whose
//     downstream flow control allows a send and whose output link is free;
//   - a flit granted at cycle g leaves its buffer at g, starts onto the link at
//     g + switch_allocation + switch_traversal, and is in the next router's
//     buffer once its last bit is in: serialisation - 1 cycles later plus the
//     link's latency; a link takes one flit per `serialisation` cycles. Ejection
//     happens at g + switch_allocation + switch_traversal.
// So a packet of S flits crossing h >= 1 links with no contention, every link of
// latency L and serialisation s, a router pipeline of P cycles in all, takes
//   (h + 1) P + h (L + s - 1) + max((S - 1) s - (routing + vc_allocation), S - 1)
// cycles from creation to the ejection of its tail: the flits leave s cycles
// apart, and at the last router the body flits, which need no routing and no VC,
// close up by routing + vc_allocation cycles, down to one flit per cycle at the
// ejection port. With s = 1 this is (h + 1) P + h L + S - 1.
//
// Flow control is a policy (see flow/credit.hpp for the hooks). Wormhole
// switching lets a head go when the next buffer has one free slot; virtual
// cut-through only when it can take the whole packet.
//
// Methodology: packets are created by a Bernoulli process per node (or read
// from a trace); those created during the measurement window (after warm-up) are
// tracked to delivery while the offered load continues (drain). A run is reported
// saturated when its measured packets have not all arrived by the drain limit (or
// its source queues outgrow max_queued_per_node, which stops it early), or when
// it accepted less than 95% of the load offered in the window.
// A watchdog stops a run when flits that have not moved for `watchdog` cycles wait
// on each other in a cycle of virtual channels, and reports that cycle.
//
// No virtual call anywhere; per-flit and per-cycle work touches preallocated
// arrays only (the packet pool and queues grow only when their peak grows).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/random.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
#include <fabric/sim/statistics.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric {

namespace detail {
enum class cycle_rule : std::uint8_t { ok, not_a_fabric, no_reverse_port, not_source_routable, no_flow_hooks };

template <class Fab>
consteval cycle_rule first_broken_cycle_rule() {
    if constexpr (!FabricType<Fab>) return cycle_rule::not_a_fabric;
    else if constexpr (!CycleTopology<typename Fab::topology_type>) return cycle_rule::no_reverse_port;
    else if constexpr (!SourceRoutable<typename Fab::routing_type, typename Fab::topology_type>)
        return cycle_rule::not_source_routable;
    else if constexpr (!CycleFlowControl<typename Fab::flow_type>) return cycle_rule::no_flow_hooks;
    else return cycle_rule::ok;
}
}  // namespace detail

/// Formed only for a type that is not a CycleKernelFabric: says which requirement
/// is broken, in one sentence (the simulator itself is the specialisation below).
template <class Fab>
class CycleSimulator {
    static constexpr detail::cycle_rule broken = detail::first_broken_cycle_rule<Fab>();
    static_assert(broken != detail::cycle_rule::not_a_fabric,
                  "fabric: CycleSimulator<F> needs a fabric type (fabric::Fabric<Topology, Routing, Flow>, or one "
                  "with topology_type, routing_type, flow_type and topology(), routing(), flow())");
    static_assert(broken != detail::cycle_rule::no_reverse_port,
                  "fabric: the cycle kernel needs a CycleTopology: give the topology reverse_port(node, port), the "
                  "port at the far end of a link that leads back, so flow-control feedback can travel");
    static_assert(broken != detail::cycle_rule::not_source_routable,
                  "fabric: the cycle kernel routes packets at the source; the routing policy must provide "
                  "select_route(topology, src, dst, choice, out) and max_hops(topology) (fabric::SourceRoutable)");
    static_assert(broken != detail::cycle_rule::no_flow_hooks,
                  "fabric: the cycle kernel drives flow control through hooks the protocol lacks; see "
                  "fabric::CycleFlowControl and flow/credit.hpp");

public:
    template <class... Args>
    explicit CycleSimulator(const Fab&, Args&&...) {}
};

template <class Fab>
CycleSimulator(const Fab&, CycleConfig) -> CycleSimulator<Fab>;
template <class Fab>
CycleSimulator(const Fab&) -> CycleSimulator<Fab>;

template <class Fab>
    requires CycleKernelFabric<Fab>
class CycleSimulator<Fab> {
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    using F = typename Fab::flow_type;

    static constexpr std::uint32_t P = static_cast<std::uint32_t>(T::ports_per_node);  // network ports
    static constexpr std::uint32_t LOCAL = P;                                          // injection / ejection
    static constexpr std::uint32_t NP = P + 1;
    static constexpr std::uint32_t V = static_cast<std::uint32_t>(max_virtual_channels_v<T>);
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    static constexpr std::uint32_t VCS = NP * V;             // input VCs per router
    static constexpr std::uint32_t WORDS = (VCS + 63) / 64;  // occupancy mask words per router
    static constexpr std::uint32_t OWORDS = (P * V + 63) / 64;  // output-queue mask words per router

public:
    explicit CycleSimulator(const Fab& fabric, CycleConfig config = {})
        : fab_(fabric), cfg_(validated(std::move(config))), links_(fabric.topology(), cfg_) {
        detail::require(cfg_.injection_queues <= V, "this fabric's links have ", V,
                        " virtual channels, so a node takes at most ", V,
                        " injection queues (one input VC each); got injection_queues = ", cfg_.injection_queues);
        const T& topo = fab_.topology();
        nodes_ = static_cast<std::uint32_t>(topo.node_count());
        max_hops_ = static_cast<std::uint32_t>(R::max_hops(topo));
        buffer_ = fab_.flow().buffer_flits();
        std::uint64_t frame = 1;
        if constexpr (framed) frame = fab_.flow().frame_data_slots() + fab_.flow().frame_credit_slots();
        const std::uint64_t longest = std::max<std::uint64_t>(
            cfg_.pipeline.switch_allocation + cfg_.pipeline.switch_traversal + links_.max_latency() +
                links_.max_serialisation() * (protocol_flits + 1) + 2 * frame,
            fab_.flow().feedback_delay());
        wheel_size_ = cycle::EventWheel<Arrival>::horizon_for(longest);
    }

    /// Bernoulli injection at `rate` flits/cycle/node, destinations from `pattern`
    /// (one task per node), packet sizes from `sizes`.
    template <TrafficPattern Pattern>
    CycleResult run(const Pattern& pattern, double rate, PacketSizes sizes = PacketSizes::fixed(1)) {
        sizes.validate();
        detail::require(pattern.task_count() == nodes_, "the cycle kernel runs one task per node: the pattern has ",
                        pattern.task_count(), " tasks, the topology ", nodes_, " nodes");
        detail::require(rate >= 0 && rate <= sizes.mean(), "offered load must be in [0, mean packet size = ",
                        sizes.mean(), "] flits/cycle/node; got ", rate);
        check_switching(sizes.max());
        const DestinationSampler<Pattern> sampler(pattern);
        // A Bernoulli trial per node per cycle, drawn as geometric gaps between
        // successes: one random draw per packet instead of one per node-cycle.
        const double p_packet = rate / sizes.mean();
        const double log_miss = p_packet < 1 ? std::log1p(-p_packet) : 0.0;
        std::vector<std::uint64_t> next(nodes_, std::numeric_limits<std::uint64_t>::max());
        bool first = true;
        auto gap = [&](Random& rng) -> std::uint64_t {
            if (p_packet >= 1) return 1;
            const double u = 1.0 - rng.uniform();  // (0, 1]
            const double g = std::floor(std::log(u) / log_miss);
            return g > 1e18 ? std::numeric_limits<std::uint64_t>::max() / 2 : static_cast<std::uint64_t>(g) + 1;
        };
        return simulate(rate, std::nullopt, [&](std::uint64_t now, Random& rng) {
            if (first) {
                first = false;
                if (p_packet > 0)
                    for (std::uint32_t n = 0; n < nodes_; ++n)
                        if (sampler.sends(n)) next[n] = gap(rng) - 1;
            }
            for (std::uint32_t n = 0; n < nodes_; ++n) {
                if (next[n] != now) continue;
                const auto dst = static_cast<std::uint32_t>(sampler(n, rng));
                create_message(n, dst, sizes.draw(rng), now, rng);
                next[n] = now + gap(rng);
            }
        });
    }

    /// Injects the messages of a trace (sorted by cycle) at their cycles.
    CycleResult run_trace(std::span<const TraceMessage> trace) {
        std::uint32_t largest = 1;
        for (std::size_t i = 0; i < trace.size(); ++i) {
            const auto& m = trace[i];
            detail::require(m.source < nodes_ && m.destination < nodes_, "trace message ", i,
                            " names a node out of range; valid: 0 to ", nodes_ - 1);
            detail::require(m.flits >= 1 && m.flits <= 65535, "trace message ", i, " needs 1 to 65535 flits");
            detail::require(i == 0 || trace[i - 1].cycle <= m.cycle, "trace messages must be sorted by cycle (message ",
                            i, ")");
            largest = std::max(largest, m.flits);
        }
        check_switching(largest);
        std::size_t next = 0;
        const std::uint64_t last = trace.empty() ? 0 : trace.back().cycle;
        return simulate(0.0, last, [&](std::uint64_t now, Random& rng) {
            while (next < trace.size() && trace[next].cycle == now) {
                create_message(trace[next].source, trace[next].destination, trace[next].flits, now, rng);
                ++next;
            }
        });
    }

    /// The link of `port` at `node` fails at `cycle` of the next run, in both
    /// directions. Flits on it or bound for it are dropped and their packets
    /// reported lost; packets routed afterwards avoid it when the routing policy
    /// can (select_route with the broken channels), or are reported unroutable.
    void fail_link(NodeId node, PortId port, std::uint64_t cycle) {
        const T& topo = fab_.topology();
        detail::require(node.value < nodes_ && port.value < P && topo.neighbour(node, port).valid(), "node ",
                        node.value, " has no link on port ", port.value);
        failures_.push_back({cycle, static_cast<std::uint32_t>(static_cast<std::size_t>(node.value) * P + port.value)});
    }

    /// The link of `port` at `node` works again from `cycle` of the next run (both
    /// directions); routes computed afterwards may use it.
    void restore_link(NodeId node, PortId port, std::uint64_t cycle) {
        detail::require(node.value < nodes_ && port.value < P && fab_.topology().neighbour(node, port).valid(), "node ",
                        node.value, " has no link on port ", port.value);
        restores_.push_back({cycle, static_cast<std::uint32_t>(static_cast<std::size_t>(node.value) * P + port.value)});
    }

    /// The link of `port` at `node` runs at 1/`factor` of its bandwidth (both
    /// directions): its serialisation grows by the factor, rounded up.
    void slow_link(NodeId node, PortId port, double factor) {
        const T& topo = fab_.topology();
        detail::require(node.value < nodes_ && port.value < P && topo.neighbour(node, port).valid(), "node ",
                        node.value, " has no link on port ", port.value);
        links_.slow(links_.channel(node.value, port.value), factor);
        while (wheel_size_ <= static_cast<std::uint64_t>(links_.max_serialisation()) * 4 + 4096) wheel_size_ *= 2;
    }

    [[nodiscard]] const CycleConfig& config() const { return cfg_; }

private:
    using Flit = cycle::Flit;
    using Packet = cycle::Packet;
    using RouteStep = cycle::RouteStep;
    using SourceQueue = cycle::RingQueue<std::uint32_t>;
    enum class VcState : std::uint8_t { idle, waiting_vc, active };
    struct InputVc {
        std::uint32_t head = 0;   // index of the front flit in its ring
        std::uint32_t count = 0;  // flits buffered (network ports)
        VcState state = VcState::idle;
        std::uint8_t out_vc = 0;
        std::uint16_t out_port = 0;
        std::uint64_t ready = 0;  // cycle from which the front flit may take its next step
        std::uint64_t since = 0;  // cycle at which the front flit became the front
        std::uint32_t packet = 0;  // the packet whose flits it passes on
        std::uint32_t last = 0;    // index of the last flit it passed on
    };
    struct Arrival {
        std::uint32_t ivc;  // where it arrives; the link it crosses is that input's upstream channel
        Flit flit;
    };
    struct Feedback {
        std::uint32_t sender;
        std::uint64_t value;
    };
    // --- setup --------------------------------------------------------------------------
    static CycleConfig validated(CycleConfig c) {
        c.validate();
        return c;
    }

    void check_switching(std::uint32_t largest) const {
        if (cfg_.max_packet_flits) largest = std::min(largest, cfg_.max_packet_flits);
        if (cfg_.switching == Switching::virtual_cut_through)
            detail::require(largest <= buffer_, "virtual cut-through needs a buffer of a whole packet: the largest "
                            "packet has ", largest, " flits, the buffer per VC ", buffer_, "; raise the buffer or use "
                            "wormhole switching");
    }

    void reset() {
        // Route slots hold the longest route; detours round failed links may be longer.
        max_hops_ = static_cast<std::uint32_t>(R::max_hops(fab_.topology()));
        if constexpr (requires { R::max_detour_hops(fab_.topology()); })
            if (!failures_.empty())
                max_hops_ = static_cast<std::uint32_t>(R::max_detour_hops(fab_.topology()));
        const std::size_t ivcs = static_cast<std::size_t>(nodes_) * NP * V;
        ivc_.assign(ivcs, InputVc{});
        flits_.assign(static_cast<std::size_t>(nodes_) * P * V * buffer_, Flit{0, 0, 0});
        owner_.assign(ivcs, none);
        va_rr_.assign(ivcs, 0);
        const std::size_t channels = static_cast<std::size_t>(nodes_) * P;
        sender_.assign(channels * V, typename F::sender_vc{});
        for (auto& s : sender_) fab_.flow().init(s);
        receiver_.assign(channels * V, typename F::receiver_vc{});
        port_free_.assign(static_cast<std::size_t>(nodes_) * NP, 0);
        in_rr_.assign(static_cast<std::size_t>(nodes_) * NP, 0);
        out_rr_.assign(static_cast<std::size_t>(nodes_) * NP, 0);
        sent_in_window_.assign(channels, 0);
        occupied_.assign(static_cast<std::size_t>(nodes_), 0);
        mask_.assign(static_cast<std::size_t>(nodes_) * WORDS, 0);
        queues_ = cfg_.injection_queues;
        source_.assign(static_cast<std::size_t>(nodes_) * queues_, SourceQueue{});
        next_queue_.assign(nodes_, 0);
        ob_ = cfg_.output_buffer_flits;
        const std::size_t ovcs = ob_ ? channels * V : 0;
        oq_flits_.assign(ovcs * ob_, Flit{0, 0, 0});
        oq_time_.assign(ovcs * ob_, 0);
        oq_head_.assign(ovcs, 0);
        oq_count_.assign(ovcs, 0);
        oq_since_.assign(ovcs, 0);
        link_free_.assign(ob_ ? channels : 0, 0);
        link_rr_.assign(ob_ ? channels : 0, 0);
        oq_node_flits_.assign(ob_ ? nodes_ : 0, 0);
        link_wake_.assign(ob_ ? nodes_ : 0, 0);
        omask_.assign(ob_ ? static_cast<std::size_t>(nodes_) * OWORDS : 0, 0);
        active_.clear();
        active_.reserve(nodes_);
        is_active_.assign(nodes_, 0);
        wake_.assign(nodes_, 0);
        arrivals_.reset(wheel_size_ - 1);
        feedback_.reset(wheel_size_ - 1);
        packets_.clear();
        routes_.reset(max_hops_);
        scratch_route_.resize(max_hops_ + 1);
        latency_hist_ = {};
        network_hist_ = {};
        message_hist_ = {};
        messages_.clear();
        res_ = CycleResult{};
        in_flight_links_ = 0;
        buffered_ = 0;
        queued_ = 0;
        broken_.assign(static_cast<std::size_t>(nodes_) * P, 0);
        any_broken_ = false;
        reorder_ = cycle::ReorderTracker(nodes_);
    }

    void mark(std::uint32_t n, std::uint32_t port, std::uint32_t vc, bool on) {
        const std::uint32_t bit = port * V + vc;
        std::uint64_t& word = mask_[static_cast<std::size_t>(n) * WORDS + bit / 64];
        if (on) word |= std::uint64_t{1} << (bit % 64);
        else word &= ~(std::uint64_t{1} << (bit % 64));
    }

    /// Router n has work from cycle `when` on (or earlier, if it already had).
    void activate(std::uint32_t n, std::uint64_t when) {
        wake_[n] = is_active_[n] ? std::min(wake_[n], when) : when;
        if (!is_active_[n]) {
            is_active_[n] = 1;
            active_.push_back(n);
        }
    }

    [[nodiscard]] std::size_t ivc_index(std::uint32_t n, std::uint32_t port, std::uint32_t vc) const {
        return (static_cast<std::size_t>(n) * NP + port) * V + vc;
    }


    /// A message of `size` flits from src to dst: one packet, or with
    /// max_packet_flits its packets, all through one injection queue (dealt to
    /// the node's queues in turn, message by message).
    void create_message(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now, Random& rng) {
        const std::uint32_t hfi = next_queue_[src];
        next_queue_[src] = hfi + 1 == queues_ ? 0 : hfi + 1;
        const std::uint32_t most = cfg_.max_packet_flits;
        if (!most) {
            create_packet(src, dst, size, now, rng, hfi, none, 0);
            return;
        }
        const bool measured = cfg_.in_window(now);
        const std::uint32_t id = messages_.open((size + most - 1) / most, now, measured);
        if (measured) ++res_.measured_messages;
        for (std::uint32_t part = 0; part * most < size; ++part)
            create_packet(src, dst, std::min(most, size - part * most), now, rng, hfi, id, part);
    }

    void create_packet(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now, Random& rng,
                       std::uint32_t hfi, std::uint32_t message, std::uint32_t part) {
        const std::uint32_t id = packets_.take();
        Packet& pk = packets_[id];
        pk = Packet{};
        pk.src = src;
        pk.dst = dst;
        pk.size = static_cast<std::uint16_t>(size);
        pk.created = now;
        pk.measured = now >= cfg_.warmup && now < cfg_.warmup + cfg_.measure;
        pk.choice = rng.next();  // the route is drawn now, written when the packet reaches the queue's head
        pk.message = message;
        pk.part = part;
        if (cfg_.track_reorder) pk.sequence = reorder_.next_sequence(src, dst);
        if (pk.measured) {
            ++res_.measured_packets;
            res_.flits_created_in_window += size;
        }
        SourceQueue& q = source_[static_cast<std::size_t>(src) * queues_ + hfi];
        q.push(id);
        ++queued_;
        if (q.size() == 1) {
            write_route(id);
            start_head(ivc_index(src, LOCAL, hfi), id, 0, now);
            mark(src, LOCAL, hfi, true);
            activate(src, ivc_[ivc_index(src, LOCAL, hfi)].ready);
        } else {
            activate(src, wake_[src]);
        }
    }

    /// Writes the route of packet `id`, which has reached the head of its source
    /// queue, into a route slot; slots are held only by packets in the network.
    void write_route(std::uint32_t id) {
        Packet& pk = packets_[id];
        std::size_t len;
        if constexpr (requires(std::span<const std::uint8_t> b) {
                          fab_.routing().select_route(fab_.topology(), NodeId{}, NodeId{}, std::uint64_t{},
                                                      scratch_route_.data(), b);
                      }) {
            len = any_broken_ ? fab_.routing().select_route(fab_.topology(), NodeId{pk.src}, NodeId{pk.dst}, pk.choice,
                                                            scratch_route_.data(),
                                                            std::span<const std::uint8_t>(broken_))
                              : fab_.routing().select_route(fab_.topology(), NodeId{pk.src}, NodeId{pk.dst}, pk.choice,
                                                            scratch_route_.data());
        } else {
            len = fab_.routing().select_route(fab_.topology(), NodeId{pk.src}, NodeId{pk.dst}, pk.choice,
                                              scratch_route_.data());
        }
        if (len > max_hops_) {  // no route avoids the failed links: reported, and drained at the source
            len = 0;
            ++res_.packets_unroutable;
            mark_lost(pk);
        }
        pk.route_len = static_cast<std::uint16_t>(len);
        pk.route_slot = routes_.take();
        RouteStep* steps = routes_.steps(pk.route_slot);
        for (std::size_t i = 0; i < len; ++i)
            steps[i] = RouteStep{static_cast<std::uint16_t>(scratch_route_[i].port.value), scratch_route_[i].vc};
    }

    /// The route step a head at hop `hop` of packet `id` takes: an output port and VC.
    void start_head(std::size_t ivc, std::uint32_t id, std::uint32_t hop, std::uint64_t front_since) {
        InputVc& v = ivc_[ivc];
        const Packet& pk = packets_[id];
        if (hop >= pk.route_len) {
            v.out_port = static_cast<std::uint16_t>(LOCAL);
            v.out_vc = 0;
        } else {
            const RouteStep& s = routes_.step(pk.route_slot, hop);
            v.out_port = s.port;
            v.out_vc = s.vc;
        }
        v.state = VcState::waiting_vc;
        v.packet = id;
        v.ready = front_since + cfg_.pipeline.routing;
        v.since = front_since;
    }

    // --- the run ------------------------------------------------------------------------
    /// Runs until the measured packets are delivered (Bernoulli: injection goes on
    /// meanwhile) or, for a trace ending at `trace_end`, until the trace is injected
    /// and the network is empty; the drain limit and the watchdog stop it earlier.
    template <class Inject>
    CycleResult simulate(double rate, std::optional<std::uint64_t> trace_end, Inject&& inject) {
        reset();
        Random rng(cfg_.seed);
        const std::uint64_t window_end = cfg_.warmup + cfg_.measure;
        const std::uint64_t drain = cfg_.drain_limit ? cfg_.drain_limit : std::max<std::uint64_t>(3 * window_end, 20000);
        const std::uint64_t stop = std::max(window_end, trace_end.value_or(0) + 1) + drain;
        const std::uint64_t check_every = std::max<std::uint64_t>(1, std::min<std::uint64_t>(cfg_.watchdog / 4, 1024));
        std::uint64_t now = 0;
        std::uint64_t until_check = check_every;
        auto last_report = std::chrono::steady_clock::now();
        for (;; ++now) {
            if (!failures_.empty()) apply_failures(now);
            if (!restores_.empty())
                for (const auto& [cycle, channel] : restores_) {
                if (cycle != now) continue;
                broken_[channel] = 0;
                broken_[links_.reverse(channel)] = 0;
            }
            if (!trace_end || now <= *trace_end) inject(now, rng);
            tick_receivers(now);
            deliver_events(now);
            step_routers(now);
            const bool measured_in = res_.measured_accounted();
            const bool done = trace_end ? now >= *trace_end && buffered_ == 0 && queued_ == 0 && in_flight_links_ == 0
                                        : now + 1 >= window_end && measured_in;
            if (done) {
                ++now;
                break;
            }
            if (now + 1 >= stop ||
                (!trace_end && now >= window_end && queued_ > cfg_.max_queued_per_node * nodes_)) {
                res_.drained = measured_in && !(trace_end && (buffered_ || queued_ || in_flight_links_));
                ++now;
                break;
            }
            if (--until_check == 0) until_check = check_every;
            if (buffered_ > 0 && until_check == check_every) {
                if (auto report = find_deadlock(now)) {
                    res_.deadlock = std::move(report);
                    res_.drained = false;
                    ++now;
                    break;
                }
            }
            if (cfg_.on_progress && (now & 0x3fff) == 0) {
                const auto t = std::chrono::steady_clock::now();
                if (std::chrono::duration<double>(t - last_report).count() >= cfg_.progress_seconds) {
                    last_report = t;
                    cfg_.on_progress(CycleProgress{now, stop, res_.measured_packets, res_.measured_delivered});
                }
            }
        }
        (void)rate;
        res_.cycles = now;
        const double window_node_cycles = static_cast<double>(cfg_.measure) * nodes_;
        res_.offered = static_cast<double>(res_.flits_created_in_window) / window_node_cycles;
        res_.accepted = static_cast<double>(res_.flits_ejected_in_window) / window_node_cycles;
        res_.saturated = !res_.drained || res_.accepted < 0.95 * res_.offered;
        res_.latency = LatencySummary::of(latency_hist_);
        res_.network_latency = LatencySummary::of(network_hist_);
        res_.hops_mean = res_.measured_delivered
                             ? static_cast<double>(res_.measured_hops) / static_cast<double>(res_.measured_delivered)
                             : 0.0;
        res_.flits_in_flight = count_in_flight();
        res_.message_latency = LatencySummary::of(message_hist_);
        res_.ports_per_node = P;
        res_.channel_utilisation.resize(sent_in_window_.size());
        for (std::size_t c = 0; c < sent_in_window_.size(); ++c)
            res_.channel_utilisation[c] = static_cast<double>(sent_in_window_[c]) / static_cast<double>(cfg_.measure);
        return std::move(res_);
    }

    void deliver_events(std::uint64_t now) {
        auto& fb = feedback_.due(now);
        for (const Feedback& f : fb) {
            fab_.flow().on_feedback(sender_[f.sender], f.value);
            const auto node = static_cast<std::uint32_t>(f.sender / (static_cast<std::size_t>(P) * V));
            wake_[node] = std::min(wake_[node], now);  // a blocked flit there may go now
            if (ob_) link_wake_[node] = now;
        }
        fb.clear();
        auto& arr = arrivals_.due(now);
        for (const Arrival& a : arr) {
            --in_flight_links_;
            ++buffered_;
            InputVc& v = ivc_[a.ivc];
            const std::uint32_t node = static_cast<std::uint32_t>(a.ivc / (static_cast<std::size_t>(NP) * V));
            const std::uint32_t port = static_cast<std::uint32_t>((a.ivc / V) % NP);
            const std::uint32_t vc = static_cast<std::uint32_t>(a.ivc % V);
            if (v.count == buffer_)
                throw std::logic_error(detail::message("buffer overflow at node ", node, " port ", port, " vc ", vc,
                                                       ": the flow-control protocol let too many flits through"));
            flits_[ring_base(node, port, vc) + (v.head + v.count) % buffer_] = a.flit;
            ++v.count;
            ++occupied_[node];
            const std::size_t channel = static_cast<std::size_t>(node) * P + port;
            const std::uint32_t up = links_.up(channel);
            fab_.flow().on_arrive(receiver_[channel * V + vc],
                                  [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
            std::uint64_t wake = now;  // a flit behind others changes nothing; a body flit may go now
            if (v.count == 1) {
                mark(node, port, vc, true);
                if (v.state == VcState::idle) {
                    start_head(a.ivc, a.flit.packet, a.flit.hop, now);
                    wake = v.ready;  // a head can act once routed
                } else {
                    v.since = now;
                }
            } else {
                wake = wake_[node];
            }
            activate(node, wake);
        }
        arr.clear();
    }

    void send_feedback(std::uint32_t channel, std::uint32_t vc, std::uint64_t value, std::uint64_t now) {
        feedback_.schedule(now + fab_.flow().feedback_delay(),
                           Feedback{static_cast<std::uint32_t>(static_cast<std::size_t>(channel) * V + vc), value});
    }

    [[nodiscard]] std::size_t ring_base(std::uint32_t node, std::uint32_t port, std::uint32_t vc) const {
        return ((static_cast<std::size_t>(node) * P + port) * V + vc) * buffer_;
    }

    /// The flit at the front of an input VC (network port or source queue).
    [[nodiscard]] Flit front(std::uint32_t node, std::uint32_t port, std::uint32_t vc) const {
        if (port == LOCAL) {
            const std::uint32_t id = source_[static_cast<std::size_t>(node) * queues_ + vc].front();
            return Flit{id, packets_[id].sent, 0};
        }
        const InputVc& v = ivc_[ivc_index(node, port, vc)];
        return flits_[ring_base(node, port, vc) + v.head];
    }

    [[nodiscard]] bool has_front(std::uint32_t node, std::uint32_t port, std::uint32_t vc) const {
        const std::uint32_t bit = port * V + vc;
        return (mask_[static_cast<std::size_t>(node) * WORDS + bit / 64] >> (bit % 64)) & 1U;
    }

    void step_routers(std::uint64_t now) {
        std::size_t keep = 0;
        for (std::size_t i = 0; i < active_.size(); ++i) {
            const std::uint32_t n = active_[i];
            if (wake_[n] <= now) wake_[n] = step_router(n, now);
            if (any_front(n)) active_[keep++] = n;
            else is_active_[n] = 0;
        }
        active_.resize(keep);
    }

    [[nodiscard]] bool any_front(std::uint32_t n) const {
        if (ob_ && oq_node_flits_[n]) return true;
        for (std::uint32_t w = 0; w < WORDS; ++w)
            if (mask_[static_cast<std::size_t>(n) * WORDS + w]) return true;
        return false;
    }

    /// Calls f(port, vc) for every input VC of router n with a front flit, in index order.
    template <class Fn>
    void for_each_front(std::uint32_t n, Fn&& f) const {
        for (std::uint32_t w = 0; w < WORDS; ++w) {
            std::uint64_t bits = mask_[static_cast<std::size_t>(n) * WORDS + w];
            while (bits) {
                const auto bit = static_cast<std::uint32_t>(w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)));
                bits &= bits - 1;
                f(bit / V, bit % V);
            }
        }
    }

    /// One cycle of router n; returns the first cycle at which stepping it again
    /// can change anything, short of an event (arrival, feedback, new packet) that
    /// wakes it earlier.
    std::uint64_t step_router(std::uint32_t n, std::uint64_t now) {
        const PipelineDelays& pd = cfg_.pipeline;
        std::uint64_t wake = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) { wake = t < wake ? t : wake; };
        const std::uint64_t exit_delay = static_cast<std::uint64_t>(pd.switch_allocation) + pd.switch_traversal;
        if (ob_ && oq_node_flits_[n]) {
            if (now >= link_wake_[n]) link_stage(n, now, later);
            else later(link_wake_[n]);
        }

        // One pass over the occupied input VCs collects both the VC-allocation
        // requests and each input port's switch request (round robin from its
        // pointer). A head granted its VC this cycle may bid for the switch only
        // from grant + vc_allocation, so with a VA delay of 0 a second pass follows.
        std::size_t requests = 0;
        std::size_t granted = 0;
        std::uint32_t choice[NP];
        std::uint32_t requested = 0;
        for (std::uint32_t port = 0; port < NP; ++port) choice[port] = none;
        const std::size_t base = static_cast<std::size_t>(n) * NP;
        // Per-router views: locals the compiler need not reload after every store.
        InputVc* const vcs = ivc_.data() + base * V;
        std::uint32_t* const owner = owner_.data() + base * V;
        const std::uint32_t* const in_rr = in_rr_.data() + base;
        const std::uint64_t* const port_free = port_free_.data() + base;
        auto switch_request = [&](std::uint32_t port, std::uint32_t vc, const InputVc& v) {
            if (v.state != VcState::active) return;
            if (v.ready > now) return later(v.ready);
            if (any_broken_ && v.out_port != LOCAL && broken_[static_cast<std::size_t>(n) * P + v.out_port]) {
                transfer(n, port, vc, now, exit_delay, /*drop=*/true);  // its link is gone: dropped, reported
                return later(now + 1);
            }
            const std::uint32_t start = in_rr[port];
            if (choice[port] != none && (choice[port] + V - start) % V <= (vc + V - start) % V) return later(now + 1);
            const std::uint64_t free = port_free[v.out_port];
            if (free > now + exit_delay) return later(free - exit_delay);
            if (!output_ready(n, port, vc, v)) return;  // blocked: a feedback event wakes us
            if (choice[port] == none) ++requested;
            else later(now + 1);
            choice[port] = vc;
        };
        for_each_front(n, [&](std::uint32_t port, std::uint32_t vc) {
            InputVc& v = vcs[port * V + vc];
            if (v.state == VcState::waiting_vc) {
                if (v.ready > now) return later(v.ready);
                if (v.out_port == LOCAL) {  // ejection: no virtual channel to hold
                    v.state = VcState::active;
                    v.ready = now + pd.vc_allocation;
                    later(v.ready);
                    ++granted;
                } else if (const std::uint32_t ov = v.out_port * V + v.out_vc; owner[ov] == none) {
                    va_requests_[requests++] = {base * V + port * V + vc, base * V + ov};
                }
                // else: the holder's tail frees the VC when this router moves it (a transfer wakes us)
                return;
            }
            switch_request(port, vc, v);
        });
        // VC allocation: per output VC, the requester nearest at or after its pointer wins.
        cycle::RoundRobinVcAllocator::allocate(
            std::span<const std::pair<std::size_t, std::size_t>>(va_requests_.data(), requests), owner_, va_rr_,
            static_cast<std::size_t>(nodes_) * NP * V,
            [&](std::size_t best) {
                InputVc& w = ivc_[best];
                w.state = VcState::active;
                w.ready = now + pd.vc_allocation;
                later(w.ready);
                ++granted;
            },
            [&] { later(now + 1); });
        if (pd.vc_allocation == 0 && granted > 0) {
            for_each_front(n, [&](std::uint32_t port, std::uint32_t vc) {
                const InputVc& v = vcs[port * V + vc];
                if (v.ready == now && v.state == VcState::active) switch_request(port, vc, v);
            });
        }
        if (requested == 0) return wake;
        // Output stage: each output port grants the requesting input port nearest
        // at or after its round-robin pointer.
        cycle::RoundRobinSwitchOutputStage<NP>::allocate(
            choice, [&](std::uint32_t port) { return static_cast<std::uint32_t>(vcs[port * V + choice[port]].out_port); },
            out_rr_.data() + base, [&](std::uint32_t port, std::uint32_t) {
                transfer(n, port, choice[port], now, exit_delay);
                in_rr_[base + port] = choice[port] + 1 == V ? 0 : choice[port] + 1;
            });
        // A transfer changes what follows it (next flits, freed VCs), and a loser
        // of the output stage bids again: look again next cycle.
        later(now + 1);
        return wake;
    }


    /// Whether the flow control of the output lets the flit at the front go (the
    /// output link's availability is checked by the caller). The front flit is
    /// looked at only when the protocol or virtual cut-through needs its packet's size.
    [[nodiscard]] bool output_ready(std::uint32_t n, std::uint32_t port, std::uint32_t vc, const InputVc& v) const {
        if (v.out_port == LOCAL) return true;
        const std::size_t channel = static_cast<std::size_t>(n) * P + v.out_port;
        if (ob_) return oq_count_[channel * V + v.out_vc] < ob_;  // room in the output queue
        return flow_allows(channel * V + v.out_vc, [&] { return front(n, port, vc); });
    }

    /// Whether the flow control of sender (channel * V + vc) lets a flit go; the
    /// flit (from `flit()`) is looked at only when the protocol or virtual
    /// cut-through needs its packet's size.
    template <class FlitOf>
    [[nodiscard]] bool flow_allows(std::size_t sender, FlitOf&& flit) const {
        const bool whole = cfg_.switching == Switching::virtual_cut_through;
        if (!whole && !needs_packet_size) return fab_.flow().can_send(sender_[sender], false, 1, false);
        const Flit f = flit();
        return fab_.flow().can_send(sender_[sender], f.index == 0, packets_[f.packet].size, whole);
    }

    // --- optional protocol hooks (see flow/apenet_credit.hpp) ---------------------------
    static constexpr std::uint32_t protocol_flits = flow_traits<F>::protocol_flits;
    static constexpr bool framed = flow_traits<F>::framed;
    static constexpr bool ticks = flow_traits<F>::ticks;

    /// The first cycle at or after t that is a data slot of the link's frame:
    /// frames are frame_data_slots data cycles followed by frame_credit_slots
    /// cycles that carry the protocol's Credits.
    [[nodiscard]] std::uint64_t next_data_slot(std::uint64_t t) const {
        if constexpr (framed) {
            const std::uint64_t data = fab_.flow().frame_data_slots();
            const std::uint64_t frame = data + fab_.flow().frame_credit_slots();
            const std::uint64_t phase = t % frame;
            return phase < data ? t : t + frame - phase;
        } else {
            return t;
        }
    }

    /// At the start of every frame's credit slots each receiver sends its Credit.
    void tick_receivers(std::uint64_t now) {
        if constexpr (ticks && framed) {
            const std::uint64_t data = fab_.flow().frame_data_slots();
            const std::uint64_t frame = data + fab_.flow().frame_credit_slots();
            if (now % frame != data) return;
            for (std::size_t channel = 0; channel < static_cast<std::size_t>(nodes_) * P; ++channel) {
                const std::uint32_t up = links_.up(channel);
                if (up == none) continue;
                for (std::uint32_t vc = 0; vc < V; ++vc)
                    fab_.flow().tick(receiver_[channel * V + vc],
                                     [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
            }
        } else {
            (void)now;
        }
    }

    static constexpr bool needs_packet_size = flow_traits<F>::needs_packet_size;

    void transfer(std::uint32_t n, std::uint32_t port, std::uint32_t vc, std::uint64_t now, std::uint64_t exit_delay,
                  bool drop = false) {
        const std::size_t iv = ivc_index(n, port, vc);
        InputVc& v = ivc_[iv];
        const Flit f = front(n, port, vc);
        Packet& pk = packets_[f.packet];
        // Past a link that failed under the packet, its last flit to get across is its tail.
        const bool tail = f.index + 1 == pk.size || (!drop && f.index + 1 == pk.cut);
        const std::uint64_t leaves = now + exit_delay;
        v.last = f.index;
        ++res_.flit_moves;

        // Out of the input buffer.
        if (port == LOCAL) {
            if (f.index == 0) pk.injected = now;
            ++pk.sent;
            ++res_.flits_injected;
            if (tail) {
                SourceQueue& q = source_[static_cast<std::size_t>(n) * queues_ + vc];
                q.pop();
                --queued_;
                if (q.empty()) mark(n, LOCAL, vc, false);
            }
        } else {
            v.head = (v.head + 1) % buffer_;
            --v.count;
            --occupied_[n];
            if (v.count == 0) mark(n, port, vc, false);
            --buffered_;
            const std::size_t channel = static_cast<std::size_t>(n) * P + port;
            const std::uint32_t up = links_.up(channel);
            fab_.flow().on_free(receiver_[channel * V + vc],
                                [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
        }

        // Into the output.
        if (drop) {
            cut_packet(f.packet, f.index);
            drop_flit(f.packet);
        } else if (v.out_port == LOCAL) {
            port_free_[static_cast<std::size_t>(n) * NP + LOCAL] = leaves + 1;
            eject(n, f, pk, leaves);
        } else if (ob_) {
            const std::size_t ov = (static_cast<std::size_t>(n) * P + v.out_port) * V + v.out_vc;
            const std::size_t slot = ov * ob_ + (oq_head_[ov] + oq_count_[ov]) % ob_;
            oq_flits_[slot] = f;
            oq_time_[slot] = leaves;
            if (oq_count_[ov]++ == 0) {
                oq_since_[ov] = leaves;
                omark(n, v.out_port * V + v.out_vc, true);
            }
            ++oq_node_flits_[n];
            ++buffered_;
            link_wake_[n] = std::min(link_wake_[n], leaves);
            port_free_[static_cast<std::size_t>(n) * NP + v.out_port] = leaves + 1;
        } else {
            port_free_[static_cast<std::size_t>(n) * NP + v.out_port] =
                put_on_link(static_cast<std::size_t>(n) * P + v.out_port, v.out_vc, f, leaves);
        }

        // The input VC after this flit.
        if (tail) {
            if (v.out_port != LOCAL) owner_[ivc_index(n, v.out_port, v.out_vc)] = none;
            v.state = VcState::idle;
            if (has_front(n, port, vc)) {
                // The next head is at the front as this tail leaves: it is routed from now.
                const Flit next = front(n, port, vc);
                if (port == LOCAL) write_route(next.packet);
                start_head(iv, next.packet, next.hop, now);
            }
        } else {
            v.ready = now + 1;
            v.since = now + 1;
        }
    }

    /// Puts flit `f` on the link of `channel`, VC `vc`, from cycle `leaves` on;
    /// returns the cycle from which the link is free again.
    std::uint64_t put_on_link(std::size_t channel, std::uint32_t vc, const Flit& f, std::uint64_t leaves) {
        // Words the protocol puts before a head (Magic, Start), then the flit;
        // each takes the next data slot of the link's frame.
        std::uint64_t enter = next_data_slot(leaves);
        if constexpr (protocol_flits > 0) {
            if (f.index == 0)
                for (std::uint32_t w = 0; w < protocol_flits; ++w) enter = next_data_slot(enter + links_.serialisation(channel));
        }
        fab_.flow().on_send(sender_[channel * V + vc]);
        if (enter >= cfg_.warmup && enter < cfg_.warmup + cfg_.measure) ++sent_in_window_[channel];
        const std::uint32_t w = links_.down(channel);
        const std::size_t target = ivc_index(w, links_.down_port(channel), vc);
        // Received once its last bit is in: serialisation - 1 cycles after its first, plus the latency.
        arrivals_.schedule(enter + links_.serialisation(channel) - 1 + links_.latency(channel),
                           Arrival{static_cast<std::uint32_t>(target),
                                   Flit{f.packet, f.index, static_cast<std::uint8_t>(f.hop + 1)}});
        ++in_flight_links_;
        return enter + links_.serialisation(channel);
    }

    void omark(std::uint32_t n, std::uint32_t bit, bool on) {
        std::uint64_t& word = omask_[static_cast<std::size_t>(n) * OWORDS + bit / 64];
        if (on) word |= std::uint64_t{1} << (bit % 64);
        else word &= ~(std::uint64_t{1} << (bit % 64));
    }

    /// Takes the front flit out of output queue `ov` (a channel * V + vc index).
    Flit oq_pop(std::uint32_t n, std::size_t ov, std::uint64_t now) {
        const Flit f = oq_flits_[ov * ob_ + oq_head_[ov]];
        oq_head_[ov] = oq_head_[ov] + 1 == ob_ ? 0 : oq_head_[ov] + 1;
        --oq_node_flits_[n];
        --buffered_;
        if (--oq_count_[ov] == 0) omark(n, static_cast<std::uint32_t>(ov % (static_cast<std::size_t>(P) * V)), false);
        else oq_since_[ov] = now;
        return f;
    }

    /// Whether flow control lets the front flit of output queue `ov` onto its link.
    [[nodiscard]] bool oq_can_send(std::size_t ov) const {
        return flow_allows(ov, [&] { return oq_flits_[ov * ob_ + oq_head_[ov]]; });
    }

    /// The links of router n take flits from their output queues: per port, the
    /// ready VC nearest at or after the port's round-robin pointer.
    template <class Later>
    void link_stage(std::uint32_t n, std::uint64_t now, Later&& outer_later) {
        // The first cycle at which a link of this router can take a flit, short of
        // a flit entering a queue or a feedback event (both reset it).
        std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
        auto later = [&](std::uint64_t t) {
            next = t < next ? t : next;
            outer_later(t);
        };
        std::uint32_t previous = none;
        for (std::uint32_t w = 0; w < OWORDS; ++w) {
            std::uint64_t bits = omask_[static_cast<std::size_t>(n) * OWORDS + w];
            while (bits) {
                const auto bit = static_cast<std::uint32_t>(w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)));
                bits &= bits - 1;
                const std::uint32_t port = bit / V;
                if (port == previous) continue;  // all of a port's VCs are looked at with its first
                previous = port;
                const std::size_t channel = static_cast<std::size_t>(n) * P + port;
                if (any_broken_ && broken_[channel]) {  // the link is gone: its queued flits are lost, reported
                    for (std::uint32_t vc = 0; vc < V; ++vc)
                        while (oq_count_[channel * V + vc]) {
                            const Flit f = oq_pop(n, channel * V + vc, now);
                            cut_packet(f.packet, f.index);
                            drop_flit(f.packet);
                        }
                    continue;
                }
                if (link_free_[channel] > now) {
                    later(link_free_[channel]);
                    continue;
                }
                std::uint32_t pick = none;
                for (std::uint32_t k = 0; k < V; ++k) {
                    const std::uint32_t vc = (link_rr_[channel] + k) % V;
                    const std::size_t ov = channel * V + vc;
                    if (!oq_count_[ov]) continue;
                    const std::uint64_t ready = oq_time_[ov * ob_ + oq_head_[ov]];
                    if (ready > now) {
                        later(ready);
                        continue;
                    }
                    if (!oq_can_send(ov)) continue;  // a feedback event wakes us
                    pick = vc;
                    break;
                }
                if (pick == none) continue;
                const Flit f = oq_pop(n, channel * V + pick, now);
                link_free_[channel] = put_on_link(channel, pick, f, now);
                link_rr_[channel] = pick + 1 == V ? 0 : pick + 1;
                later(link_free_[channel]);
            }
        }
        link_wake_[n] = next;
        // Room made in a full queue lets the switch move a flit into it: the
        // caller's switch stage runs after this, in the same cycle.
    }

    void mark_lost(Packet& pk) {
        if (pk.lost) return;
        pk.lost = true;
        ++res_.packets_lost;
        if (pk.measured) ++res_.measured_lost;
    }

    /// Flit `index` of packet `id` is lost where a link failed, and so are the
    /// flits behind it. Downstream, the flit before it becomes the packet's tail:
    /// virtual channels that already passed it on are released now, the others
    /// when it passes. A rare event: it scans every input VC.
    void cut_packet(std::uint32_t id, std::uint32_t index) {
        Packet& pk = packets_[id];
        if (pk.cut != 0 || index == 0) return;  // already cut (at its first dropped flit), or nothing got across
        pk.cut = static_cast<std::uint16_t>(index);
        for (std::size_t iv = 0; iv < ivc_.size(); ++iv) {
            InputVc& v = ivc_[iv];
            if (v.packet != id || v.state == VcState::idle || v.count != 0 || v.last + 1 != index) continue;
            const auto node = static_cast<std::uint32_t>(iv / VCS);
            if (v.out_port != LOCAL) owner_[ivc_index(node, v.out_port, v.out_vc)] = none;
            v.state = VcState::idle;
            activate(node, wake_[node]);
        }
    }

    /// A flit of `id` is gone with a failed link (or arrives for a packet that lost one).
    void drop_flit(std::uint32_t id) {
        Packet& pk = packets_[id];
        mark_lost(pk);
        ++pk.dropped;
        ++res_.flits_dropped;
        if (pk.ejected + pk.dropped != pk.size) return;
        if (cfg_.max_packet_flits) messages_.part_done(pk.message, pk.part, 0, false, res_, message_hist_);
        release(id);
    }


    void release(std::uint32_t id) {
        routes_.release(packets_[id].route_slot);
        packets_.release(id);
    }

    void apply_failures(std::uint64_t now) {
        for (const auto& [cycle, channel] : failures_) {
            if (cycle != now || broken_[channel]) continue;
            const std::uint32_t node = channel / P;
            broken_[channel] = 1;
            broken_[links_.reverse(channel)] = 1;
            any_broken_ = true;
            // Flits on the wire are lost with it.
            for (auto& bucket : arrivals_.buckets()) {
                std::size_t keep = 0;
                for (const Arrival& a : bucket) {
                    const std::size_t in_node = a.ivc / VCS, in_port = (a.ivc / V) % NP;
                    if (broken_[links_.up(in_node * P + in_port)]) {
                        --in_flight_links_;
                        cut_packet(a.flit.packet, a.flit.index);
                        drop_flit(a.flit.packet);
                    } else {
                        bucket[keep++] = a;
                    }
                }
                bucket.resize(keep);
            }
            activate(node, now);
            activate(links_.down(channel), now);
            if (ob_) link_wake_[node] = link_wake_[links_.down(channel)] = now;
        }
    }

    void eject(std::uint32_t n, const Flit& f, Packet& pk, std::uint64_t at) {
        if (pk.lost) {  // the rest of a packet that lost a flit: discarded here, already reported
            drop_flit(f.packet);
            return;
        }
        ++res_.flits_ejected;
        if (at >= cfg_.warmup && at < cfg_.warmup + cfg_.measure) ++res_.flits_ejected_in_window;
        if (f.index != pk.ejected) ++res_.out_of_order;
        ++pk.ejected;
        if (pk.ejected + pk.dropped < pk.size) return;
        ++res_.packets_delivered;
        if (n != pk.dst) ++res_.misdelivered;
        if (cfg_.track_reorder) {
            reorder_.arrived(pk.src, pk.dst, pk.sequence, res_);
        }
        if (pk.measured) {
            ++res_.measured_delivered;
            res_.measured_hops += pk.route_len;
            latency_hist_.add(at - pk.created);
            network_hist_.add(at - pk.injected);
        }
        if (cfg_.max_packet_flits) messages_.part_done(pk.message, pk.part, at, true, res_, message_hist_);
        release(f.packet);
    }

    [[nodiscard]] std::uint64_t count_in_flight() const {
        std::uint64_t flits = in_flight_links_;
        for (const auto& v : ivc_) flits += v.count;
        for (const auto c : oq_count_) flits += c;
        // Flits of packets partly out of their source queue are in flight too; the
        // source queue's unsent flits were never injected.
        return flits;
    }

    /// The wait-for graph of input VCs whose front flit has waited at least
    /// `watchdog` cycles: a VC waits for the packet holding the output VC it wants,
    /// or, holding one, for the downstream VC whose flow control refuses it. A cycle
    /// among such VCs can never resolve: that is a deadlock, reported with the
    /// channels the waiting flits came in on.
    std::optional<DeadlockReport> find_deadlock(std::uint64_t now) const {
        const std::size_t count = ivc_.size();
        auto stuck = [&](std::size_t iv) {
            const auto node = static_cast<std::uint32_t>(iv / VCS);
            const auto port = static_cast<std::uint32_t>((iv / V) % NP);
            return has_front(node, port, static_cast<std::uint32_t>(iv % V)) && now >= ivc_[iv].since + cfg_.watchdog;
        };
        // Output queues are nodes count + (channel * V + vc) of the graph.
        auto oq_stuck = [&](std::size_t ov) { return oq_count_[ov] && now >= oq_since_[ov] + cfg_.watchdog; };
        // Usually nothing has waited that long: look before building the graph.
        bool any = false;
        for (std::size_t iv = 0; iv < count && !any; ++iv) any = stuck(iv);
        for (std::size_t ov = 0; ov < oq_count_.size() && !any; ++ov) any = oq_stuck(ov);
        if (!any) return std::nullopt;
        std::vector<std::vector<std::uint32_t>> waits(count + oq_count_.size());
        for (std::size_t ov = 0; ov < oq_count_.size(); ++ov) {
            const std::size_t channel = ov / V;
            if (!oq_stuck(ov) || oq_can_send(ov)) continue;
            const std::size_t target = ivc_index(links_.down(channel), links_.down_port(channel), static_cast<std::uint32_t>(ov % V));
            if (stuck(target)) waits[count + ov].push_back(static_cast<std::uint32_t>(target));
        }
        for (std::uint32_t n = 0; n < nodes_; ++n)
            for (std::uint32_t port = 0; port < NP; ++port)
                for (std::uint32_t vc = 0; vc < V; ++vc) {
                    const std::size_t iv = ivc_index(n, port, vc);
                    if (!stuck(iv)) continue;
                    const InputVc& v = ivc_[iv];
                    if (v.out_port == LOCAL) continue;
                    const std::size_t ov = ivc_index(n, v.out_port, v.out_vc);
                    std::size_t target = none;
                    if (v.state == VcState::waiting_vc && owner_[ov] != none) {
                        target = owner_[ov];
                    } else if (v.state == VcState::active && !output_ready(n, port, vc, v)) {
                        const std::size_t channel = static_cast<std::size_t>(n) * P + v.out_port;
                        if (ob_) {  // waits for room in the output queue
                            const std::size_t queue = channel * V + v.out_vc;
                            if (oq_stuck(queue)) waits[iv].push_back(static_cast<std::uint32_t>(count + queue));
                            continue;
                        }
                        target = ivc_index(links_.down(channel), links_.down_port(channel), v.out_vc);
                    }
                    if (target != none && stuck(target)) waits[iv].push_back(static_cast<std::uint32_t>(target));
                }
        const auto cycle = detail::find_cycle(waits);
        if (cycle.empty()) return std::nullopt;
        DeadlockReport report;
        report.cycle = now;
        report.idle_cycles = cfg_.watchdog;
        report.flits_buffered = buffered_;
        for (const auto iv : cycle) {
            if (iv >= count) {  // an output queue: named by the channel it feeds, which the next entry names too
                const std::size_t ov = iv - count;
                const std::size_t channel = ov / V;
                if (std::find(cycle.begin(), cycle.end(),
                              ivc_index(links_.down(channel), links_.down_port(channel), static_cast<std::uint32_t>(ov % V))) ==
                    cycle.end())
                    report.waiting.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(channel / P)},
                                                            PortId{static_cast<std::uint32_t>(channel % P)},
                                                            static_cast<std::uint8_t>(ov % V)});
                continue;
            }
            const auto node = static_cast<std::uint32_t>(iv / VCS);
            const auto port = static_cast<std::uint32_t>((iv / V) % NP);
            if (port == LOCAL) {  // a packet still entering from its source: port P names the injection channel
                report.waiting.push_back(VirtualChannel{NodeId{node}, PortId{P}, static_cast<std::uint8_t>(iv % V)});
                continue;
            }
            const std::uint32_t up = links_.up(static_cast<std::size_t>(node) * P + port);
            report.waiting.push_back(VirtualChannel{NodeId{up / P}, PortId{up % P}, static_cast<std::uint8_t>(iv % V)});
        }
        return report;
    }


    const Fab& fab_;
    CycleConfig cfg_;
    cycle::Links links_;
    std::uint32_t nodes_ = 0;
    std::uint32_t max_hops_ = 0;
    std::uint32_t buffer_ = 0;
    std::uint64_t wheel_size_ = 1;
    // per channel (node * P + port)
    std::vector<std::uint64_t> sent_in_window_;
    // per input VC (node, port incl. local, vc)
    std::vector<InputVc> ivc_;
    std::vector<Flit> flits_;
    std::vector<std::uint32_t> owner_;  // per output VC: the input VC holding it
    std::vector<std::uint32_t> va_rr_;
    // per (channel, vc)
    std::vector<typename F::sender_vc> sender_;
    std::vector<typename F::receiver_vc> receiver_;
    // per (node, port incl. local)
    std::vector<std::uint64_t> port_free_;
    std::vector<std::uint32_t> in_rr_, out_rr_;
    // per node
    std::vector<std::uint32_t> occupied_;
    std::vector<std::uint64_t> mask_;  // per router: bit port * V + vc set when that input VC has a front flit
    std::vector<SourceQueue> source_;  // per (node, injection queue)
    std::vector<std::uint32_t> next_queue_;  // per node: the injection queue of its next packet
    std::uint32_t queues_ = 1;
    // output queues (output_buffer_flits > 0), per (channel, vc): rings of ob_ flits
    std::uint32_t ob_ = 0;
    std::vector<Flit> oq_flits_;
    std::vector<std::uint64_t> oq_time_;  // cycle from which each queued flit may go onto the link
    std::vector<std::uint32_t> oq_head_, oq_count_;
    std::vector<std::uint64_t> oq_since_;  // cycle at which the front flit became the front
    std::vector<std::uint64_t> link_free_;  // per channel: the link is free from this cycle
    std::vector<std::uint32_t> link_rr_;
    std::vector<std::uint32_t> oq_node_flits_;
    std::vector<std::uint64_t> link_wake_;  // per router: no link can take a queued flit before this cycle
    std::vector<std::uint64_t> omask_;  // per router: bit port * V + vc set when that output queue holds flits
    std::vector<std::uint32_t> active_;
    std::vector<std::uint8_t> is_active_;
    std::vector<std::uint64_t> wake_;  // per router: the first cycle at which stepping it can change anything
    std::vector<std::uint8_t> broken_;  // per channel: failed
    bool any_broken_ = false;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> failures_;  // (cycle, channel)
    std::vector<std::pair<std::uint64_t, std::uint32_t>> restores_;  // (cycle, channel)
    // events
    cycle::EventWheel<Arrival> arrivals_;
    cycle::EventWheel<Feedback> feedback_;
    // packets
    cycle::SlotPool<Packet> packets_;
    cycle::MessageTable messages_;  // with max_packet_flits
    cycle::ReorderTracker reorder_;  // with track_reorder
    cycle::RouteStore routes_;
    std::vector<Hop> scratch_route_;
    std::array<std::pair<std::size_t, std::size_t>, VCS> va_requests_{};
    LatencyHistogram latency_hist_, network_hist_, message_hist_;
    CycleResult res_;  // counted into as the run goes
    std::uint64_t in_flight_links_ = 0;
    std::uint64_t buffered_ = 0;
    std::uint64_t queued_ = 0;  // packets in source queues
};

/// Runs one Bernoulli simulation of `fabric`.
template <CycleKernelFabric Fab, TrafficPattern Pattern>
CycleResult simulate_cycles(const Fab& fabric, const Pattern& pattern, double rate,
                            PacketSizes sizes = PacketSizes::fixed(1), CycleConfig config = {}) {
    CycleSimulator<Fab> sim(fabric, config);
    return sim.run(pattern, rate, sizes);
}

}  // namespace fabric
