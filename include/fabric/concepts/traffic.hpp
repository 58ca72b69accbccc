// TrafficPattern: who sends how much to whom. Tasks are numbered 0 .. n-1; each
// source sends one unit in total (the convention of Dally and Towles and of the
// PERCS mapping paper), split over its destinations. A mapping (mapping/) places
// tasks on nodes; with none, task i runs on node i.
#pragma once

#include <concepts>
#include <cstddef>

#include <fabric/core/ids.hpp>

namespace fabric {

namespace detail {
struct flow_sink {
    constexpr void operator()(std::size_t, std::size_t, double) const {}
};
}  // namespace detail

template <class P>
concept TrafficPattern = requires(const P& pattern) {
    { pattern.task_count() } -> std::convertible_to<std::size_t>;
    pattern.for_each_flow(detail::flow_sink{});
};

}  // namespace fabric
