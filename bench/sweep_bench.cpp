// The sweep runner's speed-up: the PERCS all-to-all curve (percs_packet --d,
// two cycle-kernel runs per d) run by the tool alone, then dealt over N ranks
// under mpiexec, each as a whole process; the tables must be identical. Prints
// both wall times, the speed-up and its goal (90% of N), and the serial run's
// peak memory (each rank holds one run at a time, so no more than that).
//
//   sweep_bench [--d LIST] [--ranks N] [--window C] [path/to/percs_packet]
//   (defaults: --d 1,2 --ranks 2 --window 4000, ../apps/percs_packet beside this program)
#include "process.hpp"

#include <algorithm>
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

}  // namespace

int main(int argc, char** argv) {
    std::string d = "1,2", window = "4000", tool;
    int ranks = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--d") == 0 && i + 1 < argc) d = argv[++i];
        else if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc) ranks = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--window") == 0 && i + 1 < argc) window = argv[++i];
        else tool = argv[i];
    }
    if (tool.empty()) {
        tool = argv[0];
        tool = tool.substr(0, tool.find_last_of('/') + 1) + "../apps/percs_packet";
    }
    if (ranks < 1) {
        std::fprintf(stderr, "sweep_bench: --ranks must be at least 1\n");
        return 2;
    }
    const std::vector<std::string> alone = {tool, "--d", d, "--window", window, "--csv"};
    std::vector<std::string> dealt = fabric_bench::mpi_launcher(FABRIC_MPIEXEC_COMMAND);
    dealt.insert(dealt.end(), {"-n", std::to_string(ranks)});
    dealt.insert(dealt.end(), alone.begin(), alone.end());
    const Timed serial = timed(alone);
    const Timed parallel = timed(dealt);
    if (!serial.ok || !parallel.ok) {
        std::fprintf(stderr, "sweep_bench: %s failed\n", serial.ok ? "the run under mpiexec" : "the serial run");
        return 1;
    }
    const bool identical = serial.out == parallel.out;
    const double speedup = serial.seconds / parallel.seconds;
    std::printf("{\"bench\": \"sweep_bench\", \"list\": \"percs_packet --d %s --window %s\", \"runs\": %zu, "
                "\"ranks\": %d, \"serial_seconds\": %.2f, \"dealt_seconds\": %.2f, \"speedup\": %.2f, "
                "\"goal\": %.2f, \"identical\": %s, \"serial_peak_rss_MiB\": %.1f}\n",
                d.c_str(), window.c_str(), 2 * (1 + static_cast<std::size_t>(std::count(d.begin(), d.end(), ','))),
                ranks, serial.seconds, parallel.seconds, speedup, 0.9 * ranks, identical ? "true" : "false",
                serial.peak_mib);
    return identical ? 0 : 1;
}
