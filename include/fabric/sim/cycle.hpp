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
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/random.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/sim/statistics.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric {

/// Cycles spent in each stage of the router pipeline (each may be 0).
struct PipelineDelays {
    std::uint32_t routing = 1;
    std::uint32_t vc_allocation = 1;
    std::uint32_t switch_allocation = 1;
    std::uint32_t switch_traversal = 1;
    [[nodiscard]] constexpr std::uint32_t total() const {
        return routing + vc_allocation + switch_allocation + switch_traversal;
    }
};

enum class Switching : std::uint8_t { wormhole, virtual_cut_through };

struct CycleConfig {
    PipelineDelays pipeline{};
    Switching switching = Switching::wormhole;
    /// Link latency in cycles for every link, and one flit per cycle, when cycle_ns is 0.
    std::uint32_t link_latency = 1;
    /// When positive: the length of a cycle, from which every link class's latency
    /// (rounded up, at least 1) and serialisation (flit_bytes over its bandwidth,
    /// rounded up, at least 1 cycle per flit) follow.
    double cycle_ns = 0;
    std::uint32_t flit_bytes = 16;
    std::uint64_t warmup = 1000;
    std::uint64_t measure = 10000;
    /// Cycles after the window (or after a trace's last message) to wait for the
    /// measured packets; 0: the larger of 3 (warmup + measure) and 20000.
    std::uint64_t drain_limit = 0;
    /// A deadlock is declared when flits that have not moved for this many cycles
    /// wait on each other in a cycle of virtual channels.
    std::uint64_t watchdog = 10000;
    std::uint64_t seed = 1;
    /// A run past saturation stops, once its measurement window is over, when the
    /// source queues hold this many packets per node on average (it is then
    /// reported saturated and not drained).
    std::uint64_t max_queued_per_node = 256;
    /// Output buffering: when positive, every output virtual channel of a network
    /// port has a queue of this many flits. A flit crosses the switch into it as
    /// soon as it has room (one flit per output port per cycle), and the link takes
    /// flits from the port's queues, round robin over the VCs that flow control
    /// lets go. A packet waiting for a slow or busy link then no longer blocks the
    /// input behind it until its queue fills. 0: input queued only.
    std::uint32_t output_buffer_flits = 0;
    /// Injection queues per node (host interfaces feeding the router, each with
    /// its own input VC on the injection port); messages are dealt to them in turn.
    /// At most the number of virtual channels of the fabric's links.
    std::uint32_t injection_queues = 1;
    /// When positive, a message (a Bernoulli draw of PacketSizes, or a trace
    /// message) longer than this is split into packets of this many flits (the
    /// last shorter), each routed on its own; the destination reassembles the
    /// message and CycleResult reports message latency and the reassembly depth.
    /// 0: every message is one packet.
    std::uint32_t max_packet_flits = 0;
    /// Track, per source and destination, how far packets overtake one another:
    /// CycleResult::reorder_depth (costs a map lookup per packet).
    bool track_reorder = false;
    /// Progress lines on stderr for runs longer than a few seconds.
    bool progress = true;

    void validate() const {
        detail::require(link_latency >= 1, "cycle simulation needs a link latency of at least 1 cycle; got 0");
        detail::require(cycle_ns >= 0, "cycle_ns must be zero (unit timing) or positive; got ", cycle_ns);
        detail::require(cycle_ns == 0 || flit_bytes >= 1, "flit_bytes must be at least 1 when cycle_ns is set");
        detail::require(measure >= 1, "the measurement window needs at least 1 cycle");
        detail::require(watchdog >= 1, "the deadlock watchdog needs at least 1 cycle");
        detail::require(max_queued_per_node >= 1, "max_queued_per_node must be at least 1");
        detail::require(injection_queues >= 1, "a node needs at least one injection queue; got 0");
        detail::require(max_packet_flits <= 65535, "max_packet_flits must be at most 65535; got ", max_packet_flits);
    }
};

/// Where a deadlocked run stopped, and the virtual channels waiting in a cycle.
struct DeadlockReport {
    std::uint64_t cycle = 0;
    std::uint64_t idle_cycles = 0;
    std::uint64_t flits_buffered = 0;
    std::vector<VirtualChannel> waiting;  // each channel waits for the next; the last for the first

    [[nodiscard]] std::string describe() const {
        DependencyReport r;
        r.cycle = waiting;
        return detail::message("deadlock at cycle ", cycle, ": flits have waited ", idle_cycles,
                               " cycles or more on a cycle of channels (", flits_buffered,
                               " flits buffered in the network); waiting channels ",
                               waiting.empty() ? std::string("(none found)") : r.describe_cycle());
    }
};

struct LatencySummary {
    double mean = 0;
    std::uint64_t p50 = 0;
    std::uint64_t p99 = 0;
    std::uint64_t max = 0;
    std::vector<std::uint64_t> histogram;  // packets per latency in cycles

    static LatencySummary of(const LatencyHistogram& h) {
        return {h.mean(), h.percentile(0.50), h.percentile(0.99), h.max(), h.bins()};
    }
};

struct CycleResult {
    double offered = 0;         // flits/cycle/node created during the window
    double accepted = 0;        // flits/cycle/node ejected during the window
    LatencySummary latency;     // creation to tail ejection, measured packets
    LatencySummary network_latency;  // head leaving the source queue to tail ejection
    double hops_mean = 0;
    std::uint64_t cycles = 0;   // simulated, warm-up and drain included
    bool saturated = false;     // not drained, or accepted below 95% of offered
    bool drained = true;        // every measured packet delivered before the run stopped
    std::uint64_t measured_packets = 0;
    std::uint64_t measured_delivered = 0;
    // Conservation: injected = ejected + in flight + dropped, at the end of the run;
    // every packet is delivered or lost, and every lost one is counted here.
    std::uint64_t flits_injected = 0;  // flits that left source queues
    std::uint64_t flits_ejected = 0;
    std::uint64_t flits_in_flight = 0;
    std::uint64_t packets_delivered = 0;
    std::uint64_t flits_dropped = 0;   // flits lost with a failed link, each reported
    std::uint64_t packets_lost = 0;    // packets that lost a flit to a failed link, or had no route
    std::uint64_t packets_unroutable = 0;
    std::uint64_t out_of_order = 0;    // flits ejected out of order within their packet (must be 0)
    /// With track_reorder: the most packets of one source-destination pair that
    /// arrived while an earlier one was still missing (the reassembly buffer the
    /// destination needs), and the packets that arrived ahead of an earlier one.
    std::uint64_t reorder_depth = 0;
    std::uint64_t packets_overtaking = 0;
    /// With max_packet_flits: messages split into packets and reassembled at the
    /// destination. A message is delivered with its last packet (or lost with
    /// any); message_reorder_depth is the most packets of one message that the
    /// destination held because an earlier packet of it was still missing, and
    /// packets_early counts packets that arrived before an earlier one of their
    /// message. message_latency: measured messages, creation to the last tail.
    std::uint64_t measured_messages = 0;
    std::uint64_t measured_messages_delivered = 0;
    std::uint64_t messages_delivered = 0;
    std::uint64_t messages_lost = 0;
    std::uint64_t message_reorder_depth = 0;
    std::uint64_t packets_early = 0;
    LatencySummary message_latency;
    std::uint64_t misdelivered = 0;    // packets ejected at a node other than their destination (must be 0)
    std::size_t ports_per_node = 0;
    std::vector<double> channel_utilisation;  // per channel slot: flits per cycle in the window
    std::optional<DeadlockReport> deadlock;
};

namespace detail {
template <class R, class T>
concept SourceRoutable = requires(const R& r, const T& t, NodeId n, Hop* out) {
    { r.select_route(t, n, n, std::uint64_t{}, out) } -> std::convertible_to<std::size_t>;
    { R::max_hops(t) } -> std::convertible_to<std::size_t>;
};
}  // namespace detail

template <class Fab>
class CycleSimulator {
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    using F = typename Fab::flow_type;
    static_assert(detail::SourceRoutable<R, T>,
                  "fabric: the cycle kernel routes packets at the source; the routing policy must provide "
                  "select_route(topology, src, dst, choice, out) and max_hops(topology)");

    static constexpr std::uint32_t P = static_cast<std::uint32_t>(T::ports_per_node);  // network ports
    static constexpr std::uint32_t LOCAL = P;                                          // injection / ejection
    static constexpr std::uint32_t NP = P + 1;
    static constexpr std::uint32_t V = [] {
        std::size_t v = 0;
        for (const auto x : detail::link_pack<typename T::link_types>::vcs) v = x > v ? x : v;
        return static_cast<std::uint32_t>(v);
    }();
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    static constexpr std::uint32_t VCS = NP * V;             // input VCs per router
    static constexpr std::uint32_t WORDS = (VCS + 63) / 64;  // occupancy mask words per router
    static constexpr std::uint32_t OWORDS = (P * V + 63) / 64;  // output-queue mask words per router

public:
    explicit CycleSimulator(const Fab& fabric, CycleConfig config = {}) : fab_(fabric), cfg_(config) {
        cfg_.validate();
        detail::require(cfg_.injection_queues <= V, "this fabric's links have ", V,
                        " virtual channels, so a node takes at most ", V,
                        " injection queues (one input VC each); got injection_queues = ", cfg_.injection_queues);
        const T& topo = fab_.topology();
        nodes_ = static_cast<std::uint32_t>(topo.node_count());
        max_hops_ = static_cast<std::uint32_t>(R::max_hops(topo));
        buffer_ = fab_.flow().buffer_flits();
        const std::size_t channels = static_cast<std::size_t>(nodes_) * P;
        down_.assign(channels, none);
        down_port_.assign(channels, 0);
        up_channel_.assign(channels, none);
        latency_.assign(channels, cfg_.link_latency);
        serial_.assign(channels, 1);
        std::vector<std::uint32_t> class_latency(link_class_count_v<T>, cfg_.link_latency);
        std::vector<std::uint32_t> class_serial(link_class_count_v<T>, 1);
        if (cfg_.cycle_ns > 0) {
            for_each_link_class(topo, [&](std::size_t c, const auto& link) {
                const double lat = link.latency().count / cfg_.cycle_ns;
                const double ser = static_cast<double>(cfg_.flit_bytes) / (link.bandwidth().count * cfg_.cycle_ns);
                class_latency[c] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(lat - 1e-9)));
                class_serial[c] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(ser - 1e-9)));
            });
        }
        std::uint32_t max_latency = 1;
        for (std::uint32_t n = 0; n < nodes_; ++n)
            for (std::uint32_t p = 0; p < P; ++p) {
                const NodeId w = topo.neighbour(NodeId{n}, PortId{p});
                if (!w.valid()) continue;
                const std::size_t c = static_cast<std::size_t>(n) * P + p;
                const std::uint32_t back = topo.reverse_port(NodeId{n}, PortId{p}).value;
                down_[c] = w.value;
                down_port_[c] = back;
                up_channel_[static_cast<std::size_t>(w.value) * P + back] = static_cast<std::uint32_t>(c);
                const std::size_t cls = topo.link_class(NodeId{n}, PortId{p});
                latency_[c] = class_latency[cls];
                serial_[c] = class_serial[cls];
                max_latency = std::max(max_latency, latency_[c]);
            }
        std::uint32_t max_serial = 1;
        for (const auto x : serial_) max_serial = std::max(max_serial, x);
        std::uint64_t frame = 1;
        if constexpr (framed) frame = fab_.flow().frame_data_slots() + fab_.flow().frame_credit_slots();
        const std::uint64_t longest = std::max<std::uint64_t>(
            cfg_.pipeline.switch_allocation + cfg_.pipeline.switch_traversal + max_latency +
                max_serial * (protocol_flits + 1) + 2 * frame,
            fab_.flow().feedback_delay());
        wheel_size_ = 1;
        while (wheel_size_ <= longest) wheel_size_ *= 2;
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
        detail::require(factor >= 1, "a link can only be slowed: factor must be at least 1; got ", factor);
        const std::size_t c = static_cast<std::size_t>(node.value) * P + port.value;
        const std::size_t back =
            static_cast<std::size_t>(down_[c]) * P + topo.reverse_port(node, port).value;
        for (const std::size_t x : {c, back})
            serial_[x] = static_cast<std::uint32_t>(std::ceil(static_cast<double>(serial_[x]) * factor - 1e-9));
        std::uint32_t max_serial = 1;
        for (const auto x : serial_) max_serial = std::max(max_serial, x);
        while (wheel_size_ <= static_cast<std::uint64_t>(max_serial) * 4 + 4096) wheel_size_ *= 2;
    }

    [[nodiscard]] const CycleConfig& config() const { return cfg_; }

private:
    struct Flit {
        std::uint32_t packet;
        std::uint16_t index;
        std::uint8_t hop;  // number of links crossed so far
        std::uint8_t unused = 0;
    };
    struct Packet {
        std::uint32_t src = 0, dst = 0;
        std::uint16_t size = 0, route_len = 0;
        std::uint16_t sent = 0, ejected = 0;  // flits that left the source queue / were ejected
        bool measured = false;
        std::uint64_t created = 0, injected = 0;
        std::uint64_t choice = 0;     // which of the policy's routes
        std::uint32_t route_slot = 0;  // where its route is kept while it is in the network
        std::uint16_t dropped = 0;     // flits lost with a failed link
        std::uint16_t cut = 0;         // cut by a failed link: flits 0 .. cut - 1 got across (0: not cut)
        bool lost = false;
        std::uint32_t sequence = 0;    // per source-destination pair, with track_reorder
        std::uint32_t message = 0;     // with max_packet_flits: its message, and which part of it
        std::uint32_t part = 0;
    };
    struct Message {
        std::uint32_t parts = 0, arrived = 0, lost = 0;
        std::uint32_t next = 0;  // parts 0 .. next - 1 have arrived: the destination has them in order
        std::uint64_t created = 0;
        bool measured = false;
        std::vector<std::uint8_t> got;  // per part: arrived
    };
    struct PairOrder {
        std::uint32_t next_sequence = 0;   // the next packet created
        std::uint32_t next_expected = 0;   // the next one the destination can use
        std::set<std::uint32_t> early;     // arrived ahead of a missing one
    };
    struct RouteStep {
        std::uint16_t port;
        std::uint8_t vc;
    };
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
    struct SourceQueue {
        std::vector<std::uint32_t> ring = std::vector<std::uint32_t>(8);
        std::size_t head = 0, size = 0;
        void push(std::uint32_t p) {
            if (size == ring.size()) {
                std::vector<std::uint32_t> grown(ring.size() * 2);
                for (std::size_t i = 0; i < size; ++i) grown[i] = ring[(head + i) % ring.size()];
                ring.swap(grown);
                head = 0;
            }
            ring[(head + size++) % ring.size()] = p;
        }
        [[nodiscard]] std::uint32_t front() const { return ring[head]; }
        void pop() {
            head = (head + 1) % ring.size();
            --size;
        }
    };

    // --- setup --------------------------------------------------------------------------
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
        arrivals_.assign(wheel_size_, {});
        feedback_.assign(wheel_size_, {});
        packets_.clear();
        free_packets_.clear();
        routes_.clear();
        free_routes_.clear();
        scratch_route_.resize(max_hops_ + 1);
        latency_hist_ = {};
        network_hist_ = {};
        message_hist_ = {};
        messages_.clear();
        free_messages_.clear();
        stats_ = {};
        in_flight_links_ = 0;
        buffered_ = 0;
        queued_ = 0;
        broken_.assign(static_cast<std::size_t>(nodes_) * P, 0);
        any_broken_ = false;
        order_.clear();
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

    /// A free slot of a pool (packets, messages): a released one, or a new one
    /// when the pool's peak grows.
    template <class Slot>
    static std::uint32_t take_slot(std::vector<Slot>& pool, std::vector<std::uint32_t>& free) {
        if (free.empty()) {
            pool.emplace_back();
            return static_cast<std::uint32_t>(pool.size() - 1);
        }
        const std::uint32_t id = free.back();
        free.pop_back();
        return id;
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
        const std::uint32_t id = take_slot(messages_, free_messages_);
        Message& m = messages_[id];
        m.parts = (size + most - 1) / most;
        m.arrived = m.lost = m.next = 0;
        m.created = now;
        m.measured = now >= cfg_.warmup && now < cfg_.warmup + cfg_.measure;
        m.got.assign(m.parts, 0);  // keeps its capacity from earlier messages in this slot
        if (m.measured) ++stats_.measured_messages;
        for (std::uint32_t part = 0; part < m.parts; ++part)
            create_packet(src, dst, std::min(most, size - part * most), now, rng, hfi, id, part);
    }

    void create_packet(std::uint32_t src, std::uint32_t dst, std::uint32_t size, std::uint64_t now, Random& rng,
                       std::uint32_t hfi, std::uint32_t message, std::uint32_t part) {
        const std::uint32_t id = take_slot(packets_, free_packets_);
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
        if (cfg_.track_reorder) pk.sequence = order_[pair_key(src, dst)].next_sequence++;
        if (pk.measured) {
            ++stats_.measured_packets;
            stats_.created_in_window += size;
        }
        SourceQueue& q = source_[static_cast<std::size_t>(src) * queues_ + hfi];
        q.push(id);
        ++queued_;
        if (q.size == 1) {
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
            ++stats_.unroutable;
            mark_lost(pk);
        }
        pk.route_len = static_cast<std::uint16_t>(len);
        if (free_routes_.empty()) {
            pk.route_slot = static_cast<std::uint32_t>(routes_.size() / std::max<std::uint32_t>(max_hops_, 1));
            routes_.resize(routes_.size() + std::max<std::uint32_t>(max_hops_, 1));
        } else {
            pk.route_slot = free_routes_.back();
            free_routes_.pop_back();
        }
        RouteStep* steps = &routes_[static_cast<std::size_t>(pk.route_slot) * max_hops_];
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
            const RouteStep& s = routes_[static_cast<std::size_t>(pk.route_slot) * max_hops_ + hop];
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
        CycleResult result;
        for (;; ++now) {
            if (!failures_.empty()) apply_failures(now);
            if (!restores_.empty())
                for (const auto& [cycle, channel] : restores_) {
                if (cycle != now) continue;
                const std::uint32_t node = channel / P, port = channel % P;
                broken_[channel] = 0;
                broken_[static_cast<std::size_t>(down_[channel]) * P +
                        fab_.topology().reverse_port(NodeId{node}, PortId{port}).value] = 0;
            }
            if (!trace_end || now <= *trace_end) inject(now, rng);
            tick_receivers(now);
            deliver_events(now);
            step_routers(now);
            const bool measured_in = stats_.measured_delivered + stats_.measured_lost == stats_.measured_packets;
            const bool done = trace_end ? now >= *trace_end && buffered_ == 0 && queued_ == 0 && in_flight_links_ == 0
                                        : now + 1 >= window_end && measured_in;
            if (done) {
                ++now;
                break;
            }
            if (now + 1 >= stop ||
                (!trace_end && now >= window_end && queued_ > cfg_.max_queued_per_node * nodes_)) {
                result.drained = measured_in && !(trace_end && (buffered_ || queued_ || in_flight_links_));
                ++now;
                break;
            }
            if (--until_check == 0) until_check = check_every;
            if (buffered_ > 0 && until_check == check_every) {
                if (auto report = find_deadlock(now)) {
                    result.deadlock = std::move(report);
                    result.drained = false;
                    ++now;
                    break;
                }
            }
            if (cfg_.progress && (now & 0x3fff) == 0) {
                const auto t = std::chrono::steady_clock::now();
                if (t - last_report > std::chrono::seconds(3)) {
                    last_report = t;
                    std::fprintf(stderr, "fabric cycle kernel: cycle %llu of at most %llu, %llu of %llu measured "
                                 "packets delivered\n",
                                 static_cast<unsigned long long>(now), static_cast<unsigned long long>(stop),
                                 static_cast<unsigned long long>(stats_.measured_delivered),
                                 static_cast<unsigned long long>(stats_.measured_packets));
                }
            }
        }
        (void)rate;
        result.cycles = now;
        const double window_node_cycles = static_cast<double>(cfg_.measure) * nodes_;
        result.offered = static_cast<double>(stats_.created_in_window) / window_node_cycles;
        result.accepted = static_cast<double>(stats_.ejected_in_window) / window_node_cycles;
        result.saturated = !result.drained || result.accepted < 0.95 * result.offered;
        result.latency = LatencySummary::of(latency_hist_);
        result.network_latency = LatencySummary::of(network_hist_);
        result.hops_mean = stats_.measured_delivered
                               ? static_cast<double>(stats_.hops) / static_cast<double>(stats_.measured_delivered)
                               : 0.0;
        result.measured_packets = stats_.measured_packets;
        result.measured_delivered = stats_.measured_delivered;
        result.flits_injected = stats_.injected;
        result.flits_ejected = stats_.ejected;
        result.flits_in_flight = count_in_flight();
        result.packets_delivered = stats_.delivered;
        result.out_of_order = stats_.out_of_order;
        result.flits_dropped = stats_.dropped;
        result.reorder_depth = stats_.reorder_depth;
        result.packets_overtaking = stats_.overtaking;
        result.measured_messages = stats_.measured_messages;
        result.measured_messages_delivered = stats_.measured_messages_delivered;
        result.messages_delivered = stats_.messages_delivered;
        result.messages_lost = stats_.messages_lost;
        result.message_reorder_depth = stats_.message_reorder_depth;
        result.packets_early = stats_.packets_early;
        result.message_latency = LatencySummary::of(message_hist_);
        result.packets_lost = stats_.lost;
        result.packets_unroutable = stats_.unroutable;
        result.misdelivered = stats_.misdelivered;
        result.ports_per_node = P;
        result.channel_utilisation.resize(sent_in_window_.size());
        for (std::size_t c = 0; c < sent_in_window_.size(); ++c)
            result.channel_utilisation[c] = static_cast<double>(sent_in_window_[c]) / static_cast<double>(cfg_.measure);
        return result;
    }

    void deliver_events(std::uint64_t now) {
        auto& fb = feedback_[now & (wheel_size_ - 1)];
        for (const Feedback& f : fb) {
            fab_.flow().on_feedback(sender_[f.sender], f.value);
            const auto node = static_cast<std::uint32_t>(f.sender / (static_cast<std::size_t>(P) * V));
            wake_[node] = std::min(wake_[node], now);  // a blocked flit there may go now
            if (ob_) link_wake_[node] = now;
        }
        fb.clear();
        auto& arr = arrivals_[now & (wheel_size_ - 1)];
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
            const std::uint32_t up = up_channel_[channel];
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
        feedback_[(now + fab_.flow().feedback_delay()) & (wheel_size_ - 1)].push_back(
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
        for (std::size_t i = 0; i < requests; ++i) {
            const std::size_t ov = va_requests_[i].second;
            if (owner_[ov] != none) {  // granted to an earlier request this cycle
                later(now + 1);
                continue;
            }
            std::size_t best = va_requests_[i].first;
            for (std::size_t j = i + 1; j < requests; ++j)
                if (va_requests_[j].second == ov && distance(va_rr_[ov], va_requests_[j].first) <
                                                        distance(va_rr_[ov], best))
                    best = va_requests_[j].first;
            InputVc& w = ivc_[best];
            owner_[ov] = static_cast<std::uint32_t>(best);
            va_rr_[ov] = static_cast<std::uint32_t>(best + 1);
            w.state = VcState::active;
            w.ready = now + pd.vc_allocation;
            later(w.ready);
            ++granted;
        }
        if (pd.vc_allocation == 0 && granted > 0) {
            for_each_front(n, [&](std::uint32_t port, std::uint32_t vc) {
                const InputVc& v = vcs[port * V + vc];
                if (v.ready == now && v.state == VcState::active) switch_request(port, vc, v);
            });
        }
        if (requested == 0) return wake;
        // Output stage: each output port grants the requesting input port nearest
        // at or after its round-robin pointer.
        std::uint32_t winner[NP];
        for (std::uint32_t out = 0; out < NP; ++out) winner[out] = none;
        for (std::uint32_t port = 0; port < NP; ++port) {
            if (choice[port] == none) continue;
            const std::uint32_t out = vcs[port * V + choice[port]].out_port;
            const std::uint32_t rr = out_rr_[base + out];
            const std::uint32_t w = winner[out];
            if (w == none || (port >= rr ? port - rr : port + NP - rr) < (w >= rr ? w - rr : w + NP - rr))
                winner[out] = port;
        }
        for (std::uint32_t out = 0; out < NP; ++out) {
            const std::uint32_t port = winner[out];
            if (port == none) continue;
            transfer(n, port, choice[port], now, exit_delay);
            out_rr_[base + out] = port + 1 == NP ? 0 : port + 1;
            in_rr_[base + port] = choice[port] + 1 == V ? 0 : choice[port] + 1;
            choice[port] = none;
        }
        // A transfer changes what follows it (next flits, freed VCs), and a loser
        // of the output stage bids again: look again next cycle.
        later(now + 1);
        return wake;
    }

    [[nodiscard]] std::size_t distance(std::size_t from, std::size_t to) const {
        const std::size_t span = static_cast<std::size_t>(nodes_) * NP * V;
        return (to + span - from % span) % span;
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
    static constexpr std::uint32_t protocol_flits = [] {
        if constexpr (requires { F::protocol_flits_per_packet; }) return F::protocol_flits_per_packet;
        else return 0U;
    }();
    static constexpr bool framed = requires(const F& f) {
        f.frame_data_slots();
        f.frame_credit_slots();
    };
    static constexpr bool ticks = requires(const F& f, typename F::receiver_vc& r) {
        f.tick(r, [](std::uint64_t) {});
    };

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
                const std::uint32_t up = up_channel_[channel];
                if (up == none) continue;
                for (std::uint32_t vc = 0; vc < V; ++vc)
                    fab_.flow().tick(receiver_[channel * V + vc],
                                     [&](std::uint64_t value) { send_feedback(up, vc, value, now); });
            }
        } else {
            (void)now;
        }
    }

    static constexpr bool needs_packet_size = [] {
        if constexpr (requires { F::needs_packet_size; }) return F::needs_packet_size;
        else return true;
    }();

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
        ++stats_.moves;

        // Out of the input buffer.
        if (port == LOCAL) {
            if (f.index == 0) pk.injected = now;
            ++pk.sent;
            ++stats_.injected;
            if (tail) {
                SourceQueue& q = source_[static_cast<std::size_t>(n) * queues_ + vc];
                q.pop();
                --queued_;
                if (q.size == 0) mark(n, LOCAL, vc, false);
            }
        } else {
            v.head = (v.head + 1) % buffer_;
            --v.count;
            --occupied_[n];
            if (v.count == 0) mark(n, port, vc, false);
            --buffered_;
            const std::size_t channel = static_cast<std::size_t>(n) * P + port;
            const std::uint32_t up = up_channel_[channel];
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
                for (std::uint32_t w = 0; w < protocol_flits; ++w) enter = next_data_slot(enter + serial_[channel]);
        }
        fab_.flow().on_send(sender_[channel * V + vc]);
        if (enter >= cfg_.warmup && enter < cfg_.warmup + cfg_.measure) ++sent_in_window_[channel];
        const std::uint32_t w = down_[channel];
        const std::size_t target = ivc_index(w, down_port_[channel], vc);
        // Received once its last bit is in: serialisation - 1 cycles after its first, plus the latency.
        arrivals_[(enter + serial_[channel] - 1 + latency_[channel]) & (wheel_size_ - 1)].push_back(
            Arrival{static_cast<std::uint32_t>(target), Flit{f.packet, f.index, static_cast<std::uint8_t>(f.hop + 1)}});
        ++in_flight_links_;
        return enter + serial_[channel];
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
        ++stats_.lost;
        if (pk.measured) ++stats_.measured_lost;
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
        ++stats_.dropped;
        if (pk.ejected + pk.dropped != pk.size) return;
        if (cfg_.max_packet_flits) part_done(pk, 0, false);
        release(id);
    }

    /// A packet of a split message is complete (delivered at `at`) or lost: the
    /// destination puts it in place, and the message is done with its last part.
    void part_done(const Packet& pk, std::uint64_t at, bool delivered) {
        Message& m = messages_[pk.message];
        if (delivered) {
            ++m.arrived;
            m.got[pk.part] = 1;
            if (pk.part != m.next) ++stats_.packets_early;
            while (m.next < m.parts && m.got[m.next]) ++m.next;
            stats_.message_reorder_depth = std::max<std::uint64_t>(stats_.message_reorder_depth, m.arrived - m.next);
        } else {
            ++m.lost;
        }
        if (m.arrived + m.lost < m.parts) return;
        if (m.lost) {
            ++stats_.messages_lost;
        } else {
            ++stats_.messages_delivered;
            if (m.measured) {
                ++stats_.measured_messages_delivered;
                message_hist_.add(at - m.created);
            }
        }
        free_messages_.push_back(pk.message);
    }

    void release(std::uint32_t id) {
        free_packets_.push_back(id);
        free_routes_.push_back(packets_[id].route_slot);
    }

    void apply_failures(std::uint64_t now) {
        for (const auto& [cycle, channel] : failures_) {
            if (cycle != now || broken_[channel]) continue;
            const std::uint32_t node = channel / P, port = channel % P;
            const std::size_t reverse =
                static_cast<std::size_t>(down_[channel]) * P + fab_.topology().reverse_port(NodeId{node}, PortId{port}).value;
            broken_[channel] = 1;
            broken_[reverse] = 1;
            any_broken_ = true;
            // Flits on the wire are lost with it.
            for (auto& bucket : arrivals_) {
                std::size_t keep = 0;
                for (const Arrival& a : bucket) {
                    const std::size_t in_node = a.ivc / VCS, in_port = (a.ivc / V) % NP;
                    if (broken_[up_channel_[in_node * P + in_port]]) {
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
            activate(down_[channel], now);
            if (ob_) link_wake_[node] = link_wake_[down_[channel]] = now;
        }
    }

    void eject(std::uint32_t n, const Flit& f, Packet& pk, std::uint64_t at) {
        if (pk.lost) {  // the rest of a packet that lost a flit: discarded here, already reported
            drop_flit(f.packet);
            return;
        }
        ++stats_.ejected;
        if (at >= cfg_.warmup && at < cfg_.warmup + cfg_.measure) ++stats_.ejected_in_window;
        if (f.index != pk.ejected) ++stats_.out_of_order;
        ++pk.ejected;
        if (pk.ejected + pk.dropped < pk.size) return;
        ++stats_.delivered;
        if (n != pk.dst) ++stats_.misdelivered;
        if (cfg_.track_reorder) {
            PairOrder& po = order_[pair_key(pk.src, pk.dst)];
            if (pk.sequence == po.next_expected) {
                ++po.next_expected;
                while (!po.early.empty() && *po.early.begin() == po.next_expected) {
                    po.early.erase(po.early.begin());
                    ++po.next_expected;
                }
            } else {
                po.early.insert(pk.sequence);
                ++stats_.overtaking;
                stats_.reorder_depth = std::max<std::uint64_t>(stats_.reorder_depth, po.early.size());
            }
        }
        if (pk.measured) {
            ++stats_.measured_delivered;
            stats_.hops += pk.route_len;
            latency_hist_.add(at - pk.created);
            network_hist_.add(at - pk.injected);
        }
        if (cfg_.max_packet_flits) part_done(pk, at, true);
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
            const std::size_t target = ivc_index(down_[channel], down_port_[channel], static_cast<std::uint32_t>(ov % V));
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
                        target = ivc_index(down_[channel], down_port_[channel], v.out_vc);
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
                              ivc_index(down_[channel], down_port_[channel], static_cast<std::uint32_t>(ov % V))) ==
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
            const std::uint32_t up = up_channel_[static_cast<std::size_t>(node) * P + port];
            report.waiting.push_back(VirtualChannel{NodeId{up / P}, PortId{up % P}, static_cast<std::uint8_t>(iv % V)});
        }
        return report;
    }

    struct Stats {
        std::uint64_t moves = 0, injected = 0, ejected = 0, delivered = 0, out_of_order = 0, misdelivered = 0;
        std::uint64_t measured_packets = 0, measured_delivered = 0, hops = 0;
        std::uint64_t created_in_window = 0, ejected_in_window = 0;
        std::uint64_t dropped = 0, lost = 0, measured_lost = 0, unroutable = 0;
        std::uint64_t reorder_depth = 0, overtaking = 0;
        std::uint64_t measured_messages = 0, measured_messages_delivered = 0, messages_delivered = 0;
        std::uint64_t messages_lost = 0, message_reorder_depth = 0, packets_early = 0;
    };
    [[nodiscard]] std::uint64_t pair_key(std::uint32_t src, std::uint32_t dst) const {
        return static_cast<std::uint64_t>(src) * nodes_ + dst;
    }
    std::unordered_map<std::uint64_t, PairOrder> order_;

    const Fab& fab_;
    CycleConfig cfg_;
    std::uint32_t nodes_ = 0;
    std::uint32_t max_hops_ = 0;
    std::uint32_t buffer_ = 0;
    std::uint64_t wheel_size_ = 1;
    // per channel (node * P + port)
    std::vector<std::uint32_t> down_, down_port_, up_channel_, latency_, serial_;
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
    std::vector<std::vector<Arrival>> arrivals_;
    std::vector<std::vector<Feedback>> feedback_;
    // packets
    std::vector<Packet> packets_;
    std::vector<std::uint32_t> free_packets_;
    std::vector<Message> messages_;  // with max_packet_flits
    std::vector<std::uint32_t> free_messages_;
    std::vector<RouteStep> routes_;
    std::vector<std::uint32_t> free_routes_;
    std::vector<Hop> scratch_route_;
    std::array<std::pair<std::size_t, std::size_t>, VCS> va_requests_{};
    LatencyHistogram latency_hist_, network_hist_, message_hist_;
    Stats stats_;
    std::uint64_t in_flight_links_ = 0;
    std::uint64_t buffered_ = 0;
    std::uint64_t queued_ = 0;  // packets in source queues
};

/// Runs one Bernoulli simulation of `fabric`.
template <class Fab, TrafficPattern Pattern>
CycleResult simulate_cycles(const Fab& fabric, const Pattern& pattern, double rate,
                            PacketSizes sizes = PacketSizes::fixed(1), CycleConfig config = {}) {
    CycleSimulator<Fab> sim(fabric, config);
    return sim.run(pattern, rate, sizes);
}

}  // namespace fabric
