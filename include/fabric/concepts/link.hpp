// LinkType: what a physical link is. A link type is a small copyable value with
// its run-time parameters (a lane rate, a clock) and static facts (its number of
// virtual channels, which flow-control protocols need to know at compile time).
#pragma once

#include <concepts>
#include <cstddef>
#include <string_view>

#include <fabric/core/units.hpp>

namespace fabric {

template <class L>
concept LinkType = std::copyable<L> && requires(const L& link) {
    { L::name } -> std::convertible_to<std::string_view>;
    { L::virtual_channels } -> std::convertible_to<std::size_t>;
    { link.bandwidth() } -> std::same_as<GBps>;      // payload bandwidth per direction
    { link.latency() } -> std::same_as<Nanoseconds>;  // time of flight, first bit in to first bit out
};

}  // namespace fabric
