// The flit-level cycle kernel: a discrete-time simulation of any fabric type.
//
// Routers are input queued, with `V` virtual channels per input port and a buffer
// per VC whose depth the flow-control protocol sets. Every router has one input
// port per link plus an injection port (fed by a source queue, unbounded unless
// CycleConfig::source_queue_packets bounds it: past it messages are refused), and
// one output port per link plus an ejection port (an infinite sink, one flit per
// cycle). Packets are source routed: at creation the routing policy writes the
// whole route, each hop naming its port and virtual channel (select_route).
//
// Timing, for a flit at the front of an input VC:
//   - a head that became the front at cycle f may ask for its output VC from
//     f + routing; the VC allocator grants at most one requester per output VC
//     per cycle (round robin per output VC);
//   - from grant + vc_allocation the packet's flits ask for the switch; the
//     switch allocator (a policy: SeparableSwitch picks one VC per input port,
//     then one input port per output port, round robin at both stages; Islip<I>
//     matches by iSLIP) pairs inputs and outputs among flits whose downstream
//     flow control allows a send and whose output link is free;
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
// it accepted less than 95% of the load offered in the window (the offered load
// counts the messages refused at full source queues).
// A watchdog stops a run when flits that have not moved for `watchdog` cycles wait
// on each other in a cycle of virtual channels, and reports that cycle.
//
// No virtual call anywhere; per-flit and per-cycle work touches preallocated
// arrays only (the packet pool and queues grow only when their peak grows).
// The parts, a job each, are listed in sim/cycle.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <span>
#include <utility>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/requirements.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/creation.hpp>
#include <fabric/sim/cycle/sampler.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>
#include <fabric/sim/cycle/watchdog.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric {

template <class Fab, class A>
    requires CycleKernelFabric<Fab> && SwitchAllocator<A>
class CycleSimulator<Fab, A> : cycle::Creation<Fab, A> {
    using Base = cycle::Creation<Fab, A>;
    using Base::P, Base::LOCAL, Base::NP, Base::V, Base::none;
    using Base::cfg_, Base::fab_, Base::links_, Base::nodes_, Base::in_, Base::out_, Base::owner_, Base::sources_,
        Base::source_packet_cap_, Base::failures_, Base::packets_, Base::res_, Base::buffered_, Base::wake_, Base::wheel_size_, Base::buffer_,
        Base::messages_, Base::reorder_, Base::in_flight_links_, Base::sent_in_window_, Base::latency_hist_,
        Base::network_hist_, Base::message_hist_;
    using Base::activate, Base::front, Base::write_route, Base::start_head, Base::output_ready, Base::queue_can_send,
        Base::create_message, Base::create_replies;
    using Packet = cycle::Packet;
    using InputVc = cycle::InputVc;
    using VcState = cycle::VcState;

public:
    explicit CycleSimulator(const Fab& fabric, CycleConfig config = {}) : Base(fabric, std::move(config)) {}

    /// Bernoulli injection at `rate` flits/cycle/terminal (on/off when
    /// CycleConfig::on_off asks for it), destinations from `pattern` (one task per
    /// node), packet sizes from `sizes`.
    template <TrafficPattern Pattern>
    CycleResult run(const Pattern& pattern, double rate, PacketSizes sizes = PacketSizes::fixed(1)) {
        detail::require(this->classes_.count() == 1, "this configuration has ", this->classes_.count(),
                        " traffic classes (CycleConfig::class_priority): offer a load per class with run(pattern, "
                        "loads)");
        const OfferedLoad load{rate, sizes};
        cycle::Alone alone;
        return run_loads(pattern, std::span<const OfferedLoad>(&load, 1), alone);
    }

    /// Traffic classes (CycleConfig::class_priority): class c offers loads[c],
    /// its own Bernoulli (or on/off) process per node; every class draws its
    /// destinations from `pattern`.
    template <TrafficPattern Pattern>
    CycleResult run(const Pattern& pattern, std::span<const OfferedLoad> loads) {
        cycle::Alone alone;
        return run_loads(pattern, loads, alone);
    }

    /// Injects the messages of a trace (sorted by cycle) at their cycles.
    CycleResult run_trace(std::span<const TraceMessage> trace) {
        cycle::Alone alone;
        return run_trace_with(trace, alone);
    }

    /// The link of `port` at `node` fails at `cycle` of the next run, in both
    /// directions. Flits on it or bound for it are dropped and their packets
    /// reported lost; packets routed afterwards avoid it when the routing policy
    /// can (select_route with the broken channels), or are reported unroutable.
    void fail_link(NodeId node, PortId port, std::uint64_t cycle) { failures_.fail(channel_of(node, port), cycle); }

    /// The link of `port` at `node` works again from `cycle` of the next run (both
    /// directions); routes computed afterwards may use it.
    void restore_link(NodeId node, PortId port, std::uint64_t cycle) { failures_.restore(channel_of(node, port), cycle); }

    /// The link of `port` at `node` runs at 1/`factor` of its bandwidth (both
    /// directions): its serialisation grows by the factor, rounded up.
    void slow_link(NodeId node, PortId port, double factor) {
        links_.slow(channel_of(node, port), factor);
        while (wheel_size_ <= static_cast<std::uint64_t>(links_.max_serialisation()) * 4 + 4096) wheel_size_ *= 2;
    }

    [[nodiscard]] const CycleConfig& config() const { return cfg_; }
    /// The seed of the next runs (every other setting stays): one simulator serves
    /// several seeds of an experiment.
    void reseed(std::uint64_t seed) { cfg_.seed = seed; }

protected:
    /// The routers this rank steps in the next runs over a transport (run_loads,
    /// run_trace_with); a run alone (run, run_trace) steps them all.
    void use_partition(const cycle::Partition& partition) {
        detail::require(partition.ranks() == 1 || partition.routers() == nodes_, "the partition splits ",
                        partition.routers(), " routers; this fabric has ", nodes_);
        this->part_ = partition;
    }

    /// run(pattern, loads) and run_trace(trace) over the ranks of `tx`: partitioned
    /// when part_ splits the routers (dist/partitioned.hpp), else alone.
    template <TrafficPattern Pattern, CycleTransport Tx>
    CycleResult run_loads(const Pattern& pattern, std::span<const OfferedLoad> loads, Tx& tx) {
        detail::require(loads.size() == this->classes_.count(), "give one load per traffic class: the configuration "
                        "has ", this->classes_.count(), " classes (CycleConfig::class_priority), the run ", loads.size(),
                        " loads");
        detail::require(pattern.task_count() == this->terminals_, "the cycle kernel runs one task per terminal: the "
                        "pattern has ", pattern.task_count(), " tasks, the topology ", this->terminals_, " terminals (",
                        nodes_, " routers of ", this->per_node_, ")");
        std::uint32_t largest = 1;
        for (const OfferedLoad& load : loads) {
            load.sizes.validate();
            detail::require(load.rate >= 0 && load.rate <= load.sizes.mean(), "offered load must be in [0, mean "
                            "packet size = ", load.sizes.mean(), "] flits/cycle/terminal; got ", load.rate);
            largest = std::max(largest, load.sizes.max());
        }
        check_switching(largest);
        const DestinationSampler<Pattern> sampler(pattern);
        const OnOffInjection& burst = config().on_off;
        if (burst.enabled()) {
            std::vector<cycle::OnOffArrivals> arrivals;
            for (const OfferedLoad& load : loads)
                arrivals.emplace_back(this->terminals_, load.rate / load.sizes.mean(), burst.alpha, burst.beta);
            return run_arrivals(sampler, arrivals, loads, tx);
        }
        std::vector<cycle::BernoulliArrivals> arrivals;
        for (const OfferedLoad& load : loads) arrivals.emplace_back(this->terminals_, load.rate / load.sizes.mean());
        return run_arrivals(sampler, arrivals, loads, tx);
    }

    template <CycleTransport Tx>
    CycleResult run_trace_with(std::span<const TraceMessage> trace, Tx& tx) {
        detail::require(!cfg_.sampling.enabled(), "the converging sampler (CycleConfig::sampling) is for run(); a "
                        "trace run ends with its trace: set sampling.sample_period to 0");
        check_switching(cycle::validate_trace(trace, this->terminals_, this->classes_.count()));
        std::size_t next = 0;
        const std::uint64_t last = trace.empty() ? 0 : trace.back().cycle;
        return simulate(last, [&](std::uint64_t now, Random& rng) {
            for (; next < trace.size() && trace[next].cycle == now; ++next)
                create_message(trace[next].source, trace[next].destination, trace[next].flits, now, rng,
                               trace[next].traffic_class);
        }, tx);
    }

    std::uint32_t channel_of(NodeId node, PortId port) const {
        detail::require(node.value < nodes_ && port.value < P && fab_.topology().neighbour(node, port).valid(), "node ",
                        node.value, " has no link on port ", port.value);
        return static_cast<std::uint32_t>(static_cast<std::size_t>(node.value) * P + port.value);
    }

    /// A partitioned run steps each rank's routers alone, so what needs another rank's
    /// state within a cycle is refused, with the reason; every rank refuses alike.
    void check_partitionable() const {
        auto refuse = [](bool used, const char* what, const char* why) {
            detail::require(!used, "a partitioned run (dist::PartitionedCycle) cannot use ", what, ": ", why,
                            "; run it alone, or without it");
        };
        refuse(cfg_.request_reply.enabled(), "request_reply", "replies draw from the one random stream where "
               "their requests arrive");
        refuse(cfg_.source_queue_packets > 0, "source_queue_packets", "a refusal draws differently from a "
               "creation, and only the terminal's rank knows its queues");
        refuse(cfg_.sampling.enabled(), "the converging sampler", "it is not yet summed over the ranks");
        refuse(cfg_.watch.enabled(), "watch", "packets are numbered per rank");
        refuse(this->classes_.count() > 1, "traffic classes", "their counters are not yet summed over the ranks");
        refuse(Base::adaptive && !Base::hop_adaptive, "source-adaptive routing", "it reads every router's queues "
               "at the source");
        refuse(fab_.flow().feedback_delay() < 1, "feedback in 0 cycles", "the ranks exchange once a cycle");
        const auto& pd = cfg_.pipeline;
        for (std::size_t c = 0; c < links_.channels(); ++c)
            if (links_.connected(c) &&
                this->part_.rank_of(static_cast<std::uint32_t>(c / P)) != this->part_.rank_of(links_.down(c)))
                detail::require(pd.switch_allocation + pd.switch_traversal + links_.serialisation(c) - 1 +
                                        links_.latency(c) >= 1,
                                "a partitioned run needs every link between ranks to take at least one cycle; the "
                                "link of channel ", c, " delivers in 0");
    }

    void check_switching(std::uint32_t largest) const {
        if (cfg_.max_packet_flits) largest = std::min(largest, cfg_.max_packet_flits);
        if (cfg_.switching == Switching::virtual_cut_through)
            detail::require(largest <= buffer_, "virtual cut-through needs a buffer of a whole packet: the largest "
                            "packet has ", largest, " flits, the buffer per VC ", buffer_, "; raise the buffer or use "
                            "wormhole switching");
    }

    /// run() with the arrival process chosen, one per class: each arrival draws a destination and a size.
    template <class Sampler, class Arrivals, class Tx>
    CycleResult run_arrivals(const Sampler& sampler, std::vector<Arrivals>& arrivals, std::span<const OfferedLoad> loads,
                             Tx& tx) {
        return simulate(std::nullopt, [&](std::uint64_t now, Random& rng) {
            for (std::uint32_t c = 0; c < arrivals.size(); ++c)
                arrivals[c].step(
                    now, rng, [&](std::uint32_t n) { return sampler.sends(n); },
                    [&](std::uint32_t n) {
                        const auto& open = this->outstanding_;  // with max_outstanding: a source at the limit makes none
                        if (!open.empty() && open[n] >= cfg_.request_reply.max_outstanding) return;
                        const auto dst = static_cast<std::uint32_t>(sampler(n, rng));
                        const std::uint32_t size = loads[c].sizes.draw(rng);
                        if (!cfg_.source_queue_packets || sources_.held(n) < cfg_.source_queue_packets)
                            return create_message(n, dst, size, now, rng, c);
                        res_.flits_refused += size;  // refused: the terminal's source queues are full
                        if (!cfg_.in_window(now)) return;
                        res_.flits_refused_in_window += size;
                        this->classes_.refused(c, size);
                        if (!res_.nodes.empty()) {
                            res_.nodes[n].flits_offered += size;
                            res_.nodes[n].flits_refused += size;
                        }
                    });
        }, tx);
    }

    /// Runs until the measured packets are delivered (Bernoulli: injection goes on
    /// meanwhile) or, for a trace ending at `trace_end`, until the trace is injected
    /// and the network is empty; the drain limit and the watchdog stop it earlier.
    template <class Inject, class Tx>
    CycleResult simulate(std::optional<std::uint64_t> trace_end, Inject&& inject, Tx& tx) {
        if constexpr (std::is_same_v<Tx, cycle::Alone>) this->part_.alone();
        const bool split = this->part_.split();
        // Refused alike at every rank count, so that a configuration that runs at one rank runs at four.
        if constexpr (!std::is_same_v<Tx, cycle::Alone>) check_partitionable();
        this->reset();
        this->watchdog_.reset(cfg_.watchdog);
        Random rng(cfg_.seed);
        const std::uint64_t fixed_warmup = cfg_.warmup, fixed_measure = cfg_.measure;
        sampled_.start(cfg_);
        std::uint64_t window_end = 0, stop = 0;
        auto bounds = [&] {
            window_end = cfg_.warmup + cfg_.measure;
            const auto drain = cfg_.drain_limit ? cfg_.drain_limit : std::max<std::uint64_t>(3 * window_end, 20000);
            stop = std::max(window_end, trace_end.value_or(0) + 1) + drain;
        };
        bounds();
        // What ends the run, summed over the ranks of a partitioned one: measured packets, those delivered or
        // lost, packets in source queues, flits buffered, flits on links.
        std::array<std::uint64_t, 5> total{};
        auto empty = [&] { return total[2] == 0 && total[3] == 0 && total[4] == 0 && this->replies_.empty(); };
        std::uint64_t now = 0;
        auto last_report = std::chrono::steady_clock::now();
        for (;; ++now) {
            if (failures_.active())
                failures_.step(
                    now, [&](std::size_t c) { return links_.reverse(c); },
                    [&](std::uint32_t channel) { this->link_failed(channel, now); });
            if (cfg_.request_reply.enabled()) create_replies(now, rng);
            if (!trace_end || now <= *trace_end) inject(now, rng);
            this->tick_receivers(now);
            this->deliver_events(now);
            this->step_routers(now);
            if (split) this->exchange(now, tx);
            this->settle_losses();
            total = {res_.measured_packets, res_.measured_delivered + res_.measured_lost, sources_.packets(), buffered_,
                     in_flight_links_};
            if (split) tx.sum(total);
            if (sampled_.due(cfg_, now + 1)) {
                if (!sampled_.period_over(now + 1, this->terminals_, cfg_, res_)) {
                    res_.drained = false;  // unstable: reported saturated, not drained
                    break;
                }
                bounds();
            }
            const bool measured_in = total[0] == total[1];
            if (trace_end ? now >= *trace_end && empty() : now + 1 >= window_end && measured_in) break;
            if (now + 1 >= stop ||
                (!trace_end && now >= window_end && total[2] > cfg_.max_queued_per_node * this->terminals_)) {
                res_.drained = measured_in && !(trace_end && !empty());
                break;
            }
            if (total[2] >= source_packet_cap_) {  // the memory limit: stop rather than grow
                res_.source_limit_reached = true;
                res_.drained = false;
                break;
            }
            if (this->watchdog_.due() && total[3] > 0) {
                if (auto report = this->find_deadlock(now, tx, total[3])) {
                    res_.deadlock = std::move(report);
                    res_.drained = false;
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
        res_.flits_in_flight = this->count_in_flight();
        if (split)
            cycle::sum_over_ranks(tx, res_, {&latency_hist_, &network_hist_, &message_hist_, &this->transaction_hist_},
                                  sent_in_window_);
        CycleResult r = finish(now + 1);
        cfg_.warmup = fixed_warmup;
        cfg_.measure = fixed_measure;
        return r;
    }

    CycleResult finish(std::uint64_t cycles) {
        res_.cycles = cycles;
        res_.window_start = std::min(cfg_.warmup, cycles);
        res_.window_cycles = std::min(cfg_.measure, cycles - res_.window_start);
        // A run stopped early (the memory limit) measured only part of its window.
        const auto window = static_cast<double>(std::max<std::uint64_t>(
            1, std::min(cfg_.measure, cycles > cfg_.warmup ? cycles - cfg_.warmup : 0)));
        const double window_node_cycles = window * this->terminals_;  // per terminal (a node, unless concentrated)
        res_.offered = static_cast<double>(res_.flits_created_in_window + res_.flits_refused_in_window) /
                       window_node_cycles;
        res_.refused = static_cast<double>(res_.flits_refused_in_window) / window_node_cycles;
        res_.accepted = static_cast<double>(res_.flits_ejected_in_window) / window_node_cycles;
        res_.saturated = !res_.drained || res_.accepted < 0.95 * res_.offered;
        res_.latency = LatencySummary::of(latency_hist_);
        res_.network_latency = LatencySummary::of(network_hist_);
        res_.hops_mean = res_.measured_delivered
                             ? static_cast<double>(res_.measured_hops) / static_cast<double>(res_.measured_delivered)
                             : 0.0;
        res_.message_latency = LatencySummary::of(message_hist_);
        res_.transaction_latency = LatencySummary::of(this->transaction_hist_);
        res_.ports_per_node = P;
        res_.terminals_per_node = this->per_node_;
        res_.terminals = this->terminals_;
        res_.classes = this->classes_.finish(window_node_cycles);
        res_.channel_utilisation.resize(sent_in_window_.size());
        for (std::size_t c = 0; c < sent_in_window_.size(); ++c)
            res_.channel_utilisation[c] = static_cast<double>(sent_in_window_[c]) / window;
        return std::move(res_);
    }

    cycle::SampledWindow sampled_;
};

/// Runs one Bernoulli simulation of `fabric` (switch allocator A).
template <CycleKernelFabric Fab, TrafficPattern Pattern, SwitchAllocator A = SeparableSwitch>
CycleResult simulate_cycles(const Fab& fabric, const Pattern& pattern, double rate,
                            PacketSizes sizes = PacketSizes::fixed(1), CycleConfig config = {}, A = {}) {
    CycleSimulator<Fab, A> sim(fabric, std::move(config));
    return sim.run(pattern, rate, sizes);
}

}  // namespace fabric
