// One nearest-neighbour transfer over a QCDOC SCU link, word by word: the time to
// the first word in the receiver's memory, to the last, the link's payload rate,
// and the node's rate with all 24 links busy alike. Options and configuration
// files: apps/common/tool.hpp.
#include <cstdio>
#include <iostream>
#include <numeric>
#include <vector>

#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/sim/scu_link.hpp>

#include "common/tool.hpp"

namespace {
using namespace fabric;

struct Settings {
    std::uint64_t words = 24;      // words to transfer
    std::uint32_t window = 3;      // words in the air before an acknowledgement
    double clock_mhz = 500.0;
    double ber = 0.0;              // bit error rate of the link
    std::uint64_t seed = 1;
    bool json = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Settings, words, window, clock_mhz, ber, seed, json)

int transfer(const Settings& s) {
    detail::require(s.words >= 1, "--words must be at least 1");
    detail::require(s.window >= 1, "--window must be at least 1");
    fabric_apps::check_work(static_cast<double>(s.words), "words", 5e6);
    // Measured: about 18 bytes a word (the data sent and the data received).
    fabric_apps::check_memory(20 * static_cast<double>(s.words), "words sent and received, about 20 bytes each");
    ScuTiming timing;
    timing.window = s.window;
    const QcdocScu link(MHz{s.clock_mhz});
    const ScuLinkSim sim(link, timing, s.ber, s.seed);
    std::vector<std::uint64_t> data(s.words);
    std::iota(data.begin(), data.end(), std::uint64_t{0x1000});
    const DmaDescriptor all{0, data.size(), data.size(), 1};
    const auto r = sim.transfer(data, all, data.size(), all);
    const double node_GBps = QcdocScu::links_per_node * r.link_MBps / 1e3;
    const bool intact = r.received == data, agree = r.sender_checksum == r.receiver_checksum;
    if (s.json) {
        std::cout << nlohmann::json{{"words", s.words}, {"window", s.window}, {"clock_mhz", s.clock_mhz},
                                    {"first_word_ns", r.first_word_ns}, {"transfer_ns", r.transfer_ns},
                                    {"link_MBps", r.link_MBps}, {"node_GBps", node_GBps}, {"resends", r.resends},
                                    {"undetected_errors", r.undetected_errors}, {"checksums_agree", agree},
                                    {"data_intact", intact}}
                         .dump(1)
                  << '\n';
        return 0;
    }
    std::printf("%llu words, window %u, %.0f MHz\n", static_cast<unsigned long long>(s.words), s.window, s.clock_mhz);
    std::printf("  first word in memory   %10.1f ns\n", r.first_word_ns);
    std::printf("  last word in memory    %10.1f ns (%.1f ns after the first)\n", r.transfer_ns,
                r.transfer_ns - r.first_word_ns);
    std::printf("  link payload rate      %10.2f MB/s\n", r.link_MBps);
    std::printf("  node, 24 links         %10.3f GB/s\n", node_GBps);
    std::printf("  resends %llu, checksums %s, data %s\n", static_cast<unsigned long long>(r.resends),
                agree ? "agree" : "DIFFER", intact ? "intact" : "CORRUPT");
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "qcdoc_scu", "one transfer over a QCDOC SCU link, word by word (Boyle et al.).",
        [](CLI::App& app, Settings& s) {
            app.add_option("--words", s.words, "words to transfer")->check(fabric_apps::at_least<std::uint64_t>(1))->capture_default_str();
            app.add_option("--window", s.window, "words in the air before an acknowledgement")->check(fabric_apps::at_least<std::uint32_t>(1))->capture_default_str();
            app.add_option("--clock-mhz", s.clock_mhz, "link clock, MHz")->check(fabric_apps::within(0.0, 1e6, true))->capture_default_str();
            app.add_option("--ber", s.ber, "bit error rate of the link")->check(fabric_apps::within(0.0, 0.01))->capture_default_str();
            app.add_option("--seed", s.seed, "seed of the bit errors")->check(fabric_apps::any_seed())->capture_default_str();
            app.add_flag("--json", s.json, "JSON output");
        },
        transfer);
}
