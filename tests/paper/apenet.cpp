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

namespace unit_apenet {  // the unit's own names: tests/CMakeLists.txt builds units in batches

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

TEST_CASE("Fig. 13, the link's side: bandwidth against message size at 28 Gbps, model and cycle kernel") {
    // The report's figure is the point-to-point bandwidth held below the host read
    // bandwidth (Fig. 12, no numbers in the text) and the link's E_T x BW_L^MAX; the
    // link's side is what the model and the kernel give. Its plateau, from 4 KB
    // messages on (cut into 4096-byte packets): E_T = 0.595, 1666 MB/s (Table 8),
    // "a plateau at 60%" measured.
    const auto model = analytic::ApenetEfficiency::with_fifo(512);
    for (const std::uint64_t m : {4096ULL, 32768ULL, 1ULL << 20}) {
        CAPTURE(m);
        CHECK(model.for_message(m).et() == doctest::Approx(model.et()));
        CHECK(model.for_message(m).bandwidth_MBps(28) == doctest::Approx(1666).epsilon(0.001));
        CHECK(model.for_message(m).et() == doctest::Approx(0.60).epsilon(0.01));
    }
    // Below 4 KB a message is one packet: E_1 = m / (m + 64).
    for (const std::uint32_t m : {64U, 256U, 1024U})
        CHECK(model.for_message(m).e1() == doctest::Approx(m / (m + 64.0)));
    // The kernel, one packet a message up to 4 KB, against the model. Not within 2%:
    // the kernel is 4% to 9% above it at every size (0.629 against 0.595 at 4 KB),
    // for the reason of the depth-512 case above (a burst starts when a Credit
    // arrives, so its wait is whole Credit frames, shorter than the model's worst
    // case W = L_T + C). Both peak at 1 KB packets, where up to 7 fit below T_RED.
    double best_model = 0, best_sim = 0;
    std::uint32_t at_model = 0, at_sim = 0;
    for (const std::uint32_t m : {64U, 256U, 1024U, 2048U, 4096U}) {
        CAPTURE(m);
        const double et = model.for_message(m).et();
        const double sim = simulate_apenet_link(ApenetCredit::with_fifo(512), m, 100000).efficiency;
        CHECK(sim > et);
        CHECK(sim < 1.10 * et);
        if (et > best_model) best_model = et, at_model = m;
        if (sim > best_sim) best_sim = sim, at_sim = m;
    }
    CHECK(at_model == 1024);
    CHECK(at_sim == 1024);
}

}  // namespace unit_apenet
