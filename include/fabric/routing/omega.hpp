// The omega network (Lawrie): log2 N stages of a perfect shuffle followed by a
// column of 2x2 switches, routed by destination tag (stage s sets the message's
// low address bit to bit n - 1 - s of its destination). It passes only some
// permutations: two messages that want one switch output in a stage conflict.
// A Benes network (topology/benes.hpp) passes every permutation in one pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric {

/// Conflicts when permutation `perm` (message m to port perm[m]) is routed
/// through an omega network of perm.size() = 2^n ports: per stage, every
/// message that finds its switch output already taken counts one.
inline std::size_t omega_conflicts(std::span<const std::uint32_t> perm) {
    const std::size_t n = perm.size();
    std::size_t bits = 0;
    while ((std::size_t{1} << bits) < n) ++bits;
    detail::require(n >= 2 && (std::size_t{1} << bits) == n, "an omega network has 2^n ports, n >= 1; got ", n);
    std::vector<std::uint32_t> at(n);
    std::iota(at.begin(), at.end(), 0U);  // where each message is
    std::size_t conflicts = 0;
    for (std::size_t stage = 0; stage < bits; ++stage) {
        std::vector<std::uint8_t> used(n, 0);
        for (std::size_t m = 0; m < n; ++m) {
            const auto shuffled = static_cast<std::uint32_t>(((at[m] << 1) | (at[m] >> (bits - 1))) & (n - 1));
            const std::uint32_t bit = (perm[m] >> (bits - 1 - stage)) & 1U;  // destination tag, high bit first
            at[m] = (shuffled & ~1U) | bit;
            conflicts += used[at[m]] ? 1 : 0;
            used[at[m]] = 1;
        }
    }
    return conflicts;
}

}  // namespace fabric
