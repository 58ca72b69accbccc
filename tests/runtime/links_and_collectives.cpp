// Link types carry the papers' basic figures; the dimension-wise global sum has
// the hop count of the QCDOC paper and a fixed evaluation order.
#include <doctest/doctest.h>

#include "../support/sum_order.hpp"

#include <fabric/collective/dimension_sum.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/systems/apenet.hpp>
#include <fabric/systems/qcdoc.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace unit_links_and_collectives {  // the unit's own names: tests/CMakeLists.txt builds units in batches

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
    const std::vector<double> values = fabric_tests::order_revealing_values(24);
    // The order worked by hand, as nested loops.
    const double z_sum = fabric_tests::ring_order_sum(4, 3, 2, values);
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

}  // namespace unit_links_and_collectives
