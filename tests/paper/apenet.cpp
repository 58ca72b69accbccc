// EURETILE 2012 report, vol. II, section 3.1.1.1: the APEnet+ torus-link
// efficiency model (E_1, E_2, E_3, E_T, the optimum C, Table 8) and the cycle
// simulation of one saturated link with the same protocol.
//
// The report prints three decimals, and rounds E_T in one of two ways: the exact
// product (0.5946 -> 0.595 for depth 512) or the product of the rounded factors
// (0.985 x 0.946 x 0.841 = 0.7836 -> 0.784 for depth 1024, where the exact 0.7835
// gives 0.783). A printed E_T is checked against both. Table 8's bandwidths are the
// printed E_T times 2800 or 3400 MB/s, to within 1 MB/s (rounded or truncated).
#include <doctest/doctest.h>

#include <fabric/sim/analytic/apenet_efficiency.hpp>
#include <fabric/sim/presets/apenet.hpp>
#include <fabric/systems/apenet.hpp>

#include <cmath>

using namespace fabric;

namespace {
double three(double x) { return std::round(x * 1000) / 1000; }
bool printed_et(const analytic::ApenetEfficiency& m, double et) {
    return three(m.et()) == et || three(three(m.e1()) * three(m.e2()) * three(m.e3())) == et;
}
}  // namespace

TEST_CASE("E_1 = 0.985, E_2 = 0.946, E_3 = 0.638 with the whole-packet rule (0.777 without), E_T = 0.595") {
    analytic::ApenetEfficiency m;  // S_MAX 4096, P 64, C 35, L_R 35, L_L 20, T_RED 506
    CHECK(three(m.e1()) == 0.985);
    CHECK(three(m.e2()) == 0.946);
    CHECK(m.total_latency() == 110);
    CHECK(m.wait() == 145);
    CHECK(three(m.e3()) == 0.638);
    CHECK(printed_et(m, 0.595));
    m.whole_packet_rule = false;
    CHECK(three(m.e3()) == 0.777);
    CHECK(three(m.et()) == 0.724);
}

TEST_CASE("the optimum credit period: C = 35.1 for the report's E_T(C) = 0.985 C/(C+2) 506/(616+C)") {
    analytic::ApenetEfficiency m;
    m.whole_packet_rule = false;
    CHECK(m.optimum_credit_period() == doctest::Approx(35.1).epsilon(0.002));
    // It is the maximum over C in [0, 55], as the report searched.
    double best = 0, best_c = 0;
    for (std::uint32_t c = 1; c <= 55; ++c) {
        m.credit_period = c;
        if (m.et() > best) {
            best = m.et();
            best_c = c;
        }
    }
    CHECK(best_c == 35);
}

TEST_CASE("Table 8: E_3, E_T and link bandwidth at 28 and 34 Gbps for RX LINK FIFO depths 512 to 4096") {
    struct Row {
        std::uint32_t depth;
        double e3, et, bw28, bw34;
    };
    const Row rows[] = {{512, 0.638, 0.595, 1666, 2023},
                        {1024, 0.841, 0.784, 2195, 2665},
                        {2048, 0.925, 0.862, 2414, 2931},
                        {4096, 0.964, 0.898, 2514, 3060}};
    for (const Row& r : rows) {
        CAPTURE(r.depth);
        const auto m = analytic::ApenetEfficiency::with_fifo(r.depth);
        CHECK(three(m.e3()) == r.e3);
        CHECK(printed_et(m, r.et));
        // Within 1 MB/s: the report truncates 2665.6 to 2665 but rounds 2930.8 to 2931.
        CHECK(std::abs(r.et * 2800 - r.bw28) <= 1);
        CHECK(m.bandwidth_MBps(28) == doctest::Approx(r.bw28).epsilon(0.002));
        // The 34 Gbps column from the library's model (line rate 34 Gbps, 8b10b).
        if (r.depth != 4096) {
            CHECK(std::abs(r.et * 3400 - r.bw34) <= 1);
            CHECK(m.bandwidth_MBps(34) == doctest::Approx(r.bw34).epsilon(0.002));
        }
    }
    // Not reproduced: the 34 Gbps cell of the 4096 row. The report prints 3060 MB/s;
    // the model gives 3052 (E_T 0.8975 unrounded), the printed E_T = 0.898 gives 3053.
    const auto deepest = analytic::ApenetEfficiency::with_fifo(4096);
    CHECK(std::round(deepest.bandwidth_MBps(34)) == 3052);
    CHECK(std::round(three(deepest.et()) * 3400) == 3053);
}

TEST_CASE("the cycle simulation of one link against the model (Table 8 depths)") {
    // Report parameters: C 35, L_R 35, L_L 20, T_RED = depth - 6, 4096-byte payloads.
    // Depths 1024 to 4096 agree with the model's E_T within 2% (relative).
    for (const std::uint32_t depth : {1024U, 2048U, 4096U}) {
        CAPTURE(depth);
        const auto sim = simulate_apenet_link(ApenetCredit::with_fifo(depth), 4096, 100000);
        CHECK(sim.efficiency == doctest::Approx(analytic::ApenetEfficiency::with_fifo(depth).et()).epsilon(0.02));
        CHECK(sim.result.out_of_order == 0);
    }
    // Not within 2% at depth 512: the simulation gives 0.629 against the model's 0.595
    // and the measured plateau of about 0.60. The model waits the worst case
    // W = L_T + C = 145 cycles after each packet; in the simulation each burst
    // starts when a Credit arrives, so the Credit covering the burst's last word
    // comes a whole number of 37-cycle Credit frames later: 407 cycles per
    // 4096-byte packet, a wait of 132 cycles.
    const auto sim = simulate_apenet_link(ApenetCredit::with_fifo(512), 4096, 100000);
    CHECK(sim.efficiency == doctest::Approx(256.0 / 407.0).epsilon(0.002));
    CHECK(sim.efficiency > analytic::ApenetEfficiency::with_fifo(512).et());
}
