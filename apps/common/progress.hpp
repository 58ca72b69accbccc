// A progress line for long runs, on stderr and only when it is a terminal: the
// cycle reached, the simulation rate, and the time left at most (a run stops at
// its drain limit at the latest; it usually ends well before).
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>

#include <unistd.h>

#include <fabric/sim/cycle/config.hpp>

#include "output.hpp"

namespace fabric_apps {

/// A CycleConfig::on_progress callback, or none when stderr is not a terminal.
inline std::function<void(const fabric::CycleProgress&)> terminal_progress() {
    if (!isatty(STDERR_FILENO)) return {};
    const auto start = std::chrono::steady_clock::now();
    return [start](const fabric::CycleProgress& p) {
        progress_line_open() = true;  // ended before results are written (output.hpp)
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rate = s > 0 ? static_cast<double>(p.cycle) / s : 0;
        const double left = rate > 0 ? static_cast<double>(p.last_cycle - p.cycle) / rate : 0;
        std::fprintf(stderr, "\rcycle %llu, %.3g cycles/s, %llu of %llu measured packets delivered, at most %.0f s left ",
                     static_cast<unsigned long long>(p.cycle), rate,
                     static_cast<unsigned long long>(p.measured_delivered),
                     static_cast<unsigned long long>(p.measured_packets), left);
    };
}

}  // namespace fabric_apps
