// The cycle kernel's deadlock search: when the watchdog's cadence comes round,
// the wait-for graph of the input VCs (and output queues) whose front flit has
// not moved for `watchdog` cycles, and a cycle in it named by its channels. A
// layer over the router pipeline (router.hpp), under the simulator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/router.hpp>
#include <fabric/sim/cycle/watchdog.hpp>

namespace fabric::cycle {

template <CycleKernelFabric Fab, SwitchAllocator A>
class DeadlockSearch : protected Router<Fab, A> {
protected:
    using Base = Router<Fab, A>;
    using Base::Base;
    using Base::P, Base::LOCAL, Base::V, Base::none;
    using Base::cfg_, Base::links_, Base::in_, Base::out_, Base::owner_;
    using Base::output_ready, Base::queue_can_send;

    /// The wait-for graph of input VCs whose front flit has waited at least
    /// `watchdog` cycles: a VC waits for the packet holding the output VC it wants,
    /// or, holding one, for the downstream VC whose flow control refuses it (or for
    /// room in its output queue, which waits for that VC). A cycle among such waits
    /// is a deadlock, reported with the channels the waiting flits came in on.
    /// In a partitioned run each rank names the waits of its own routers' VCs, the
    /// ranks share which VCs are stuck and gather the waits, and every rank searches
    /// the whole graph: the serial kernel's report, on every rank. `buffered` is the
    /// flits buffered on all ranks.
    template <CycleTransport Tx>
    std::optional<DeadlockReport> find_deadlock(std::uint64_t now, Tx& tx, std::uint64_t buffered) const {
        const std::size_t count = in_.size();  // output queue q is vertex count + q
        const bool split = this->part_.split();
        auto here = [&](std::size_t iv) { return this->part_.mine(in_.node_of(iv)); };
        auto queue_here = [&](std::size_t q) { return this->part_.mine(static_cast<std::uint32_t>(q / V / P)); };
        auto stuck_here = [&](std::size_t iv) {
            return here(iv) && in_.has_front(iv) && watchdog_.stuck(in_[iv].since, now);
        };
        auto queue_stuck_here = [&](std::size_t q) {
            return queue_here(q) && out_.count(q) && watchdog_.stuck(out_.since(q), now);
        };
        auto downstream = [&](std::size_t channel, std::uint32_t vc) {
            return in_.index(links_.down(channel), links_.down_port(channel), vc);
        };
        // Usually nothing has waited that long: look before building the graph.
        std::uint64_t any = 0;
        for (std::size_t iv = 0; iv < count && !any; ++iv) any = stuck_here(iv);
        for (std::size_t q = 0; q < out_.size() && !any; ++q) any = queue_stuck_here(q);
        if (split) tx.sum(std::span<std::uint64_t>(&any, 1));
        if (!any) return std::nullopt;
        std::vector<std::uint64_t> flags;  // split: which vertices are stuck, on any rank
        if (split) {
            flags.assign(count + out_.size(), 0);
            for (std::size_t iv = 0; iv < count; ++iv) flags[iv] = stuck_here(iv);
            for (std::size_t q = 0; q < out_.size(); ++q) flags[count + q] = queue_stuck_here(q);
            tx.sum(flags);
        }
        auto stuck = [&](std::size_t iv) { return split ? flags[iv] != 0 : stuck_here(iv); };
        auto queue_stuck = [&](std::size_t q) { return split ? flags[count + q] != 0 : queue_stuck_here(q); };
        std::vector<std::uint32_t> edges;  // from, to: this rank's waits
        auto wait = [&](std::size_t from, std::size_t to) {
            edges.push_back(static_cast<std::uint32_t>(from));
            edges.push_back(static_cast<std::uint32_t>(to));
        };
        for (std::size_t q = 0; q < out_.size(); ++q) {
            if (!queue_here(q) || !queue_stuck(q) || queue_can_send(q)) continue;
            if (const std::size_t target = downstream(q / V, static_cast<std::uint32_t>(q % V)); stuck(target))
                wait(count + q, target);
        }
        for (std::size_t iv = 0; iv < count; ++iv) {
            if (!here(iv) || !stuck(iv)) continue;
            const InputVc& v = in_[iv];
            if (v.out_port >= LOCAL) continue;
            const std::uint32_t n = in_.node_of(iv);
            const std::size_t ov = in_.index(n, v.out_port, v.out_vc);
            std::size_t target = none;
            if (v.state == VcState::waiting_vc && owner_[ov] == Base::tail_pending) {
                target = downstream(static_cast<std::size_t>(n) * P + v.out_port, v.out_vc);  // its last credit
            } else if (v.state == VcState::waiting_vc && owner_[ov] != none) {
                target = owner_[ov];
            } else if (v.state == VcState::active && !output_ready(n, in_.port_of(iv), in_.vc_of(iv), v)) {
                const std::size_t channel = static_cast<std::size_t>(n) * P + v.out_port;
                if (out_.enabled()) {  // waits for room in the output queue
                    if (queue_stuck(channel * V + v.out_vc)) wait(iv, count + channel * V + v.out_vc);
                    continue;
                }
                target = downstream(channel, v.out_vc);
            }
            if (target != none && stuck(target)) wait(iv, target);
        }
        if (split) tx.gather(edges);
        const auto cycle = cycle::Watchdog::find(count + out_.size(), [&](auto&& add) {
            for (std::size_t e = 0; e < edges.size(); e += 2) add(edges[e], edges[e + 1]);
        });
        if (cycle.empty()) return std::nullopt;
        DeadlockReport report;
        report.cycle = now;
        report.idle_cycles = cfg_.watchdog;
        report.flits_buffered = buffered;
        for (const std::size_t vertex : cycle) {
            if (vertex >= count) {  // an output queue: named by the channel it feeds, unless the next entry names it
                const std::size_t q = vertex - count, channel = q / V;
                const auto vc = static_cast<std::uint32_t>(q % V);
                if (std::find(cycle.begin(), cycle.end(), downstream(channel, vc)) == cycle.end())
                    report.waiting.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(channel / P)},
                                                            PortId{static_cast<std::uint32_t>(channel % P)},
                                                            static_cast<std::uint8_t>(vc)});
                continue;
            }
            const std::uint32_t node = in_.node_of(vertex), port = in_.port_of(vertex);
            const auto vc = static_cast<std::uint8_t>(in_.vc_of(vertex));
            if (port >= LOCAL) {  // a packet still entering from its source: port P + t names terminal t's injection
                report.waiting.push_back(VirtualChannel{NodeId{node}, PortId{port}, vc});
                continue;
            }
            const std::uint32_t up = links_.up(static_cast<std::size_t>(node) * P + port);
            report.waiting.push_back(VirtualChannel{NodeId{up / P}, PortId{up % P}, vc});
        }
        return report;
    }

    Watchdog watchdog_;
};

}  // namespace fabric::cycle
