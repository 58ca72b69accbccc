// The rows of the cycle-kernel benchmarks, with their goals, in one table that
// cycle_bench (the kernel in this process) and cycle_sim_bench (the cycle_sim tool
// as a whole process) both run, so that the two always time the same runs.
//
// The node-cycles-per-second goals are the kernel-speed issue's (five times the
// speed it measured on one core); 0 where it sets none. The 16x16x16 rows at 0.3
// are saturated; they run once with source queues bounded at 32 packets a node,
// whose memory goal is 64 MiB, and once unbounded. The order matters for
// cycle_bench, whose peak memory is its process's so far: light rows first, then
// the bounded saturated ones, then the unbounded ones, which set the peak from
// there on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fabric_bench {

struct CycleRow {
    std::vector<long long> shape;  // torus extents: 2 or 3 of them
    double rate;                   // offered flits/cycle/node, uniform traffic
    std::uint32_t flits;           // packet size
    std::uint64_t measure;         // measured cycles (warm-up: a tenth); --quick runs a tenth of both
    double goal;                   // node-cycles per second; 0: none set
    std::uint32_t source_queue;    // CycleConfig::source_queue_packets (0: unbounded)
    int memory_goal_mib;           // 0: none set
};

inline std::vector<CycleRow> cycle_rows() {
    return {
        {{8, 8}, 0.1, 1, 200000, 1.0e8, 0, 0},        {{8, 8}, 0.1, 4, 200000, 1.2e8, 0, 0},
        {{8, 8}, 0.3, 1, 200000, 3.0e7, 0, 0},        {{8, 8}, 0.3, 4, 200000, 0, 0, 0},
        {{16, 16, 16}, 0.1, 1, 5000, 2.0e7, 0, 0},    {{16, 16, 16}, 0.1, 4, 5000, 0, 0, 0},
        {{16, 16, 16}, 0.3, 1, 5000, 1.0e7, 32, 64},  {{16, 16, 16}, 0.3, 4, 5000, 0, 32, 64},
        {{16, 16, 16}, 0.3, 1, 5000, 1.0e7, 0, 0},    {{16, 16, 16}, 0.3, 4, 5000, 0, 0, 0},
    };
}

/// "8x8" or "8,8": the extents joined by `sep`.
inline std::string join_shape(const std::vector<long long>& shape, char sep) {
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += sep;
        s += std::to_string(shape[i]);
    }
    return s;
}

}  // namespace fabric_bench
