// The few pieces of <cmath> the closed forms need, usable in constant evaluation
// (std::sqrt and std::floor are not constexpr in C++20) and the same code at run
// time, so that a model gives one number whether the compiler or the program
// evaluates it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>

namespace fabric::detail {

/// floor(x) for 0 <= x < 2^63: the integer part.
[[nodiscard]] constexpr double floor_nonnegative(double x) {
    return static_cast<double>(static_cast<std::int64_t>(x));
}

[[nodiscard]] constexpr double abs_of(double x) { return x < 0 ? -x : x; }

/// a * a - x with the square's rounding error kept (Dekker's exact product,
/// by Veltkamp's split): the sign and size of a residual a few ulps wide.
[[nodiscard]] constexpr double square_minus(double a, double x) {
    const double split = 134217729.0 * a;  // 2^27 + 1
    const double hi = split - (split - a), lo = a - hi;
    const double p = a * a;
    const double err = ((hi * hi - p) + 2 * hi * lo) + lo * lo;  // a * a = p + err exactly
    return (p - x) + err;
}

/// ceil(x) for 0 <= x < 2^63.
[[nodiscard]] constexpr double ceil_nonnegative(double x) {
    const double f = floor_nonnegative(x);
    return f < x ? f + 1 : f;
}

/// The square root of x >= 0: Newton's iteration from above, stopped where it no
/// longer falls, then whichever of the result and its two neighbours has the
/// square nearest x (tests/runtime/math.cpp compares it with std::sqrt).
[[nodiscard]] constexpr double sqrt_nonnegative(double x) {
    if (x == 0 || x == std::numeric_limits<double>::infinity() || x != x) return x;
    double r = x > 1 ? x : 1;  // at or above the root
    for (;;) {
        const double next = 0.5 * (r + x / r);
        if (next >= r) break;
        r = next;
    }
    // The iteration stops within an ulp of the rounded root.
    const double step = r * (std::numeric_limits<double>::epsilon() / 2);
    double best = r, residual = abs_of(square_minus(r, x));
    for (const double c : {r - step, r + step})
        if (const double e = abs_of(square_minus(c, x)); e < residual) best = c, residual = e;
    return best;
}

}  // namespace fabric::detail
