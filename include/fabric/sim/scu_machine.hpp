// QCDOC's self-synchronisation (Boyle et al., section 2.2): every word is
// acknowledged, and a receiver that has not posted its receive holds the first
// words in its register and acknowledges none (idle receive), so a sender cannot
// run ahead of its receiver. In a tightly coupled nearest-neighbour computation
// a node that stops communicating therefore stalls its neighbours, and they stall
// theirs, until the whole machine waits; when it resumes, the machine proceeds.
// A short delay at one node (a memory refresh) is hidden from the rest when it
// fits in the time the others spend computing while their transfers run.
//
// The machine, iteration by iteration: at s_v(i) node v starts its transfers to
// all its neighbours (one DMA transfer of `words` words a link, one start write)
// and posts its receives, then computes for `compute` cycles. A pause of node v
// in iteration i delays s_v(i) by its length (the node does nothing meanwhile).
// Iteration i ends when the computation is done and every receive is in memory:
//   e_v(i) = max(s_v(i) + compute, max over neighbours u of done_{u->v}(i)),
//   s_v(i + 1) = e_v(i),
// where done_{u->v}(i) comes from the word-level link (ScuLinkSim): u's transfer
// started at s_u(i), v's receive posted at s_v(i). A node's iteration waits for
// its receives only; its sends' acknowledgements come with them. Times are bit
// times of the core clock.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include <boost/hana/at.hpp>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/sim/scu_link.hpp>

namespace fabric {

/// Node `node` does nothing for `cycles` at the start of iteration `iteration`.
struct ScuPause {
    std::uint32_t node = 0;
    std::uint32_t iteration = 0;
    std::uint64_t cycles = 0;
};

/// The end of every node's iterations: end[i][v] = e_v(i).
struct ScuMachineRun {
    std::vector<std::vector<std::uint64_t>> end;
    /// Cycles node v's iteration i ended later than in `quiet` (the same machine with no pause).
    [[nodiscard]] std::uint64_t delay(const ScuMachineRun& quiet, std::size_t i, std::size_t v) const {
        return end[i][v] - quiet.end[i][v];
    }
};

template <Topology T>
class ScuMachine {
public:
    /// `topo`'s nodes exchange `words` words with every neighbour each iteration
    /// and compute for `compute` cycles; its links are QCDOC SCU links.
    ScuMachine(const T& topo, std::uint64_t words, std::uint64_t compute, ScuTiming timing = {})
        : topo_(topo), words_(words), compute_(compute),
          link_(boost::hana::at_c<0>(topo.links()), timing) {
        detail::require(words >= 1 && words <= 4096, "an SCU exchange moves 1 to 4096 words a link; got ", words);
        detail::require(compute <= (std::uint64_t{1} << 40), "the computation takes at most 2^40 cycles an iteration");
    }

    /// Cycles from the start of a transfer to its last word in memory, the receive
    /// posted `late` cycles after the start (0: before or with it).
    [[nodiscard]] std::uint64_t transfer_cycles(std::uint64_t late) const {
        if (auto it = memo_.find(late); it != memo_.end()) return it->second;
        const std::vector<std::uint64_t> source(words_, 1);
        const DmaDescriptor d{0, words_, words_, 1};
        const std::uint64_t t = link_.transfer(source, d, words_, d, late).last_word_cycles;
        memo_.emplace(late, t);
        return t;
    }

    /// `iterations` iterations from cycle 0, with the pauses given.
    [[nodiscard]] ScuMachineRun run(std::uint32_t iterations, std::span<const ScuPause> pauses = {}) const {
        const auto n = static_cast<std::uint32_t>(topo_.node_count());
        for (const ScuPause& p : pauses)
            detail::require(p.node < n && p.iteration < iterations, "a pause names node ", p.node, " in iteration ",
                            p.iteration, "; the machine has ", n, " nodes and runs ", iterations, " iterations");
        ScuMachineRun out;
        std::vector<std::uint64_t> start(n, 0);
        for (std::uint32_t i = 0; i < iterations; ++i) {
            for (const ScuPause& p : pauses)
                if (p.iteration == i) start[p.node] += p.cycles;
            std::vector<std::uint64_t> end(n);
            for (std::uint32_t v = 0; v < n; ++v) {
                std::uint64_t e = start[v] + compute_;
                for (std::uint32_t port = 0; port < T::ports_per_node; ++port) {
                    const NodeId u = topo_.neighbour(NodeId{v}, PortId{port});
                    if (!u.valid() || u.value == v) continue;
                    const std::uint64_t s = start[u.value];
                    e = std::max(e, s + transfer_cycles(start[v] > s ? start[v] - s : 0));
                }
                end[v] = e;
            }
            start = end;
            out.end.push_back(std::move(end));
        }
        return out;
    }

private:
    T topo_;
    std::uint64_t words_, compute_;
    ScuLinkSim link_;
    mutable std::map<std::uint64_t, std::uint64_t> memo_;
};

}  // namespace fabric
