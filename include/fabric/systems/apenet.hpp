// APEnet+ (EURETILE 2012 report, vol. II): a 3-D torus of DNPs, six 4-lane links
// each, two virtual channels per link and dimension-order routing with a dateline,
// links driven by the threshold-credit protocol. QUonG, the report's test system,
// is 4 x 2 x 2.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <fabric/composition.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

namespace fabric {

/// The APEnet+ machine type: `ApenetTorus{{4, 2, 2}}`.
using ApenetTorus = Torus<3, ApenetLink>;

/// The APEnet+ fabric.
using ApenetFabric = Fabric<ApenetTorus, DorTieSplit<Dateline>, ApenetCredit>;

/// Extents of the QUonG system.
inline constexpr std::array<long long, 3> quong_extents{4, 2, 2};

/// APEnet+ packets in 16-byte words: header, payload, footer.
constexpr std::uint32_t apenet_packet_words(std::uint32_t payload_bytes) {
    return 2 + (payload_bytes + 15) / 16;
}

struct ApenetLinkRun {
    double efficiency = 0;        // payload words per link cycle, of 1
    double link_words_per_cycle = 0;
    CycleResult result;
};

/// One saturated APEnet+ link in the cycle kernel: two DNPs joined by one link,
/// the first sending packets of `payload_bytes` to the second as fast as the
/// protocol lets it. Cycles are LINK CTRL cycles (one 16-byte word per cycle);
/// a word's flight is L_R + L_L.
inline ApenetLinkRun simulate_apenet_link(const ApenetCredit& protocol, std::uint32_t payload_bytes = 4096,
                                          std::uint64_t cycles = 200000) {
    using Pair = Mesh<1, ApenetLink>;
    const Fabric<Pair, DorTieSplit<Dateline>, ApenetCredit> link{Pair({2}), {}, protocol};
    CycleConfig cfg;
    cfg.progress = false;
    cfg.pipeline = {0, 0, 1, 0};  // the DNP's router adds a cycle; the link protocol dominates
    cfg.link_latency = protocol.remote_latency + protocol.local_latency;
    cfg.warmup = cycles / 10;
    cfg.measure = cycles;
    cfg.drain_limit = 1;  // saturated on purpose: no drain wanted
    const std::uint32_t words = apenet_packet_words(payload_bytes);
    // Node 0 offers more than one word per cycle to node 1; node 1 sends nothing.
    const TrafficMatrix one_way(2, {0.0, 1.0, 0.0, 0.0});
    ApenetLinkRun run;
    run.result = simulate_cycles(link, one_way, 1.0, PacketSizes::fixed(words), cfg);
    run.link_words_per_cycle = run.result.accepted * 2;  // accepted is per node: two nodes
    run.efficiency = run.link_words_per_cycle * (words - 2) / words;
    return run;
}

}  // namespace fabric
