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
#include <fabric/sim/analytic/apenet_host.hpp>
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
    // bandwidth (2.8 GB/s at its peak; the next test cases) and the link's E_T x
    // BW_L^MAX; the link's side is what the model and the kernel give. Its plateau, from 4 KB
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

TEST_CASE("Figs. 12-13, the host side: the link held to the host read (2.8 GB/s), the overlap up to 8-32 KB") {
    // "if the host read bandwidth (BW_H) is less than the link maximum bandwidth
    // BW_L^MAX then the BW_L = BW_H" (3.1.1.1); the host read peaks at 2.8 GB/s (Table
    // 12); "The Link Bandwidth BW_L overlaps the Host Read Bandwidth BW_H^READ until
    // message size of 8KB-32KB, depending of the operating frequency" (Fig. 12).
    const auto link = analytic::ApenetEfficiency::with_fifo(512);
    const analytic::ApenetHostRead host;
    host.validate();
    // The half size the report's window allows: 10.84 to 12.32 KiB; ours inside it.
    const auto [low, high] = analytic::ApenetHostRead::half_size_range(link);
    CHECK(low == doctest::Approx(8192.0 * (2800 - link.bandwidth_MBps(20)) / link.bandwidth_MBps(20)));
    CHECK(low / 1024 == doctest::Approx(10.84).epsilon(0.001));
    CHECK(high / 1024 == doctest::Approx(12.32).epsilon(0.001));
    CHECK(host.half_bytes > low);
    CHECK(host.half_bytes < high);
    // At each line rate the two curves cross inside the window, later the faster the
    // link (20 Gbps first, 34 last); below the crossover the link carries what the
    // host reads (the overlap), above it the link binds, at its plateau 0.595 BW_L^MAX.
    double previous = 0;
    for (const double gbps : {20.0, 24.0, 28.0, 34.0}) {
        CAPTURE(gbps);
        const double plateau = link.bandwidth_MBps(gbps);
        const double cross = host.crossover_bytes(plateau);
        MESSAGE(gbps, " Gbps: plateau ", plateau, " MB/s, host read reaches it at ", cross / 1024, " KiB");
        CHECK(cross >= 8192);
        CHECK(cross <= 32768);
        CHECK(cross > previous);
        previous = cross;
        for (std::uint64_t m = 64; m <= (std::uint64_t{1} << 22); m *= 2) {
            CAPTURE(m);
            const double p2p = analytic::apenet_point_to_point_MBps(link, host, m, gbps);
            CHECK(p2p <= 2800);
            CHECK(p2p <= link.for_message(m).bandwidth_MBps(gbps) * (1 + 1e-12));
            if (static_cast<double>(m) < cross) CHECK(p2p == doctest::Approx(host.bandwidth_MBps(static_cast<double>(m))));
            if (static_cast<double>(m) > cross) CHECK(p2p == doctest::Approx(plateau));
        }
    }
    // Fig. 13 at 28 Gbps: large messages at the link's plateau, 1666 MB/s, "about 60%".
    CHECK(analytic::apenet_point_to_point_MBps(link, host, 1 << 20, 28) == doctest::Approx(1666).epsilon(0.001));
}

TEST_CASE("3.1.1.1's outlook: deeper FIFOs against the host read (2650 MB/s, ~5% below it; 2200 at 350 MHz)") {
    const analytic::ApenetHostRead host;
    // "FIFOs 2 times larger (16 KB)" (depth 1024) at 425 MHz: "a maximum link bandwidth
    // of 2650 MB/s, with a loss of ~5% compared to the host read bandwidth". The model:
    // 2664 MB/s (Table 8 prints 2665, from its rounded E_T 0.784), 4.9% below 2.8 GB/s;
    // the report's 2650 is 5.4% below.
    const auto twice = analytic::ApenetEfficiency::with_fifo(1024);
    CHECK(std::round(twice.bandwidth_MBps(34)) == 2664);
    CHECK(1 - twice.bandwidth_MBps(34) / 2800 == doctest::Approx(0.05).epsilon(0.1));
    CHECK(1 - 2650.0 / 2800 == doctest::Approx(0.05).epsilon(0.1));
    CHECK(analytic::apenet_point_to_point_MBps(twice, host, 1 << 22, 34) == doctest::Approx(twice.bandwidth_MBps(34)));
    // "at 350 MHz the maximum achievable bandwidth is 2200 GB/s" (MB/s): 2195.
    CHECK(twice.bandwidth_MBps(28) == doctest::Approx(2200).epsilon(0.003));
    // "quadruple (or even make 8 times greater) the RX LINK FIFO ... the maximum link
    // bandwidth becomes larger than host read bandwidth and the transmission protocol
    // does not slow down the data transfer": at 34 Gbps, depths 2048 and 4096 give
    // 2931 and 3052 MB/s, so every message goes at the host read.
    for (const std::uint32_t depth : {2048U, 4096U}) {
        CAPTURE(depth);
        const auto deep = analytic::ApenetEfficiency::with_fifo(depth);
        CHECK(deep.bandwidth_MBps(34) > 2800);
        for (std::uint64_t m = 4096; m <= (std::uint64_t{1} << 22); m *= 2)
            CHECK(analytic::apenet_point_to_point_MBps(deep, host, m, 34) ==
                  doctest::Approx(host.bandwidth_MBps(static_cast<double>(m))));
    }
}

TEST_CASE("Fig. 13's link side: why the kernel sits 4-9% above the model (whole Credit frames, not the worst wait)") {
    // The model adds, after each burst of k packets (k S payload words below T_RED),
    // the worst wait W = L_T + C = 145 cycles. The LINK CTRL as the kernel runs it
    // resumes at the first Credit that accounts for the burst's last word: Credits
    // leave every C + 2 = 37 cycles, so a burst and its wait take a whole number of
    // frames, ceil((B x 37 / 35 + L_T) / 37), B = k (S + 4) words on the link (a
    // packet's header, footer, Magic and Start), L_T = 2 L_R + 2 L_L = 110. From 512 B
    // packets on that closed form is the kernel's efficiency to 0.05%: 4 KB, 256 of
    // 407 cycles (11 frames); 2 KB, 3 packets in 555 (15); 1 KB, 7 in 629 (17); 512 B,
    // 14 in 666 (18). Below that a burst of 25 or more packets outlasts the round trip,
    // Credits arriving during it let the sender on past T_RED words a stop, and the
    // kernel beats the whole-frame form too (256 B: 0.637 against 0.601).
    const auto model = analytic::ApenetEfficiency::with_fifo(512);
    for (const std::uint32_t m : {64U, 128U, 256U, 512U, 1024U, 2048U, 4096U}) {
        CAPTURE(m);
        const double S = m / 16.0, words = S + 4;
        const double k = std::floor(506 / words), B = k * words;
        const double frames = std::ceil((B * 37 / 35 + 110) / 37);
        const double whole_frames = k * S / (37 * frames);
        const double sim = simulate_apenet_link(ApenetCredit::with_fifo(512), m, 100000).efficiency;
        CHECK(sim > model.for_message(m).et());
        if (m >= 512) CHECK(sim == doctest::Approx(whole_frames).epsilon(0.0005));
        else CHECK(sim > whole_frames * 1.01);
    }
}

}  // namespace unit_apenet
