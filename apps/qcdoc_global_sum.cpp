// A global sum (and a broadcast) on a QCDOC partition by the SCUs' global mode:
// hops and latency, simulated and in closed form. Options and configuration
// files: apps/common/tool.hpp.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fabric/collective/scu_global.hpp>
#include <fabric/link/qcdoc_scu.hpp>

#include "common/tool.hpp"

namespace {
using namespace fabric;

struct Settings {
    std::vector<std::uint32_t> partition{8, 4, 4, 2};  // extents, 1 to 6 dimensions
    bool doubled = false;                              // both directions of every dimension at once
    double clock_mhz = 500.0;
    bool json = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Settings, partition, doubled, clock_mhz, json)

int global_sum(const Settings& s) {
    detail::require(!s.partition.empty() && s.partition.size() <= 6, "a partition has 1 to 6 dimensions; got ",
                    s.partition.size());
    std::string name;
    for (const auto n : s.partition) {
        detail::require(n >= 1, "partition extents must be at least 1");
        name += (name.empty() ? "" : ",") + std::to_string(n);
    }
    // Every node's word reaches every other: N (N - 1) words; measured on a ring of
    // 16,384 nodes, about 1.5e7 words a second and 1.1 bytes a word.
    double nodes = 1;
    for (const auto n : s.partition) nodes *= n;
    fabric_apps::check_work(nodes * nodes, "words passed on (N^2)", 5e6);
    fabric_apps::check_memory(2 * nodes * nodes, "the words in flight, about 2 bytes per N^2");
    const QcdocScu link(MHz{s.clock_mhz});
    const ScuGlobalSum sum(s.doubled);
    const auto r = sum.simulate(s.partition, link);
    const double ns = 1e3 / link.clock().count;
    const double model_ns = static_cast<double>(sum.model_cycles(s.partition, link)) * ns;
    const auto b = ScuBroadcast(true).simulate(s.partition, link);
    if (s.json) {
        std::cout << nlohmann::json{{"partition", name}, {"doubled", s.doubled}, {"hops", r.hops},
                                    {"latency_ns", r.latency_ns}, {"model_ns", model_ns}, {"broadcast_hops", b.hops},
                                    {"broadcast_ns", b.latency_ns}, {"words_sent", r.words_sent}}
                         .dump(1)
                  << '\n';
        return 0;
    }
    std::printf("global sum on %s%s: %zu hops, %.1f ns (closed form %.1f ns)\n", name.c_str(),
                s.doubled ? " (doubled)" : "", r.hops, r.latency_ns, model_ns);
    std::printf("broadcast with pass-through: %zu hops, %.1f ns\n", b.hops, b.latency_ns);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "qcdoc_global_sum", "a global sum and a broadcast on a QCDOC partition by the SCUs' global mode.",
        [](CLI::App& app, Settings& s) {
            app.add_option("--partition", s.partition, "extents, e.g. 8,4,4,2")->check(fabric_apps::within<std::uint32_t>(1, 1U << 30))->delimiter(',')->capture_default_str();
            app.add_flag("--doubled", s.doubled, "both directions of every dimension at once");
            app.add_option("--clock-mhz", s.clock_mhz, "link clock, MHz")->check(fabric_apps::within(0.0, 1e6, true))->capture_default_str();
            app.add_flag("--json", s.json, "JSON output");
        },
        global_sum);
}
