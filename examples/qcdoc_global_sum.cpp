// A global sum (and a broadcast) on a QCDOC partition by the SCUs' global mode.
//
//   qcdoc_global_sum --partition 8,4,4,2 [--doubled] [--clock-mhz F] [--json]
#include <fabric/collective/scu_global.hpp>
#include <fabric/link/qcdoc_scu.hpp>

#include "common/cli.hpp"

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    using namespace fabric;
    const fabric_examples::Cli cli(argc, argv, {"partition", "clock-mhz"}, {"doubled", "json"},
                                   "usage: qcdoc_global_sum --partition N0,N1,... [--doubled] [--clock-mhz F] [--json]\n");
    std::vector<std::uint32_t> extents;
    for (const auto n : cli.list("partition")) {
        if (n < 1) cli.fail("partition extents must be at least 1");
        extents.push_back(static_cast<std::uint32_t>(n));
    }
    if (extents.empty() || extents.size() > 6) cli.fail("a partition has 1 to 6 dimensions");
    const QcdocScu link(MHz{cli.number("clock-mhz", 500.0)});
    const ScuGlobalSum sum(cli.flag("doubled"));
    const auto r = sum.simulate(extents, link);
    const double ns = 1e3 / link.clock().count;
    const auto b = ScuBroadcast(true).simulate(extents, link);
    if (cli.flag("json")) {
        std::printf("{\"partition\": \"%s\", \"doubled\": %s, \"hops\": %zu, \"latency_ns\": %.1f, "
                    "\"model_ns\": %.1f, \"broadcast_hops\": %zu, \"broadcast_ns\": %.1f, \"words_sent\": %llu}\n",
                    cli.text("partition").c_str(), sum.doubled() ? "true" : "false", r.hops, r.latency_ns,
                    static_cast<double>(sum.model_cycles(extents, link)) * ns, b.hops, b.latency_ns,
                    static_cast<unsigned long long>(r.words_sent));
    } else {
        std::printf("global sum on %s%s: %zu hops, %.1f ns (closed form %.1f ns)\n", cli.text("partition").c_str(),
                    sum.doubled() ? " (doubled)" : "", r.hops, r.latency_ns,
                    static_cast<double>(sum.model_cycles(extents, link)) * ns);
        std::printf("broadcast with pass-through: %zu hops, %.1f ns\n", b.hops, b.latency_ns);
    }
    return 0;
}
