// fabric under another simulator (docs/embedding.md): a discrete-event program of
// its own, MPI-like ranks that compute and exchange halos with their neighbours,
// keeps its own event queue and drives fabric's cycle kernel through the embedding
// interface (CycleSimulator::embed: inject at a cycle, run to the next report or to
// the program's next event, read what was delivered). It then runs the same program
// as a workload graph through fabric's own dependency engine (run_workload), which
// drives the same hook, and checks that both end every rank at the same cycle.
#include <fabric/fabric.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <queue>
#include <vector>

namespace {
using namespace fabric;

constexpr std::uint32_t ranks = 16;      // on a 4 x 4 torus, rank r on terminal r
constexpr std::uint32_t iterations = 3;  // compute, then send to both neighbours and wait for both
constexpr std::uint32_t halo_flits = 8;
std::uint64_t compute_cycles(std::uint32_t rank) { return 200 + 25 * (rank % 5); }
std::uint32_t left(std::uint32_t r) { return (r + ranks - 1) % ranks; }
std::uint32_t right(std::uint32_t r) { return (r + 1) % ranks; }

/// The program as this example's own event loop sees it.
struct Event {
    std::uint64_t time;
    std::uint32_t rank;
    bool compute_done;  // else: a halo arrived
    friend bool operator>(const Event& a, const Event& b) {
        return a.time != b.time ? a.time > b.time : a.rank != b.rank ? a.rank > b.rank : a.compute_done < b.compute_done;
    }
};

template <class Net>
std::vector<std::uint64_t> own_event_loop(CycleSimulator<Net>& sim) {
    std::vector<std::uint64_t> finish(ranks, 0);
    std::vector<std::uint32_t> iteration(ranks, 0), arrived(ranks, 0);
    std::vector<std::uint64_t> last_arrival(ranks, 0), compute_end(ranks, 0);
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
    auto run = sim.embed();
    std::uint64_t handle = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) events.push({compute_cycles(r), r, true});
    auto start_compute = [&](std::uint32_t r, std::uint64_t at) {
        compute_end[r] = at + compute_cycles(r);
        events.push({compute_end[r], r, true});
    };
    for (;;) {
        const std::uint64_t next = events.empty() ? ~std::uint64_t{0} : events.top().time;
        if (events.empty() && run.idle()) break;
        if (run.now() < next || events.empty()) {  // the network first, up to this program's next event
            run.run_until_report(next);
            run.take([&](const cycle::PortReport& x) {
                if (x.event == cycle::PortEvent::delivered) events.push({x.cycle, x.terminal, false});
                else finish[x.terminal] = std::max(finish[x.terminal], x.cycle);  // a send's last flit has left
            });
            continue;
        }
        const Event e = events.top();
        events.pop();
        const std::uint32_t r = e.rank;
        if (e.compute_done) {  // a compute ended: send both halos now (or, if the kernel is past it, at once)
            finish[r] = std::max(finish[r], e.time);
            if (iteration[r] == iterations) continue;
            const std::uint64_t at = std::max(e.time, run.now());
            for (const std::uint32_t to : {left(r), right(r)})
                run.inject(at, {.handle = handle++, .source = r, .destination = to, .flits = halo_flits,
                                .traffic_class = 0});
            continue;
        }
        // A halo arrived: with both of this iteration's in, and the compute done, the next compute starts.
        finish[r] = std::max(finish[r], e.time);
        last_arrival[r] = std::max(last_arrival[r], e.time);
        if (++arrived[r] < 2) continue;
        arrived[r] = 0;
        if (++iteration[r] < iterations) start_compute(r, std::max(last_arrival[r], compute_end[r]));
        else finish[r] = std::max(finish[r], last_arrival[r]);
    }
    run.finish();
    return finish;
}

/// The same program as a workload graph: compute i of rank r waits for both halos of
/// iteration i - 1 (and for its own compute i - 1); the halos of iteration i wait for compute i.
workload::ExplicitGraph as_graph() {
    workload::GraphBuilder b("halo exchange");
    std::vector<workload::NodeIndex> compute(ranks), sends(2 * ranks);
    for (std::uint32_t i = 0; i < iterations; ++i) {
        std::vector<workload::NodeIndex> now(ranks);
        for (std::uint32_t r = 0; r < ranks; ++r) {
            now[r] = b.add_compute(r, compute_cycles(r));
            if (i > 0) {
                b.depend(now[r], compute[r]);
                b.depend(now[r], sends[2 * left(r) + 1]);  // left's halo to its right: this rank
                b.depend(now[r], sends[2 * right(r)]);     // right's halo to its left
            }
        }
        for (std::uint32_t r = 0; r < ranks; ++r)
            for (std::uint32_t side = 0; side < 2; ++side) {
                sends[2 * r + side] = b.add_message(r, side == 0 ? left(r) : right(r), 16 * halo_flits);
                b.depend(sends[2 * r + side], now[r]);
            }
        compute = now;
    }
    return b.build(ranks);
}
}  // namespace

int main() {
    const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({4, 4})};
    CycleSimulator<decltype(net)> sim(net);
    const std::vector<std::uint64_t> own = own_event_loop(sim);
    const WorkloadResult engine = sim.run_workload(as_graph());
    bool same = engine.finished;
    std::printf("rank  own event loop  dependency engine\n");
    for (std::uint32_t r = 0; r < ranks; ++r) {
        std::printf("%4u  %14llu  %17llu\n", r, static_cast<unsigned long long>(own[r]),
                    static_cast<unsigned long long>(engine.ranks[r]));
        same = same && own[r] == engine.ranks[r];
    }
    std::printf("%u iterations of compute and halo exchange on a 4x4 torus: the last rank ends at cycle %llu; %s\n",
                iterations, static_cast<unsigned long long>(engine.finish_cycle),
                same ? "the same cycles through both drivers" : "the drivers DIFFER");
    return same ? 0 : 1;
}
