// Paper and textbook facts the compiler checks: the flow-level kernel, the
// closed forms, QCDOC partitions and global sums, and Benes routing, all run in
// constant evaluation by the same code that runs at run time. Sizes stay within
// fabric::constant_evaluation_budget under both GCC's and Clang's default limits
// (docs/compile_time.md); the PERCS mapping tables, whose smallest system is past
// them, are checked in percs_tables_raised_limits.cpp with raised limits.
#include <fabric/fabric.hpp>

#include <initializer_list>
#include <cstdint>
#include <span>
#include <vector>

namespace {
using namespace fabric;

constexpr bool near(double a, double b) { return (a > b ? a - b : b - a) <= 1e-12 * (b > 1 ? b : 1); }

// Dally and Towles, uniform traffic under dimension order on a 6 x 6 torus (k = 6):
// every channel carries k/8 with the tie split; with ties always +, k/8 + 1/4 on
// the + channels and k/8 - 1/4 on the - channels; on the 6 x 6 mesh the channels
// across the bisection carry k/4.
template <Boundary B>
using Cube6 = KAryNCube<2, BasicLink<2>, StaticExtents<6, 6>, B>;

template <class Routing, Boundary B>
constexpr std::vector<double> uniform_loads() {
    const Fabric<Cube6<B>, Routing> net{};
    const auto loads = link_load(net, UniformTraffic(36));
    return {loads.per_channel().begin(), loads.per_channel().end()};
}

static_assert([] {
    for (const double load : uniform_loads<DorTieSplit<>, Boundary::wrap>())
        if (!near(load, 6.0 / 8)) return false;
    return true;
}(), "uniform traffic on a 6 x 6 torus, ties split: k/8 on every channel");

static_assert([] {
    const auto loads = uniform_loads<DorTiePositive<>, Boundary::wrap>();
    for (std::size_t c = 0; c < loads.size(); ++c)  // ports 0 and 2 go +, 1 and 3 go -
        if (!near(loads[c], c % 2 == 0 ? 6.0 / 8 + 0.25 : 6.0 / 8 - 0.25)) return false;
    return true;
}(), "uniform traffic on a 6 x 6 torus, ties +: k/8 + 1/4 on + channels, k/8 - 1/4 on - channels");

static_assert([] {
    const Fabric<Cube6<Boundary::open>, DorTieSplit<>> net{};
    return near(link_load(net, UniformTraffic(36)).max_load(), 6.0 / 4);
}(), "uniform traffic on a 6 x 6 mesh: k/4 on the bisection channels");

// The kernel's throughput: bandwidth over the busiest channel's load.
static_assert([] {
    const Fabric<Cube6<Boundary::wrap>, DorTieSplit<>> net{};
    const auto loads = link_load(net, UniformTraffic(36));
    return near(loads.throughput(), loads.link_class(0).bandwidth.count / (6.0 / 8)) && loads.link_class(0).channels == 144;
}());

// EURETILE 2012 report, Table 8: E_T for RX LINK FIFO depths 512 to 4096, as the
// report rounds it (three decimals, of the exact product or of the rounded factors).
constexpr double three(double x) { return detail::floor_nonnegative(x * 1000 + 0.5) / 1000; }
constexpr bool printed_et(std::uint32_t depth, double et) {
    const auto m = analytic::ApenetEfficiency::with_fifo(depth);
    return near(three(m.et()), et) || near(three(three(m.e1()) * three(m.e2()) * three(m.e3())), et);
}
static_assert(printed_et(512, 0.595) && printed_et(1024, 0.784) && printed_et(2048, 0.862) && printed_et(4096, 0.898),
              "APEnet+ Table 8: E_T = 0.595, 0.784, 0.862, 0.898");
static_assert(near(three(analytic::ApenetEfficiency::with_fifo(512).e3()), 0.638));
// The optimum credit period of the report's E_T(C), without the whole-packet rule: C = 35.1.
static_assert([] {
    analytic::ApenetEfficiency m;
    m.whole_packet_rule = false;
    const double c = m.optimum_credit_period();
    return c > 35.0 && c < 35.2;
}());

// PERCS interconnect paper, section VII.A: the direct-routing all-to-all
// bandwidth (155 + 5120 d) / (1 + 64 d) GB/s per node for d >= 8, limited by LR.
static_assert(near(analytic::PercsAlltoall{}.direct_bandwidth(16), (155 + 5120.0 * 16) / (1 + 64.0 * 16)));
static_assert(analytic::PercsAlltoall{}.bottleneck(16) == 1);

// QCDOC (Boyle et al.): a global sum over the 8x4x4x2 partition takes
// N_x + N_y + N_z + N_t - 4 = 14 hops, and 9 (the sum of floor(N / 2)) doubled;
// the hop counts are what the word-by-word walk of the rings took.
constexpr std::size_t sum_hops(std::vector<std::uint32_t> extents, bool doubled) {
    return ScuGlobalSum(doubled).simulate(extents, QcdocScu{}).hops;
}
static_assert(sum_hops({8, 4, 4, 2}, false) == 14, "QCDOC: 14 hops for a global sum on 8x4x4x2");
static_assert(sum_hops({8, 4, 4, 2}, true) == 9, "QCDOC: 9 hops for a doubled global sum on 8x4x4x2");
// The 6-D machine 8x4x4x2x2x2 folds into 4 dimensions 8x4x4x8, and every fold closes its rings.
static_assert(Partition::fold({8, 4, 4, 2, 2, 2}, 4).extents() == std::vector<std::uint32_t>{8, 4, 4, 8});
static_assert([] {
    const auto p = Partition::fold({8, 4, 4, 2, 2, 2}, 4);
    const auto& k = p.extents();
    for (std::uint32_t x = 0; x < k[3]; ++x)  // consecutive logical coordinates are physical neighbours
        if (!p.physical_neighbours(p.physical({0, 0, 0, x}), p.physical({0, 0, 0, (x + 1) % k[3]}))) return false;
    return true;
}());

// GF11's Benes network, scaled to 16 ports: the looping algorithm routes every
// permutation of GF11's set (permutations.hpp: ring and torus shifts, the FFT
// butterflies, a tree exchange, bit reversal) with no conflict: each input
// arrives at its output.
constexpr bool benes_routes(const std::vector<std::uint32_t>& perm) {
    const BenesNetwork net(16);
    const auto in = permutations::ring_shift(16, 0);  // input i carries the word i
    return permutations::delivered(perm, in, net.carry(route(net, std::span<const std::uint32_t>(perm)), in)) == 16;
}
static_assert([] {
    namespace p = permutations;
    bool all = benes_routes(p::tree_exchange(16)) && benes_routes(p::bit_reversal(16));
    for (std::uint32_t shift = 0; shift < 16; ++shift) all = all && benes_routes(p::ring_shift(16, shift));
    for (const bool along_x : {true, false}) all = all && benes_routes(p::torus_shift(4, 4, along_x));
    for (std::uint32_t stage = 0; stage < 4; ++stage) all = all && benes_routes(p::butterfly(16, stage));
    return all;
}(), "a 16-port Benes network routes each of GF11's permutations with no conflict");

// The example of issue 19, as a new user wrote it: an 8 x 8 torus's busiest
// channel under uniform traffic is k/8 = 1. Walked pair by pair its 20,480
// channel-load additions were past Clang's budget (10,000); by symmetry it is one
// source's 64 flows and two rings' legs, under either compiler (tests/static/
// symmetry.cpp checks 16 x 16 and 16 x 16 x 16).
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<8, 8>>;
constexpr double peak() {
    fabric::Fabric<T, fabric::DorTieSplit<>> net{};
    return fabric::link_load(net, fabric::UniformTraffic(64)).max_load();
}
static_assert(peak() == 1.0);  // k/8

}  // namespace
