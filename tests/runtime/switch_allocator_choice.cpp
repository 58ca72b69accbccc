// BookSim's other switch allocators as policies of the cycle kernel: separable
// output-first and wavefront, each worked by hand against the input-first
// default, and all four in the kernel (zero-load latency worked by hand, a
// contended pair, a loaded torus that delivers everything); one picked at run time
// (ChosenSwitch) decides what the one it picks decides, on either kernel, staged
// for every fabric alike or per fabric type.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include "../support/cycle_laws.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace unit_switch_allocator_choice {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;  // (input, output) in grant order

template <class Stage>
Pairs round(Stage& sw, std::initializer_list<std::array<std::uint32_t, 3>> requests) {
    sw.begin(0);
    for (const auto& [in, vc, out] : requests) sw.request(in, vc, out);
    Pairs granted;
    sw.allocate([&](std::uint32_t in, std::uint32_t, std::uint32_t out) { granted.emplace_back(in, out); });
    return granted;
}

/// Round 1: input 0's VC 1 alone, to output 0 (both pointers move: output 0's to
/// input 1, input 0's VC pointer back to VC 0). Round 2: input 0 has VC 0 for
/// output 0 and VC 1 for output 1; input 1 has VC 0 for output 0.
template <class A>
Pairs second_round() {
    typename A::stage sw;
    sw.reset(1, 4, 2);
    CHECK(round(sw, {{0, 1, 0}}) == Pairs{{0, 0}});
    return round(sw, {{0, 0, 0}, {0, 1, 1}, {1, 0, 0}});
}
}  // namespace

TEST_CASE("separable output-first matches what input-first leaves: 2 pairs where input-first finds 1") {
    // Input-first: input 0 puts forward VC 0 (its pointer), so output 0 sees inputs 0
    // and 1 and grants 1 (its pointer); output 1 gets no request: 1 pair.
    CHECK(second_round<SeparableSwitch>() == Pairs{{1, 0}});
    // Output-first: output 0 grants input 1, output 1 grants input 0, both accept: 2 pairs.
    CHECK(second_round<SeparableOutputFirst>() == Pairs{{1, 0}, {0, 1}});
    CHECK(second_round<Islip<1>>() == second_round<SeparableOutputFirst>());
}

TEST_CASE("wavefront: diagonals (in + out) mod 3 from a first one that moves each allocation") {
    Wavefront::stage sw;  // VC v of an input asks for output v (one request per input VC)
    sw.reset(2, 3, 3);
    // Every input wants every output: diagonal 0 = {(0,0), (1,2), (2,1)} is a full
    // matching; next time diagonal 1 = {(0,1), (1,0), (2,2)}. Grants in output order.
    const std::initializer_list<std::array<std::uint32_t, 3>> all{{0, 0, 0}, {0, 1, 1}, {0, 2, 2}, {1, 0, 0}, {1, 1, 1},
                                                                  {1, 2, 2}, {2, 0, 0}, {2, 1, 1}, {2, 2, 2}};
    CHECK(round(sw, all) == Pairs{{0, 0}, {2, 1}, {1, 2}});
    CHECK(round(sw, all) == Pairs{{1, 0}, {0, 1}, {2, 2}});
    // Input 0 wants outputs 0 and 1, input 1 output 0. First diagonal 2: (1,1) is
    // not asked, (0,2) neither; diagonal 0: (0,0) matched; diagonal 1: (1,0) has its
    // output taken: 1 pair. Then from diagonal 0: (0,0) again, 1 pair. Then from
    // diagonal 1: (0,1) and (1,0), 2 pairs.
    const std::initializer_list<std::array<std::uint32_t, 3>> some{{0, 0, 0}, {0, 1, 1}, {1, 0, 0}};
    CHECK(round(sw, some) == Pairs{{0, 0}});
    CHECK(round(sw, some) == Pairs{{0, 0}});
    CHECK(round(sw, some) == Pairs{{1, 0}, {0, 1}});
    // Each router keeps its own first diagonal: router 1 starts at 0.
    sw.begin(1);
    for (const auto& [in, vc, out] : all) sw.request(in, vc, out);
    Pairs other;
    sw.allocate([&](std::uint32_t in, std::uint32_t, std::uint32_t out) { other.emplace_back(in, out); });
    CHECK(other == Pairs{{0, 0}, {2, 1}, {1, 2}});
}

TEST_CASE("every switch allocator in the kernel: zero-load latency by hand, two packets on one link, a loaded torus") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>{{4, 4}}};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 2000;
    auto check = [&](auto allocator) {
        using A = decltype(allocator);
        INFO(A::name);
        CycleSimulator<Net, A> sim(net, cfg);
        // One 4-flit packet, 2 hops: (h + 1) 4 + h + S - 1 = 17.
        const auto one = sim.run_trace(std::vector<TraceMessage>{{0, 0, 5, 4}});
        CHECK(one.latency.max == 17);
        // Nodes 1 and 3 each send a 1-flit packet to node 2 at cycle 0: one hop each,
        // from either side, 9 cycles alone. Both reach router 2 at cycle 5 and ask
        // for its ejection port at 7; one is switched at 7 (out at 9), the other at
        // 8 (out at 10), whichever the allocator picks.
        const auto two = sim.run_trace(std::vector<TraceMessage>{{0, 1, 2, 1}, {0, 3, 2, 1}});
        CHECK(two.packets_delivered == 2);
        CHECK(two.latency.max == 10);
        CHECK(two.latency.mean == doctest::Approx(9.5));
        const auto loaded = simulate_cycles(net, UniformTraffic(16), 0.3, PacketSizes::fixed(4), cfg, A{});
        CHECK(loaded.drained);
        CHECK(loaded.measured_delivered == loaded.measured_packets);
        CHECK(loaded.flits_injected == loaded.flits_ejected + loaded.flits_in_flight);
        CHECK(loaded.accepted == doctest::Approx(loaded.offered).epsilon(0.05));
    };
    check(SeparableSwitch{});
    check(Islip<1>{});
    check(SeparableOutputFirst{});
    check(Wavefront{});
}

namespace {
struct Picked : ChosenSwitch<Picked, SeparableSwitch, Islip<1>, Wavefront> {
    static constexpr std::string_view name = "picked at run time";
    using staged = std::tuple<SeparableSwitch>;  // iSLIP and the wavefront on the wake kernel
};
static_assert(ChosenAtRunTime<Picked> && !ChosenAtRunTime<SeparableSwitch>);

template <class A, class Net>
CycleResult loaded_run(const Net& net, const CycleConfig& cfg, bool staged) {
    CycleSimulator<Net, A> sim(net, cfg);
    CHECK(sim.staged() == staged);
    return sim.run(UniformTraffic(64), 0.35, PacketSizes::fixed(2));
}

}  // namespace

TEST_CASE("an allocator picked at run time decides what the one picked decides, on the kernel that runs it") {
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>{{8, 8}}};
    CycleConfig cfg;
    cfg.warmup = 300;
    cfg.measure = 1500;
    // The separable allocator is listed in Picked::staged: its runs go to the stage-list kernel, as the
    // separable allocator's own do; iSLIP and the wavefront are not: the wake kernel runs them.
    CHECK(CycleSimulator<Net, SeparableSwitch>(net, cfg).staged());
    CHECK_FALSE(CycleSimulator<Net, Wavefront>(net, cfg).staged());
    Picked::chosen() = 0;
    check_same_run(loaded_run<Picked>(net, cfg, true), loaded_run<SeparableSwitch>(net, cfg, true));
    Picked::chosen() = 1;
    check_same_run(loaded_run<Picked>(net, cfg, false), loaded_run<Islip<1>>(net, cfg, true));
    Picked::chosen() = 2;
    check_same_run(loaded_run<Picked>(net, cfg, false), loaded_run<Wavefront>(net, cfg, false));
    // A feature the stage-list kernel does not model sends the picked separable allocator to the wake kernel too.
    Picked::chosen() = 0;
    CycleConfig spec = cfg;
    spec.speculative = true;
    check_same_run(loaded_run<Picked>(net, spec, false), loaded_run<SeparableSwitch>(net, spec, false));
}

namespace {
/// iSLIP staged on tori whose whole ring takes VC 1 when the leg wraps (BookSim's), the separable allocator elsewhere.
struct PerFabric : ChosenSwitch<PerFabric, SeparableSwitch, Islip<1>> {
    static constexpr std::string_view name = "staged per fabric";
    template <class Fab>
    using staged_for = std::conditional_t<std::is_same_v<typename Fab::routing_type, DorTieSplit<DatelineWholeRing>>,
                                          std::tuple<Islip<1>>, std::tuple<SeparableSwitch>>;
};
}  // namespace

TEST_CASE("an allocator picked at run time may be staged per fabric type (staged_for)") {
    using Whole = Fabric<Torus<2>, DorTieSplit<DatelineWholeRing>>;
    using Plain = Fabric<Torus<2>, DorTieSplit<>>;
    const Whole whole{Torus<2>{{8, 8}}};
    const Plain plain{Torus<2>{{8, 8}}};
    CycleConfig cfg;
    cfg.warmup = 300;
    cfg.measure = 1500;
    PerFabric::chosen() = 1;  // iSLIP: staged on the whole-ring torus only
    CHECK(CycleSimulator<Whole, PerFabric>(whole, cfg).staged());
    CHECK_FALSE(CycleSimulator<Plain, PerFabric>(plain, cfg).staged());
    check_same_run(loaded_run<PerFabric>(whole, cfg, true), loaded_run<Islip<1>>(whole, cfg, true));
    PerFabric::chosen() = 0;  // the separable allocator: staged on the other only
    CHECK_FALSE(CycleSimulator<Whole, PerFabric>(whole, cfg).staged());
    check_same_run(loaded_run<PerFabric>(plain, cfg, true), loaded_run<SeparableSwitch>(plain, cfg, true));
    check_same_run(loaded_run<PerFabric>(whole, cfg, false), loaded_run<SeparableSwitch>(whole, cfg, true));
}

}  // namespace unit_switch_allocator_choice
