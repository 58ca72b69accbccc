// The limits every tool holds a run to, before it starts: its estimated time
// (--work-limit) and memory (--memory-limit). run_tool sets them from the options.
//
// A tool estimates a run as a Cost, before any of the work starts, set-up included
// (a graph's layering, a deadlock check, a route table): each part a count of units
// (node-cycles, flit moves, router pairs, words) at an instruction cost a unit,
// measured with callgrind on the reference machine (tests/hostile/estimates.py checks
// every estimate against the instructions a set of runs takes, within a factor of 2,
// and refits the figures: --calibrate), and the memory it takes. The time is the
// instructions at reference_instructions_per_second. `--estimate` prints the estimate
// (JSON) in place of the run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric_apps {

/// The longest run a tool starts, in seconds of estimated run time (--work-limit).
inline double& work_limit_seconds() {
    static double limit = 24 * 3600.0;
    return limit;
}

/// The most memory a tool's run may take, in MB (--memory-limit).
inline std::uint64_t& memory_limit_mb() {
    static std::uint64_t limit = 4096;
    return limit;
}

/// --estimate: print the estimate of the run and stop before it starts.
inline bool& estimate_only() {
    static bool only = false;
    return only;
}

/// Instructions a second of the reference machine (one core of the project's 2-core
/// machine, the cycle kernel's mix of work), what turns an estimate into seconds.
inline constexpr double reference_instructions_per_second = 1.5e9;

/// What a run will cost, estimated before any of it starts.
struct Cost {
    struct Work {
        std::string what;    // "node-cycles of the runs"
        double units = 0;
        double per_unit = 0;  // instructions a unit
    };
    struct Memory {
        std::string what;
        double bytes = 0;
    };
    std::vector<Work> work;
    std::vector<Memory> memory;

    /// `units` of work, each taking `instructions_per_unit`.
    Cost& add(std::string what, double units, double instructions_per_unit) {
        work.push_back({std::move(what), units, instructions_per_unit});
        return *this;
    }
    /// `bytes` of memory the run holds at once.
    Cost& need(std::string what, double bytes) {
        memory.push_back({std::move(what), bytes});
        return *this;
    }
    [[nodiscard]] double instructions() const {
        double total = 0;
        for (const Work& w : work) total += w.units * w.per_unit;
        return total;
    }
    [[nodiscard]] double seconds() const { return instructions() / reference_instructions_per_second; }
    [[nodiscard]] double bytes() const {
        double total = 0;
        for (const Memory& m : memory) total += m.bytes;
        return total;
    }
};

/// Instructions every run of a tool takes whatever its work: loading, reading its options and
/// configuration, writing its result (callgrind: `--version` 2.2M, the smallest runs 2.4M). A small
/// run's estimate is mostly this; tool_start() adds it.
inline constexpr double tool_start_instructions = 2.2e6;

/// A Cost holding the tool's start, to which a tool adds its work.
inline Cost tool_start() {
    Cost cost;
    cost.add("the tool's loading, options and output", 1, tool_start_instructions);
    return cost;
}

/// Thrown by check() under --estimate: the estimate, which run_tool prints in place of the run.
struct EstimateOnly {
    Cost cost;
};

/// Refuses, before any of it starts, a run whose estimate exceeds --work-limit or
/// --memory-limit, naming each part; under --estimate, stops here with the estimate.
/// A check before a part of the set-up that the final estimate needs (`final` false:
/// a graph's distances, before its routes are layered) is skipped under --estimate.
inline void check(const Cost& cost, bool final = true) {
    if (estimate_only()) {
        if (final) throw EstimateOnly{cost};
        return;
    }
    auto figure = [](double x) {  // 0.0123, 4.56, 4882.8, 1.23e+10
        char text[32];
        std::snprintf(text, sizeof text, x >= 10 && x < 1e9 ? "%.1f" : "%.3g", x);
        return std::string(text);
    };
    const double seconds = cost.seconds();
    if (seconds > work_limit_seconds()) {
        std::string parts;
        for (const Cost::Work& w : cost.work)
            parts += (parts.empty() ? "" : "; ") + w.what + ": " + figure(w.units) + ", about " +
                     figure(w.units * w.per_unit / reference_instructions_per_second) + " s";
        throw fabric::config_error(fabric::detail::message(
            "this run would take about ", figure(seconds), " s (", parts, "); --work-limit is ", work_limit_seconds(),
            " s: raise it, or make the run smaller"));
    }
    const double mb = cost.bytes() / (1024.0 * 1024.0);
    if (mb > static_cast<double>(memory_limit_mb())) {
        std::string parts;
        for (const Cost::Memory& m : cost.memory)
            parts += (parts.empty() ? "" : "; ") + m.what + " " + figure(m.bytes / (1024.0 * 1024.0)) + " MB";
        throw fabric::config_error(fabric::detail::message("this run would need about ", figure(mb), " MB (", parts,
                                                           "); --memory-limit is ", memory_limit_mb(),
                                                           " MB: raise it, or make the run smaller"));
    }
}

/// check() of what a run has grown to so far while it is set up (a workload's collectives as they are
/// expanded): refused past a limit as by check(cost, false); under --estimate, the estimate so far is given
/// once it is past --memory-limit, since what is still to set up only adds to it and need not be made.
inline void check_growing(const Cost& cost) {
    if (estimate_only() && cost.bytes() > static_cast<double>(memory_limit_mb()) * 1024 * 1024) throw EstimateOnly{cost};
    check(cost, false);
}

}  // namespace fabric_apps
