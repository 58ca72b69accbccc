// Multicast on the GF11 networks in two passes (Kumar): the first pass replicates,
// giving each input as many copies as it has destinations; the second permutes the
// copies to their destinations (route(), benes_looping.hpp). An output wanted by
// two inputs is refused with a message. Copies sit at positions 0 .. C-1 after the
// first pass, input by input in increasing order, each input's copies in a block;
// outputs nobody wants receive whatever the spare positions hold.
//
//  - ClosNetwork: sources, ordered by input switch, take middle switch j mod r (j
//    their rank) and the consecutive blocks of positions their copy counts need;
//    any r consecutive sources (one input switch, or those sharing one output
//    switch) then use distinct middle switches, so no crossbar output is fed twice.
//  - BenesNetwork (2x2 switches, N = 2^n): recursively. A sub-network must put at
//    each of its outputs a given one of its inputs, or anything; read in output
//    order, the inputs wanted never decrease. Its output switch k gives outputs 2k
//    and 2k+1 from output k of the upper and of the lower half, either one to both.
//    An input wanted anywhere whose switch mate is also wanted ("paired") is sent to
//    one half only, and serves all its outputs from there, doubling where both
//    outputs of a switch want it; an input whose mate is idle may go to both. Two
//    constraints remain: paired mates go to different halves, and two different
//    inputs wanted at one output switch come from different halves. Both join
//    inputs that are consecutive among those wanted (mates are adjacent inputs; two
//    different inputs wanted at adjacent outputs have no wanted input between them,
//    as wanted inputs never decrease): the constraints form paths, so two sides
//    always satisfy them. Each half's wants are a subsequence of the outputs' and
//    never decrease either, so the halves are the same problem: O(N log N).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/topology/benes.hpp>

namespace fabric {

/// A multicast as two settings of one network: replicate, then permute.
template <class Setting>
struct TwoPassMulticast {
    Setting replicate;
    Setting permute;
    std::size_t copies = 0;
};
using MulticastPlan = TwoPassMulticast<ClosNetwork::Setting>;
using BenesMulticastPlan = TwoPassMulticast<BenesNetwork::Setting>;

namespace detail {

/// Checks `destinations` (per input, the outputs it broadcasts to) on n ports and
/// returns the second pass: position -> output, the copies of input 0's block
/// first, and the positions past the copies to the outputs nobody wants, in order.
inline std::vector<std::uint32_t> multicast_positions(const std::vector<std::vector<std::uint32_t>>& destinations,
                                                      std::size_t n, std::size_t& copies) {
    require(destinations.size() == n, "a multicast on this network lists destinations for ", n, " inputs; got ",
            destinations.size());
    std::vector<std::uint32_t> fed_by(n, unconnected), second;
    second.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const auto d : destinations[i]) {
            require(d < n, "input ", i, " broadcasts to output ", d, ", which does not exist");
            require(fed_by[d] == unconnected, "multicast outputs overlap: output ", d, " is wanted by inputs ",
                    fed_by[d], " and ", i, "; each output may take one input");
            fed_by[d] = static_cast<std::uint32_t>(i);
            second.push_back(d);
        }
    copies = second.size();
    for (std::uint32_t o = 0; o < n; ++o)
        if (fed_by[o] == unconnected) second.push_back(o);
    return second;
}

/// The first pass on a Benes network (see the file comment).
class BenesReplicator {
public:
    explicit BenesReplicator(const BenesNetwork& net)
        : net_(net), levels_(static_cast<std::size_t>(std::countr_zero(net.ports()))) {
        s_.out0.assign(net.switches(), 0);
        s_.out1.assign(net.switches(), 1);
    }

    /// The sub-network at depth d whose switches start at row `row0` puts input
    /// want[k] (local; unconnected: any) at its output k.
    void place(std::size_t d, std::size_t row0, const std::vector<std::uint32_t>& want) {
        const std::size_t size = want.size(), half = size / 2;
        if (size == 2) {
            const std::size_t k = net_.index(levels_ - 1, row0);
            s_.out0[k] = want[0] == 1 ? 1 : 0;
            s_.out1[k] = want[1] == 0 ? 0 : 1;
            return;
        }
        std::vector<std::uint8_t> wanted(size, 0);
        for (const auto x : want)
            if (x != unconnected) wanted[x] = 1;
        const auto paired = [&](std::uint32_t x) { return wanted[x] && wanted[x ^ 1U]; };
        // Sides of paired inputs: mates apart, and two different inputs at one output switch apart.
        constexpr std::uint8_t unset = 2;
        std::vector<std::uint8_t> side(size, unset);
        std::vector<std::uint32_t> order;
        for (std::uint32_t x = 0; x < size; ++x)
            if (paired(x)) order.push_back(x);
        std::vector<std::uint32_t> apart_from(size, unconnected);  // the output-switch partner a paired input has, after it
        for (std::size_t j = 0; j < half; ++j) {
            const std::uint32_t x = want[2 * j], y = want[2 * j + 1];
            if (x != unconnected && y != unconnected && x != y && paired(x) && paired(y))
                apart_from[std::max(x, y)] = std::min(x, y);
        }
        for (std::size_t i = 0; i < order.size(); ++i) {  // constraints join neighbours in this order
            const std::uint32_t x = order[i];
            const bool mate = (x & 1U) != 0;  // its mate x - 1 came just before
            const bool follows = apart_from[x] != unconnected;
            if (i > 0 && (mate || follows)) {
                const std::uint32_t before = order[i - 1];
                if ((mate && before != x - 1) || (follows && apart_from[x] != before))
                    throw std::logic_error(message("Benes multicast: a constraint joins inputs ", before, " and ", x,
                                                   " that are not neighbours among the wanted ones"));
                side[x] = static_cast<std::uint8_t>(1 - side[before]);
            } else {
                side[x] = 0;
            }
        }
        // Output column: which half serves each output; what each half must give.
        std::vector<std::uint32_t> upper(half, unconnected), lower(half, unconnected);
        std::vector<std::uint8_t> in_upper(size, 0), in_lower(size, 0);
        const auto serve = [&](std::uint32_t x, std::size_t j, std::uint8_t h) {
            (h == 0 ? upper : lower)[j] = x / 2;
            (h == 0 ? in_upper : in_lower)[x] = 1;
            return h;
        };
        for (std::size_t j = 0; j < half; ++j) {
            const std::uint32_t x = want[2 * j], y = want[2 * j + 1];
            const std::size_t k = net_.index(net_.stages() - 1 - d, row0 + j);
            if (x == unconnected && y == unconnected) continue;
            if (x == unconnected || y == unconnected || x == y) {  // one input: from its side, both outputs
                const std::uint32_t v = x == unconnected ? y : x;
                const std::uint8_t h = serve(v, j, side[v] == unset ? 0 : side[v]);
                s_.out0[k] = s_.out1[k] = h;
                continue;
            }
            std::uint8_t hx = side[x], hy = side[y];
            if (hx == unset) hx = hy == unset ? 0 : static_cast<std::uint8_t>(1 - hy);
            if (hy == unset) hy = static_cast<std::uint8_t>(1 - hx);
            if (hx == hy) throw std::logic_error(message("Benes multicast: inputs ", x, " and ", y, " on one side"));
            s_.out0[k] = serve(x, j, hx);
            s_.out1[k] = serve(y, j, hy);
        }
        // Input column: each half takes the mate it serves (at most one of the two).
        for (std::size_t j = 0; j < half; ++j) {
            const std::size_t k = net_.index(d, row0 + j);
            if (in_upper[2 * j] && in_upper[2 * j + 1]) throw std::logic_error("Benes multicast: mates in one half");
            if (in_lower[2 * j] && in_lower[2 * j + 1]) throw std::logic_error("Benes multicast: mates in one half");
            s_.out0[k] = in_upper[2 * j + 1] ? 1 : 0;
            s_.out1[k] = in_lower[2 * j] ? 0 : 1;
        }
        place(d + 1, row0, upper);
        place(d + 1, row0 + half / 2, lower);
    }

    [[nodiscard]] BenesNetwork::Setting take() { return std::move(s_); }

private:
    const BenesNetwork& net_;
    std::size_t levels_;
    BenesNetwork::Setting s_;
};

}  // namespace detail

/// Routes `destinations[i]` (the outputs input i broadcasts to; empty: idle) in two passes.
inline MulticastPlan multicast(const ClosNetwork& net, const std::vector<std::vector<std::uint32_t>>& destinations) {
    const std::size_t r = net.radix();
    MulticastPlan plan;
    const auto second = detail::multicast_positions(destinations, net.ports(), plan.copies);
    plan.replicate = net.empty_setting();
    // Pass 1: source j (in input order) through middle switch j mod r, its copies at
    // positions [start, start + k).
    std::size_t j = 0, position = 0;
    for (std::size_t i = 0; i < net.ports(); ++i) {
        const std::size_t k = destinations[i].size();
        if (k == 0) continue;
        const auto a = static_cast<std::uint32_t>(i / r), p = static_cast<std::uint32_t>(i % r);
        const auto m = static_cast<std::uint32_t>(j % r);
        plan.replicate.take[0][a * r + m] = p;
        for (std::size_t c = 0; c < k; ++c, ++position) {
            const std::size_t b = position / r, q = position % r;
            plan.replicate.take[1][m * r + b] = a;
            plan.replicate.take[2][b * r + q] = m;
        }
        ++j;
    }
    plan.permute = route(net, second);
    return plan;
}

/// Routes `destinations[i]` in two passes on the recursive Benes network.
inline BenesMulticastPlan multicast(const BenesNetwork& net,
                                    const std::vector<std::vector<std::uint32_t>>& destinations) {
    BenesMulticastPlan plan;
    const auto second = detail::multicast_positions(destinations, net.ports(), plan.copies);
    std::vector<std::uint32_t> want(net.ports(), unconnected);
    std::size_t position = 0;
    for (std::size_t i = 0; i < net.ports(); ++i)
        for (std::size_t c = 0; c < destinations[i].size(); ++c) want[position++] = static_cast<std::uint32_t>(i);
    detail::BenesReplicator replicator(net);
    replicator.place(0, 0, want);
    plan.replicate = replicator.take();
    plan.permute = route(net, second);
    return plan;
}

}  // namespace fabric
