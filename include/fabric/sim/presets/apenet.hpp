// The cycle kernel set up for APEnet+: one saturated link between two DNPs under
// the LINK CTRL's credit protocol (the report's Table 8 measured by simulation).
#pragma once

#include <concepts>
#include <cstdint>

#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/systems/apenet.hpp>

namespace fabric {

struct ApenetLinkRun {
    double efficiency = 0;        // payload words per link cycle, of 1
    double link_words_per_cycle = 0;
    CycleResult result;
};

/// One saturated APEnet+ link in the cycle kernel: two DNPs joined by one link,
/// the first sending packets of `payload_bytes` to the second as fast as the
/// protocol lets it. Cycles are LINK CTRL cycles (one 16-byte word per cycle);
/// a word's flight is L_R + L_L. A template (of ApenetCredit alone) so that only
/// the translation units that call it compile its simulator.
template <std::same_as<ApenetCredit> Protocol>
ApenetLinkRun simulate_apenet_link(const Protocol& protocol, std::uint32_t payload_bytes = 4096,
                                   std::uint64_t cycles = 200000) {
    using Pair = Mesh<1, ApenetLink>;
    const Fabric<Pair, DorTieSplit<Dateline>, Protocol> link{Pair({2}), {}, protocol};
    CycleConfig cfg;
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
