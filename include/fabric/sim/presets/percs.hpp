// The cycle kernel set up for the PERCS hub: flit and cycle sizes from the link
// bandwidths, two host interfaces, output buffering, 2 KB packets; and the
// conversions between GB/s per node and flits per cycle under that setup.
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

/// A cycle-kernel configuration for PERCS: a cycle is a tenth of an LL link's
/// flit time, so LL links take 10 cycles per 128-byte flit and LR and D links
/// their bandwidths' share (48 and 24 at 5 and 10 GB/s with a 24 GB/s LL link);
/// link latencies come from the link types. The hub: two HFIs (injection
/// queues), output queues of percs_output_buffer_flits per output VC, and
/// messages split into packets of at most 2048 bytes. Change the returned
/// fields to study other hubs (output_buffer_flits = 0: input queued only).
inline CycleConfig percs_cycle_config(const PercsTopology& topo, CycleConfig cfg = {}) {
    const double ll = boost::hana::at_c<PercsTopology::LL>(topo.links()).bandwidth().count;
    cfg.flit_bytes = percs_flit_bytes;
    cfg.cycle_ns = static_cast<double>(percs_flit_bytes) / ll / 10.0;
    cfg.injection_queues = percs_hfis_per_hub;
    cfg.output_buffer_flits = percs_output_buffer_flits;
    cfg.max_packet_flits = percs_packet_flits;
    return cfg;
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
