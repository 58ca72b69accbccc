// Link types carry the papers' basic figures; the dimension-wise global sum has
// the hop count of the QCDOC paper and a fixed evaluation order.
#include <doctest/doctest.h>

#include <fabric/collective/dimension_sum.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/systems/apenet.hpp>
#include <fabric/systems/qcdoc.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace fabric;

TEST_CASE("QCDOC SCU: 24 bit-serial links at 500 MHz move about 1.3 GB/s per node") {
    const QcdocScu scu;  // 500 MHz
    CHECK(scu.raw_bandwidth().count == doctest::Approx(0.0625));
    // 64 data bits per 72 sent; the paper quotes "1.3 GBytes/second" for 24 links.
    CHECK(24 * scu.bandwidth().count == doctest::Approx(1.333).epsilon(0.001));
    CHECK(QcdocScu(MHz{360.0}).bandwidth().count == doctest::Approx(0.360 / 8 * 64 / 72));
    CHECK_THROWS_WITH_AS(QcdocScu(MHz{0.0}), "fabric: QcdocScu clock must be positive; got 0 MHz", config_error);
    CHECK(QcdocScu().word_time().count == doctest::Approx(144.0));
}

TEST_CASE("APEnet+ link: 4 lanes at 7.0 Gbps under 8b10b carry 2.8 GB/s") {
    CHECK(ApenetLink().line_gbps() == doctest::Approx(28.0));
    CHECK(ApenetLink().bandwidth().count == doctest::Approx(2.8));
    CHECK(ApenetLink(8.5).line_gbps() == doctest::Approx(34.0));
    CHECK_THROWS_AS(ApenetLink(9.0), config_error);
    const ApenetTorus quong(quong_extents);
    CHECK(quong.node_count() == 16);
}

TEST_CASE("dimension-wise global sum: N_x + N_y + N_z + N_t - 4 hops on a 4-D torus") {
    const Torus<4> t{{8, 4, 4, 2}};
    const DimensionWiseSum sum;
    CHECK(sum.critical_path_hops(t) == 8 + 4 + 4 + 2 - 4);
    const auto schedule = sum.schedule(t);
    CHECK(schedule.size() == sum.critical_path_hops(t));
    for (const auto& round : schedule) {
        CHECK(round.size() == t.node_count());
        for (const auto& tr : round) CHECK(t.distance(tr.from, tr.to) == 1);
    }
    const QcdocTorus q(qcdoc_1024_extents);
    CHECK(sum.critical_path_hops(q) == 8 + 4 + 4 + 2 + 2 + 2 - 6);
}

TEST_CASE("the dimension-wise sum adds in one fixed order, worked by hand, and is exact on integers") {
    const Torus<3> t{{4, 3, 2}};
    // Ones between +1e16 and -1e16: a one added to 1e16 is lost to rounding (the
    // spacing of doubles there is 2), so the order of additions shows in the result.
    std::vector<double> values(24, 1.0);
    values.front() = 1e16;
    values.back() = -1e16;
    // Each x-ring from coordinate 0, then the y-rings of those sums, then the z-ring.
    double z_sum = 0;
    for (std::size_t z = 0; z < 2; ++z) {
        double y_sum = 0;
        for (std::size_t y = 0; y < 3; ++y) {
            double x_sum = values[(z * 3 + y) * 4];
            for (std::size_t x = 1; x < 4; ++x) x_sum = x_sum + values[(z * 3 + y) * 4 + x];
            y_sum = y == 0 ? x_sum : y_sum + x_sum;
        }
        z_sum = z == 0 ? y_sum : z_sum + y_sum;
    }
    const double a = DimensionWiseSum{}.reduce(t, values);
    CHECK(a == z_sum);  // bit for bit
    // Ring 0 loses its three ones, the others keep theirs: 20 of the exact 22. Left to
    // right, every one is lost: 0. The check above tells the orders apart.
    CHECK(z_sum == 20.0);
    CHECK(std::accumulate(values.begin(), values.end(), 0.0) == 0.0);
    std::vector<long long> ints(t.node_count());
    std::iota(ints.begin(), ints.end(), 1LL);
    CHECK(DimensionWiseSum{}.reduce(t, ints) == 24 * 25 / 2);
}
