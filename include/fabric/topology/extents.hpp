// Extents of a k-ary n-cube, in the spirit of std::mdspan's: the rank is always
// fixed at compile time; the extent of each dimension is either given at run time
// (DynamicExtents, the default) or fixed in the type (StaticExtents<8, 8>), which
// lets the compiler fold index arithmetic and lets compile-time checks (deadlock
// freedom) run on the whole configuration.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fabric {

/// Extents chosen at run time, when the topology is constructed.
struct DynamicExtents {};

/// Extents fixed in the type.
template <std::uint32_t... Ks>
struct StaticExtents {
    static constexpr std::size_t rank = sizeof...(Ks);
    static constexpr std::array<std::uint32_t, sizeof...(Ks)> values{Ks...};
};

namespace detail {
template <class E>
inline constexpr bool is_static_extents_v = false;
template <std::uint32_t... Ks>
inline constexpr bool is_static_extents_v<StaticExtents<Ks...>> = true;
}  // namespace detail

}  // namespace fabric
