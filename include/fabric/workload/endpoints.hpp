// Endpoints: what a rank's host adds around the network, as LogGP (Alexandrov et
// al. 1995) and LogGOPSim (Hoefler et al. 2010) model it, with what collectives
// need beside, with LogGOPSim's charges: a send starts when its rank's CPU and its
// rail are free, takes the CPU for o + (s - 1) O cycles and enters the network o
// after it starts; a delivered message is taken in when the receiver's CPU and
// rail are free, for o + (s - 1) max(O, G) cycles of CPU, and completes then; a
// rail starting a send or a receive waits g + (s - 1) G before the next (s: the
// message's bytes); a reduction costs gamma cycles a byte (the
// collectives' compute nodes); a message above the eager limit goes by rendezvous
// (a one-flit request to send, a one-flit clear to send back, then the data); a
// compute node takes its cycles times its rank's slowdown (stragglers), plus up to
// `jitter` of them more, drawn per node from the run's seed (the same draw whatever
// the order nodes run in, and at every rank of a partitioned run). The default
// endpoints add nothing: the network alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>

namespace fabric::workload {

struct Endpoints {
    std::uint64_t send_overhead = 0;     // o at the sender, cycles
    std::uint64_t receive_overhead = 0;  // o at the receiver, cycles
    double overhead_per_byte = 0;        // O, cycles a byte at both ends
    std::uint64_t gap = 0;               // g, cycles between a rail's injections
    double gap_per_byte = 0;             // G, cycles a byte after the first
    double reduce_per_byte = 0;          // gamma, a reduction's cycles a byte
    std::uint64_t eager_limit = std::numeric_limits<std::uint64_t>::max();  // bytes; above: rendezvous
    double jitter = 0;                   // a compute node takes up to this fraction of its cycles more
    std::vector<double> slowdown;        // per rank, a factor on its compute (empty: 1 everywhere)

    /// LogGP's o (both ends) and g, in cycles.
    static Endpoints loggp(std::uint64_t o, std::uint64_t g) {
        Endpoints e;
        e.send_overhead = e.receive_overhead = o;
        e.gap = g;
        return e;
    }

    void validate(std::uint32_t ranks) const {
        for (const double x : {overhead_per_byte, gap_per_byte, reduce_per_byte, jitter})
            fabric::detail::require(std::isfinite(x) && x >= 0 && x < 1e12, "endpoints: the per-byte costs and the jitter "
                            "must be finite and at least 0; got ", x);
        fabric::detail::require(slowdown.empty() || slowdown.size() == ranks, "endpoints: give a slowdown for each of the ",
                        ranks, " ranks, or none; got ", slowdown.size());
        for (const double s : slowdown)
            fabric::detail::require(std::isfinite(s) && s > 0 && s < 1e12, "endpoints: a rank's slowdown must be above 0; "
                            "got ", s);
        for (const std::uint64_t c : {send_overhead, receive_overhead, gap})
            fabric::detail::require(c < (std::uint64_t{1} << 50), "endpoints: overheads and gaps must be below 2^50 cycles");
    }

    /// The sender's CPU time for a message of `bytes` (LogGOPSim: o + (s - 1) O); it enters the network o after it starts.
    [[nodiscard]] std::uint64_t send_cycles(std::uint64_t bytes) const {
        return send_overhead + up(overhead_per_byte * static_cast<double>(extra(bytes)));
    }
    /// The receiver's CPU time for it (LogGOPSim: o + (s - 1) max(O, G)).
    [[nodiscard]] std::uint64_t receive_cycles(std::uint64_t bytes) const {
        return receive_overhead + up(std::max(overhead_per_byte, gap_per_byte) * static_cast<double>(extra(bytes)));
    }
    /// The gap a rail keeps after it starts sending or receiving it (LogGOPSim: g + (s - 1) G).
    [[nodiscard]] std::uint64_t gap_cycles(std::uint64_t bytes) const {
        return gap + up(gap_per_byte * static_cast<double>(extra(bytes)));
    }
    /// Cycles a reduction of `bytes` takes (for a generator's compute nodes).
    [[nodiscard]] std::uint64_t reduce_cycles(std::uint64_t bytes) const {
        return up(reduce_per_byte * static_cast<double>(bytes));
    }
    [[nodiscard]] bool rendezvous(std::uint64_t bytes) const { return bytes > eager_limit; }

    /// The cycles compute node `index` of `rank`, of `cycles` cycles, takes in a run seeded `seed`.
    [[nodiscard]] std::uint64_t compute_cycles(NodeIndex index, std::uint32_t rank, std::uint64_t cycles,
                                               std::uint64_t seed) const {
        if (slowdown.empty() && jitter == 0) return cycles;
        double c = static_cast<double>(cycles) * (slowdown.empty() ? 1.0 : slowdown[rank]);
        if (jitter > 0) c *= 1.0 + jitter * Random(seed ^ (index * 0xd1b54a32d192ed03ULL)).uniform();
        return up(c);
    }

private:
    static std::uint64_t extra(std::uint64_t bytes) { return bytes > 0 ? bytes - 1 : 0; }
    static std::uint64_t up(double x) { return x <= 0 ? 0 : static_cast<std::uint64_t>(std::ceil(x)); }
};

}  // namespace fabric::workload
