// core/math.hpp: the constexpr square root, floor and ceil that the closed forms
// use in constant evaluation and at run time, against <cmath>.
#include <doctest/doctest.h>

#include <fabric/core/math.hpp>
#include <fabric/core/random.hpp>

#include <cmath>
#include <cstdint>

namespace unit_math {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using fabric::detail::ceil_nonnegative;
using fabric::detail::floor_nonnegative;
using fabric::detail::sqrt_nonnegative;

TEST_CASE("sqrt_nonnegative equals std::sqrt, bit for bit, from 2^-100 to 2^100 and on the integers") {
    fabric::Random rng(7);
    std::uint64_t differ = 0;
    for (int i = 0; i < 200000; ++i) {
        const double mantissa = 1 + static_cast<double>(rng.next() >> 11) * 0x1p-53;  // [1, 2)
        const double x = std::ldexp(mantissa, static_cast<int>(rng.below(201)) - 100);
        differ += sqrt_nonnegative(x) != std::sqrt(x);
    }
    for (std::uint32_t n = 0; n <= 100000; ++n) differ += sqrt_nonnegative(n) != std::sqrt(static_cast<double>(n));
    CHECK(differ == 0);
    CHECK(sqrt_nonnegative(0.0) == 0.0);
    CHECK(sqrt_nonnegative(1232.0) == std::sqrt(1232.0));  // the APEnet+ optimum: sqrt(2 (506 + 110))
    static_assert(sqrt_nonnegative(4.0) == 2.0 && sqrt_nonnegative(2.25) == 1.5);
}

TEST_CASE("floor_nonnegative and ceil_nonnegative equal std::floor and std::ceil on non-negative values") {
    for (const double x : {0.0, 0.25, 1.0, 1.5, 2.0, 255.999, 256.0, 1e15 + 0.5}) {
        CAPTURE(x);
        CHECK(floor_nonnegative(x) == std::floor(x));
        CHECK(ceil_nonnegative(x) == std::ceil(x));
    }
    static_assert(floor_nonnegative(506.0 / 256) == 1 && ceil_nonnegative(45.25) == 46);
}

}  // namespace unit_math
