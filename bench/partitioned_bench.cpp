// The partitioned cycle kernel (dist/partitioned.hpp) against the serial one, at
// 1, 2 and 4 ranks (4 oversubscribe this 2-core machine: reported as such), on
//   - a 16x16x16 torus at 0.1 flits/cycle/node, links and credits of 10 cycles
//     (slabs: each rank exchanges with the two slabs beside it);
//   - 32-supernode PERCS (n_d = 1, the hub's preset, direct routes) at 0.3 of
//     its D-link bound under uniform traffic, D links of 150 ns (30 m of fibre)
//     whose credits cross them back (whole supernodes to a rank: only D links cut).
// For each, rank 0 times the serial kernel while the other ranks sleep, then all
// time the partitioned kernel, alternately, `repeats` times; each timed run is a
// simulator's second (the first warms the process). Printed per case: the
// window the links allow, the channels cut, the best serial and partitioned
// times, the speed-up, the MPI calls that communicate (sends and collectives,
// counted through the MPI profiling interface: this program defines them and
// calls PMPI_) per rank per simulated cycle, and whether the partitioned run's
// JSON is the serial run's. Goals at 2 ranks: the torus at most 0.3 calls per rank
// per cycle and a speed-up of at least 1.8; PERCS a speed-up of at least 1.7.
//
//   partitioned_bench                       mpiexec -n 1, 2, 4 of itself
//   partitioned_bench --ranks 2 [--repeats N]
#include <fabric/composition.hpp>
#include <fabric/dist/partitioned.hpp>
#include <fabric/experiment/json.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/topology/torus.hpp>

#include "process.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#ifndef FABRIC_MPIEXEC_COMMAND
#define FABRIC_MPIEXEC_COMMAND "mpiexec"
#endif

// --- the calls that communicate, counted (PMPI) -------------------------------------------
namespace {
std::uint64_t mpi_calls = 0;  // sends and collectives this rank made
}
extern "C" {
int MPI_Send(const void* b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Send(b, n, t, to, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request* r) {
    ++mpi_calls;
    return PMPI_Isend(b, n, t, to, tag, c, r);
}
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Alltoallv(const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r, const int* rn, const int* rd,
                  MPI_Datatype rt, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* rd, MPI_Datatype rt,
                   MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Allgatherv(s, sn, st, r, rn, rd, rt, c);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Barrier(MPI_Comm c) {
    ++mpi_calls;
    return PMPI_Barrier(c);
}
}

namespace {
using namespace fabric;
using TorusNet = Fabric<Torus<3>, DorTieSplit<Dateline>>;
using PercsNet = PercsFabric<Direct>;

struct Case {
    const char* name;
    bool percs;
    double load;
    double goal_speedup;  // at 2 ranks
    double goal_calls;    // at 2 ranks, per rank per cycle; 0: none
};
constexpr Case cases[] = {{"torus 16x16x16, links and credits 10 cycles", false, 0.1, 1.8, 0.3},
                          {"PERCS 32 supernodes, D links 150 ns", true, 0.3, 1.7, 0}};

/// Runs uniform traffic on `sim` (serial or partitioned), timed; the second of two runs.
template <class Sim>
CycleResult timed(Sim& sim, double& seconds, std::size_t nodes, double rate, std::uint32_t flits,
                  std::uint64_t* calls = nullptr) {
    const UniformTraffic uniform(nodes, UniformTraffic::Self::excluded);
    sim.run(uniform, rate, PacketSizes::fixed(flits));
    const std::uint64_t before = mpi_calls;
    const auto start = std::chrono::steady_clock::now();
    const CycleResult r = sim.run(uniform, rate, PacketSizes::fixed(flits));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (calls) *calls = mpi_calls - before;
    return r;
}

/// Calls f(fabric, cfg, policy, nodes, rate in flits/cycle/node, packet flits) for case c.
template <class F>
void with_case(const Case& c, F&& f) {
    if (c.percs) {
        const PercsTopology t(32, 1, PercsLL{}, PercsLR{}, PercsD{GBps{PercsD::default_bandwidth}, Nanoseconds{150.0}});
        const PercsNet net{t, Direct{}, Credit{32, 1}};
        CycleConfig cfg = percs_cycle_config(t);
        cfg.feedback_over_link = true;
        cfg.warmup = 2000;
        cfg.measure = 8000;
        // 0.3 of the D-link bound: a hub's one D link carries 10 GB/s for the supernode's traffic out.
        f(net, cfg, Groups{PercsTopology::nodes_per_supernode}, t.node_count(),
          percs_flits_per_cycle(t, PercsD::default_bandwidth * c.load), percs_packet_flits);
    } else {
        Credit credit;
        credit.buffer_flits_per_vc = 16;
        credit.credit_delay = 10;
        const TorusNet net{Torus<3>({16, 16, 16}), {}, credit};
        CycleConfig cfg;
        cfg.link_latency = 10;
        cfg.warmup = 1000;
        cfg.measure = 4000;
        f(net, cfg, Slabs{}, std::size_t{4096}, c.load, 4U);
    }
}

/// Ranks other than 0 wait for it without spinning (an MPI barrier polls, and on
/// more ranks than cores would take the core rank 0's serial run needs).
void wait_for_root(MPI_Comm comm) {
    MPI_Request request;
    MPI_Ibarrier(comm, &request);
    for (int done = 0; !done;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

int as_rank(int argc, char** argv) {
    const dist::Session session(argc, argv);
    const int ranks = session.size();
    int repeats = 3;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
    bool all_identical = true;
    for (const Case& c : cases) {
        with_case(c, [&](const auto& net, const CycleConfig& cfg, const auto& policy, std::size_t nodes, double rate,
                         std::uint32_t flits) {
            double serial_best = 1e300, split_best = 1e300;
            std::uint64_t calls = 0, cycles = 0;
            bool identical = true;
            cycle::Lookahead plan;
            dist::ExchangeStats stats;
            for (int k = 0; k < repeats; ++k) {
                // The reference: the serial kernel on rank 0, in this same job, while the other ranks sleep.
                std::string serial_json;
                if (session.root()) {
                    CycleSimulator alone(net, cfg);
                    double s = 0;
                    serial_json = experiment::to_json(timed(alone, s, nodes, rate, flits)).dump();
                    serial_best = std::min(serial_best, s);
                }
                wait_for_root(session.comm());
                // The alias named with its fabric: Clang before 19 deduces no alias template's arguments.
                dist::PartitionedCycle<std::remove_cvref_t<decltype(net)>> sim(net, cfg, session.comm(), policy);
                plan = sim.lookahead();
                double seconds = 0;
                std::uint64_t mine = 0;
                const CycleResult r = timed(sim, seconds, nodes, rate, flits, &mine);
                stats = sim.transport().stats();
                MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, session.comm());
                MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_UINT64_T, MPI_SUM, session.comm());
                split_best = std::min(split_best, seconds);
                calls = mine;
                cycles = r.cycles;
                if (session.root()) identical = identical && experiment::to_json(r).dump() == serial_json;
            }
            if (!session.root()) return;
            all_identical = all_identical && identical;
            const double per_rank_cycle = static_cast<double>(calls) / ranks / static_cast<double>(cycles);
            const bool goals = ranks == 2;
            std::printf("{\"bench\": \"partitioned\", \"case\": \"%s\", \"load\": %.1f, \"ranks\": %d, "
                        "\"oversubscribed\": %s, \"window\": %u, \"cut_channels\": %llu, \"cycles\": %llu, "
                        "\"windows\": %llu, \"serial_s\": %.3f, \"partitioned_s\": %.3f, \"speedup\": %.2f, "
                        "\"goal_speedup\": %s, \"calls_per_rank_cycle\": %.3f, \"goal_calls\": %s, "
                        "\"same_json\": %s}\n",
                        c.name, c.load, ranks, ranks > static_cast<int>(std::thread::hardware_concurrency()) ? "true" : "false",
                        plan.window, static_cast<unsigned long long>(plan.cut_channels),
                        static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(stats.windows),
                        serial_best, split_best, serial_best / split_best,
                        goals ? std::to_string(c.goal_speedup).substr(0, 3).c_str() : "null", per_rank_cycle,
                        goals && c.goal_calls > 0 ? std::to_string(c.goal_calls).substr(0, 3).c_str() : "null",
                        identical ? "true" : "false");
            std::fflush(stdout);
        });
    }
    int failed = !all_identical;
    MPI_Bcast(&failed, 1, MPI_INT, 0, session.comm());
    return failed;
}

}  // namespace

int main(int argc, char** argv) {
    if (dist::Session::launched()) return as_rank(argc, argv);
    std::vector<int> counts = {1, 2, 4};
    std::vector<std::string> extra;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--ranks") == 0) counts = {std::atoi(argv[i + 1])};
        else extra.insert(extra.end(), {argv[i], argv[i + 1]});
    }
    int failed = 0;
    for (const int ranks : counts) {
        std::vector<std::string> args = fabric_bench::mpi_launcher(FABRIC_MPIEXEC_COMMAND);
        args.insert(args.end(), {"-n", std::to_string(ranks), argv[0]});
        args.insert(args.end(), extra.begin(), extra.end());
        double peak = 0;
        int status = 0;
        std::fputs(fabric_bench::run(args, peak, status).c_str(), stdout);
        std::fflush(stdout);
        failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    return failed ? 1 : 0;
}
