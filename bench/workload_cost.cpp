// What driving the cycle kernel by dependencies costs (issue 53's goal: a
// closed-loop run takes at most 1.3x the wall time of the same messages replayed
// open-loop at the cycles they were injected). The workload: 64 ranks on an 8 x 8
// torus, 400 rounds; in round i each rank sends a message of 4 flits to the rank
// (i * 7 + 1) mod 63 + 1 past it, once it has received round i - 1's message and
// waited 5 cycles. The closed-loop run (run_workload, every node's times kept)
// gives each message's injection cycle; the open-loop run replays the same messages
// at those cycles (run_trace). Both move the same flits; the ratio is the engine's
// and the hook's cost.
//
//   workload_cost closed | open   one run, for callgrind (--toggle-collect=*measured_run*); both first run the
//                                 closed loop keeping every node's times (the replay is made of them), uncounted
//   workload_cost time [N]        N runs of each, alternating, in this process (the closed run keeping no
//                                 node times): best times and their ratio
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/graph.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
using namespace fabric;
using Tor = Torus<2>;
using Net = Fabric<Tor, DorTieSplit<>>;
constexpr std::uint32_t ranks = 64, rounds = 400, flits = 4;

workload::ExplicitGraph rounds_graph() {
    workload::GraphBuilder b("rounds");
    std::vector<workload::NodeIndex> previous(ranks);
    for (std::uint32_t i = 0; i < rounds; ++i) {
        const std::uint32_t shift = (i * 7 + 1) % 63 + 1;
        std::vector<workload::NodeIndex> now(ranks);
        for (std::uint32_t r = 0; r < ranks; ++r) now[r] = b.add_message(r, (r + shift) % ranks, 16 * flits);
        if (i > 0) {
            const std::uint32_t last = ((i - 1) * 7 + 1) % 63 + 1;
            for (std::uint32_t r = 0; r < ranks; ++r) {  // rank r's message of round i - 1 went to r + last
                b.depend(now[(r + last) % ranks], previous[r]);
                b.node(now[(r + last) % ranks]).delay = 5;
            }
        }
        previous = now;
    }
    return b.build(ranks);
}

WorkloadResult closed_run(const Net& net, const workload::ExplicitGraph& g, bool record) {
    CycleSimulator<Net> sim(net);
    WorkloadOptions opt;
    opt.record_nodes = record;
    return sim.run_workload(g, opt);
}
/// The closed-loop run whose node times make the replay: not counted.
[[gnu::noinline]] WorkloadResult recorded_run(const Net& net, const workload::ExplicitGraph& g) {
    return closed_run(net, g, true);
}
/// The closed-loop run measured: no node times kept.
[[gnu::noinline]] WorkloadResult measured_run_closed(const Net& net, const workload::ExplicitGraph& g) {
    return closed_run(net, g, false);
}

[[gnu::noinline]] CycleResult measured_run_open(const Net& net, const std::vector<TraceMessage>& trace) {
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = trace.back().cycle + 1;
    CycleSimulator<Net> sim(net, cfg);
    return sim.run_trace(trace);
}

std::vector<TraceMessage> replay_of(const workload::ExplicitGraph& g, const WorkloadResult& r) {
    std::vector<TraceMessage> t;
    for (workload::NodeIndex i = 0; i < g.size(); ++i)
        t.push_back({r.nodes[i].injected, g.node(i).rank, g.node(i).peer, flits, 0});
    std::stable_sort(t.begin(), t.end(), [](const TraceMessage& a, const TraceMessage& b) { return a.cycle < b.cycle; });
    return t;
}

double seconds(auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "time";
    const Net net{Tor({8, 8})};
    const auto g = rounds_graph();
    const WorkloadResult closed = recorded_run(net, g);  // the injection cycles, for the replay
    if (!closed.finished) {
        std::fprintf(stderr, "workload_cost: the workload did not finish\n");
        return 1;
    }
    const auto trace = replay_of(g, closed);
    if (mode == "closed") {
        (void)measured_run_closed(net, g);
        std::printf("{\"run\": \"closed\", \"flit_moves\": %llu, \"finish_cycle\": %llu}\n",
                    static_cast<unsigned long long>(closed.network.flit_moves),
                    static_cast<unsigned long long>(closed.finish_cycle));
        return 0;
    }
    const CycleResult open = measured_run_open(net, trace);
    if (mode == "open") {
        std::printf("{\"run\": \"open\", \"flit_moves\": %llu, \"cycles\": %llu}\n",
                    static_cast<unsigned long long>(open.flit_moves), static_cast<unsigned long long>(open.cycles));
        return 0;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    double best_closed = 1e9, best_open = 1e9;
    for (int i = 0; i < runs; ++i) {
        best_open = std::min(best_open, seconds([&] { (void)measured_run_open(net, trace); }));
        best_closed = std::min(best_closed, seconds([&] { (void)measured_run_closed(net, g); }));
    }
    std::printf("{\"bench\": \"workload_cost\", \"messages\": %zu, \"flits_moved_closed\": %llu, \"flits_moved_open\": "
                "%llu, \"runs\": %d, \"closed_seconds\": %.4f, \"open_seconds\": %.4f, \"ratio\": %.3f, \"goal\": 1.3}\n",
                trace.size(), static_cast<unsigned long long>(closed.network.flit_moves),
                static_cast<unsigned long long>(open.flit_moves), runs, best_closed, best_open,
                best_closed / best_open);
    return 0;
}
