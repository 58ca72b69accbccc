// The order of additions a dimension-wise global sum promises, written out for a
// 3-D partition as nested loops (x fastest): each x-ring from coordinate 0, then
// the y-rings of those sums, then the z-ring; and values that show the order.
#pragma once

#include <cstddef>
#include <vector>

namespace fabric_tests {

inline double ring_order_sum(std::size_t nx, std::size_t ny, std::size_t nz, const std::vector<double>& values) {
    double z_sum = 0;
    for (std::size_t z = 0; z < nz; ++z) {
        double y_sum = 0;
        for (std::size_t y = 0; y < ny; ++y) {
            double x_sum = values[(z * ny + y) * nx];
            for (std::size_t x = 1; x < nx; ++x) x_sum = x_sum + values[(z * ny + y) * nx + x];
            y_sum = y == 0 ? x_sum : y_sum + x_sum;
        }
        z_sum = z == 0 ? y_sum : z_sum + y_sum;
    }
    return z_sum;
}

/// Ones between +1e16 and -1e16: a one added to 1e16 is lost to rounding (the
/// spacing of doubles there is 2), so the order of additions shows in the result.
inline std::vector<double> order_revealing_values(std::size_t n) {
    std::vector<double> values(n, 1.0);
    values.front() = 1e16;
    values.back() = -1e16;
    return values;
}

}  // namespace fabric_tests
