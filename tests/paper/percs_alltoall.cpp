// Arimilli et al., "The PERCS High-Performance Interconnect", section VII.A: the
// effective all-to-all bandwidth per compute node, in closed form and from the
// flow-level kernel on a system built to the model's assumptions (32 d + 1
// supernodes, d D links on every hub to d distinct supernodes, shortest-path
// routing with single-hop L links).
#include <doctest/doctest.h>

#include "../support/sanitized.hpp"

#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/analytic/percs_alltoall.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace unit_percs_alltoall {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
// The paper's direct path shapes (at most one D link, never two L links in a
// row), shortest first. The walk below follows them over the topology's own
// neighbour() and link_class(), with no routing policy involved.
constexpr std::size_t LL = PercsTopology::LL, LR = PercsTopology::LR, D = PercsTopology::D;
struct Shape {
    std::vector<std::size_t> classes;
    double (*model)(double);  // the paper's e(P) for it
};
const std::vector<Shape> shapes = {
    {{LL}, analytic::PercsAlltoall::e_ll},           {{LR}, analytic::PercsAlltoall::e_lr},
    {{D}, analytic::PercsAlltoall::e_d},             {{LL, D}, analytic::PercsAlltoall::e_ll_d},
    {{D, LL}, analytic::PercsAlltoall::e_ll_d},      {{LR, D}, analytic::PercsAlltoall::e_lr_d},
    {{D, LR}, analytic::PercsAlltoall::e_lr_d},      {{LL, D, LL}, analytic::PercsAlltoall::e_ll_d_ll},
    {{LL, D, LR}, analytic::PercsAlltoall::e_ll_d_lr}, {{LR, D, LL}, analytic::PercsAlltoall::e_ll_d_lr},
    {{LR, D, LR}, analytic::PercsAlltoall::e_lr_d_lr}};

struct Walk {
    std::vector<std::size_t> shape_of;        // per destination: index into shapes, or none
    std::vector<std::vector<std::size_t>> channels;  // per destination: node * ports + port of each hop
    std::size_t reached_twice = 0;            // destinations two walks of one length reach
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
};

Walk walk_from(const PercsTopology& t, NodeId src) {
    constexpr std::size_t P = PercsTopology::ports_per_node;
    Walk w;
    w.shape_of.assign(t.node_count(), Walk::none);
    w.channels.resize(t.node_count());
    std::vector<std::size_t> path;
    const auto step = [&](auto&& self, NodeId at, std::size_t shape, std::size_t depth) -> void {
        const auto& classes = shapes[shape].classes;
        if (depth == classes.size()) {
            if (at == src) return;
            auto& seen = w.shape_of[at.value];
            if (seen != Walk::none) {
                w.reached_twice += shapes[seen].classes.size() == classes.size();
                return;  // a shorter shape got there first
            }
            seen = shape;
            w.channels[at.value] = path;
            return;
        }
        for (std::uint32_t p = 0; p < P; ++p) {
            if (t.link_class(at, PortId{p}) != classes[depth]) continue;
            const NodeId next = t.neighbour(at, PortId{p});
            if (!next.valid() || next == at) continue;
            path.push_back(at.value * P + p);
            self(self, next, shape, depth + 1);
            path.pop_back();
        }
    };
    for (std::size_t s = 0; s < shapes.size(); ++s) step(step, src, s, 0);
    return w;
}
}  // namespace

TEST_CASE("e(P) and c(L) by walking the model's topology: the paper's path counts for d = 1, 2") {
    constexpr std::size_t P = PercsTopology::ports_per_node;
    for (const std::uint32_t d : {1U, 2U}) {
        CAPTURE(d);
        const auto t = PercsTopology::alltoall_model(d);
        std::vector<std::uint64_t> crossing(t.node_count() * P, 0);
        for (std::uint32_t src = 0; src < t.node_count(); ++src) {
            const Walk w = walk_from(t, NodeId{src});
            REQUIRE(w.reached_twice == 0);  // every destination has one shortest direct path
            std::array<double, 11> e{};
            for (std::uint32_t dst = 0; dst < t.node_count(); ++dst) {
                if (dst == src) continue;
                REQUIRE(w.shape_of[dst] != Walk::none);  // every hub is reached
                ++e[w.shape_of[dst]];
                for (const auto c : w.channels[dst]) ++crossing[c];
            }
            if (src == 0 || src == t.node_count() - 1)
                for (std::size_t s = 0; s < shapes.size(); ++s) {
                    CAPTURE(s);
                    CHECK(e[s] == shapes[s].model(d));
                }
        }
        // Every link of a class carries the same number of paths: c(L).
        std::array<std::uint64_t, 3> lo{~0ULL, ~0ULL, ~0ULL}, hi{};
        for (std::uint32_t n = 0; n < t.node_count(); ++n)
            for (std::uint32_t p = 0; p < P; ++p) {
                const NodeId next = t.neighbour(NodeId{n}, PortId{p});
                if (!next.valid() || next == NodeId{n}) continue;
                const auto c = t.link_class(NodeId{n}, PortId{p});
                lo[c] = std::min(lo[c], crossing[n * P + p]);
                hi[c] = std::max(hi[c], crossing[n * P + p]);
            }
        CHECK(lo[LL] == hi[LL]);
        CHECK(lo[LR] == hi[LR]);
        CHECK(lo[D] == hi[D]);
        CHECK(static_cast<double>(hi[LL]) == analytic::PercsAlltoall::c_ll(d));
        CHECK(static_cast<double>(hi[LR]) == analytic::PercsAlltoall::c_lr(d));
        CHECK(static_cast<double>(hi[D]) == analytic::PercsAlltoall::c_d(d));
        CHECK(static_cast<double>(hi[LL]) == 1 + 64 * d);
        CHECK(static_cast<double>(hi[D]) == 1024);
    }
}

TEST_CASE("the model's path counts: 31 + 1024 d destinations, c(LL) = c(LR) = 1 + 64 d, c(D) = 1024") {
    for (double d = 1; d <= 16; ++d) {
        CHECK(analytic::PercsAlltoall::destinations(d) == 31 + 1024 * d);
        CHECK(analytic::PercsAlltoall::c_ll(d) == 1 + 64 * d);
        CHECK(analytic::PercsAlltoall::c_lr(d) == 1 + 64 * d);
        CHECK(analytic::PercsAlltoall::c_d(d) == 1024);
    }
}

TEST_CASE("D links limit below d = 8, LR links from d = 8: (155 + 5120 d) / (1 + 64 d) GB/s per node") {
    const analytic::PercsAlltoall model;
    for (double d = 1; d < 8; ++d) {
        CHECK(model.bottleneck(d) == 2);
        CHECK(model.direct_bandwidth(d) == doctest::Approx((31 + 1024 * d) * 10.0 / 1024));
    }
    for (double d = 8; d <= 16; ++d) {
        CHECK(model.bottleneck(d) == 1);
        CHECK(model.direct_bandwidth(d) == doctest::Approx((155 + 5120 * d) / (1 + 64 * d)));
        // "close to the injection bandwidth of a CN (4 * 24 GiB/s = 96 GiB/s)"
        CHECK(model.direct_bandwidth(d) < 96);
        CHECK(model.direct_bandwidth(d) > 75);
    }
}

TEST_CASE("the flow-level kernel on the model's system gives the model's loads") {
    using Shortest = PercsDirect<IntraRoute::single_hop, ZeroHop::skip>;
    const analytic::PercsAlltoall model;
    for (std::uint32_t d : {1U, 2U, 8U}) {
        // d = 8 (the LR-bound side): 295 s under the sanitizers, most of their paper_tests.
        if (fabric_tests::sanitized && d == 8) continue;
        CAPTURE(d);
        const auto t = PercsTopology::alltoall_model(d);
        const auto loads = link_load(PercsFabric<Shortest>{t},
                                     UniformTraffic(t.node_count(), UniformTraffic::Self::excluded));
        const double dests = model.destinations(d);
        // Every link of a class carries exactly c(class) of the node's paths.
        CHECK(loads.link_class(PercsTopology::LL).max_load == doctest::Approx(model.c_ll(d) / dests));
        CHECK(loads.link_class(PercsTopology::LR).max_load == doctest::Approx(model.c_lr(d) / dests));
        CHECK(loads.link_class(PercsTopology::D).max_load == doctest::Approx(model.c_d(d) / dests));
        CHECK(loads.throughput() == doctest::Approx(model.direct_bandwidth(d)));
        // The paper's formulas, typed from the text: D binds below d = 8, LR from d = 8.
        if (d < 8) {
            CHECK(loads.bottleneck() == PercsTopology::D);
            CHECK(loads.throughput() == doctest::Approx((31 + 1024.0 * d) * 10.0 / 1024));
        } else {
            CHECK(loads.bottleneck() == PercsTopology::LR);
            CHECK(loads.throughput() == doctest::Approx((155 + 5120.0 * d) / (1 + 64.0 * d)));
        }
        // Indirect random routing "would essentially half the alltoall bandwidth".
        // (Checked where the kernel walks every intermediate supernode of every pair
        // in seconds: d <= 2.)
        if (d > 2) continue;
        const auto indirect = link_load(PercsFabric<PercsIndirect<IntraRoute::single_hop, ZeroHop::skip>>{t},
                                        UniformTraffic(t.node_count(), UniformTraffic::Self::excluded));
        CHECK(indirect.throughput() / loads.throughput() == doctest::Approx(0.5).epsilon(0.02));
    }
}

}  // namespace unit_percs_alltoall
