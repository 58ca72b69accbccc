// core/order_free_sum.hpp: repeated_sum is the loop it stands for, bit for bit, and
// OrderFreeSum accepts exactly the term sets whose sum has one double in every
// order.
#include <doctest/doctest.h>

#include <fabric/core/order_free_sum.hpp>
#include <fabric/core/random.hpp>

#include <bit>
#include <cstdint>
#include <vector>

namespace unit_order_free_sum {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using fabric::detail::OrderFreeSum;
using fabric::detail::repeated_sum;

namespace {
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
}  // namespace

TEST_CASE("repeated_sum(x, m) is what adding x m times gives, bit for bit") {
    // The shares of the flow kernel's patterns (1/N for N not a power of two, a
    // dragonfly's 1/16,512), values whose ulp ties go to even (3 * 2^-60 against a
    // sum near 1), and random values over 80 binades.
    std::vector<double> xs{1.0 / 3, 1.0 / 36, 1e-6, 1.0 / 16512, 0.1, 0.7, 3.0, 3 * 0x1p-60, 0x1p-1074, 1e300};
    fabric::Random rng(43);
    for (int i = 0; i < 150; ++i) xs.push_back((0.5 + rng.uniform() / 2) * std::bit_cast<double>(
        static_cast<std::uint64_t>(1023 - 40 + static_cast<int>(rng.below(80))) << 52));
    std::size_t checked = 0, mismatched = 0;
    for (const double x : xs) {
        double s = 0;
        for (std::uint64_t m = 0; m <= 200000; ++m) {
            if (m > 0) s += x;
            if (m < 1500 || m % 977 == 0) {
                ++checked;
                mismatched += !same_bits(repeated_sum(x, m), s);
            }
        }
    }
    CHECK(checked > 100000);
    CHECK(mismatched == 0);
    for (const double x : {1e-6, 1.0 / 16512}) {  // ten million terms: many binades crossed
        double s = 0;
        for (int m = 0; m < 10000000; ++m) s += x;
        CHECK(same_bits(repeated_sum(x, 10000000), s));
    }
    CHECK(repeated_sum(-0.1, 1000) == -repeated_sum(0.1, 1000));
}

TEST_CASE("OrderFreeSum: one repeated value, or an exact sum, has one double in every order") {
    OrderFreeSum one;
    for (int i = 0; i < 36; ++i) one.add(1.0 / 36);
    CHECK(one.order_free());
    double loop = 0;
    for (int i = 0; i < 36; ++i) loop += 1.0 / 36;
    CHECK(same_bits(one.value(), loop));
    CHECK(loop != 1.0);  // the repeated sum is not the exact one, and need not be

    OrderFreeSum dyadic;  // halves and units of 2^-8: the 16 x 16 torus's terms
    dyadic.add(0x1p-8, 300);
    dyadic.add(0x1p-9, 17);
    CHECK(dyadic.order_free());
    CHECK(dyadic.value() == 300 * 0x1p-8 + 17 * 0x1p-9);
}

TEST_CASE("OrderFreeSum refuses terms whose sum depends on the order") {
    // 2^53 and two ones: (2^53 + 1) + 1 rounds twice to 2^53, 2^53 + (1 + 1) is exact.
    const double big = 0x1p53;
    CHECK((big + 1.0) + 1.0 != big + (1.0 + 1.0));
    OrderFreeSum sum;
    sum.add(big);
    sum.add(1.0, 2);
    CHECK_FALSE(sum.order_free());
    // The terms of a 6 x 6 torus under uniform traffic with ties split: 1/36 and its
    // half. One share and four halves: adding the share first or last differ.
    const double share = 1.0 / 36, half = share / 2;
    CHECK(share + half + half + half + half != half + half + half + half + share);
    OrderFreeSum mixed;
    mixed.add(share);
    mixed.add(half, 4);
    CHECK_FALSE(mixed.order_free());
}

}  // namespace unit_order_free_sum
