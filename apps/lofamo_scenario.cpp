// LO|FA|MO on the QUonG system (4x2x2): the time line of a fault, from its
// injection to the master's Fault Supervisor.
//
// Options and configuration files: apps/common/tool.hpp.
#include <fabric/fault/lofamo.hpp>

#include "common/tool.hpp"

#include <cstdio>
#include <string>

namespace {
using namespace fabric::lofamo;

struct Settings {
    std::string fault = "host_breakdown";
    std::size_t node = 5;
    double at = 2.3;  // seconds
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Settings, fault, node, at)

constexpr const char* fault_names[] = {"link_sick",     "link_broken",     "temperature",  "voltage",
                                       "current",       "dnp_core_sick",   "dnp_breakdown", "host_breakdown",
                                       "host_memory",   "host_peripheral", "host_and_dnp", "service_net_loss"};

int scenario(const Settings& s) {
    int fault = -1;
    std::string valid;
    for (int i = 0; i < 12; ++i) {
        if (s.fault == fault_names[i]) fault = i;
        valid += std::string(i ? ", " : "") + fault_names[i];
    }
    fabric::detail::require(fault >= 0, "unknown fault '", s.fault, "'; valid: ", valid);
    fabric::detail::require(s.at >= 0, "--at must not be negative; got ", s.at);
    fabric_apps::check_work(s.at + 60, "simulated seconds", 5e3);  // the run goes on a minute past the fault
    const double at = s.at * 1e6;
    System quong({4, 2, 2});
    quong.inject(static_cast<Fault>(fault), s.node, at);
    const auto aware = quong.run(at + 60e6);
    std::printf("QUonG 4x2x2, master node 0: %s at node %zu, t = %.6f s\n", s.fault.c_str(), s.node, at / 1e6);
    for (const auto& a : aware) {
        for (std::size_t i = 0; i < a.path.size(); ++i)
            std::printf("  t = %.6f s  (+%9.3f ms)  %s\n", a.stage_times[i] / 1e6, (a.stage_times[i] - at) / 1e3,
                        a.path[i].c_str());
        std::printf("the master knows after %.3f ms\n", a.delay() / 1e3);
    }
    if (aware.empty()) std::printf("the master never learns of it within a minute\n");
    for (const auto v : quong.inferred_dead()) std::printf("the supervisor infers node %zu is dead\n", v);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "lofamo_scenario",
        "LO|FA|MO on the QUonG system (4x2x2): the time line of one fault, from its injection to the master's Fault "
        "Supervisor.",
        [](CLI::App& app, Settings& s) {
            app.add_option("--fault", s.fault, "host_breakdown, dnp_breakdown, host_and_dnp, link_broken, link_sick, "
                           "temperature, voltage, current, dnp_core_sick, host_memory, host_peripheral, "
                           "service_net_loss")->capture_default_str();
            app.add_option("--node", s.node, "the faulty node")->check(fabric_apps::within<std::size_t>(0, 15))->capture_default_str();
            app.add_option("--at", s.at, "injection time, seconds")->check(fabric_apps::at_least(0.0))->capture_default_str();
        },
        scenario);
}
