// Issue 53's all-to-all check on routers without head-of-line blocking: the
// pairwise and direct all-to-all of 1 KiB a pair on the 8 x 8 torus (64 ranks),
// each against the bisection bound N k m / (8 B) = 64 x 8 x 1024 / 128 = 4,096
// cycles (goal: within 1.18x), on the input-queued router (8-flit VC buffers) and
// on routers with output queues and a switch speedup (Speedup<SeparableSwitch,
// In, Out>, 32-flit VC buffers), under minimal adaptive routing and dimension
// order. Beside them, the pairwise schedule's own floor: its rounds run one after
// another (a rank sends round t once round t - 1's message has reached it), so
// its end is at least the longest chain of messages, one a round, each taking
// what it takes alone, (h + 1) P + h L + S - 1 cycles for S flits over h links
// (P = 4 pipeline cycles, L = 1: docs/collectives.md), whatever the router.
//
//   alltoall_routers
#include <fabric/fabric.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace {
using namespace fabric;
constexpr std::uint32_t k = 8, ranks = k * k, flits = 64;
constexpr double bound = 4096, goal = 1.18;

template <class Alloc, class Net>
void run(const char* router, const char* routing, const typename Net::topology_type& t, std::uint32_t output_flits,
         std::uint32_t vc_flits, collective::Algorithm a) {
    CycleConfig cfg;
    cfg.flit_bytes = 16;
    cfg.output_buffer_flits = output_flits;
    Credit flow;
    flow.buffer_flits_per_vc = vc_flits;
    const Net net(t, allow_deadlock, {}, flow);  // minimal adaptive and the dateline are deadlock free
    const auto g = collective::build(collective::Operation::alltoall, a, collective::Shape::line(ranks),
                                     {.bytes = std::uint64_t{ranks} * flits * 16});
    CycleSimulator<Net, Alloc> sim(net, cfg);
    const WorkloadResult r = sim.run_workload(g);
    std::printf("%-9s %-44s %-9s %7llu cycles  %5.2fx the bound  (goal %.2fx)%s\n",
                std::string(collective::name(a)).c_str(), router, routing,
                static_cast<unsigned long long>(r.finish_cycle), static_cast<double>(r.finish_cycle) / bound, goal,
                r.finished ? "" : "  UNFINISHED");
}

/// The pairwise schedule's floor: in round s rank i receives from i XOR s, which sent once its own message of
/// round s - 1 had arrived, so rank i's last delivery follows a chain back through the rounds, one partner a
/// round, each link of it a message alone; the floor is the longest such chain.
double pairwise_floor(const Torus<2>& t) {
    auto alone = [&](std::uint32_t from, std::uint32_t to) {
        const auto h = static_cast<double>(t.distance(NodeId{from}, NodeId{to}));
        return (h + 1) * 4 + h + flits - 1;
    };
    double longest = 0;
    for (std::uint32_t i = 0; i < ranks; ++i) {
        double chain = 0;
        for (std::uint32_t s = ranks - 1, at = i; s >= 1; --s) {
            chain += alone(at ^ s, at);
            at ^= s;
        }
        longest = std::max(longest, chain);
    }
    return longest;
}
}  // namespace

int main() {
    using T1 = KAryNCube<2, BasicLink<1>, DynamicExtents, Boundary::wrap>;
    using A = KAryNCube<2, BasicLink<MinimalAdaptive::vcs_required<T1>>, DynamicExtents, Boundary::wrap>;
    using D = KAryNCube<2, BasicLink<2>, DynamicExtents, Boundary::wrap>;
    using Adaptive = Fabric<A, MinimalAdaptive>;
    using Dor = Fabric<D, DorTieSplit<>>;
    const A at({k, k});
    const D dt({k, k});
    const double floor = pairwise_floor(Torus<2>({k, k}));
    std::printf("all-to-all of 1 KiB a pair, 8 x 8 torus; bisection bound %.0f cycles; the pairwise schedule's floor "
                "%.0f cycles (%.2fx the bound)\n", bound, floor, floor / bound);
    for (const auto a : {collective::Algorithm::pairwise, collective::Algorithm::direct}) {
        run<SeparableSwitch, Adaptive>("input-queued, 8-flit VCs", "adaptive", at, 0, 8, a);
        run<SeparableSwitch, Dor>("input-queued, 8-flit VCs", "dor", dt, 0, 8, a);
        run<SeparableSwitch, Adaptive>("output queues 64, 8-flit VCs", "adaptive", at, 64, 8, a);
        run<Speedup<SeparableSwitch, 2, 2>, Adaptive>("output queues 128, speedup 2, 32-flit VCs", "adaptive", at,
                                                       128, 32, a);
        run<Speedup<SeparableSwitch, 4, 4>, Adaptive>("output queues 128, speedup 4, 32-flit VCs", "adaptive", at,
                                                       128, 32, a);
        run<Speedup<SeparableSwitch, 2, 2>, Dor>("output queues 128, speedup 2, 32-flit VCs", "dor", dt, 128, 32, a);
    }
    return 0;
}
