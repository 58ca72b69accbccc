// The three seed collectives as workload graphs, beside their closed forms: the
// dimension-wise sum's critical_path_hops, the QCDOC SCU global sum's
// model_cycles (Boyle et al., section 2.2), the PERCS CAU's reduce() (Arimilli et
// al., section IV). Timed in the alpha-beta model with no network
// (collective/timing.hpp), each graph takes its closed form's time where the
// paper's assumptions are the graph's, and differs by a stated amount where they
// are not (the SCU forwards a word after 8 bits; a message is forwarded whole).
// The flit-level runs of the same graphs: runs.cpp.
#include <doctest/doctest.h>

#include <fabric/collective/cau.hpp>
#include <fabric/collective/dimension_sum.hpp>
#include <fabric/collective/scu_global.hpp>
#include <fabric/collective/timing.hpp>
#include <fabric/collective/verify.hpp>
#include <fabric/topology/torus.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace unit_seeds {

using namespace fabric;
using collective::AlphaBeta;

TEST_CASE("the dimension-wise sum as a graph: every value of every ring reaches every node, in critical_path_hops "
          "one-hop messages") {
    const AlphaBeta m{40, 0.5};  // a word of 8 bytes: 44 cycles a hop
    const Torus<3> torus({4, 3, 2});
    const Mesh<2> mesh({5, 3});
    const DimensionWiseSum sum;
    // A mesh's line passes words both ways at once: by two rails (a rank of two terminals).
    for (const auto& g : {sum.graph(torus, {.bytes = 8}), sum.graph(mesh, {.bytes = 8, .rails = 2})}) {
        CHECK(collective::verify(g).empty());
        const auto t = collective::model_times(g, m);
        const auto path = collective::critical_path(g, t);
        const std::size_t hops = g.grid().dimensions() == 3 ? sum.critical_path_hops(torus) : sum.critical_path_hops(mesh);
        CHECK(path.size() == hops);
        CHECK(t.finish() == static_cast<double>(hops) * 44);
        for (std::uint64_t i = 0; i < g.size(); ++i) CHECK(g.node(i).bytes == 8);
    }
    // By one rail a mesh node's two words of a step queue: 4 cycles later each step but the line's last.
    CHECK(collective::model_times(sum.graph(mesh, {.bytes = 8}), m).finish() > static_cast<double>(sum.critical_path_hops(mesh)) * 44);
    // Every message goes to a neighbour: the schedule's transfers, as the graph numbers them.
    const auto g = sum.graph(torus, {.bytes = 8});
    for (std::uint64_t i = 0; i < g.size(); ++i) CHECK(torus.distance(NodeId{g.node(i).rank}, NodeId{g.node(i).peer}) == 1);
}

TEST_CASE("the SCU global sum as a graph: the store-and-forward time, (h - 1) min(L, 64) bit times a dimension above "
          "the pass-through model") {
    const QcdocScu link;
    const double L = link.latency_cycles();
    // A word is 72 bit times on the wire (64 data bits in 8 bytes: 9 bit times a byte), then L to arrive.
    const AlphaBeta bits{L, 9};
    for (const bool doubled : {false, true})
        for (const auto& p : std::vector<std::vector<std::uint32_t>>{{8, 4, 4, 2}, {4, 4, 4, 4}, {3, 5}, {2, 2, 2, 2}, {7}}) {
            const ScuGlobalSum sum(doubled);
            const auto g = sum.graph(p);
            if (g.ranks() <= 64) CHECK(collective::verify(g).empty());
            const double forwarded = collective::model_times(g, bits).finish();
            double saving = 0;
            for (const auto n : p) saving += (static_cast<double>(sum.hops(n)) - 1) * std::min(L, 64.0);
            CHECK(forwarded == static_cast<double>(sum.model_cycles(p, link)) + saving);
            CHECK(collective::critical_path(g, collective::model_times(g, bits)).size() == sum.hops(p));
        }
}

TEST_CASE("the CAU's reduction as a graph: reduce()'s done time where a hub's packets to its children do not queue") {
    // 13 hubs in a tree of fan-out 3; each edge 50 cycles, a CAU 30. With beta 0 a hub's packets leave at once, as
    // reduce() sends them; the up and down phases then each add (edge + CAU) a level.
    const auto tree = cau::Tree::k_ary({4, 9, 1, 7, 0, 3, 12, 5, 8, 2, 11, 6, 10}, 3);
    cau::Timing timing;
    timing.per_hop_ns = 50;
    timing.cau_ns = 30;
    const auto closed = cau::reduce<double>({tree}, cau::Op::sum, {std::vector<double>(13, 1.0)},
                                            [](std::uint32_t, std::uint32_t) { return 1; }, timing);
    const auto g = cau::graph(tree, 16, 30);
    const auto t = collective::model_times(g, AlphaBeta{50, 0});
    CHECK(t.finish() == closed[0].done_ns);
    std::size_t messages = 0;
    for (std::uint64_t i = 0; i < g.size(); ++i) messages += g.node(i).is_message() ? 1 : 0;
    CHECK(messages == closed[0].packets);
    CHECK(collective::check_structure(g).empty());
    // With a wire time a hub's packets to its three children queue: the last child's two wire times later.
    CHECK(collective::model_times(g, AlphaBeta{50, 1.0 / 16}).finish() > closed[0].done_ns);
}

}  // namespace unit_seeds
