// A global sum (and a broadcast) on a QCDOC partition by the SCUs' global mode:
// hops and latency, simulated and in closed form. Options and configuration
// files: apps/common/tool.hpp.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fabric/collective/scu_global.hpp>
#include <fabric/link/qcdoc_scu.hpp>

#include "common/tool.hpp"

namespace {
using namespace fabric;

struct Settings : fabric_apps::Common {
    std::vector<std::uint32_t> partition{8, 4, 4, 2};  // extents, 1 to 6 dimensions
    bool doubled = false;                              // both directions of every dimension at once
    double clock_mhz = 500.0;

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::partition, "--partition", "extents, e.g. 8,4,4,2 (1 to 6 dimensions)",
                      within<std::uint32_t>(1, 1U << 30)),
            flag<S>(&S::doubled, "--doubled", "both directions of every dimension at once"),
            option<S>(&S::clock_mhz, "--clock-mhz", "link clock, MHz", within(0.0, 1e6, true)),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

int global_sum(const Settings& s, fabric_apps::OutputFile& out) {
    detail::require(!s.partition.empty() && s.partition.size() <= 6, "a partition has 1 to 6 dimensions; got ",
                    s.partition.size());
    std::string name;
    for (const auto n : s.partition) {
        detail::require(n >= 1, "partition extents must be at least 1");
        name += (name.empty() ? "" : ",") + std::to_string(n);
    }
    // The work, from what the two simulations do (collective/scu_global.hpp). The global sum walks one ring
    // of each dimension word by word (every ring of a dimension runs alike): a ring of n nodes forwards
    // n (n - 1) words, each after looking up whether the next node holds it (doubled: the same words, both
    // ways round), about 115 instructions per n^2 (callgrind: rings of 1,024 and 4,096 nodes, 107 and 120
    // doubled). The broadcast visits every node in every dimension, about 25 instructions a visit (callgrind:
    // 256,256 and 16,16,16,16). The memory: the largest ring's words held and queued, about 32 bytes per n^2
    // (25 measured, 31 doubled), and the broadcast's three figures a node.
    double nodes = 1, ring_steps = 0, largest_ring = 0;
    for (const auto n : s.partition) {
        const double n2 = static_cast<double>(n) * n;
        nodes *= n;
        ring_steps += n2;
        largest_ring = std::max(largest_ring, n2);
    }
    fabric_apps::check(fabric_apps::tool_start()
                           .add("global sum: ring steps (n^2 a dimension of n)", ring_steps, 115)
                           .add("broadcast: node visits (nodes x dimensions)",
                                nodes * static_cast<double>(s.partition.size()), 25)
                           .need("the largest ring's words held and queued, about 32 bytes per n^2", 32 * largest_ring)
                           .need("the broadcast's times and hops, 24 bytes a node", 24 * nodes));
    const QcdocScu link(MHz{s.clock_mhz});
    const ScuGlobalSum sum(s.doubled);
    const auto r = sum.simulate(s.partition, link);
    const double ns = 1e3 / link.clock().count;
    const double model_ns = static_cast<double>(sum.model_cycles(s.partition, link)) * ns;
    const auto b = ScuBroadcast(true).simulate(s.partition, link);
    if (s.format == "json") {
        fabric_apps::write_json(out.stream(), nlohmann::json{{"partition", name}, {"doubled", s.doubled}, {"hops", r.hops},
                                    {"latency_ns", r.latency_ns}, {"model_ns", model_ns}, {"broadcast_hops", b.hops},
                                    {"broadcast_ns", b.latency_ns}, {"words_sent", r.words_sent}});
        return 0;
    }
    out.printf("global sum on %s%s: %zu hops, %.1f ns (closed form %.1f ns)\n", name.c_str(),
                s.doubled ? " (doubled)" : "", r.hops, r.latency_ns, model_ns);
    out.printf("broadcast with pass-through: %zu hops, %.1f ns\n", b.hops, b.latency_ns);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "qcdoc_global_sum", "a global sum and a broadcast on a QCDOC partition by the SCUs' global mode.",
        global_sum);
}
