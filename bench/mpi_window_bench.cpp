// What one synchronisation window of a partitioned cycle kernel would cost in
// MPI alone, on this machine: every rank sends each of its neighbours the flits
// and credits that crossed the cut in the window (one message each, of B bytes)
// and receives theirs, then all ranks sum four counters (delivered, in flight,
// ...) for the run's end test. Two neighbour sets: the two slab neighbours of a
// torus cut into slabs, and every other rank (PERCS cut into groups of
// supernodes, which all link to each other). Prints microseconds per window
// against its goal: 10 us at 2 ranks, under half of what 256 routers of the 8x8x8
// torus take a cycle (about 25 us at 1e7 router-cycles/s), so that a window of
// one cycle would still pay.
//
//   mpi_window_bench            runs itself under mpiexec at 2 and 4 ranks
//   mpiexec -n R mpi_window_bench   one rank count
#include <fabric/dist/session.hpp>

#include "process.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef FABRIC_MPIEXEC_COMMAND
#define FABRIC_MPIEXEC_COMMAND "mpiexec"
#endif

namespace {
double window_us(MPI_Comm comm, const std::vector<int>& peers, std::size_t bytes, int windows) {
    std::vector<std::vector<char>> out(peers.size(), std::vector<char>(bytes, 1)), in(peers.size(), std::vector<char>(bytes));
    std::vector<MPI_Request> requests(2 * peers.size());
    std::uint64_t counters[4] = {1, 2, 3, 4}, sums[4] = {};
    auto one = [&] {
        for (std::size_t p = 0; p < peers.size(); ++p) {
            MPI_Irecv(in[p].data(), static_cast<int>(bytes), MPI_BYTE, peers[p], 0, comm, &requests[2 * p]);
            MPI_Isend(out[p].data(), static_cast<int>(bytes), MPI_BYTE, peers[p], 0, comm, &requests[2 * p + 1]);
        }
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        MPI_Allreduce(counters, sums, 4, MPI_UINT64_T, MPI_SUM, comm);
    };
    for (int w = 0; w < windows / 10; ++w) one();  // warm the connections
    MPI_Barrier(comm);
    const auto start = std::chrono::steady_clock::now();
    for (int w = 0; w < windows; ++w) one();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, comm);
    return s / windows * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (!fabric::dist::Session::launched()) {  // alone: measure at 2 and 4 ranks
        int failed = 0;
        for (const int ranks : {2, 4}) {
            std::vector<std::string> args = fabric_bench::mpi_launcher(FABRIC_MPIEXEC_COMMAND);
            args.insert(args.end(), {"-n", std::to_string(ranks), argv[0]});
            double peak = 0;
            int status = 0;
            std::fputs(fabric_bench::run(args, peak, status).c_str(), stdout);
            failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        return failed ? 1 : 0;
    }
    const fabric::dist::Session session(argc, argv);
    const int rank = session.rank(), size = session.size();
    const int windows = 20000;
    std::vector<int> slab, all;
    if (size > 1) slab.push_back((rank + 1) % size);
    if (size > 2) slab.push_back((rank + size - 1) % size);
    for (int r = 0; r < size; ++r)
        if (r != rank) all.push_back(r);
    for (const auto& [name, peers] : {std::pair{"slab neighbours", slab}, std::pair{"every other rank", all}}) {
        for (const std::size_t bytes : {64UL, 1024UL, 16384UL}) {
            const double us = window_us(session.comm(), peers, bytes, windows);
            if (session.root())
                std::printf("{\"bench\": \"mpi_window\", \"ranks\": %d, \"peers\": \"%s\", \"messages_per_rank\": %zu, "
                            "\"bytes_per_message\": %zu, \"us_per_window\": %.2f, \"goal_us\": %s}\n",
                            size, name, peers.size(), bytes, us, size == 2 ? "10" : "null");
        }
    }
    return 0;
}
