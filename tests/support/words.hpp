// Helpers shared by the QCDOC tests: a run of distinct words and a contiguous DMA descriptor.
#pragma once

#include <fabric/sim/scu_link.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

namespace fabric_tests {

inline std::vector<std::uint64_t> words(std::size_t n, std::uint64_t first = 1) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

inline fabric::DmaDescriptor contiguous(std::size_t n) { return {0, n, n, 1}; }

}  // namespace fabric_tests
