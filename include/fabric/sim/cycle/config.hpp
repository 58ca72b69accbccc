// The cycle kernel's settings: router pipeline, switching, link timing, the run's
// methodology (warm-up, window, drain, watchdog), host interfaces and buffering.
// Validated once, when a simulator is built.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

#include <fabric/core/error.hpp>

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

/// Which output VC a head asks for (RouterSettings::vc_choice).
enum class VcChoice : std::uint8_t { route, any };

/// The longest a link, a pipeline stage or a flit's serialisation may take, in
/// cycles: sums of such delays stay far inside 32 bits, and the event wheel that
/// holds a delay stays small.
inline constexpr std::uint32_t max_delay_cycles = 1U << 20;

/// Where a run is, handed to CycleConfig::on_progress.
struct CycleProgress {
    std::uint64_t cycle = 0;               // the cycle being simulated
    std::uint64_t last_cycle = 0;          // the run stops at this cycle at the latest
    std::uint64_t measured_packets = 0;    // created in the window so far
    std::uint64_t measured_delivered = 0;  // of those, delivered
};

/// Bursty (on/off) injection, BookSim's "on_off" process: each node is a
/// two-state Markov chain that turns on with probability `alpha` a cycle when off
/// and off with probability `beta` when on, and makes its Bernoulli trials only
/// while on, at rate x (alpha + beta) / alpha, so that the mean is the offered
/// rate. alpha = 0 (the default): plain Bernoulli injection.
struct OnOffInjection {
    double alpha = 0;
    double beta = 0;
    [[nodiscard]] constexpr bool enabled() const { return alpha > 0; }
    void validate() const {
        detail::require(std::isfinite(alpha) && alpha >= 0 && alpha <= 1, "on/off injection: alpha must be in [0, 1] "
                        "(0: Bernoulli); got ", alpha);
        detail::require(std::isfinite(beta) && beta >= 0 && beta <= 1, "on/off injection: beta must be in [0, 1]; got ",
                        beta);
    }
};

/// CycleConfig::sampling: sample_period = 0 (the default) keeps the fixed window
/// (warmup, measure); a positive period lets ConvergenceSampler choose it.
struct ConvergingSampling {
    std::uint64_t sample_period = 0;  // BookSim: sample_period (its default 1000)
    double warmup_threshold = 0.05;   // warmup_thres and acc_warmup_thres
    double stopping_threshold = 0.05; // stopping_thres and acc_stopping_thres
    std::uint32_t warmup_periods = 0; // warmup_periods: 0, decided by the threshold
    std::uint32_t max_samples = 10;   // max_samples: periods in all, warm-up included
    double latency_threshold = 500;   // latency_thres: a mean above it is unstable; 0: no limit
    [[nodiscard]] constexpr bool enabled() const { return sample_period > 0; }
    void validate() const {
        if (!enabled()) return;
        detail::require(sample_period < (std::uint64_t{1} << 40), "sampling: sample_period must be below 2^40 cycles; "
                        "got ", sample_period);
        detail::require(std::isfinite(warmup_threshold) && warmup_threshold >= 0 && std::isfinite(stopping_threshold) &&
                            stopping_threshold >= 0,
                        "sampling: the warm-up and stopping thresholds must be finite and non-negative");
        detail::require(max_samples >= 1 && max_samples <= 1000000, "sampling: max_samples must be in [1, 10^6]; got ",
                        max_samples);
        detail::require(std::isfinite(latency_threshold) && latency_threshold >= 0,
                        "sampling: latency_threshold must be finite and non-negative (0: no limit); got ",
                        latency_threshold);
    }
};

/// What happened to a watched flit (CycleConfig::watch). `port` is a router port;
/// the topology's ports_per_node names the injection port (created) and the
/// ejection port (switched, ejected).
enum class FlitEventKind : std::uint8_t {
    created,   // at its source node, in injection queue `vc`
    switched,  // granted the switch at `node`: leaves its input VC for output `port`, VC `vc`
    arrived,   // in the input buffer of `node` at `port`, VC `vc`, its last bit in
    ejected,   // reached the terminal of `node` (after the ejection channel)
};

struct FlitEvent {
    std::uint64_t cycle = 0;
    std::uint64_t packet = 0;  // packets are numbered from 0 in the order they are created
    std::uint32_t flit = 0;    // its place in the packet, 0 the head
    std::uint32_t node = 0, port = 0, vc = 0;
    FlitEventKind kind = FlitEventKind::created;
};

/// BookSim's watch_packets: every event of every flit of the packets listed is
/// handed to `sink` as the kernel decides it. A flit's own events come in the
/// order of their cycles; an ejection is decided as the flit crosses the switch,
/// so it may come before another flit's events of earlier cycles. Off while
/// `packets` or `sink` is empty.
struct WatchSettings {
    std::vector<std::uint64_t> packets;
    std::function<void(const FlitEvent&)> sink{};
    [[nodiscard]] bool enabled() const { return !packets.empty() && sink; }
};

/// BookSim's request-reply traffic (use_read_write): every packet the run
/// creates is a request, and the cycle one is delivered its destination creates
/// a reply of reply_flits back to the source (through its source queues, like
/// any packet). A reply is measured with its request; CycleResult's
/// transaction_latency runs from a measured request's creation to its reply's
/// delivery. With max_outstanding, a source with that many requests unanswered
/// makes no Bernoulli draw (BookSim's max_outstanding_requests).
struct RequestReply {
    std::uint32_t reply_flits = 0;      // 0: off, every packet stands alone
    std::uint32_t max_outstanding = 0;  // 0: no limit
    [[nodiscard]] constexpr bool enabled() const { return reply_flits > 0; }
    void validate() const {
        detail::require(reply_flits <= 65535, "request_reply: a reply has at most 65535 flits; got ", reply_flits);
        detail::require(enabled() || max_outstanding == 0, "request_reply: max_outstanding limits requests awaiting "
                        "their reply; set reply_flits too, or leave max_outstanding at 0");
    }
};

/// The most traffic classes a run may have (CycleConfig::class_priority).
inline constexpr std::size_t max_traffic_classes = 16;

/// The routers' settings: pipeline, switching, output queues, VC release and speculation.
struct RouterSettings {
    PipelineDelays pipeline{};
    Switching switching = Switching::wormhole;
    /// Output buffering: when positive, every output virtual channel of a network
    /// port has a queue of this many flits. A flit crosses the switch into it as
    /// soon as it has room (one flit per output port per cycle), and the link takes
    /// flits from the port's queues, round robin over the VCs that flow control
    /// lets go. A packet waiting for a slow or busy link then no longer blocks the
    /// input behind it until its queue fills. 0: input queued only.
    std::uint32_t output_buffer_flits = 0;
    /// Cycles after a tail leaves an input VC before the head queued behind it
    /// starts routing (BookSim's input-queued router: 1). 0: routed at once.
    std::uint32_t head_turnaround = 0;
    /// BookSim's wait_for_tail_credit: an output VC is given to another packet
    /// only once the credit of the last packet's tail is back (the downstream
    /// buffer has let the whole packet go), not when the tail crosses the switch;
    /// the ejection port then has VCs too, held alike (ejection_vcs.hpp).
    /// Needs a flow control that says when that is (Credit) and no output queues.
    bool wait_for_tail_credit = false;
    /// BookSim's speculative switch allocation: a head bids for the switch in the
    /// cycle it is granted its output VC, below every non-speculative request
    /// (a second allocator stage whose grants stand only on ports the first left
    /// free), so an uncontended head gains the VC allocation cycle at each router.
    /// No effect when pipeline.vc_allocation is 0.
    bool speculative = false;
    /// route: a head asks for the VC its route names. any: for any VC of the route's
    /// VC class, a link's V VCs dealt evenly to the C classes the routing policy
    /// needs (vcs_required): class c is VCs [c V/C, (c + 1) V/C), as BookSim's
    /// routing functions give VC ranges (one class: every VC). A head asks for the
    /// free VC of its class nearest at or after its input VC's own round-robin
    /// pointer (over the router's output VCs, port by port), the output VC grants
    /// its requester nearest its pointer, and the winner's pointers move past what
    /// it won: BookSim's separable input-first VC allocator.
    VcChoice vc_choice = VcChoice::route;

    void validate() const {
        for (const std::uint32_t stage : {pipeline.routing, pipeline.vc_allocation, pipeline.switch_allocation,
                                          pipeline.switch_traversal})
            detail::require(stage <= max_delay_cycles, "a router pipeline stage may take at most ", max_delay_cycles,
                            " cycles; got ", stage);
        detail::require(head_turnaround <= max_delay_cycles, "head_turnaround must be at most ", max_delay_cycles,
                        " cycles; got ", head_turnaround);
        detail::require(!wait_for_tail_credit || output_buffer_flits == 0, "wait_for_tail_credit is for input-queued "
                        "routers: set output_buffer_flits to 0, or leave wait_for_tail_credit off");
    }
};

/// Latencies in cycles, one per link class (LinkSettings::class_latency): a value
/// of fixed capacity, so that a copy or a move of the settings carries it whole.
class ClassLatencies {
public:
    static constexpr std::size_t capacity = 8;
    constexpr ClassLatencies() = default;
    constexpr ClassLatencies(std::initializer_list<std::uint32_t> cycles) { assign(cycles.begin(), cycles.end()); }
    /// From any range of latencies (a command line's list), at most `capacity`.
    template <class It>
    constexpr void assign(It first, It last) {
        size_ = 0;
        for (; first != last; ++first) {
            detail::require(size_ < capacity, "class_latency: at most ", capacity, " link classes");
            cycles_[size_++] = static_cast<std::uint32_t>(*first);
        }
    }
    [[nodiscard]] constexpr std::size_t size() const { return size_; }
    [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
    [[nodiscard]] constexpr std::uint32_t operator[](std::size_t c) const { return cycles_[c]; }
    [[nodiscard]] constexpr const std::uint32_t* begin() const { return cycles_.data(); }
    [[nodiscard]] constexpr const std::uint32_t* end() const { return cycles_.data() + size_; }
    friend constexpr bool operator==(const ClassLatencies& a, const ClassLatencies& b) {
        if (a.size_ != b.size_) return false;
        for (std::size_t i = 0; i < a.size_; ++i)
            if (a.cycles_[i] != b.cycles_[i]) return false;
        return true;
    }

private:
    std::array<std::uint32_t, capacity> cycles_{};
    std::size_t size_ = 0;
};

/// The links' timing.
struct LinkSettings {
    /// Link latency in cycles for every link, and one flit per cycle, when cycle_ns is 0.
    std::uint32_t link_latency = 1;
    /// When positive: the length of a cycle, from which every link class's latency
    /// (rounded up, at least 1) and serialisation (flit_bytes over its bandwidth,
    /// rounded up, at least 1 cycle per flit) follow.
    double cycle_ns = 0;
    std::uint32_t flit_bytes = 16;
    /// Feedback (a credit) crosses the link back to its sender: it takes that
    /// link's latency on top of the flow control's own delay (feedback_delay()),
    /// as a credit does on a long cable. Off (the default): the flow control's
    /// delay alone, the same on every link.
    bool feedback_over_link = false;
    /// Latency in cycles of each link class of the topology, indexed as
    /// Topology::link_class numbers them (a dragonfly: local 0, global 1), in place
    /// of link_latency or of what cycle_ns derives from the class's link type; its
    /// size must be the topology's class count. Empty (the default): every class
    /// as above. BookSim's dragonflynew: {10, 100}. The terminal channels have
    /// theirs in TerminalSettings (injection_latency, ejection_latency).
    ClassLatencies class_latency{};

    void validate() const {
        detail::require(link_latency >= 1, "cycle simulation needs a link latency of at least 1 cycle; got 0");
        detail::require(link_latency <= max_delay_cycles, "link_latency must be at most ", max_delay_cycles,
                        " cycles; got ", link_latency);
        detail::require(cycle_ns >= 0, "cycle_ns must be zero (unit timing) or positive; got ", cycle_ns);
        detail::require(std::isfinite(cycle_ns) && cycle_ns <= 1e9, "cycle_ns must be finite and at most 1e9; got ",
                        cycle_ns);
        detail::require(cycle_ns == 0 || flit_bytes >= 1, "flit_bytes must be at least 1 when cycle_ns is set");
        for (const std::uint32_t latency : class_latency)
            detail::require(latency >= 1 && latency <= max_delay_cycles, "class_latency: every link class needs a "
                            "latency of 1 to ", max_delay_cycles, " cycles; got ", latency);
    }
};

/// The terminals: how traffic enters the network and leaves it.
struct TerminalSettings {
    /// Injection queues per node (host interfaces feeding the router, each with
    /// its own input VC on the injection port); messages are dealt to them in turn.
    /// At most the number of virtual channels of the fabric's links.
    std::uint32_t injection_queues = 1;
    /// The packets one terminal's source queues may hold (created, tail not yet
    /// injected). A message that the Bernoulli or on/off process draws for a
    /// terminal holding this many is refused: never created, counted in
    /// CycleResult::refused (the offered load still counts it). This bounds a
    /// saturated run's memory to about terminals x this many packet records.
    /// Trace messages and replies are never refused. 0 (the default): unbounded,
    /// BookSim's methodology. A bound changes figures near saturation, where
    /// queues grow long before they grow without end (a bound of 32 moves the 8x8
    /// torus's tornado saturation from 0.109 to 0.116 flits/cycle/node, and
    /// refuses 0.7% of a bursty load of 0.2 that unbounded queues carry).
    std::uint32_t source_queue_packets = 0;
    /// Bursty injection for run(); the default is Bernoulli.
    OnOffInjection on_off{};
    /// When positive, a message (a Bernoulli draw of PacketSizes, or a trace
    /// message) longer than this is split into packets of this many flits (the
    /// last shorter), each routed on its own; the destination reassembles the
    /// message and CycleResult reports message latency and the reassembly depth.
    /// 0: every message is one packet.
    std::uint32_t max_packet_flits = 0;
    /// Traffic classes (BookSim's classes and class_priority): class c has
    /// priority class_priority[c], higher first. Every node has injection_queues
    /// injection VCs per class, and in VC and switch allocation a request of a
    /// higher priority always beats one of a lower (round robin among equals).
    /// A Bernoulli run takes a load per class (run(pattern, loads)); a trace
    /// names each message's class. Empty: one class, no priorities, no per-class
    /// figures (CycleResult::classes).
    std::vector<std::uint32_t> class_priority{};
    /// Request-reply traffic; off by default.
    RequestReply request_reply{};
    /// Terminal channels, in cycles (BookSim models both as one-cycle channels):
    /// a packet's head reaches its router's injection port this long after it
    /// could leave the source queue, and a flit ejected at a router reaches its
    /// terminal this long after (latencies and the window count the terminal's
    /// time). 0: the terminal sits on the router.
    std::uint32_t injection_latency = 0;
    std::uint32_t ejection_latency = 0;

    void validate() const {
        detail::require(injection_queues >= 1, "a node needs at least one injection queue; got 0");
        detail::require(max_packet_flits <= 65535, "max_packet_flits must be at most 65535; got ", max_packet_flits);
        on_off.validate();
        request_reply.validate();
        detail::require(class_priority.size() <= max_traffic_classes, "class_priority: at most ",
                        max_traffic_classes, " traffic classes; got ", class_priority.size());
        detail::require(!request_reply.enabled() || max_packet_flits == 0, "request_reply: a reply answers a packet, "
                        "not a message split into packets; set max_packet_flits to 0");
        for (const std::uint32_t d : {injection_latency, ejection_latency})
            detail::require(d <= max_delay_cycles, "injection_latency and ejection_latency must each be at most ",
                            max_delay_cycles, " cycles; got ", d);
    }
};

/// The run's methodology: the measurement window, the drain, the deadlock
/// watchdog, the seed and the limits a run stops at.
struct MethodSettings {
    std::uint64_t warmup = 1000;
    std::uint64_t measure = 10000;
    /// Cycles after the window (or after a trace's last message) to wait for the
    /// measured packets; 0: the larger of 3 (warmup + measure) and 20000, and for a
    /// trace no bound: it drains until delivered (or the watchdog finds a deadlock).
    std::uint64_t drain_limit = 0;
    /// A deadlock is declared when flits that have not moved for this many cycles
    /// wait on each other in a cycle of virtual channels.
    std::uint64_t watchdog = 10000;
    std::uint64_t seed = 1;
    /// A run past saturation stops, once its measurement window is over, when the
    /// source queues hold this many packets per node on average (it is then
    /// reported saturated and not drained).
    std::uint64_t max_queued_per_node = 256;
    /// BookSim's converging sampler (sim/cycle/sampler.hpp): with a positive
    /// sample_period it chooses the window, and warmup and measure are not used.
    ConvergingSampling sampling{};
    /// The memory a run may take, in MB (2^20 bytes): a configuration whose
    /// buffers, and the packets and routes they can hold, need more is refused when
    /// the run starts (the message gives the figure); a run whose source queues
    /// would take the rest stops there, reported saturated with
    /// CycleResult::source_limit_reached (sim/cycle/memory.hpp).
    std::uint64_t memory_limit_mb = 4096;

    void validate() const {
        detail::require(measure >= 1, "the measurement window needs at least 1 cycle");
        detail::require(warmup < (std::uint64_t{1} << 60) && measure < (std::uint64_t{1} << 60) &&
                            drain_limit < (std::uint64_t{1} << 60) && watchdog < (std::uint64_t{1} << 60),
                        "warmup, measure, drain_limit and watchdog must each be below 2^60 cycles");
        detail::require(watchdog >= 1, "the deadlock watchdog needs at least 1 cycle");
        detail::require(max_queued_per_node >= 1, "max_queued_per_node must be at least 1");
        detail::require(memory_limit_mb >= 1, "memory_limit_mb must be at least 1");
        sampling.validate();
    }

    /// Whether a flit or packet event at `cycle` falls in the measurement window.
    [[nodiscard]] constexpr bool in_window(std::uint64_t cycle) const {
        return cycle >= warmup && cycle < warmup + measure;
    }
};

/// What a run reports besides its result, and how it tells its progress.
struct InstrumentSettings {
    /// Track, per source and destination, how far packets overtake one another:
    /// CycleResult::reorder_depth (costs a map lookup per packet).
    bool track_reorder = false;
    /// Per-node counters in CycleResult::nodes (flits offered, injected and
    /// accepted in the window; the measured packets' latency by source and by
    /// destination). Off: nothing is kept.
    bool node_statistics = false;
    /// A trace of the flits of chosen packets (BookSim's watch_packets).
    WatchSettings watch{};
    /// Called about every progress_seconds of wall time during a run; empty (the
    /// default): the library prints nothing. The tools pass one that writes a line.
    std::function<void(const CycleProgress&)> on_progress{};
    double progress_seconds = 3;

    void validate() const {
        detail::require(progress_seconds > 0, "progress_seconds must be positive; got ", progress_seconds);
    }
};

/// The cycle kernel's settings: each part's own settings in one value, so that a
/// part takes its group (RouterSettings, LinkSettings, TerminalSettings,
/// MethodSettings, InstrumentSettings) and a user sets any field by its name.
struct CycleConfig : RouterSettings, LinkSettings, TerminalSettings, MethodSettings, InstrumentSettings {
    void validate() const {
        RouterSettings::validate();
        LinkSettings::validate();
        TerminalSettings::validate();
        MethodSettings::validate();
        InstrumentSettings::validate();
    }
};

}  // namespace fabric
