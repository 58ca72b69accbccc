// The SCU link protocol and its machinery: idle receive, supervisor priority,
// parity resend and checksums, DMA descriptors, partitions refused, the window as
// a flow-control policy in the cycle kernel, partition interrupts.
#include <doctest/doctest.h>

#include "../support/sum_order.hpp"

#include <fabric/collective/scu_global.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/scu_link.hpp>

#include "../support/words.hpp"
#include <fabric/systems/qcdoc.hpp>
#include <fabric/topology/partition.hpp>

#include <numeric>
#include <vector>

namespace unit_qcdoc {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

using fabric_tests::contiguous;
using fabric_tests::words;

TEST_CASE("idle receive: a send started long before its receive, and one started long after, deliver the same") {
    const auto data = words(500, 77);
    const ScuLinkSim sim;
    const auto early = sim.transfer(data, contiguous(500), 500, contiguous(500), /*receive_posted=*/0);
    const auto late_receive = sim.transfer(data, contiguous(500), 500, contiguous(500), /*receive_posted=*/100000);
    CHECK(early.received == data);
    CHECK(late_receive.received == data);
    CHECK(late_receive.sender_checksum == late_receive.receiver_checksum);
    // The sender was held by the register: no more than the window in the air, and the
    // first word reached memory only when the receive was posted.
    CHECK(late_receive.max_unacknowledged == 3);
    CHECK(late_receive.first_word_cycles == 100000);
    // Once posted, the three held words land at once and the rest flow at the full
    // rate after one acknowledgement round trip (152 bit times) restarts the sender.
    const std::uint64_t rest = late_receive.last_word_cycles - late_receive.first_word_cycles;
    CHECK(rest >= (500 - 3) * 72);
    CHECK(rest <= (500 - 3) * 72 + 152);
}

TEST_CASE("supervisor packets go before normal data and raise an interrupt at the receiver") {
    const auto data = words(1000);
    const std::vector<SupervisorPacket> sup{{5000, 0xabcdef}, {20000, 0x1234}};
    const auto r = ScuLinkSim{}.transfer(data, contiguous(1000), 1000, contiguous(1000), 0, sup);
    REQUIRE(r.supervisor_arrivals.size() == 2);
    CHECK(r.supervisor_words == std::vector<std::uint64_t>{0xabcdef, 0x1234});
    for (std::size_t i = 0; i < 2; ++i) {
        // At most the word already on the wire, then its own 72 bits and the latency.
        CHECK(r.supervisor_arrivals[i] <= sup[i].cycle + 72 + 72 + 32);
        CHECK(r.supervisor_arrivals[i] >= sup[i].cycle + 72 + 32);
    }
    CHECK(r.received == data);
}

TEST_CASE("bit errors: every detected error is resent, the data arrive intact, the checksums agree") {
    const auto data = words(20000, 1000);
    const ScuLinkSim sim({}, {}, 5e-5, 11);
    const auto r = sim.transfer(data, contiguous(20000), 20000, contiguous(20000));
    REQUIRE(r.undetected_errors == 0);  // for this seed; see the next case for the other kind
    CHECK(r.detected_errors > 0);
    CHECK(r.resends == r.detected_errors);
    CHECK(r.received == data);
    CHECK(r.sender_checksum == r.receiver_checksum);
    // The resend rate matches the probability that a word has a detected error
    // (about 72 x BER), within 4 standard errors of a binomial count.
    const double p = sim.detected_error_probability();
    CHECK(p == doctest::Approx(72 * 5e-5).epsilon(0.05));
    const double expected = p * 20000, sigma = std::sqrt(expected);
    CHECK(std::abs(static_cast<double>(r.resends) - expected) <= 4 * sigma);
    // Each resend costs one word time on the link: bandwidth drops to N / (N + resends).
    const double clean = QcdocScu{}.bandwidth().megabytes_per_second();
    CHECK(r.link_MBps == doctest::Approx(clean * 20000.0 / (20000.0 + static_cast<double>(r.resends))).epsilon(0.01));
}

TEST_CASE("an error the parity cannot see shows at the end, when the checksums are compared") {
    const auto data = words(20000, 1000);
    const auto r = ScuLinkSim({}, {}, 1e-3, 3).transfer(data, contiguous(20000), 20000, contiguous(20000));
    REQUIRE(r.undetected_errors > 0);
    CHECK(r.received != data);
    CHECK(r.sender_checksum != r.receiver_checksum);
}

TEST_CASE("block-strided DMA: descriptors gather and scatter, and 24 stored transfers start with one write") {
    std::vector<std::uint64_t> memory(64);
    std::iota(memory.begin(), memory.end(), 0);
    // Gather 3 blocks of 2 words, stride 10, from word 5: 5 6 15 16 25 26.
    const DmaDescriptor send{5, 2, 10, 3};
    const DmaDescriptor receive{1, 3, 4, 2};  // scatter into 1 2 3, 5 6 7
    const auto r = ScuLinkSim{}.transfer(memory, send, 8, receive);
    CHECK(r.received == std::vector<std::uint64_t>{0, 5, 6, 15, 0, 16, 25, 26});
    DmaProgram program;
    for (std::size_t link = 0; link < 24; ++link) program.store(link, DmaDescriptor{link, 1, 1, 1});
    CHECK(program.stored() == 24);
    CHECK(program.start().size() == 24);
    CHECK_THROWS_WITH_AS(program.store(24, {}), doctest::Contains("links 0 to 23"), config_error);
    CHECK_THROWS_WITH_AS(ScuLinkSim{}.transfer(memory, DmaDescriptor{60, 2, 10, 3}, 8, receive),
                         doctest::Contains("past the end of a memory of 64 words"), config_error);
    CHECK_THROWS_WITH_AS(ScuLinkSim{}.transfer(memory, DmaDescriptor{0, 4, 2, 2}, 8, receive),
                         doctest::Contains("blocks overlap"), config_error);
    CHECK_THROWS_WITH_AS(ScuLinkSim{}.transfer(memory, send, 8, DmaDescriptor{0, 1, 1, 5}),
                         doctest::Contains("the send moves 6 words but the receive expects 5"), config_error);
}

TEST_CASE("the link at other clocks: 360, 420 and 450 MHz scale the rate and the latency") {
    const auto data = words(24);
    for (const double mhz : {360.0, 420.0, 450.0}) {
        const auto r = ScuLinkSim(QcdocScu(MHz{mhz})).transfer(data, contiguous(24), 24, contiguous(24));
        CHECK(r.first_word_ns == doctest::Approx(600.0 * 500 / mhz).epsilon(1e-6));
        CHECK(r.link_MBps == doctest::Approx(mhz / 8 * 64 / 72).epsilon(1e-6));
    }
}

TEST_CASE("partitions refused: a ring that cannot close, a dimension used twice or left out") {
    CHECK_THROWS_WITH_AS(Partition({4, 3}, {{0, 1}}), doctest::Contains("cannot close its ring"), config_error);
    CHECK_NOTHROW(Partition({3, 4}, {{0, 1}}));
    CHECK_THROWS_WITH_AS(Partition({8, 4}, {{0}, {0}}), doctest::Contains("used twice"), config_error);
    CHECK_THROWS_WITH_AS(Partition({8, 4, 2}, {{0}, {1}}), doctest::Contains("belongs to no logical dimension"),
                         config_error);
    CHECK_THROWS_WITH_AS(Partition::fold({8, 4}, 3), doctest::Contains("folds into 1 to 2 dimensions"), config_error);
    const auto p = Partition::fold({8, 4, 4, 2, 2, 2}, 4);
    CHECK(p.extents() == std::vector<std::uint32_t>{8, 4, 4, 8});
    CHECK(p.describe() == "8x4x4x2x2x2 -> 8x4x4x8");
}

TEST_CASE("the global sum adds in one fixed order: dimension by dimension, each ring from coordinate 0") {
    const std::vector<std::uint32_t> part{4, 2, 3};
    const std::vector<double> values = fabric_tests::order_revealing_values(24);
    // The order worked by hand, as nested loops.
    const double z_sum = fabric_tests::ring_order_sum(4, 2, 3, values);
    for (const bool doubled : {false, true}) {
        CAPTURE(doubled);
        CHECK(ScuGlobalSum(doubled).reduce(part, values) == z_sum);  // bit for bit
    }
    // Ring 0 loses its three ones, the others keep theirs: 20 of the exact 22. Left to
    // right, every one is lost: 0. The check above tells the orders apart.
    CHECK(z_sum == 20.0);
    CHECK(std::accumulate(values.begin(), values.end(), 0.0) == 0.0);
}

TEST_CASE("partition interrupts reach every node once within the global clock's window") {
    const QcdocScu link;
    const auto r = partition_interrupt({8, 4, 4, 2, 2, 2}, 17, 1000, link);
    CHECK(r.forwards == 1024);                // each node forwards once
    CHECK(r.packets == 1024 * (2 + 2 + 2 + 1 + 1 + 1));
    CHECK(r.cycles == 11 * (8 + 32));         // the machine's diameter in 8-bit hops
    CHECK(r.within_window);
    CHECK_FALSE(partition_interrupt({8, 4, 4, 2, 2, 2}, 17, 400, link).within_window);
}

TEST_CASE("the acknowledgement window as a flow-control policy: the cycle kernel sees the same three in the air") {
    // Every node sends to its +x neighbour as fast as it can, word by word (8-byte
    // flits, 2 ns cycles at 500 MHz, so 72 cycles per word on the wire).
    const QcdocTorus topo({4, 2, 2, 2, 2, 2});
    std::vector<double> accepted;
    for (std::uint32_t w = 1; w <= 3; ++w) {
        const QcdocFabric net{topo, NearestNeighbour{}, qcdoc_ack_window(topo.link(), w)};
        CycleConfig cfg;
        cfg.cycle_ns = 2.0;
        cfg.flit_bytes = 8;
        cfg.warmup = 2000;
        cfg.measure = 20000;
        std::vector<double> m(topo.node_count() * topo.node_count(), 0.0);
        for (std::uint32_t v = 0; v < topo.node_count(); ++v) {
            auto c = topo.coord(NodeId{v});
            c[0] = (c[0] + 1) % 4;
            m[v * topo.node_count() + topo.node(c).value] = 1.0;
        }
        const auto run = simulate_cycles(net, TrafficMatrix(topo.node_count(), m), 1.0 / 72 * 1.2,
                                         PacketSizes::fixed(1), cfg);
        accepted.push_back(run.accepted);
    }
    const double full = 1.0 / 72;
    CHECK(accepted[2] == doctest::Approx(full).epsilon(0.02));
    CHECK(accepted[1] < 0.97 * full);
    CHECK(accepted[0] < 0.5 * full);
}

}  // namespace unit_qcdoc
