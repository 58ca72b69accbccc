// The stage-list kernel's deadlock search (the watchdog's, as deadlock_search.hpp
// does it for the wake kernel, vertex for vertex): the input VCs whose front flit
// has not moved for the watchdog's patience, each waiting for the holder of the
// output VC it asks for or, holding one, for the downstream VC whose credits it
// lacks; a cycle of such waits is reported by the channels its flits came in on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/stage/network.hpp>
#include <fabric/sim/cycle/watchdog.hpp>

namespace fabric::cycle {

/// `v`: the run's arrays (network.hpp) over `routers` routers.
template <class S>
std::optional<DeadlockReport> find_stage_deadlock(const typename StageNetwork<S>::View& net, std::uint32_t routers,
                                                  const Links& links, const Watchdog& watchdog, std::uint64_t now,
                                                  std::uint64_t buffered) {
    constexpr std::uint32_t P = S::P, V = S::V, L = S::LP, NV = S::NV, NVP = S::NVP;
    const std::size_t count = std::size_t{routers} * L;
    auto stuck = [&](std::size_t iv) { return net.vcs[iv].count != 0 && watchdog.stuck(net.vcs[iv].since, now); };
    bool any = false;
    for (std::size_t iv = 0; iv < count && !any; ++iv) any = stuck(iv);
    if (!any) return std::nullopt;
    std::vector<std::uint32_t> edges;
    for (std::size_t iv = 0; iv < count; ++iv) {
        if (!stuck(iv)) continue;
        const StageVc& v = net.vcs[iv];
        if (v.out >= NV) continue;  // bound for a terminal: never waits on another VC
        const std::size_t r = iv / L, o = r * NVP + v.out;
        std::size_t target = none;
        if (v.state == StageState::waiting && net.ovs[o].owner != StageOutVc<S::L>::free) {
            target = r * L + net.ovs[o].owner;
        } else if (v.state == StageState::active && net.ovs[o].credits <= 0) {
            target = net.ovs[o].down;
        }
        if (target != none && stuck(target)) {
            edges.push_back(static_cast<std::uint32_t>(iv));
            edges.push_back(static_cast<std::uint32_t>(target));
        }
    }
    const auto cycle = Watchdog::find(count, [&](auto&& add) {
        for (std::size_t e = 0; e < edges.size(); e += 2) add(edges[e], edges[e + 1]);
    });
    if (cycle.empty()) return std::nullopt;
    DeadlockReport report;
    report.cycle = now;
    report.idle_cycles = watchdog.patience();
    report.flits_buffered = buffered;
    for (const std::size_t vertex : cycle) {
        const auto node = static_cast<std::uint32_t>(vertex / L), local = static_cast<std::uint32_t>(vertex % L);
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
