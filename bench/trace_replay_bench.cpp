// What reading each message's latency costs a trace replay (sim/trace_file.hpp):
// 20,000 messages of 4 flits between random pairs of an 8 x 8 torus, split into
// packets of 2, replayed with the summary alone (CycleResult::message_latency) and
// with every packet watched (MessageLatencies), at loads below saturation and past
// it (1 flit/cycle/node offered: the network holds thousands of packets, and the
// watch looks through them on every flit's event). docs/traces.md quotes the rows.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/topology/torus.hpp>

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }
}  // namespace

int main() {
    using Tor = fabric::Torus<2, fabric::BasicLink<2>>;
    const fabric::Fabric<Tor, fabric::DorTieSplit<fabric::Dateline>> net(Tor({8, 8}));
    std::printf("| offered (flits/cycle/node) | cycles | summary alone | each message watched | ratio |\n");
    std::printf("|---|---|---|---|---|\n");
    for (const double rate : {0.05, 0.1, 0.3, 1.0}) {
        fabric::Trace trace;
        trace.source = "random pairs";
        trace.messages = fabric::random_pairs_trace(64, 20000, 0, 4, 1);
        for (std::size_t i = 0; i < trace.messages.size(); ++i)
            trace.messages[i].cycle = static_cast<std::uint64_t>(static_cast<double>(i) * 4.0 / (64.0 * rate));
        const fabric::CycleConfig cfg = fabric::trace_settings({}, trace, 2);
        const auto t0 = clock_type::now();
        fabric::CycleSimulator plain(net, cfg);
        const fabric::CycleResult r = plain.run_trace(trace.messages);
        const double alone = since(t0);
        fabric::MessageLatencies each(trace);
        const auto t1 = clock_type::now();
        fabric::CycleSimulator watched(net, each.watching(cfg));
        const fabric::CycleResult w = watched.run_trace(trace.messages);
        const double watching = since(t1);
        if (w.message_latency.mean != r.message_latency.mean) return 1;  // watching must not change the run
        std::printf("| %.2f | %llu | %.3f s | %.3f s | %.1f |\n", rate, static_cast<unsigned long long>(r.cycles), alone,
                    watching, watching / alone);
    }
    return 0;
}
