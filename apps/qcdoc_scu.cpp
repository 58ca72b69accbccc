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

struct Settings : fabric_apps::Common {
    std::uint64_t words = 24;      // words to transfer
    std::uint32_t in_flight = 3;   // words in the air before an acknowledgement
    double clock_mhz = 500.0;
    double ber = 0.0;              // bit error rate of the link
    std::uint64_t seed = 1;

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::words, "--words", "words to transfer", at_least<std::uint64_t>(1)),
            option<S>(&S::in_flight, "--in-flight", "words in the air before an acknowledgement (the SCU's window)",
                      at_least<std::uint32_t>(1)).also("--window"),
            option<S>(&S::clock_mhz, "--clock-mhz", "link clock, MHz", within(0.0, 1e6, true)),
            option<S>(&S::ber, "--ber", "bit error rate of the link (ScuLinkSim's: below 1%)", within(0.0, 0.01, false, true)),
            seed_option<S>(&S::seed, "seed of the bit errors").with("--ber"),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

int transfer(const Settings& s, fabric_apps::OutputFile& out) {
    detail::require(s.words >= 1, "--words must be at least 1");
    detail::require(s.in_flight >= 1, "--in-flight must be at least 1");
    // Measured: about 18 bytes a word (the data sent and the data received).
    fabric_apps::check(fabric_apps::Cost()
                           .add("words", static_cast<double>(s.words), 300)
                           .need("words sent and received, about 20 bytes each", 20 * static_cast<double>(s.words)));
    ScuTiming timing;
    timing.window = s.in_flight;
    const QcdocScu link(MHz{s.clock_mhz});
    const ScuLinkSim sim(link, timing, s.ber, s.seed);
    std::vector<std::uint64_t> data(s.words);
    std::iota(data.begin(), data.end(), std::uint64_t{0x1000});
    const DmaDescriptor all{0, data.size(), data.size(), 1};
    const auto r = sim.transfer(data, all, data.size(), all);
    const double node_GBps = QcdocScu::links_per_node * r.link_MBps / 1e3;
    const bool intact = r.received == data, agree = r.sender_checksum == r.receiver_checksum;
    if (s.format == "json") {
        fabric_apps::write_json(out.stream(), nlohmann::json{{"words", s.words}, {"window", s.in_flight}, {"clock_mhz", s.clock_mhz},
                                    {"first_word_ns", r.first_word_ns}, {"transfer_ns", r.transfer_ns},
                                    {"link_MBps", r.link_MBps}, {"node_GBps", node_GBps}, {"resends", r.resends},
                                    {"undetected_errors", r.undetected_errors}, {"checksums_agree", agree},
                                    {"data_intact", intact}});
        return 0;
    }
    out.printf("%llu words, window %u, %.0f MHz\n", static_cast<unsigned long long>(s.words), s.in_flight, s.clock_mhz);
    out.printf("  first word in memory   %10.1f ns\n", r.first_word_ns);
    out.printf("  last word in memory    %10.1f ns (%.1f ns after the first)\n", r.transfer_ns,
                r.transfer_ns - r.first_word_ns);
    out.printf("  link payload rate      %10.2f MB/s\n", r.link_MBps);
    out.printf("  node, 24 links         %10.3f GB/s\n", node_GBps);
    out.printf("  resends %llu, checksums %s, data %s\n", static_cast<unsigned long long>(r.resends),
                agree ? "agree" : "DIFFER", intact ? "intact" : "CORRUPT");
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(argc, argv, "qcdoc_scu",
                                           "one transfer over a QCDOC SCU link, word by word (Boyle et al.).", transfer);
}
