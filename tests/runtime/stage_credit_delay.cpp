// Credits that take longer than a cycle on the stage-list kernel: each reaches its
// sender from a list per cycle, and every count and figure is the wake kernel's,
// on a torus and a mesh, with packets of one and of several flits, below and past
// saturation; a longer credit loop lowers a lone VC's throughput as the buffer's
// round trip says; an adaptive route, which reads the credits in flight, and a
// credit of more than 64 cycles stay on the wake kernel.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

#include <cstdint>
#include <vector>

#include "../support/cycle_laws.hpp"

namespace unit_stage_credit_delay {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

TEST_CASE("a credit of 2 to 7 cycles: the stage-list kernel decides what the wake kernel decides") {
    CycleConfig cfg;
    cfg.warmup = 300;
    cfg.measure = 1500;
    for (const std::uint32_t delay : {2u, 3u, 7u}) {
        CAPTURE(delay);
        using Net = Fabric<Torus<2>, DorTieSplit<>>;
        const Net torus{Torus<2>({6, 6}), {}, Credit{4, delay}};
        const CycleResult low = run_on_both_kernels(torus, cfg, UniformTraffic(36), 0.2, PacketSizes::fixed(1));
        check_delivered_and_conserved(low);
        const CycleResult past = run_on_both_kernels(torus, cfg, UniformTraffic(36), 0.9, PacketSizes::fixed(4));
        CHECK(past.saturated);
        using MeshNet = Fabric<Mesh<2>, DorTieSplit<NoDateline>>;
        const MeshNet mesh{Mesh<2>({4, 4}), {}, Credit{8, delay}};
        run_on_both_kernels(mesh, cfg, TransposeTraffic(16), 0.4, PacketSizes::bimodal(1, 5, 0.5));
    }
}

TEST_CASE("a run the memory limit stops before its window counts nothing in the window, on both kernels") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>({8, 8}), {}, Credit{8, 8}};
    CycleConfig cfg;
    cfg.memory_limit_mb = 1;
    cfg.warmup = 100;
    cfg.measure = 20000;
    cfg.link_latency = 8;
    const CycleResult r = run_on_both_kernels(net, cfg, UniformTraffic(64), 0.9, PacketSizes::fixed(1));
    REQUIRE(r.source_limit_reached);
    if (r.cycles <= cfg.warmup) CHECK(r.flits_ejected_in_window == 0);
}

TEST_CASE("a lone flow with a longer credit loop: a VC's buffer over its round trip, on both kernels") {
    // Router 0 sends to router 1 over one link; every packet takes VC 0 there. A
    // buffer of 2 with a credit of d cycles sends 2 flits per round trip of
    // (grant to arrival) + (arrival to leaving) + d cycles, so past a loop of 2
    // cycles the flow's throughput falls as the delay grows.
    using Net = Fabric<Torus<1>, DorTieSplit<>>;
    CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = 2000;
    std::vector<double> m(8 * 8, 0.0);
    m[0 * 8 + 1] = 1.0;
    double before = 2.0;
    for (const std::uint32_t delay : {2u, 4u, 8u}) {
        CAPTURE(delay);
        const Net ring{Torus<1>({8}), {}, Credit{2, delay}};
        const CycleResult r = run_on_both_kernels(ring, cfg, TrafficMatrix(8, m), 1.0, PacketSizes::fixed(8));
        const double flow = r.accepted * 8;  // flits a cycle into terminal 1, the only one receiving
        CHECK(flow > 0);
        CHECK(flow <= before);
        before = flow;
    }
    CHECK(before < 0.5);
}

TEST_CASE("credits read by an adaptive route stay on the wake kernel when they take longer than a cycle") {
    using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;
    using Net = Fabric<Df, DragonflyUgalL>;
    const CycleConfig cfg;
    CHECK(CycleSimulator<Net>(Net{Df(4, 2)}, cfg).staged());
    CHECK_FALSE(CycleSimulator<Net>(Net{Df(4, 2), {}, Credit{8, 2}}, cfg).staged());
    using Tor = Fabric<Torus<2>, DorTieSplit<>>;
    CHECK(CycleSimulator<Tor>(Tor{Torus<2>({4, 4}), {}, Credit{8, 2}}, cfg).staged());
    CHECK(CycleSimulator<Tor>(Tor{Torus<2>({4, 4}), {}, Credit{8, 64}}, cfg).staged());
    CHECK_FALSE(CycleSimulator<Tor>(Tor{Torus<2>({4, 4}), {}, Credit{8, 65}}, cfg).staged());
}

}  // namespace unit_stage_credit_delay
