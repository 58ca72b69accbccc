// What a cycle-kernel run reports. The kernel counts into this struct as it runs
// (no internal copy of the counters), then fills in the derived figures. The
// counts are declared once, as Boost.Hana structs (CycleCounts, CycleMaxima,
// NodeCounters): the sum over ranks, the JSON and the CSV are derived from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/hana/accessors.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>

#include <fabric/core/error.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric {

namespace detail {
/// Sets every member of a BOOST_HANA_DEFINE_STRUCT struct of counts to 0 (its
/// members have no initialisers of their own).
template <class S>
void zero_members(S& s) {
    boost::hana::for_each(boost::hana::accessors<S>(), [&](auto member) { boost::hana::second(member)(s) = 0; });
}
}  // namespace detail

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
    std::vector<std::uint64_t> histogram;  // packets per latency in cycles, below LatencyHistogram::dense_cycles
    std::vector<LatencyCount> beyond;      // (latency, packets) from there on, ascending; usually none

    static LatencySummary of(const LatencyHistogram& h) {
        return {h.mean(), h.percentile(0.50), h.percentile(0.99), h.max(), h.bins(), h.beyond()};
    }

    /// How many packets the histogram counts.
    [[nodiscard]] std::uint64_t count() const {
        std::uint64_t n = 0;
        for (const auto k : histogram) n += k;
        for (const auto& [cycles, k] : beyond) n += k;
        return n;
    }

    /// Any percentile from the exact histogram: the smallest latency L such that
    /// at least a fraction q of the packets took at most L cycles.
    [[nodiscard]] std::uint64_t percentile(double q) const {
        return detail::histogram_percentile(histogram, beyond, count(), q, max);
    }
};

/// One terminal's share of a run (CycleConfig::node_statistics; a terminal is a
/// node unless the topology is concentrated): flits in the window, and the
/// measured packets delivered, by source and by destination.
struct NodeCounters {
    BOOST_HANA_DEFINE_STRUCT(NodeCounters,
        (std::uint64_t, flits_offered),     // created here, or refused (CycleConfig::source_queue_packets)
        (std::uint64_t, flits_refused),     // refused here: its source queues were full
        (std::uint64_t, flits_injected),    // left this node's source queues
        (std::uint64_t, flits_accepted),    // ejected here
        (std::uint64_t, packets_sent),      // measured packets from here, delivered
        (std::uint64_t, latency_sent),      // their latencies (creation to tail ejection), summed
        (std::uint64_t, packets_received),  // measured packets delivered here
        (std::uint64_t, latency_received));
    NodeCounters() { detail::zero_members(*this); }
};

/// One traffic class's share of a run (CycleConfig::class_priority): its load
/// in the window and its measured packets (replies included, with request_reply).
struct ClassResult {
    double offered = 0;   // flits/cycle/terminal of this class created (or refused) in the window
    double accepted = 0;  // flits/cycle/terminal of this class ejected in the window
    double refused = 0;   // flits/cycle/terminal of this class refused in the window (full source queues)
    LatencySummary latency;
    std::uint64_t measured_packets = 0;
    std::uint64_t measured_delivered = 0;
    std::uint64_t flits_created_in_window = 0;
    std::uint64_t flits_ejected_in_window = 0;
    std::uint64_t flits_refused_in_window = 0;
};

/// The counts of a run: each is added up as the run goes (and over the ranks of a
/// partitioned run, CycleResult::sum_over_ranks). Declared once here: the sum
/// over ranks and the JSON and CSV records are derived from this list.
struct CycleCounts {
    BOOST_HANA_DEFINE_STRUCT(CycleCounts,
        (std::uint64_t, measured_packets),
        (std::uint64_t, measured_delivered),
        (std::uint64_t, measured_lost),       // measured packets lost to a failed link or without a route
        (std::uint64_t, measured_hops),       // links crossed by the measured packets delivered
        (std::uint64_t, flits_created_in_window),
        (std::uint64_t, flits_ejected_in_window),
        (std::uint64_t, flits_refused_in_window),
        (std::uint64_t, flits_refused),       // over the whole run (CycleConfig::source_queue_packets)
        (std::uint64_t, flit_moves),          // flits through a switch (or out of a source queue)
        // Conservation: injected = ejected + in flight + dropped, at the end of the run;
        // every packet is delivered or lost, and every lost one is counted here.
        (std::uint64_t, flits_injected),      // flits that left source queues
        (std::uint64_t, flits_ejected),
        (std::uint64_t, flits_in_flight),
        (std::uint64_t, packets_delivered),
        (std::uint64_t, delivered_latency_sum),  // over every packet delivered, measured or not
        (std::uint64_t, flits_dropped),       // flits lost with a failed link, each reported
        (std::uint64_t, packets_lost),        // packets that lost a flit to a failed link, or had no route
        (std::uint64_t, packets_unroutable),
        (std::uint64_t, links_sick),          // links found sick by their CRC errors (link_errors), then routed round
        (std::uint64_t, out_of_order),        // flits ejected out of order within their packet (must be 0)
        // With track_reorder: the packets that arrived ahead of an earlier one of their
        // source-destination pair.
        (std::uint64_t, packets_overtaking),
        // With max_packet_flits: messages split into packets and reassembled at the
        // destination. A message is delivered with its last packet (or lost with any);
        // packets_early counts packets that arrived before an earlier one of their message.
        (std::uint64_t, measured_messages),
        (std::uint64_t, measured_messages_delivered),
        (std::uint64_t, messages_delivered),
        (std::uint64_t, messages_lost),
        (std::uint64_t, packets_early),
        // With request_reply: replies delivered.
        (std::uint64_t, replies_delivered),
        (std::uint64_t, misdelivered));       // packets ejected at a terminal other than their destination (must be 0)
    CycleCounts() { detail::zero_members(*this); }
};

/// Counts whose figure for a run is the largest seen anywhere (over the ranks of a
/// partitioned run, the largest of the ranks').
struct CycleMaxima {
    BOOST_HANA_DEFINE_STRUCT(CycleMaxima,
        // With track_reorder: the most packets of one source-destination pair that arrived
        // while an earlier one was still missing (the reassembly buffer the destination needs).
        (std::uint64_t, reorder_depth),
        // With max_packet_flits: the most packets of one message that the destination held
        // because an earlier packet of it was still missing.
        (std::uint64_t, message_reorder_depth));
    CycleMaxima() { detail::zero_members(*this); }
};

/// What a run reports: its counts (CycleCounts, CycleMaxima) and the figures
/// derived from them when it ends. Loads are per terminal: per node unless the
/// topology is concentrated (terminals_per_node > 1; Concentrated).
struct CycleResult : CycleCounts, CycleMaxima {
    double offered = 0;         // flits/cycle/terminal offered during the window: created, or refused
    double accepted = 0;        // flits/cycle/terminal ejected during the window
    /// Flits/cycle/terminal of the offered load refused in the window, at
    /// terminals whose source queues held CycleConfig::source_queue_packets.
    double refused = 0;
    LatencySummary latency;     // creation to tail ejection, measured packets
    LatencySummary network_latency;  // head leaving the source queue to tail ejection
    LatencySummary message_latency;  // with max_packet_flits: measured messages, creation to the last tail
    /// With request_reply: the measured transactions' latency, from the request's
    /// creation to the reply's delivery.
    LatencySummary transaction_latency;
    double hops_mean = 0;
    std::uint64_t cycles = 0;   // simulated, warm-up and drain included
    /// The measurement window: CycleConfig's warmup and measure, or the one the
    /// converging sampler chose (CycleConfig::sampling), with its periods run and
    /// whether it converged (false: it closed at max_samples, or never opened).
    std::uint64_t window_start = 0;
    std::uint64_t window_cycles = 0;
    std::uint32_t sample_periods = 0;
    bool sampling_converged = false;
    bool saturated = false;     // not drained, or accepted below 95% of offered
    bool drained = true;        // every measured packet delivered before the run stopped
    /// The source queues reached what CycleConfig::memory_limit_mb leaves them and
    /// the run stopped there (saturated; its figures cover the cycles run).
    bool source_limit_reached = false;
    std::size_t ports_per_node = 0;
    std::size_t terminals_per_node = 1;
    std::size_t terminals = 0;  // where traffic starts and ends: routers x terminals_per_node
    std::vector<double> channel_utilisation;  // per channel slot: flits per cycle in the window
    std::vector<NodeCounters> nodes;          // per terminal, with CycleConfig::node_statistics
    std::vector<ClassResult> classes;         // per traffic class, with CycleConfig::class_priority
    std::optional<DeadlockReport> deadlock;

    /// Whether every measured packet has been delivered or reported lost.
    [[nodiscard]] bool measured_accounted() const { return measured_delivered + measured_lost == measured_packets; }
};

namespace cycle {

/// Calls f(name, counter) for every member of a struct declared with
/// BOOST_HANA_DEFINE_STRUCT (CycleCounts, CycleMaxima, NodeCounters), in order.
template <class S, class F>
void for_each_count(S& s, F&& f) {
    boost::hana::for_each(boost::hana::accessors<std::remove_const_t<S>>(), [&](auto member) {
        f(boost::hana::to<char const*>(boost::hana::first(member)), boost::hana::second(member)(s));
    });
}

/// Calls f(counter) for every counter of `r` that is a sum over routers and
/// terminals: how a partitioned run's ranks add up (the maxima are not sums).
template <class F>
void for_each_summed(CycleResult& r, F&& f) {
    for_each_count(static_cast<CycleCounts&>(r), [&](const char*, std::uint64_t& c) { f(c); });
    for (NodeCounters& n : r.nodes) for_each_count(n, [&](const char*, std::uint64_t& c) { f(c); });
}

}  // namespace cycle
}  // namespace fabric
