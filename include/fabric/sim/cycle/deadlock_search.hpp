// The cycle kernel's deadlock search: when the watchdog's cadence comes round,
// the wait-for graph of the input VCs (and output queues) whose front flit has
// not moved for `watchdog` cycles, and a cycle in it named by its channels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/routers.hpp>
#include <fabric/sim/cycle/watchdog.hpp>

namespace fabric::cycle {

/// The wait-for graph of input VCs whose front flit has waited at least the
/// watchdog's patience: a VC waits for the packet holding the output VC it wants,
/// or, holding one, for the downstream VC whose flow control refuses it (or for
/// room in its output queue, which waits for that VC). A cycle among such waits is
/// a deadlock, reported with the channels the waiting flits came in on.
/// In a partitioned run each rank names the waits of its own routers' VCs, the
/// ranks share which VCs are stuck and gather the waits, and every rank searches
/// the whole graph: the serial kernel's report, on every rank. `buffered` is the
/// flits buffered on all ranks.
template <class Kernel, CycleTransport Tx>
std::optional<DeadlockReport> find_deadlock(Kernel& k, const Watchdog& watchdog, std::uint64_t now, Tx& tx,
                                            std::uint64_t buffered) {
    const auto& routers = k.routers();
    const InputBuffers& in = routers.inputs();
    const OutputQueues& out = routers.outputs();
    const Links& links = k.channels().links();
    const Shape& shape = k.shape();
    const std::uint32_t P = shape.ports, V = shape.vcs;
    const std::size_t count = in.size();  // output queue q is vertex count + q
    const bool split = !std::is_same_v<Tx, Alone> && k.split();
    auto here = [&](std::size_t iv) { return k.router_here(in.node_of(iv)); };
    auto queue_here = [&](std::size_t q) { return k.router_here(static_cast<std::uint32_t>(q / V / P)); };
    auto stuck_here = [&](std::size_t iv) {
        return here(iv) && in.has_front(in.node_of(iv), in.local_of(iv)) && watchdog.stuck(in[iv].since, now);
    };
    auto queue_stuck_here = [&](std::size_t q) {
        return queue_here(q) && out.count(q) && watchdog.stuck(out.since(q), now);
    };
    auto downstream = [&](std::size_t channel, std::uint32_t vc) {
        return in.index(links.down(channel), links.down_port(channel) * V + vc);
    };
    // What a head waiting for output VC `vc` of `port` at router n waits for: the VC's holder, or, held until its
    // tail's credit is back, the downstream VC; none if it is free.
    auto holder = [&](std::uint32_t n, std::uint32_t port, std::uint32_t vc) -> std::size_t {
        const std::uint32_t owner = routers.owner(in.index(n, port * V + vc));
        if (owner == tail_pending) return downstream(std::size_t{n} * P + port, vc);
        return owner == none ? none : owner;
    };
    // Usually nothing has waited that long: look before building the graph.
    std::uint64_t any = 0;
    for (std::size_t iv = 0; iv < count && !any; ++iv) any = stuck_here(iv);
    for (std::size_t q = 0; q < out.size() && !any; ++q) any = queue_stuck_here(q);
    if constexpr (!std::is_same_v<Tx, Alone>)
        if (split) tx.sum(std::span<std::uint64_t>(&any, 1));
    if (!any) return std::nullopt;
    std::vector<std::uint64_t> flags;  // split: which vertices are stuck, on any rank
    if (split) {
        flags.assign(count + out.size(), 0);
        for (std::size_t iv = 0; iv < count; ++iv) flags[iv] = stuck_here(iv);
        for (std::size_t q = 0; q < out.size(); ++q) flags[count + q] = queue_stuck_here(q);
        if constexpr (!std::is_same_v<Tx, Alone>) tx.sum(flags);
    }
    auto stuck = [&](std::size_t iv) { return split ? flags[iv] != 0 : stuck_here(iv); };
    auto queue_stuck = [&](std::size_t q) { return split ? flags[count + q] != 0 : queue_stuck_here(q); };
    std::vector<std::uint32_t> edges;  // from, to: this rank's waits
    auto wait = [&](std::size_t from, std::size_t to) {
        edges.push_back(static_cast<std::uint32_t>(from));
        edges.push_back(static_cast<std::uint32_t>(to));
    };
    for (std::size_t q = 0; q < out.size(); ++q) {
        if (!queue_here(q) || !queue_stuck(q) || k.flow_allows(q, [&] { return out.front(q); })) continue;
        if (const std::size_t target = downstream(q / V, static_cast<std::uint32_t>(q % V)); stuck(target))
            wait(count + q, target);
    }
    for (std::size_t iv = 0; iv < count; ++iv) {
        if (!here(iv) || !stuck(iv)) continue;
        const InputVc& v = in[iv];
        if (v.out_port >= P) continue;
        const std::uint32_t n = in.node_of(iv);
        std::size_t target = none;
        if (v.state == VcState::waiting_vc && routers.vc_group() > 1) {  // vc_choice = any: waits for every holder
            const std::uint32_t first = v.out_vc / routers.vc_group() * routers.vc_group();
            std::size_t held[max_vcs], m = 0;
            for (std::uint32_t vc = first; vc < first + routers.vc_group(); ++vc) {
                const std::size_t t = holder(n, v.out_port, vc);
                if (t == none || !stuck(t)) break;  // a VC free or freed soon: no wait
                held[m++] = t;
            }
            if (m == routers.vc_group())
                for (std::size_t i = 0; i < m; ++i) wait(iv, held[i]);
            continue;
        }
        if (v.state == VcState::waiting_vc) {
            target = holder(n, v.out_port, v.out_vc);
        } else if (v.state == VcState::active && !routers.output_ready(n, in.local_of(iv), v, k)) {
            const std::size_t channel = std::size_t{n} * P + v.out_port;
            if (out.enabled()) {  // waits for room in the output queue
                if (queue_stuck(channel * V + v.out_vc)) wait(iv, count + channel * V + v.out_vc);
                continue;
            }
            target = downstream(channel, v.out_vc);
        }
        if (target != none && stuck(target)) wait(iv, target);
    }
    if constexpr (!std::is_same_v<Tx, Alone>)
        if (split) tx.gather(edges);
    const auto cycle = Watchdog::find(count + out.size(), [&](auto&& add) {
        for (std::size_t e = 0; e < edges.size(); e += 2) add(edges[e], edges[e + 1]);
    });
    if (cycle.empty()) return std::nullopt;
    DeadlockReport report;
    report.cycle = now;
    report.idle_cycles = watchdog.patience();
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
        const std::uint32_t node = in.node_of(vertex), local = in.local_of(vertex);
        const std::uint32_t port = local / V;
        const auto vc = static_cast<std::uint8_t>(local % V);
        if (port >= P) {  // a packet still entering from its source: port P + t names terminal t's injection
            report.waiting.push_back(VirtualChannel{NodeId{node}, PortId{port}, vc});
            continue;
        }
        const std::uint32_t up = links.up(std::size_t{node} * P + port);
        report.waiting.push_back(VirtualChannel{NodeId{up / P}, PortId{up % P}, vc});
    }
    return report;
}

}  // namespace fabric::cycle
