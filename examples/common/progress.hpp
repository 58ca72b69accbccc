// A progress line on stderr for long cycle-kernel runs: the tools pass it as
// CycleConfig::on_progress (the library itself prints nothing).
#pragma once

#include <cstdio>

#include <fabric/sim/cycle/config.hpp>

namespace fabric_examples {

inline void print_progress(const fabric::CycleProgress& p) {
    std::fprintf(stderr, "fabric cycle kernel: cycle %llu of at most %llu, %llu of %llu measured packets delivered\n",
                 static_cast<unsigned long long>(p.cycle), static_cast<unsigned long long>(p.last_cycle),
                 static_cast<unsigned long long>(p.measured_delivered),
                 static_cast<unsigned long long>(p.measured_packets));
}

}  // namespace fabric_examples
