// The sweep runner's speed-up on two lists, each run by its tool alone, then
// dealt over N ranks under mpiexec, each as a whole process, whose outputs must
// be identical: the PERCS all-to-all curve (percs_packet --d, two cycle-kernel
// runs per d), and a cycle_sim latency-load sweep that ends at saturation.
// Prints both wall times, the speed-up and its goal (90% of N), and the serial
// run's peak memory (each rank holds one run at a time, so no more than that).
//
//   sweep_bench [--d LIST] [--ranks N] [--window C] [path/to/apps]
//   (defaults: --d 1,2 --ranks 2 --window 4000, ../apps beside this program)
#include "process.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifndef FABRIC_MPIEXEC_COMMAND
#define FABRIC_MPIEXEC_COMMAND "mpiexec"
#endif

namespace {
struct Timed {
    std::string out;
    double seconds = 0, peak_mib = 0;
    bool ok = false;
};

Timed timed(const std::vector<std::string>& args) {
    Timed t;
    int status = 0;
    const auto start = std::chrono::steady_clock::now();
    t.out = fabric_bench::run(args, t.peak_mib, status);
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return t;
}

/// Times `alone`, then the same command under the launcher on `ranks` ranks; prints both, the speed-up and its goal.
bool compare(const std::string& list, const std::vector<std::string>& alone, int ranks) {
    std::vector<std::string> dealt = fabric_bench::mpi_launcher(FABRIC_MPIEXEC_COMMAND);
    dealt.insert(dealt.end(), {"-n", std::to_string(ranks)});
    dealt.insert(dealt.end(), alone.begin(), alone.end());
    const Timed serial = timed(alone);
    const Timed parallel = timed(dealt);
    if (!serial.ok || !parallel.ok) {
        std::fprintf(stderr, "sweep_bench: %s of %s failed\n", serial.ok ? "the run under mpiexec" : "the serial run",
                     list.c_str());
        return false;
    }
    const bool identical = serial.out == parallel.out;
    std::printf("{\"bench\": \"sweep_bench\", \"list\": \"%s\", \"ranks\": %d, \"serial_seconds\": %.2f, "
                "\"dealt_seconds\": %.2f, \"speedup\": %.2f, \"goal\": %.2f, \"identical\": %s, "
                "\"serial_peak_rss_MiB\": %.1f}\n",
                list.c_str(), ranks, serial.seconds, parallel.seconds, serial.seconds / parallel.seconds, 0.9 * ranks,
                identical ? "true" : "false", serial.peak_mib);
    return identical;
}

}  // namespace

int main(int argc, char** argv) {
    std::string d = "1,2", window = "4000", apps;
    int ranks = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--d") == 0 && i + 1 < argc) d = argv[++i];
        else if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc) ranks = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--window") == 0 && i + 1 < argc) window = argv[++i];
        else apps = argv[i];
    }
    if (apps.empty()) {
        apps = argv[0];
        apps = apps.substr(0, apps.find_last_of('/') + 1) + "../apps";
    }
    if (ranks < 1) {
        std::fprintf(stderr, "sweep_bench: --ranks must be at least 1\n");
        return 2;
    }
    // Two runs per d; then a latency-load sweep of 10 loads, 2 seeds each, that ends at saturation.
    const bool percs = compare("percs_packet --d " + d + " --window " + window,
                               {apps + "/percs_packet", "--d", d, "--window", window, "--csv"}, ranks);
    const bool sweep = compare("cycle_sim --dims 16,16 --sweep 0.02:0.2:0.02 --seeds 1,2",
                               {apps + "/cycle_sim", "--dims", "16,16", "--sweep", "0.02:0.2:0.02", "--seeds", "1,2",
                                "--warmup", "1000", "--measure", "5000"},
                               ranks);
    return percs && sweep ? 0 : 1;
}
