// The cycle kernel's deadlock search: when the watchdog's cadence comes round,
// the wait-for graph of the input VCs (and output queues) whose front flit has
// not moved for `watchdog` cycles, and a cycle in it named by its channels. A
// layer over the router pipeline (router.hpp), under the simulator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/core/ids.hpp>
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
    using Base::cfg_, Base::links_, Base::in_, Base::out_, Base::owner_, Base::buffered_;
    using Base::output_ready, Base::queue_can_send;

    /// The wait-for graph of input VCs whose front flit has waited at least
    /// `watchdog` cycles: a VC waits for the packet holding the output VC it wants,
    /// or, holding one, for the downstream VC whose flow control refuses it (or for
    /// room in its output queue, which waits for that VC). A cycle among such waits
    /// is a deadlock, reported with the channels the waiting flits came in on.
    std::optional<DeadlockReport> find_deadlock(std::uint64_t now) const {
        const std::size_t count = in_.size();  // output queue q is vertex count + q
        auto stuck = [&](std::size_t iv) { return in_.has_front(iv) && watchdog_.stuck(in_[iv].since, now); };
        auto queue_stuck = [&](std::size_t q) { return out_.count(q) && watchdog_.stuck(out_.since(q), now); };
        auto downstream = [&](std::size_t channel, std::uint32_t vc) {
            return in_.index(links_.down(channel), links_.down_port(channel), vc);
        };
        // Usually nothing has waited that long: look before building the graph.
        bool any = false;
        for (std::size_t iv = 0; iv < count && !any; ++iv) any = stuck(iv);
        for (std::size_t q = 0; q < out_.size() && !any; ++q) any = queue_stuck(q);
        if (!any) return std::nullopt;
        const auto cycle = cycle::Watchdog::find(count + out_.size(), [&](auto&& wait) {
            for (std::size_t q = 0; q < out_.size(); ++q) {
                if (!queue_stuck(q) || queue_can_send(q)) continue;
                if (const std::size_t target = downstream(q / V, static_cast<std::uint32_t>(q % V)); stuck(target))
                    wait(count + q, target);
            }
            for (std::size_t iv = 0; iv < count; ++iv) {
                if (!stuck(iv)) continue;
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
        });
        if (cycle.empty()) return std::nullopt;
        DeadlockReport report;
        report.cycle = now;
        report.idle_cycles = cfg_.watchdog;
        report.flits_buffered = buffered_;
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
