// The limits every tool holds a run to, before it starts: its estimated time
// (--work-limit) and memory (--memory-limit). run_tool sets them from the options.
#pragma once

#include <cstdint>
#include <string_view>

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

/// Refuses, before it starts, a run of `units` of work (node-cycles, cycles, ...)
/// that at about `per_second` of them (this tool on one core, a conservative
/// figure) would take longer than --work-limit.
inline void check_work(double units, std::string_view unit, double per_second) {
    const double seconds = units / per_second;
    fabric::detail::require(seconds <= work_limit_seconds(), "this run would take about ", seconds, " s (", units, " ",
                            unit, " at about ", per_second, " per second); --work-limit is ", work_limit_seconds(),
                            " s: raise it, or make the run smaller");
}

/// Refuses, before it allocates, a run that would take about `bytes` of memory
/// (`what` says of which data) past --memory-limit, with the figure.
inline void check_memory(double bytes, std::string_view what) {
    const double mb = bytes / (1024.0 * 1024.0);
    fabric::detail::require(mb <= static_cast<double>(memory_limit_mb()), "this run would need about ", mb, " MB (",
                            what, "); --memory-limit is ", memory_limit_mb(), " MB: raise it, or make the run smaller");
}

}  // namespace fabric_apps
