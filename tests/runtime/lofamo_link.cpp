// LO|FA|MO on the APEnet+ links (EURETILE 2012 report, vol. II): the registers of
// Tables 2 and 5, the R/W timer's range, LiFaMa messages in the Credit frames,
// and a sick link from the error rates of Table 16 and the CRC threshold.
#include <doctest/doctest.h>

#include <fabric/fault/lofamo.hpp>
#include <fabric/fault/lofamo_credits.hpp>
#include <fabric/fault/lofamo_descriptors.hpp>
#include <fabric/fault/lofamo_link_health.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/framing.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace unit_lofamo_link {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric::lofamo;

TEST_CASE("Table 2: the LO|FA|MO registers' numbers and BAR5 addresses") {
    CHECK(register_address(Register::remote_x_plus) == 0x44C);
    CHECK(register_address(Register::remote_x_minus) == 0x450);
    CHECK(register_address(Register::remote_y_plus) == 0x454);
    CHECK(register_address(Register::remote_y_minus) == 0x458);
    CHECK(register_address(Register::remote_z_plus) == 0x45C);
    CHECK(register_address(Register::remote_z_minus) == 0x460);
    CHECK(register_address(Register::timer) == 0x464);
    CHECK(register_address(Register::mask) == 0x468);
    CHECK(register_address(Register::thresholds) == 0x46C);
    CHECK(register_address(Register::dnp_watchdog) == 0x474);
    CHECK(register_address(Register::host_watchdog) == 0x478);
    CHECK(static_cast<int>(remote_fault_register(Direction::x_plus)) == 19);
    CHECK(static_cast<int>(remote_fault_register(Direction::z_minus)) == 24);
}

TEST_CASE("Table 5: a Remote Fault Descriptor per direction holds the last LiFaMa message from that neighbour") {
    RemoteFaultDescriptor rfd;
    for (std::size_t d = 0; d < directions; ++d) CHECK_FALSE(rfd.heard(static_cast<Direction>(d)));
    LifamaMessage m{.memory = Status::sick, .valid = true};
    rfd.file(Direction::y_minus, m);
    CHECK(rfd.heard(Direction::y_minus));
    CHECK(rfd.message(Direction::y_minus) == m);
    CHECK(rfd.read(Direction::y_minus) == ((1U << 2) | (1U << 31)));
    // Table 5's order: X+, X-, Y+, Y-, Z+, Z-: Y- is the fourth word.
    CHECK(rfd.table_order()[3] == m.encode());
    m.memory = Status::broken;
    rfd.file(Direction::y_minus, m);  // the next message replaces it
    CHECK(rfd.message(Direction::y_minus).memory == Status::broken);
}

TEST_CASE("the event model: a host's fault reaches each neighbour's Remote Fault Descriptor from its side") {
    System s({4, 2, 2});
    const std::size_t node = 5;
    s.inject(Fault::host_memory, node, 2.3e6);
    (void)s.run(10e6);
    for (const auto& [w, d] : s.neighbours(node)) {
        CAPTURE(w);
        const auto back = static_cast<Direction>(static_cast<std::uint8_t>(d) ^ 1U);
        const RemoteFaultDescriptor& rfd = s.remote_faults(w);
        REQUIRE(rfd.heard(back));
        CHECK(rfd.message(back).memory == Status::sick);
        CHECK(rfd.message(back).service_net == Status::normal);
    }
    CHECK_FALSE(s.remote_faults(node).heard(Direction::x_plus));
}

TEST_CASE("the R/W timer takes periods from 1 ms to 65 s (section 2.2)") {
    CHECK_NOTHROW(require_rw_timer("p", 1e3));
    CHECK_NOTHROW(require_rw_timer("p", 65e6));
    CHECK_THROWS_WITH_AS(require_rw_timer("p", 999), doctest::Contains("from 1 ms to 65 s"), config_error);
    CHECK_THROWS_AS(require_rw_timer("p", 65.001e6), config_error);
    Timing t;
    t.dnp_write = 500;  // 0.5 ms
    CHECK_THROWS_WITH_AS(System({4, 2, 2}, t), doctest::Contains("the DWR write period (dnp_write) is 500 us"),
                         config_error);
    Timing r;
    r.dnp_read = 70e6;
    r.host_read = 100e6;
    r.host_write = 50e6;
    CHECK_THROWS_WITH_AS(System({4, 2, 2}, r), doctest::Contains("the HWR read period (dnp_read)"), config_error);
    CHECK_NOTHROW(System({4, 2, 2}, Timing{}));
}

TEST_CASE("LiFaMa messages ride the Credit slots of the link's frames: one a Credit, L_R + L_L to arrive") {
    const ApenetCredit link;  // C = 35, L_R = 35, L_L = 20
    using F = cycle::Framing<ApenetCredit>;
    REQUIRE(F::ticks);
    REQUIRE(F::frame(link) == 37);
    // The next Credit slot is the kernel's next credit tick.
    for (std::uint64_t t = 0; t < 200; ++t) {
        std::uint64_t tick = t;
        while (!F::credit_tick(link, tick)) ++tick;
        CHECK(next_credit_slot(link, t) == tick);
        CHECK(lifama_arrival(link, t) == tick + 55);
        CHECK(lifama_arrival(link, t, 2) == tick + 2 * 37 + 55);
    }
    // Worst case: posted a cycle after a Credit left, 36 + 55 = 91 cycles, 0.26 us at 350 MHz.
    CHECK(lifama_worst_case_cycles(link) == 91);
    CHECK(lifama_worst_case_us(link) == doctest::Approx(0.26));
    CHECK(lifama_arrival(link, 36) - 36 == 91);
    // The event model's 1 us (the library's figure) is an upper bound of the link's.
    CHECK(lifama_worst_case_us(link) < Timing{}.lifama);
}

TEST_CASE("Table 16: every measured channel stays normal at the default CRC threshold, per byte or per packet") {
    for (const auto& row : table16) {
        CAPTURE(row.direction);
        CAPTURE(row.ber);
        // A 4096-byte packet covers 258 words: 258 x BER of them fail.
        CHECK(packet_error_probability(row.ber, 4096) == doctest::Approx(258 * row.ber).epsilon(1e-6));
        CHECK(crc_error_ratio(row.ber, 4096, CrcRatio::per_byte) < 1e-6);
        CHECK(crc_error_ratio(row.ber, 4096, CrcRatio::per_packet) < 1e-6);
        CHECK(std::isinf(time_to_sick_us(row.ber, 1666, 1e-6)));
    }
    // The worst (Z+ at 8.5 Gbps, < 7.04e-10) is 4.4e-11 CRC errors a byte: 23,000 times below 1e-6.
    CHECK(crc_error_ratio(7.04e-10, 4096, CrcRatio::per_byte) == doctest::Approx(258 * 7.04e-10 / 4160));
}

TEST_CASE("a sick link: errors counted against the threshold, the link marked sick, the supervisor told") {
    // Above the threshold: 1e-4 words in error, 4096-byte packets, 2.5% of them bad,
    // 6.2e-6 CRC errors a byte > 1e-6.
    const double ber = 1e-4;
    REQUIRE(crc_error_ratio(ber, 4096, CrcRatio::per_byte) > 1e-6);
    Random rng(11);
    LinkErrorCounter sick(1e-6), healthy(1e-6);
    for (int i = 0; i < 2000; ++i) {
        sick.count(4096, rng.chance(packet_error_probability(ber, 4096)));
        healthy.count(4096, rng.chance(packet_error_probability(7.04e-10, 4096)));
    }
    CHECK(sick.status() == Status::sick);
    CHECK(healthy.status() == Status::normal);
    CHECK(healthy.errors() == 0);
    // Judged only after 1 / threshold bytes: one early error does not make a link sick.
    LinkErrorCounter early(1e-6);
    early.count(4096, true);
    CHECK(early.status() == Status::normal);
    // Per packet at 1e-3: judged from the 1000th packet on; 10 errors in 999 are not judged yet.
    LinkErrorCounter per_packet(1e-3, CrcRatio::per_packet);
    for (int i = 0; i < 999; ++i) per_packet.count(4096, i % 100 == 0);
    CHECK(per_packet.errors() == 10);
    CHECK(per_packet.status() == Status::normal);
    per_packet.count(4096, false);
    CHECK(per_packet.status() == Status::sick);  // 10 / 1000 > 1e-3
    // The event model: judged after 1e6 bytes at 1666 bytes a us (Table 8's 1666 MB/s),
    // so sick 600 us after the errors start, and the supervisor hears of it by the DWR.
    System s({4, 2, 2});
    const double at = 2.3e6;
    const double turns = s.inject_bit_errors(5, Direction::x_plus, ber, 1666, at);
    CHECK(turns == doctest::Approx(at + 1e6 / 1666));
    CHECK(std::isinf(s.inject_bit_errors(6, Direction::y_plus, 7.04e-10, 1666, at)));
    const auto aware = s.run(10e6);
    REQUIRE(aware.size() == 1);
    CHECK(aware[0].fault == Fault::link_sick);
    CHECK(aware[0].node == 5);
    CHECK(aware[0].injected_at == doctest::Approx(turns));
    CHECK(aware[0].path.front() == "link CRC self-test -> DFM");
}

}  // namespace unit_lofamo_link
