// Peak resident memory of this process, for benchmark reports (Linux getrusage).
#pragma once

#include <sys/resource.h>

namespace fabric_bench {

/// Peak resident set size so far, in MiB.
inline double peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace fabric_bench
