// LO|FA|MO on the QUonG system (4x2x2): the time line of a fault, from its
// injection to the master's Fault Supervisor.
//
//   lofamo_scenario [--fault host_breakdown|dnp_breakdown|host_and_dnp|link_broken|link_sick|
//                    temperature|service_net_loss|...] [--node N] [--at SECONDS]
#include <fabric/fault/lofamo.hpp>

#include "common/cli.hpp"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    using namespace fabric::lofamo;
    const fabric_examples::Cli cli(argc, argv, {"fault", "node", "at"}, {}, "usage: lofamo_scenario [--fault KIND] "
                                   "[--node N] [--at SECONDS]\n");
    const char* names[] = {"link_sick",     "link_broken",    "temperature", "voltage",
                           "current",       "dnp_core_sick",  "dnp_breakdown", "host_breakdown",
                           "host_memory",   "host_peripheral", "host_and_dnp", "service_net_loss"};
    const std::string kind = cli.text("fault", "host_breakdown");
    int fault = -1;
    for (int i = 0; i < 12; ++i)
        if (kind == names[i]) fault = i;
    if (fault < 0) cli.fail("unknown fault '" + kind + "'");
    const auto node = static_cast<std::size_t>(cli.integer("node", 5));
    const double at = cli.number("at", 2.3) * 1e6;
    try {
        System quong({4, 2, 2});
        quong.inject(static_cast<Fault>(fault), node, at);
        const auto aware = quong.run(at + 60e6);
        std::printf("QUonG 4x2x2, master node 0: %s at node %zu, t = %.6f s\n", kind.c_str(), node, at / 1e6);
        for (const auto& a : aware) {
            for (std::size_t i = 0; i < a.path.size(); ++i)
                std::printf("  t = %.6f s  (+%9.3f ms)  %s\n", a.stage_times[i] / 1e6, (a.stage_times[i] - at) / 1e3,
                            a.path[i].c_str());
            std::printf("the master knows after %.3f ms\n", a.delay() / 1e3);
        }
        if (aware.empty()) std::printf("the master never learns of it within a minute\n");
        for (const auto v : quong.inferred_dead()) std::printf("the supervisor infers node %zu is dead\n", v);
    } catch (const fabric::config_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
