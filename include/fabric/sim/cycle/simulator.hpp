// The flit-level cycle kernel: a discrete-time simulation of any fabric type.
//
// Routers are input queued, with V virtual channels per input port and a buffer
// per VC whose depth the flow-control protocol sets. Every router has one input
// port per link plus an injection port per terminal (fed by a source queue,
// unbounded unless CycleConfig::source_queue_packets bounds it: past it messages
// are refused), and one output port per link plus an ejection port per terminal
// (an infinite sink, one flit per cycle). Packets are source routed: when a packet
// reaches the head of its source queue the routing policy writes its whole route,
// each hop naming its port and virtual channel (select_route).
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
// The transport Tx says where the routers run: cycle::Alone (the default) steps
// them all here; a transport over ranks (dist::MpiTransport) with a partition
// policy deals them out, each rank stepping its own, every rank returning the
// serial run's result (dist/partitioned.hpp). No virtual call anywhere;
// per-flit and per-cycle work touches preallocated arrays only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/embedded.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/kernel.hpp>
#include <fabric/sim/cycle/lookahead.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/sim/cycle/requirements.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/run.hpp>
#include <fabric/sim/cycle/stage/dispatch.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>
#include <fabric/sim/cycle/workload_run.hpp>
#include <fabric/sim/cycle/workloads.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric {

template <class Fab, class A, class Tx>
    requires CycleKernelFabric<Fab> && SwitchAllocator<A> && CycleTransport<Tx>
class CycleSimulator<Fab, A, Tx> {
public:
    /// A simulator that steps every router here.
    explicit CycleSimulator(const Fab& fabric, CycleConfig config = {})
        requires std::same_as<Tx, cycle::Alone>
        : kernel_(fabric, std::move(config)) {}

    /// A simulator over the ranks of `transport`, each stepping the routers the
    /// partition policy gives it (Slabs, Groups{n}, or one's own). Every rank
    /// constructs it alike and calls the same runs in the same order; each returns
    /// the whole run's result.
    template <class Policy = Slabs>  // a PartitionPolicy, checked with a fabric: message by Partition::assign
    CycleSimulator(const Fab& fabric, CycleConfig config, Tx transport, const Policy& policy = {})
        : kernel_(fabric, std::move(config)), tx_(std::move(transport)) {
        partition_.assign(policy, core().shape().routers, tx_.rank(), tx_.ranks());
    }

    /// Bernoulli injection at `rate` flits/cycle/terminal (on/off when
    /// CycleConfig::on_off asks for it), destinations from `pattern` (one task per
    /// terminal), packet sizes from `sizes`.
    template <TrafficPattern Pattern>
    CycleResult run(const Pattern& pattern, double rate, PacketSizes sizes = PacketSizes::fixed(1)) {
        detail::require(core().observer().classes.count() == 1, "this configuration has ",
                        core().observer().classes.count(), " traffic classes (CycleConfig::class_priority): offer a "
                        "load per class with run(pattern, loads)");
        const OfferedLoad load{rate, sizes};
        return run(pattern, std::span<const OfferedLoad>(&load, 1));
    }

    /// Traffic classes (CycleConfig::class_priority): class c offers loads[c],
    /// its own Bernoulli (or on/off) process per node; every class draws its
    /// destinations from `pattern`.
    template <TrafficPattern Pattern>
    CycleResult run(const Pattern& pattern, std::span<const OfferedLoad> loads) {
        if constexpr (std::is_same_v<Tx, cycle::Alone>) {  // the stage-list kernel, where it models the run
            if (loads.size() == core().observer().classes.count())
                if (auto r = cycle::run_loads_staged<Fab, A>(kernel_.fabric(), core(), pattern, loads)) return *r;
        }
        return guarded([&] { return cycle::run_loads(core(), pattern, loads, partition_, tx_); });
    }

    /// Whether a Bernoulli run of one class goes to the stage-list kernel (stage/dispatch.hpp;
    /// the others go to the wake kernel): what a tool's estimate of its cost asks.
    [[nodiscard]] bool staged() const {
        if constexpr (std::is_same_v<Tx, cycle::Alone>)
            return core().observer().classes.count() == 1 && cycle::stage_serves<Fab, A>(kernel_.fabric(), core());
        else
            return false;
    }

    /// Injects the messages of a trace (sorted by cycle) at their cycles.
    CycleResult run_trace(std::span<const TraceMessage> trace) {
        return guarded([&] { return cycle::run_trace(core(), trace, partition_, tx_); });
    }

    /// Runs a workload graph (concepts/workload.hpp: messages and computes waiting
    /// for one another) to its end through the dependency engine: every rank's
    /// finish cycle and the whole workload's, the network's figures, each node's
    /// times if asked, and, if it cannot finish, which ranks wait for what
    /// (cycle/workload_run.hpp).
    template <workload::WorkloadGraph G>
    WorkloadResult run_workload(const G& graph, const WorkloadOptions& options = {}) {
        return guarded([&] { return cycle::run_workload(core(), graph, options, partition_, tx_); });
    }

    /// A run that another simulator drives from its own event loop: inject messages
    /// at cycles, advance to a cycle or to the next report, read what was sent and
    /// delivered (cycle/embedded.hpp, docs/embedding.md). Hold it as
    /// `auto run = sim.embed();`; the simulator's settings come back at its finish().
    [[nodiscard]] cycle::Embedded<typename cycle::Kernel<Fab, A>::CoreType, Tx> embed() {
        return cycle::Embedded<typename cycle::Kernel<Fab, A>::CoreType, Tx>(core(), partition_, tx_);
    }

    /// The link of `port` at `node` fails at `cycle` of the next run, in both
    /// directions. Flits on it or bound for it are dropped and their packets
    /// reported lost; packets routed afterwards avoid it when the routing policy
    /// can (select_route with the broken channels), or are reported unroutable.
    void fail_link(NodeId node, PortId port, std::uint64_t cycle) {
        core().failures().fail(channel_of(node, port), cycle);
    }

    /// The link of `port` at `node` works again from `cycle` of the next run (both
    /// directions); routes computed afterwards may use it.
    void restore_link(NodeId node, PortId port, std::uint64_t cycle) {
        core().failures().restore(channel_of(node, port), cycle);
    }

    /// The link of `port` at `node` runs at 1/`factor` of its bandwidth (both
    /// directions): its serialisation grows by the factor, rounded up.
    void slow_link(NodeId node, PortId port, double factor) {
        core().channels().links().slow(channel_of(node, port), factor);
        core().grow_wheels_for_slow_links();
    }

    /// The link of `port` at `node`, in that direction, corrupts each flit with
    /// probability `flit_error_rate`; its receiver counts the packets that fail
    /// their CRC and, when `rule` says, declares it sick (CycleResult::links_sick):
    /// routes written afterwards avoid it where the routing policy can, while it
    /// carries what was routed over it before (cycle/link_errors.hpp).
    void link_errors(NodeId node, PortId port, double flit_error_rate, CrcRule rule = {}) {
        core().link_errors().set(channel_of(node, port), flit_error_rate, rule);
    }
    /// The same link corrupts flits at `flit_error_rate` and replays each corrupted
    /// one (go-back-N from its sender's retransmission buffer): nothing is lost, the
    /// replays cost the link's bandwidth and the packets' latency
    /// (cycle/link_errors.hpp; flits_replayed() after a run).
    void link_replay(NodeId node, PortId port, double flit_error_rate, CrcRule rule = {}) {
        core().link_errors().set(channel_of(node, port), flit_error_rate, rule, true);
    }
    /// Flits the last run sent again over links that replay.
    [[nodiscard]] std::uint64_t flits_replayed() const { return core().link_errors().replayed(); }

    /// Router `node` posts `word` at `cycle` of the next run to every neighbour: each
    /// link into it carries the word upstream in the next periodic Credit its
    /// receiver sends, one word a Credit (cycle/side_band.hpp: LO|FA|MO's LiFaMa
    /// messages in APEnet+'s Credits). What arrived: side_band_heard().
    void post_side_band(NodeId node, std::uint32_t word, std::uint64_t cycle) {
        static_assert(PeriodicCreditFlow<typename Fab::flow_type>,
                      "fabric: post_side_band needs a flow control that sends periodic Credits (frame_data_slots, "
                      "frame_credit_slots and tick, as ApenetCredit); this fabric's returns credits as flits leave");
        detail::require(node.value < core().shape().routers, "post_side_band: node ", node.value, " of ",
                        core().shape().routers);
        core().channels().side_band().post(node.value, word, cycle);
    }
    /// The side-band words the last run delivered, in the order they arrived.
    [[nodiscard]] const std::vector<cycle::SideBandWord>& side_band_heard() const {
        return core().channels().side_band().heard();
    }

    [[nodiscard]] const CycleConfig& config() const { return core().cfg(); }
    /// What a run's memory follows from (cycle::MemoryNeed): a tool estimates a run's
    /// memory before it starts from it and the load (cycle::expected_memory).
    [[nodiscard]] cycle::MemoryNeed memory_need() const { return core().memory_need(); }
    /// The seed of the next runs (every other setting stays): one simulator serves
    /// several seeds of an experiment.
    void reseed(std::uint64_t seed) { core().settings().seed = seed; }

    /// The routers this rank steps (every router, alone), and the transport.
    [[nodiscard]] const cycle::Partition& partition() const { return partition_; }
    /// How long this rank's windows between exchanges may be, what sets that, the
    /// channels the partition cuts and the ranks this one exchanges with, for the
    /// links and failures as they stand (cycle/lookahead.hpp).
    [[nodiscard]] cycle::Lookahead lookahead() const { return cycle::plan_lookahead(core(), partition_); }
    [[nodiscard]] Tx& transport() { return tx_; }
    [[nodiscard]] const Tx& transport() const { return tx_; }

private:
    template <class Run>
    auto guarded(Run&& go) -> decltype(go()) {
        if constexpr (requires { tx_.guard(go); }) return tx_.guard(go);
        else return go();
    }

    [[nodiscard]] std::uint32_t channel_of(NodeId node, PortId port) const {
        const cycle::Shape& shape = core().shape();
        detail::require(node.value < shape.routers && port.value < shape.ports &&
                            kernel_.fabric().topology().neighbour(node, port).valid(),
                        "node ", node.value, " has no link on port ", port.value);
        return static_cast<std::uint32_t>(shape.channel(node.value, port.value));
    }

    [[nodiscard]] typename cycle::Kernel<Fab, A>::CoreType& core() { return kernel_.core(); }
    [[nodiscard]] const typename cycle::Kernel<Fab, A>::CoreType& core() const { return kernel_.core(); }

    cycle::Kernel<Fab, A> kernel_;
    Tx tx_{};
    cycle::Partition partition_;
};

/// Runs one Bernoulli simulation of `fabric` (switch allocator A).
template <CycleKernelFabric Fab, TrafficPattern Pattern, SwitchAllocator A = SeparableSwitch>
CycleResult simulate_cycles(const Fab& fabric, const Pattern& pattern, double rate,
                            PacketSizes sizes = PacketSizes::fixed(1), CycleConfig config = {}, A = {}) {
    CycleSimulator<Fab, A> sim(fabric, std::move(config));
    return sim.run(pattern, rate, sizes);
}

}  // namespace fabric
