// The router's VC allocator, round robin (BookSim's default): among the heads
// asking for one free output VC this cycle, the input VC nearest at or after the
// output VC's pointer wins; the pointer then moves just past the winner. (The
// switch allocators are policies: switch_allocators.hpp.)
// Indices are whatever the caller uses; the allocators only compare distances on
// a ring of `span` entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace fabric::cycle {

inline constexpr std::uint32_t no_port = std::numeric_limits<std::uint32_t>::max();

/// A switch request of a router step: input port, its VC, output port.
struct SwitchRequest {
    std::uint32_t in, vc, out;
};

/// Distance from `from` forward to `to` on a ring of `span` entries.
[[nodiscard]] constexpr std::size_t ring_distance(std::size_t from, std::size_t to, std::size_t span) {
    return (to + span - from % span) % span;
}

struct RoundRobinVcAllocator {
    static constexpr std::uint32_t free = std::numeric_limits<std::uint32_t>::max();

    /// requests: (input VC, output VC) pairs; owner(output VC) is `free` or the
    /// input VC holding it, pointer(output VC) its round-robin pointer (both
    /// references). Calls grant(input VC) for each winner and lost() for each
    /// request that found its output VC taken by an earlier grant of this cycle.
    template <class OwnerOf, class PointerOf, class Grant, class Lost>
    static void allocate_with(std::span<const std::pair<std::size_t, std::size_t>> requests, OwnerOf&& owner,
                              PointerOf&& pointer, std::size_t span, Grant&& grant, Lost&& lost) {
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const std::size_t ov = requests[i].second;
            if (owner(ov) != free) {
                lost();
                continue;
            }
            std::size_t best = requests[i].first;
            for (std::size_t j = i + 1; j < requests.size(); ++j)
                if (requests[j].second == ov &&
                    ring_distance(pointer(ov), requests[j].first, span) < ring_distance(pointer(ov), best, span))
                    best = requests[j].first;
            owner(ov) = static_cast<std::uint32_t>(best);
            pointer(ov) = static_cast<std::uint32_t>(best + 1);
            grant(best);
        }
    }
    /// The same, over two arrays indexed by output VC.
    template <class Grant, class Lost>
    static void allocate(std::span<const std::pair<std::size_t, std::size_t>> requests, std::vector<std::uint32_t>& owner,
                         std::vector<std::uint32_t>& pointer, std::size_t span, Grant&& grant, Lost&& lost) {
        allocate_with(
            requests, [&](std::size_t ov) -> std::uint32_t& { return owner[ov]; },
            [&](std::size_t ov) -> std::uint32_t& { return pointer[ov]; }, span, grant, lost);
    }
};

}  // namespace fabric::cycle
