// The cycle kernel set up for the PERCS hub: flit and cycle sizes from the link
// bandwidths, the hub's host interfaces and output buffering (PercsHubConfig), 2 KB
// packets; and the conversions between GB/s per node and flits per cycle.
#pragma once

#include <cstdint>

#include <boost/hana/at.hpp>

#include <fabric/sim/cycle.hpp>
#include <fabric/systems/percs.hpp>

namespace fabric {

/// Host Fabric Interfaces per hub: each injects through its own queue.
inline constexpr std::uint32_t percs_hfis_per_hub = 2;
/// Output buffering of the hub's router (ISR), per output virtual channel. The
/// paper says the ISR buffers at inputs and outputs but gives no sizes: two
/// packets is our assumption.
inline constexpr std::uint32_t percs_output_buffer_flits = 2 * percs_packet_flits;

/// The hub as the interconnect paper gives it (Arimilli et al., sections IV.C and
/// V), and what of it the cycle kernel runs. The ISR is "a 56 x 56 full crossbar
/// that operates at up to 3 GHz": 47 L and D ports (7 LL, 24 LR, 16 D), 8 ports to
/// the two HFIs and 1 service port; it "uses both input and output buffering".
/// The HFIs reach the POWER7 chips at 192 GB/s (both ways, like the paper's
/// combined link figures: 96 each way, the W links, PercsW) and have 40 GB/s for
/// I/O; links to chips against links to the network, 1 : 4.6.
///  - Ports: the topology's 48 port slots are the 47 network ports and the LL
///    self-loop; the HFI ports are the node's injection queues, one per HFI by
///    default (the kernel gives a node at most as many as its links have VCs: 3).
///  - Crossbar: under percs_cycle_config a crossbar port moves a 128-byte flit a
///    cycle (0.53 ns), 240 GB/s, ten times an LL link; the paper gives the clock,
///    not the width, and at 3 GHz any width of 8 bytes or more (24 GB/s) keeps up
///    with the fastest link, so the crossbar never binds (crossbar_binds()).
///  - Buffers: input VC buffers (the fabric's flow control) and output queues of
///    output_buffer_packets a VC; the paper gives no sizes: ours.
///  - HFI injection: the W links (PercsTopology::with_w_links), 96 GB/s each way.
struct PercsHubConfig {
    static constexpr std::uint32_t isr_ports = 56;
    static constexpr std::uint32_t network_ports = 47;  // 7 LL + 24 LR + 16 D
    static constexpr std::uint32_t hfi_ports = 8;
    static constexpr std::uint32_t service_ports = 1;
    static constexpr double crossbar_ghz = 3.0;         // "up to 3 GHz"
    static constexpr double chips_GBps = 192;            // to the POWER7 chips, both ways
    static constexpr double io_GBps = 40;                // general I/O

    std::uint32_t hfis = percs_hfis_per_hub;              // injection queues
    std::uint32_t output_buffer_packets = 2;              // per output VC: ours

    /// The paper's injection-to-network ratio: the links' combined bandwidths both
    /// ways (7 x 48 + 24 x 10 + 16 x 20 = 896 GB/s) over 192 GB/s, 4.67 ("1:4.6").
    template <class Topology>
    [[nodiscard]] static constexpr double network_to_injection(const Topology& t) {
        const double ll = boost::hana::at_c<Topology::LL>(t.links()).bandwidth().count;
        const double lr = boost::hana::at_c<Topology::LR>(t.links()).bandwidth().count;
        const double d = boost::hana::at_c<Topology::D>(t.links()).bandwidth().count;
        return 2 * (7 * ll + 24 * lr + 16 * d) / chips_GBps;
    }
    /// Whether a crossbar clocked at crossbar_ghz with a datapath of `width_bytes`
    /// is slower than the fastest link (LL) of `t`.
    template <class Topology>
    [[nodiscard]] static constexpr bool crossbar_binds(const Topology& t, double width_bytes) {
        return crossbar_ghz * width_bytes < boost::hana::at_c<Topology::LL>(t.links()).bandwidth().count;
    }
};

/// A cycle-kernel configuration for PERCS: a cycle is a tenth of an LL link's
/// flit time, so LL links take 10 cycles per 128-byte flit and LR and D links
/// their bandwidths' share (48 and 24 at 5 and 10 GB/s with a 24 GB/s LL link);
/// link latencies come from the link types. The hub (PercsHubConfig): its HFIs as
/// injection queues, output queues of its output_buffer_packets per output VC,
/// and messages split into packets of at most 2048 bytes. Change the returned
/// fields to study other hubs (output_buffer_flits = 0: input queued only).
inline CycleConfig percs_cycle_config(const PercsTopology& topo, const PercsHubConfig& hub, CycleConfig cfg = {}) {
    const double ll = boost::hana::at_c<PercsTopology::LL>(topo.links()).bandwidth().count;
    cfg.flit_bytes = percs_flit_bytes;
    cfg.cycle_ns = static_cast<double>(percs_flit_bytes) / ll / 10.0;
    cfg.injection_queues = hub.hfis;
    cfg.output_buffer_flits = hub.output_buffer_packets * percs_packet_flits;
    cfg.max_packet_flits = percs_packet_flits;
    return cfg;
}
/// The same with the default hub: two HFIs, output queues of two packets.
inline CycleConfig percs_cycle_config(const PercsTopology& topo, CycleConfig cfg = {}) {
    return percs_cycle_config(topo, PercsHubConfig{}, cfg);
}

/// Flits per cycle per node that `gbps` GB/s per node is, under percs_cycle_config.
inline double percs_flits_per_cycle(const PercsTopology& topo, double gbps) {
    return gbps * percs_cycle_config(topo).cycle_ns / percs_flit_bytes;
}

/// GB/s per node that `flits_per_cycle` flits per cycle per node is, under
/// percs_cycle_config: the inverse of percs_flits_per_cycle.
inline double percs_gbps(const PercsTopology& topo, double flits_per_cycle) {
    return flits_per_cycle * percs_flit_bytes / percs_cycle_config(topo).cycle_ns;
}

}  // namespace fabric
