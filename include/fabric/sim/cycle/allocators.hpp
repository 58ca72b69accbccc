// The router's allocators, separable and round robin (BookSim's defaults):
//  - VC allocation: among the heads asking for one free output VC this cycle,
//    the input VC nearest at or after the output VC's pointer wins; the pointer
//    then moves just past the winner.
//  - Switch allocation, output stage: after each input port has put forward one
//    of its VCs (round robin from the port's own pointer, done where requests are
//    gathered), each output port grants the requesting input port nearest at or
//    after its pointer, and both pointers move past the pair granted.
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

/// Distance from `from` forward to `to` on a ring of `span` entries.
[[nodiscard]] constexpr std::size_t ring_distance(std::size_t from, std::size_t to, std::size_t span) {
    return (to + span - from % span) % span;
}

struct RoundRobinVcAllocator {
    static constexpr std::uint32_t free = std::numeric_limits<std::uint32_t>::max();

    /// requests: (input VC, output VC) pairs; owner[output VC] is `free` or the
    /// input VC holding it; pointer[output VC] its round-robin pointer. Calls
    /// grant(input VC) for each winner and lost() for each request that found its
    /// output VC taken by an earlier grant of this cycle.
    template <class Grant, class Lost>
    static void allocate(std::span<const std::pair<std::size_t, std::size_t>> requests, std::vector<std::uint32_t>& owner,
                         std::vector<std::uint32_t>& pointer, std::size_t span, Grant&& grant, Lost&& lost) {
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const std::size_t ov = requests[i].second;
            if (owner[ov] != free) {
                lost();
                continue;
            }
            std::size_t best = requests[i].first;
            for (std::size_t j = i + 1; j < requests.size(); ++j)
                if (requests[j].second == ov &&
                    ring_distance(pointer[ov], requests[j].first, span) < ring_distance(pointer[ov], best, span))
                    best = requests[j].first;
            owner[ov] = static_cast<std::uint32_t>(best);
            pointer[ov] = static_cast<std::uint32_t>(best + 1);
            grant(best);
        }
    }
};

template <std::uint32_t Ports>
struct RoundRobinSwitchOutputStage {
    /// choice[input port]: the VC it puts forward, or no_port; out_of(input port):
    /// the output port that VC wants; pointer: per output port. Calls
    /// grant(input port, output port) for each pair matched and moves the output's
    /// pointer just past the input granted.
    template <class OutOf, class Grant>
    static void allocate(const std::uint32_t (&choice)[Ports], OutOf&& out_of, std::uint32_t* pointer, Grant&& grant) {
        std::uint32_t winner[Ports];
        for (std::uint32_t out = 0; out < Ports; ++out) winner[out] = no_port;
        for (std::uint32_t port = 0; port < Ports; ++port) {
            if (choice[port] == no_port) continue;
            const std::uint32_t out = out_of(port);
            const std::uint32_t rr = pointer[out];
            const std::uint32_t w = winner[out];
            if (w == no_port || (port >= rr ? port - rr : port + Ports - rr) < (w >= rr ? w - rr : w + Ports - rr))
                winner[out] = port;
        }
        for (std::uint32_t out = 0; out < Ports; ++out) {
            const std::uint32_t port = winner[out];
            if (port == no_port) continue;
            grant(port, out);
            pointer[out] = port + 1 == Ports ? 0 : port + 1;
        }
    }
};

}  // namespace fabric::cycle
