// Sums whose double does not depend on the order of their terms.
//
// The flow kernel's pair-by-pair walk adds each channel's terms (a pair's amount
// times the fraction of it on the channel) in the order of the pairs. A faster way
// to the same loads (sim/link_load_symmetric.hpp) meets the same terms in another
// order, and floating-point addition is not associative, so it may use them only
// where every order gives one double, bit for bit. Two cases are sure:
//  - every term is the same double x: there is one order, and m terms give what a
//    loop adding x m times gives, repeated_sum(x, m), found here without the m
//    additions;
//  - every term is a positive multiple of 2^b (b the lowest set bit's place over
//    all terms) and their sum is below 2^(53 + b): then every partial sum, in any
//    order, is a multiple of 2^b below 2^(53 + b), which a double holds exactly, so
//    every addition is exact and the result is the exact sum (loads that are sums
//    of dyadic fractions: 1/256 per pair on a 16 x 16 torus, halves on its ties).
// OrderFreeSum takes terms in any order and says whether one of the two holds.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

namespace fabric::detail {

/// The place of x's lowest set bit: x = odd * 2^lowest_bit(x) (x finite, not 0).
[[nodiscard]] constexpr int lowest_bit(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const int field = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    if (field == 0) return -1074 + std::countr_zero(fraction);  // subnormal
    return field - 1075 + std::countr_zero(fraction | (std::uint64_t{1} << 52));
}

/// 2^e as a double, for e from -1022 up (infinity past the largest).
[[nodiscard]] constexpr double power_of_two(int e) {
    if (e > 1023) return std::numeric_limits<double>::infinity();
    return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
}

/// The binade of a positive double: its exponent field (0 for subnormals, one
/// grid of spacing 2^-1074 up to 2^-1022).
[[nodiscard]] constexpr int binade(double x) { return static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 52); }

/// What `double s = 0; for (m times) s += x;` ends with, in O(binades) steps.
/// Within one binade (spacing u) a sum s, a multiple of u, plus x rounds to s + c
/// for one c that depends only on x, except where x / u is half an odd number and
/// the tie goes to the even neighbour: then c alternates until s is even and stays
/// put afterwards. So after two equal steps in a binade every step is c until the
/// exact sum would pass the binade's top, and the loop jumps there; the steps at
/// binade edges are taken one by one. tests/runtime/order_free_sum.cpp compares it
/// with the loop.
[[nodiscard]] constexpr double repeated_sum(double x, std::uint64_t m) {
    if (x < 0) return -repeated_sum(-x, m);  // rounding to nearest is symmetric
    double s = 0;
    while (m > 0) {
        const double a = s + x;
        if (a == s) return s;  // x no longer moves s: nor will it
        if (--m == 0) return a;
        const double b = a + x;
        --m;
        if (m > 0 && s > 0 && binade(s) == binade(b) && a - s == b - a) {
            // Steady: each further step adds c while s + j c + x stays at or below the top.
            const double c = b - a;
            const int e = binade(s);
            const double top = e == 0 ? power_of_two(-1022) : power_of_two(e - 1022);
            // Steps that stay within: (top - b) is exact, the subtraction of x and the
            // division each err by under one step, so three fewer are sure.
            const double room = (top - x - b) / c;
            if (room >= 4) {
                const double whole = room - 3 < static_cast<double>(m) ? room - 3 : static_cast<double>(m);
                const auto j = static_cast<std::uint64_t>(whole);
                s = b + static_cast<double>(j) * c;  // a multiple of the spacing below the top: exact
                m -= j;
                continue;
            }
        }
        s = b;
    }
    return s;
}

/// The terms of one load, taken in any order, with whether their sum has one
/// double whatever the order (one value repeated, or exact), and that double.
class OrderFreeSum {
public:
    /// Adds `times` terms equal to t.
    constexpr void add(double t, std::uint64_t times = 1) {
        if (t == 0 || times == 0) return;
        if (count_ == 0) {
            first_ = t;
            lowest_ = lowest_bit(t);
        } else if (t != first_) {
            one_value_ = false;
            const int b = lowest_bit(t);
            lowest_ = b < lowest_ ? b : lowest_;
        }
        negative_ = negative_ || t < 0;
        count_ += times;
        // Exact while the sum stays below 2^(53 + lowest_); once it does not, it is at
        // or above that bound (rounding is monotone), which order_free() refuses.
        sum_ += t * static_cast<double>(times);
    }

    [[nodiscard]] constexpr bool order_free() const {
        return one_value_ || (!negative_ && sum_ < power_of_two(53 + lowest_));
    }
    /// The sum in every order (meaningful when order_free()).
    [[nodiscard]] constexpr double value() const { return one_value_ ? repeated_sum(first_, count_) : sum_; }
    [[nodiscard]] constexpr std::uint64_t terms() const { return count_; }

private:
    double first_ = 0;
    double sum_ = 0;
    std::uint64_t count_ = 0;
    int lowest_ = 0;
    bool one_value_ = true;
    bool negative_ = false;
};

}  // namespace fabric::detail
