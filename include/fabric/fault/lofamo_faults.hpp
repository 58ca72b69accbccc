// LO|FA|MO's settings and answers (the model is fault/lofamo.hpp): the watchdog
// and service-network timing, the faults one can inject, and how the Fault
// Supervisor learnt of each (the path of the report and when each stage passed).
//
// Paths to the master node's Fault Supervisor (Table 1):
//   link sick (CRC errors over threshold), link broken (no Credit before a
//   timeout), temperature / voltage / current past thresholds, DNP core sick
//       -> the DFM writes it into its DWR -> the HFM reads it -> service network
//   DNP breakdown -> the HFM finds the DWR still invalid -> service network
//   host breakdown, host faults, service-network loss -> the DFM finds the HWR
//       invalid (or reporting the fault) -> LiFaMa messages in the Credits of its
//       six links -> each neighbour DFM sets the neighbour bit in its DWR -> the
//       neighbour HFM reads it -> service network
//   host and DNP both dead -> the neighbours' links see no Credit -> link broken
//       at every neighbour -> their HFMs -> service network; the supervisor infers
//       the node is dead when every neighbour reports its link to it broken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/fault/lofamo_descriptors.hpp>

namespace fabric::lofamo {

/// LO|FA|MO's times. The report fixes the R/W timer's range (1 ms to 65 s), the
/// rule T_write < T_read, and gives SNET_MON_PING_TMOUT as "3 for example" (s);
/// every other value here is the library's own (ours), the report giving none.
struct Timing {
    double dnp_write = 500e3;      // DFM writes the DWR (us); the R/W TIMER: 1 ms to 65 s (ours: 0.5 s)
    double dnp_read = 1000e3;      // DFM reads and invalidates the HWR; the R/W TIMER too (ours: 1 s)
    double host_write = 500e3;     // HFM writes the HWR (ours)
    double host_read = 1000e3;     // HFM reads and invalidates the DWR (ours)
    double credit_timeout = 10;    // no Credit for this long: link broken (ours)
    double lifama = 1;             // a LiFaMa message in the next Credit, to the neighbour DFM (ours: an upper
                                   // bound of the 0.26 us the link's Credit frames give, lofamo_credits.hpp)
    double service_net = 100;      // a diagnostic message to the master over the service network (ours)
    double ping_period = 3e6;      // SNET_MON_PING_TMOUT: the report's example, 3 s
    double phase_step = 1e3;       // timer phase offset per node (ours)
    double crc_threshold = 1e-6;   // CRC errors per transferred byte above which a link is sick (ours: the
                                   // report's threshold is "programmable" and given no value)

    void validate() const {
        fabric::detail::require(dnp_write < dnp_read, "LO|FA|MO needs T_write < T_read on the DNP side; got ",
                                dnp_write, " and ", dnp_read, " us");
        fabric::detail::require(host_write < host_read, "LO|FA|MO needs T_write < T_read on the host side; got ",
                                host_write, " and ", host_read, " us");
        require_rw_timer("the DWR write period (dnp_write)", dnp_write);
        require_rw_timer("the HWR read period (dnp_read)", dnp_read);
        fabric::detail::require(dnp_write > 0 && host_write > 0 && credit_timeout > 0 && ping_period > 0,
                                "LO|FA|MO periods and timeouts must be positive");
        fabric::detail::require(dnp_read < 2 * host_write + host_read && host_read < 2 * dnp_write + dnp_read,
                                "LO|FA|MO timers too far apart: a reader must see a fresh write within two reads");
    }
};

enum class Fault : std::uint8_t {
    link_sick, link_broken, temperature, voltage, current, dnp_core_sick, dnp_breakdown, host_breakdown,
    host_memory, host_peripheral, host_and_dnp, service_net_loss
};

enum class Detector : std::uint8_t { dfm, hfm, neighbour_dfms };

/// How the Fault Supervisor learnt of one fault.
struct Awareness {
    Fault fault{};
    std::size_t node = 0;               // the faulty node
    Detector detector{};
    std::vector<std::string> path;      // hops of the information, in order
    std::vector<double> stage_times;    // when each hop completed (us), same order
    double injected_at = 0;
    double aware_at = 0;                // the master knows
    [[nodiscard]] double delay() const { return aware_at - injected_at; }
};

}  // namespace fabric::lofamo
