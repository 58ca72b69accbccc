// A design review that the compiler checks. Each claim below is a static_assert
// on a model the library evaluates while compiling: the flow-level kernel, the
// APEnet+ and PERCS closed forms, the QCDOC global sum, Benes routing. If a
// change to the machine breaks a claim, the program no longer compiles, and the
// message says which claim (tests/fail/design_review_false.cpp shows one).
// Running it prints the figures the review rests on, computed by the compiler.
//
// Sizes stay within fabric::constant_evaluation_budget (docs/compile_time.md):
// larger systems take run-time sizes and the same functions at run time.
#include <fabric/fabric.hpp>

#include "no_options.hpp"

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

using namespace fabric;

// The machine under review: a 6 x 6 torus of 2-VC links under dimension order.
using Torus6x6 = Torus<2, BasicLink<2>, StaticExtents<6, 6>>;
using Machine = Fabric<Torus6x6, DorTieSplit<>>;  // compiles only if its routing cannot deadlock

// Its busiest channel under a pattern, flits per cycle for one flit per cycle injected at every node.
template <class Pattern>
constexpr double busiest(const Pattern& pattern) {
    return link_load(Machine{}, pattern).max_load();
}

constexpr double uniform_load = busiest(UniformTraffic(36));
constexpr double tornado_load = busiest(TornadoTraffic(Grid{6, 6}));

static_assert(DorTieSplit<>::vcs_required<Torus6x6> == 2,
              "fabric: design review: this torus needs 2 VCs (one each side of the dateline)");
static_assert(uniform_load > 0.7499 && uniform_load < 0.7501,
              "fabric: design review: uniform traffic loads the busiest channel k/8 = 0.75 flits/cycle");
static_assert(1 / uniform_load > 1.3,
              "fabric: design review: the torus sustains more than 1.3 flits/cycle/node of uniform traffic");
static_assert(tornado_load >= 2 * uniform_load,
              "fabric: design review: tornado traffic at least halves the uniform throughput");

// Its links: the APEnet+ credit protocol with a 1024-word receive FIFO.
constexpr double link_efficiency = analytic::ApenetEfficiency::with_fifo(1024).et();
static_assert(link_efficiency > 0.75,
              "fabric: design review: the receive FIFO keeps the link above 75% efficiency");

// Its global sums, QCDOC style, over an 8x4x4x2 partition.
constexpr std::size_t global_sum_hops = ScuGlobalSum(true).simulate({8, 4, 4, 2}, QcdocScu{}).hops;
static_assert(global_sum_hops <= 9, "fabric: design review: a doubled global sum crosses at most 9 links");

// Its I/O switch: a 16-port Benes network set by the looping algorithm.
constexpr bool benes_delivers(const std::vector<std::uint32_t>& perm) {
    const BenesNetwork net(16);
    const auto in = permutations::ring_shift(16, 0);  // input i carries the word i
    return permutations::delivered(perm, in, net.carry(route(net, std::span<const std::uint32_t>(perm)), in)) == 16;
}
static_assert(benes_delivers({15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}) &&
                  benes_delivers({0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}),
              "fabric: design review: the Benes switch routes reversal and bit reversal in one pass");

// Beside it, the PERCS all-to-all model with 16 D links per hub.
constexpr double percs_alltoall = analytic::PercsAlltoall{}.direct_bandwidth(16);
static_assert(percs_alltoall > 79, "fabric: design review: PERCS with d = 16 gives over 79 GB/s all-to-all per node");

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    std::printf("6x6 torus, DOR, ties split: busiest channel %.3f (uniform), %.3f (tornado)\n", uniform_load,
                tornado_load);
    std::printf("APEnet+ link, 1024-word FIFO: E_T = %.4f\n", link_efficiency);
    std::printf("QCDOC doubled global sum on 8x4x4x2: %zu hops\n", global_sum_hops);
    std::printf("PERCS all-to-all, d = 16: %.2f GB/s per node\n", percs_alltoall);
    std::printf("every claim of the review held at compile time\n");
    return 0;
}
