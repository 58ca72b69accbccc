// LO|FA|MO on the QUonG system (4x2x2): the time line of a fault, from its
// injection to the master's Fault Supervisor.
//
// Options and configuration files: apps/common/tool.hpp.
#include <fabric/fault/lofamo.hpp>

#include "common/tool.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace {
using namespace fabric::lofamo;

constexpr const char* fault_names[] = {"link_sick",     "link_broken",     "temperature",  "voltage",
                                       "current",       "dnp_core_sick",   "dnp_breakdown", "host_breakdown",
                                       "host_memory",   "host_peripheral", "host_and_dnp", "service_net_loss"};

struct Settings : fabric_apps::Common {
    std::string fault = "host_breakdown";
    std::size_t node = 5;
    double at = 2.3;  // seconds

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::fault, "--fault", "the fault injected", one_of({std::begin(fault_names), std::end(fault_names)})),
            option<S>(&S::node, "--node", "the faulty node", within<std::size_t>(0, 15)),
            option<S>(&S::at, "--at", "injection time, seconds", within(0.0, 1e9)),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

int scenario(const Settings& s, fabric_apps::OutputFile& out) {
    int fault = 0;
    while (s.fault != fault_names[fault]) ++fault;  // one of them: --fault checked it
    // The run goes on a minute past the fault, its work the timers' firings (fault/lofamo.hpp's
    // schedule_timers): every node's DFM and HFM each write and read their watchdog register, and every
    // node but the master pings it, at the periods of Timing (microseconds); about 650 instructions a
    // firing, the events a fault adds being few (callgrind: --at 10 and --at 1000, 7.1M and 72M).
    const std::array<std::uint32_t, 3> extents{4, 2, 2};
    const Timing timing{};
    const double nodes = extents[0] * extents[1] * extents[2];
    const double per_second = 1e6 * (nodes * (1 / timing.dnp_write + 1 / timing.dnp_read + 1 / timing.host_write +
                                              1 / timing.host_read) +
                                     (nodes - 1) / timing.ping_period);
    fabric_apps::check(fabric_apps::tool_start().add("timer firings", (s.at + 60) * per_second, 650));
    const double at = s.at * 1e6;
    System quong(extents, timing);
    quong.inject(static_cast<Fault>(fault), s.node, at);
    const auto aware = quong.run(at + 60e6);
    const auto dead = quong.inferred_dead();
    // Undetected: said so, with the case this model leaves unseen (a component that fails before
    // its watchdog register has been read valid once, in about the first second, is taken as not
    // yet started: the DNP Fault Manager does not report a host it has never seen).
    const bool early = s.at < 1.0;
    const std::string undetected = std::string("not detected: the master never learns of it within a minute") +
                                   (early ? " (the fault came before its watchdog register had been read valid once, "
                                            "and a component never seen is taken as not yet started)" : "");
    if (s.format == "json") {
        nlohmann::json stages = nlohmann::json::array();
        for (const auto& a : aware)
            for (std::size_t i = 0; i < a.path.size(); ++i)
                stages.push_back({{"t_s", a.stage_times[i] / 1e6}, {"after_ms", (a.stage_times[i] - at) / 1e3},
                                  {"what", a.path[i]}});
        fabric_apps::write_json(out.stream(), nlohmann::json{{"fault", s.fault}, {"node", s.node}, {"at_s", s.at},
                                       {"detected", !aware.empty()},
                                       {"master_knows_after_ms", aware.empty() ? nlohmann::json(nullptr)
                                                                               : nlohmann::json(aware.front().delay() / 1e3)},
                                       {"undetected_reason", aware.empty() ? nlohmann::json(undetected) : nlohmann::json(nullptr)},
                                       {"stages", stages}, {"inferred_dead", dead}});
        return 0;
    }
    out.printf("QUonG 4x2x2, master node 0: %s at node %zu, t = %.6f s\n", s.fault.c_str(), s.node, at / 1e6);
    for (const auto& a : aware) {
        for (std::size_t i = 0; i < a.path.size(); ++i)
            out.printf("  t = %.6f s  (+%9.3f ms)  %s\n", a.stage_times[i] / 1e6, (a.stage_times[i] - at) / 1e3,
                       a.path[i].c_str());
        out.printf("the master knows after %.3f ms\n", a.delay() / 1e3);
    }
    if (aware.empty()) out.printf("%s\n", undetected.c_str());
    for (const auto v : dead) out.printf("the supervisor infers node %zu is dead\n", v);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "lofamo_scenario",
        "LO|FA|MO on the QUonG system (4x2x2): the time line of one fault, from its injection to the master's Fault "
        "Supervisor; a fault that goes undetected is said to.",
        scenario);
}
