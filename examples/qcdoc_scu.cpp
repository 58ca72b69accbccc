// One nearest-neighbour transfer over a QCDOC SCU link, word by word.
//
//   qcdoc_scu --words N [--window W] [--clock-mhz F] [--ber B] [--seed S] [--json]
//
// Prints the time to the first word in the receiver's memory, to the last, the
// link's payload rate, and the node's rate with all 24 links busy alike.
#include <fabric/sim/scu_link.hpp>

#include "common/cli.hpp"

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char** argv) {
    using namespace fabric;
    const fabric_examples::Cli cli(argc, argv, {"words", "window", "clock-mhz", "ber", "seed"}, {"json"},
                                   "usage: qcdoc_scu --words N [--window W] [--clock-mhz F] [--ber B] [--seed S] "
                                   "[--json]\n");
    try {
        const long long n = cli.integer("words");
        if (n < 1) cli.fail("--words must be at least 1");
        ScuTiming timing;
        const long long window = cli.integer("window", 3);
        if (window < 1) cli.fail("--window must be at least 1");
        timing.window = static_cast<std::uint32_t>(window);
        const QcdocScu link(MHz{cli.number("clock-mhz", 500.0)});
        const ScuLinkSim sim(link, timing, cli.number("ber", 0.0), static_cast<std::uint64_t>(cli.integer("seed", 1)));
        std::vector<std::uint64_t> data(static_cast<std::size_t>(n));
        std::iota(data.begin(), data.end(), std::uint64_t{0x1000});
        const DmaDescriptor all{0, data.size(), data.size(), 1};
        const auto r = sim.transfer(data, all, data.size(), all);
        // Rate over the whole transfer after the first word (the steady rate).
        const double node_GBps = QcdocScu::links_per_node * r.link_MBps / 1e3;
        const bool intact = r.received == data;
        if (cli.flag("json")) {
            std::printf("{\"words\": %lld, \"window\": %lld, \"clock_mhz\": %.1f, \"first_word_ns\": %.3f, "
                        "\"transfer_ns\": %.3f, \"link_MBps\": %.4f, \"node_GBps\": %.5f, \"resends\": %llu, "
                        "\"undetected_errors\": %llu, \"checksums_agree\": %s, \"data_intact\": %s}\n",
                        n, window, link.clock().count, r.first_word_ns, r.transfer_ns, r.link_MBps, node_GBps,
                        static_cast<unsigned long long>(r.resends), static_cast<unsigned long long>(r.undetected_errors),
                        r.sender_checksum == r.receiver_checksum ? "true" : "false", intact ? "true" : "false");
        } else {
            std::printf("%lld words, window %lld, %.0f MHz\n", n, window, link.clock().count);
            std::printf("  first word in memory   %10.1f ns\n", r.first_word_ns);
            std::printf("  last word in memory    %10.1f ns (%.1f ns after the first)\n", r.transfer_ns,
                        r.transfer_ns - r.first_word_ns);
            std::printf("  link payload rate      %10.2f MB/s\n", r.link_MBps);
            std::printf("  node, 24 links         %10.3f GB/s\n", node_GBps);
            std::printf("  resends %llu, checksums %s, data %s\n", static_cast<unsigned long long>(r.resends),
                        r.sender_checksum == r.receiver_checksum ? "agree" : "DIFFER", intact ? "intact" : "CORRUPT");
        }
    } catch (const config_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
