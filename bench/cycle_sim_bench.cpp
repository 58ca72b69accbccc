// The rows of cycle_bench run through the cycle_sim tool as a whole process, as a
// user runs them: wall time from launch to exit (parsing options, building the
// fabric, the run, the output), node-cycles per second over the cycles the run
// reports, and the process's peak memory (each row its own process). Each row
// prints its goals beside it; the rows and goals are bench/cycle_rows.hpp's, the
// ones cycle_bench runs in its own process.
//
//   cycle_sim_bench [--quick] [path/to/cycle_sim]   (default: ../apps/cycle_sim beside this program)
#include "cycle_rows.hpp"
#include "process.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// The number after "key": in the tool's JSON output (0 when missing).
double field(const std::string& json, const char* key) {
    const std::string k = std::string("\"") + key + "\":";
    const auto at = json.find(k);
    return at == std::string::npos ? 0 : std::strtod(json.c_str() + at + k.size(), nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string tool;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) quick = true;
        else tool = argv[i];
    }
    if (tool.empty()) {
        tool = argv[0];
        tool = tool.substr(0, tool.find_last_of('/') + 1) + "../apps/cycle_sim";
    }
    int failed = 0;
    for (const auto& r : fabric_bench::cycle_rows()) {
        const unsigned long long measure = quick ? r.measure / 10 : r.measure;
        const std::string dims = fabric_bench::join_shape(r.shape, ',');
        double nodes = 1;
        for (const long long k : r.shape) nodes *= static_cast<double>(k);
        const std::vector<std::string> args = {tool, "--dims", dims, "--rate", std::to_string(r.rate), "--packet",
                                               std::to_string(r.flits), "--warmup", std::to_string(measure / 10),
                                               "--measure", std::to_string(measure), "--source-queue",
                                               std::to_string(r.source_queue), "--json"};
        double peak = 0;
        int status = 0;
        const auto start = std::chrono::steady_clock::now();
        const std::string out = fabric_bench::run(args, peak, status);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::fprintf(stderr, "cycle_sim_bench: %s failed (status %d)\n", tool.c_str(), status);
            ++failed;
            continue;
        }
        const double cycles = field(out, "cycles");
        std::printf("{\"bench\": \"cycle_sim_bench\", \"torus\": \"%s\", \"rate\": %.2f, \"packet_flits\": %u, "
                    "\"cycles\": %.0f, \"seconds\": %.3f, \"node_cycles_per_second\": %.3g, \"goal\": %.3g, "
                    "\"accepted\": %.4f, \"source_queue\": %u, \"refused\": %.4f, \"saturated\": %s, "
                    "\"peak_rss_MiB\": %.1f, \"memory_goal_MiB\": %d}\n",
                    dims.c_str(), r.rate, r.flits, cycles, s, cycles * nodes / s, r.goal, field(out, "accepted"),
                    r.source_queue, field(out, "refused"),
                    out.find("\"saturated\": true") != std::string::npos ? "true" : "false", peak,
                    r.memory_goal_mib);
    }
    return failed ? 1 : 0;
}
