// The cycle kernel partitioned over MPI ranks: dist::PartitionedCycle<Fab, A> is
// the CycleSimulator whose transport is MPI, its routers dealt to the ranks of a
// communicator by a partition policy (Slabs, Groups{32} for PERCS supernodes, or one's own), each
// rank stepping its own. Conservative: the ranks run windows of as many cycles
// as the least delay of anything crossing between them allows (a link's flit,
// a credit's return: sim/cycle/lookahead.hpp), and at the end of a window each
// rank sends each rank it has channels to one message (MPI_Isend, empty or not)
// with the flits and credits bound for its routers (a head carries its packet's
// record and route). What ends a run is summed (MPI_Allreduce) only at the ends
// of windows where the serial run could end or look, so the ranks stop at the
// serial kernel's cycle. Random numbers are the serial kernel's one stream, drawn on
// every rank for every terminal and used by the terminal's rank. Every rank
// returns the same result, which equals the serial run's for the same seed,
// counters, histograms and deadlock report alike (tests/mpi/partitioned.cpp).
//
// Messages of several packets are held by their destination's rank, and reorder
// tracking counts there too. Link failures partition: lost flits are told to every
// rank with the cycle's exchange (sim/cycle/losses.hpp), so a run with failures
// exchanges every cycle, with every rank (MPI_Alltoallv). What needs another rank's
// state within a cycle is refused with a fabric: message (request-reply, bounded
// source queues, watch, source-adaptive routing with a view of every router such
// as UGAL-G): see cycle::check_partitionable and docs/distributed.md.
//
// Opt-in: include it and link fabric::mpi (Debian libopenmpi-dev).
#pragma once

#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <span>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/dist/session.hpp>  // <mpi.h>, C interface
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/cycle/partition.hpp>

namespace fabric::dist {

/// What the ranks of a partitioned run said to each other.
struct ExchangeStats {
    std::uint64_t windows = 0;   // exchanges of flits and credits (one a window of cycles)
    std::uint64_t messages = 0;  // non-empty payloads this rank sent to another rank
    std::uint64_t bytes = 0;     // their bytes
    std::uint64_t sends = 0;     // point-to-point sends (one to each neighbour a window, empty or not)
    std::uint64_t reductions = 0;  // sums and gathers over the ranks
    double exchange_seconds = 0;   // in exchange and reductions, waiting included
};

/// fabric::CycleTransport over an MPI communicator.
class MpiTransport {
public:
    MpiTransport() : MpiTransport(MPI_COMM_WORLD) {}
    /// Over `comm` (implicit, so that a simulator is built from the communicator).
    MpiTransport(MPI_Comm comm) : comm_(comm) {  // NOLINT(google-explicit-constructor)
        int rank = 0, size = 1;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        rank_ = static_cast<std::uint32_t>(rank);
        ranks_ = static_cast<std::uint32_t>(size);
        send_counts_.assign(ranks_, 0);
        recv_counts_.assign(ranks_, 0);
        send_at_.assign(ranks_, 0);
        recv_at_.assign(ranks_, 0);
    }
    [[nodiscard]] std::uint32_t rank() const { return rank_; }
    [[nodiscard]] std::uint32_t ranks() const { return ranks_; }
    [[nodiscard]] const ExchangeStats& stats() const { return stats_; }
    void clear_stats() { stats_ = {}; }

    /// The ranks this rank exchanges with (each window one message each way,
    /// empty or not, to each), in increasing order; or, `everyone`, every rank
    /// by one collective. Every rank connects alike (the relation is symmetric).
    void connect(std::span<const std::uint32_t> neighbours, bool everyone) {
        neighbours_.assign(neighbours.begin(), neighbours.end());
        everyone_ = everyone;
        requests_.resize(neighbours_.size());
    }

    void exchange(std::vector<std::vector<std::byte>>& out, std::vector<std::byte>& in) {
        if (!everyone_) return exchange_with_neighbours(out, in);
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t total = 0;
        for (std::uint32_t r = 0; r < ranks_; ++r) {
            fabric::detail::require(out[r].size() < INT_MAX, "a partitioned run's window holds more than 2 GiB for "
                                    "one rank");
            send_counts_[r] = static_cast<int>(out[r].size());
            send_at_[r] = static_cast<int>(total);
            total += out[r].size();
            if (r != rank_ && !out[r].empty()) {
                ++stats_.messages;
                stats_.bytes += out[r].size();
            }
        }
        send_.clear();
        for (const auto& o : out) send_.insert(send_.end(), o.begin(), o.end());
        MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, comm_);
        std::size_t got = 0;
        for (std::uint32_t r = 0; r < ranks_; ++r) {
            recv_at_[r] = static_cast<int>(got);
            got += static_cast<std::size_t>(recv_counts_[r]);
        }
        in.resize(got);
        MPI_Alltoallv(send_.data(), send_counts_.data(), send_at_.data(), MPI_BYTE, in.data(), recv_counts_.data(),
                      recv_at_.data(), MPI_BYTE, comm_);
        ++stats_.windows;
        stats_.exchange_seconds += seconds_since(t0);
    }

    void sum(std::span<std::uint64_t> values) {
        const auto t0 = std::chrono::steady_clock::now();
        MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM, comm_);
        ++stats_.reductions;
        stats_.exchange_seconds += seconds_since(t0);
    }

    void gather(std::vector<std::uint32_t>& values) {
        const int mine = static_cast<int>(values.size());
        std::vector<int> counts(ranks_), at(ranks_);
        MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
        int total = 0;
        for (std::uint32_t r = 0; r < ranks_; ++r) {
            at[r] = total;
            total += counts[r];
        }
        std::vector<std::uint32_t> all(static_cast<std::size_t>(total));
        MPI_Allgatherv(values.data(), mine, MPI_UINT32_T, all.data(), counts.data(), at.data(), MPI_UINT32_T, comm_);
        values = std::move(all);
        ++stats_.reductions;
    }

    /// Runs one partitioned run. A configuration the partition refuses throws
    /// alike on every rank, before the ranks first talk; an error after that may
    /// be one rank's alone, and the others would wait for it forever: it is
    /// reported and the job aborted.
    template <class Run>
    auto guard(Run&& go) -> decltype(go()) {
        stats_ = {};
        try {
            return go();
        } catch (const std::exception& e) {
            if (stats_.windows == 0 && stats_.reductions == 0) throw;
            std::fprintf(stderr, "fabric: rank %u of a partitioned run failed at cycle-level and the other ranks "
                         "cannot go on without it; aborting: %s\n", rank_, e.what());
            MPI_Abort(comm_, 1);
            throw;
        }
    }

private:
    /// One message to each neighbour and one from each, in rank order: what the
    /// others do not link to they never hear of.
    void exchange_with_neighbours(std::vector<std::vector<std::byte>>& out, std::vector<std::byte>& in) {
        const auto t0 = std::chrono::steady_clock::now();
        constexpr int tag = 7001;
        for (std::size_t i = 0; i < neighbours_.size(); ++i) {
            const std::uint32_t r = neighbours_[i];
            fabric::detail::require(out[r].size() < INT_MAX, "a partitioned run's window holds more than 2 GiB for "
                                    "one rank");
            MPI_Isend(out[r].data(), static_cast<int>(out[r].size()), MPI_BYTE, static_cast<int>(r), tag, comm_,
                      &requests_[i]);
            ++stats_.sends;
            if (!out[r].empty()) {
                ++stats_.messages;
                stats_.bytes += out[r].size();
            }
        }
        in.clear();
        for (const std::uint32_t r : neighbours_) {
            MPI_Status status;
            MPI_Probe(static_cast<int>(r), tag, comm_, &status);
            int count = 0;
            MPI_Get_count(&status, MPI_BYTE, &count);
            const std::size_t at = in.size();
            in.resize(at + static_cast<std::size_t>(count));
            MPI_Recv(in.data() + at, count, MPI_BYTE, static_cast<int>(r), tag, comm_, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
        ++stats_.windows;
        stats_.exchange_seconds += seconds_since(t0);
    }

    static double seconds_since(std::chrono::steady_clock::time_point t0) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    MPI_Comm comm_;
    std::uint32_t rank_ = 0, ranks_ = 1;
    std::vector<int> send_counts_, recv_counts_, send_at_, recv_at_;
    std::vector<std::byte> send_;
    std::vector<std::uint32_t> neighbours_;
    bool everyone_ = true;
    std::vector<MPI_Request> requests_;
    ExchangeStats stats_;
};

static_assert(CycleTransport<MpiTransport>);

/// The cycle kernel over the ranks of `comm`, each stepping the routers the
/// partition policy gives it: a CycleSimulator whose transport is MPI. Every rank
/// constructs it alike (fabric, configuration, communicator, policy) and calls the
/// same runs in the same order; each returns the whole run's result. What the
/// ranks exchanged in the last run: transport().stats().
template <class Fab, class A = SeparableSwitch>
using PartitionedCycle = CycleSimulator<Fab, A, MpiTransport>;

}  // namespace fabric::dist
