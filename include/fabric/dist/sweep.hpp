// A list of independent runs dealt over MPI ranks: run_list(comm, n, job) calls
// job(i) for i in [0, n), each on whichever rank is free next, and returns on
// rank 0 the n results in the order of the list (an empty vector elsewhere), as
// the serial loop would give them.
//
// Dealing is dynamic, since runs differ in length by orders of magnitude: rank 0
// holds a counter in an MPI window, and every rank, rank 0 too, takes the next
// index with an atomic fetch-and-add (passive target, so no rank waits for
// another to answer) until the list is done. Results stay where they were made
// and are gathered to rank 0 once, at the end.
//
// An optional stop(result) ends the list early: the results end with the first
// run, in list order, for which it holds (a latency-load curve past saturation).
// A run that stops lowers a shared limit, so later indices are no longer dealt;
// runs past the first stop that were already under way are discarded. The job
// must depend on its index only (its own seeds, its own simulator state), not
// on which rank runs it or what ran there before: then the results are the
// serial ones whatever the number of ranks. A job that throws stops the list on
// every rank, and every rank throws the error of the earliest failed index: a
// config_error as the serial list would (its type and message), anything else as
// a runtime_error that names the run and the rank.
//
// Opt-in: include it and link fabric::mpi (Debian libopenmpi-dev).
#pragma once

#include <algorithm>
#include <climits>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/dist/codec.hpp>
#include <fabric/dist/list.hpp>
#include <fabric/dist/session.hpp>  // <mpi.h>, C interface

namespace fabric::dist {

namespace detail_list {

enum Slot : MPI_Aint { next = 0, limit = 1, finished = 2, slots = 3 };

inline std::uint64_t atomic(MPI_Win win, Slot slot, MPI_Op op, std::uint64_t operand) {
    std::uint64_t old = 0;
    MPI_Fetch_and_op(&operand, &old, MPI_UINT64_T, 0, slot, op, win);
    MPI_Win_flush(0, win);
    return old;
}

/// The message of the exception being handled; `refused` says whether it is a
/// config_error (a configuration the run refused, not a fault).
inline std::string describe_current_exception(bool& refused) {
    refused = false;
    try {
        throw;
    } catch (const config_error& e) {
        refused = true;
        return e.what();
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception not derived from std::exception";
    }
}

/// Every rank learns the earliest failed index and its message, and throws it: a
/// config_error where the run refused its configuration, so that every rank reports
/// a refusal as one, else a runtime_error.
inline void rethrow_earliest(MPI_Comm comm, int rank, std::uint64_t failed, const std::string& what, bool refused) {
    struct {
        long index;
        int rank;
    } mine{failed == UINT64_MAX ? LONG_MAX : static_cast<long>(failed), rank}, first{};
    MPI_Allreduce(&mine, &first, 1, MPI_LONG_INT, MPI_MINLOC, comm);
    if (first.index == LONG_MAX) return;
    int head[2] = {rank == first.rank ? static_cast<int>(what.size()) : 0, refused ? 1 : 0};
    MPI_Bcast(head, 2, MPI_INT, first.rank, comm);
    const int length = head[0];
    std::string text = rank == first.rank ? what : std::string(static_cast<std::size_t>(length), '\0');
    MPI_Bcast(text.data(), length, MPI_CHAR, first.rank, comm);
    if (text.rfind("fabric: ", 0) == 0) text.erase(0, 8);
    if (head[1]) throw config_error("fabric: " + text);  // the refusal as the serial list makes it
    throw std::runtime_error(fabric::detail::message("run ", first.index, " of the list failed on rank ", first.rank,
                                                     ": ", text));
}

/// Each rank's (index, result) records to rank 0, which puts them in list order.
template <class R>
std::vector<R> gather(MPI_Comm comm, int rank, int size, const std::vector<std::byte>& mine, std::size_t end) {
    fabric::detail::require(mine.size() <= INT_MAX, "a rank's results take ", mine.size(), " bytes; run_list gathers "
                            "at most 2 GiB from a rank: return smaller results");
    const int bytes = static_cast<int>(mine.size());
    std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0), offsets(counts.size());
    MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    std::vector<std::byte> all;
    if (rank == 0) {
        long long total = 0;
        for (std::size_t r = 0; r < counts.size(); ++r) {
            offsets[r] = static_cast<int>(std::min<long long>(total, INT_MAX));
            total += counts[r];
        }
        fabric::detail::require(total <= INT_MAX, "the list's results take ", total, " bytes; run_list gathers at "
                                "most 2 GiB: return smaller results");
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0, comm);
    if (rank != 0) return {};
    std::vector<std::optional<R>> slots(end);
    ByteReader in(all);
    while (!in.done()) {
        std::uint64_t index = 0;
        decode(in, index);
        R r{};
        decode(in, r);
        if (index < end) slots[index] = std::move(r);
    }
    std::vector<R> out;
    out.reserve(end);
    for (std::size_t i = 0; i < end; ++i) {
        if (!slots[i]) throw std::logic_error(fabric::detail::message("run_list: run ", i, " was not made"));
        out.push_back(std::move(*slots[i]));
    }
    return out;
}

}  // namespace detail_list

/// Runs job(0) .. job(count - 1) over the ranks of `comm` (see the top of this
/// header); every rank of comm must call it with the same count.
template <class Job, class Stop = RunAll>
auto run_list(MPI_Comm comm, std::size_t count, Job&& job, Stop&& stop = {}, const ListProgress& progress = {}) {
    check_list_job<Job>();
    using R = job_result_t<Job>;
    using namespace detail_list;
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::uint64_t* counters = nullptr;
    MPI_Win win{};
    MPI_Win_allocate(rank == 0 ? static_cast<MPI_Aint>(slots * sizeof(std::uint64_t)) : 0, sizeof(std::uint64_t),
                     MPI_INFO_NULL, comm, &counters, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        counters[next] = counters[finished] = 0;
        counters[limit] = count;
        MPI_Win_sync(win);
    }
    MPI_Barrier(comm);
    ByteWriter mine;
    std::uint64_t failed = UINT64_MAX;
    std::string what;
    bool refused = false;
    for (;;) {
        const std::uint64_t i = atomic(win, next, MPI_SUM, 1);
        if (i >= count || i >= atomic(win, limit, MPI_NO_OP, 0)) break;
        try {
            const R r = job(static_cast<std::size_t>(i));
            encode(mine, i);
            encode(mine, r);
            if (stop(r)) atomic(win, limit, MPI_MIN, i + 1);
        } catch (...) {  // any exception: the other ranks must not wait for this one
            failed = i;
            what = describe_current_exception(refused);
            atomic(win, limit, MPI_MIN, 0);  // no more runs anywhere
        }
        const std::uint64_t done = atomic(win, finished, MPI_SUM, 1) + 1;
        if (rank == 0 && progress) progress(static_cast<std::size_t>(done), count);
    }
    MPI_Barrier(comm);  // every run is over: the limit is final
    const std::uint64_t end = std::min<std::uint64_t>(count, atomic(win, limit, MPI_NO_OP, 0));
    const std::uint64_t made = atomic(win, finished, MPI_NO_OP, 0);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    rethrow_earliest(comm, rank, failed, what, refused);
    if (rank == 0 && progress) progress(static_cast<std::size_t>(made), count);
    return gather<R>(comm, rank, size, mine.bytes(), static_cast<std::size_t>(end));
}

/// run_list over the session's ranks, or serial_list when MPI is not active.
template <class Job, class Stop = RunAll>
auto run_list(const Session& session, std::size_t count, Job&& job, Stop&& stop = {},
              const ListProgress& progress = {}) {
    check_list_job<Job>();
    if (session.active()) return run_list(session.comm(), count, job, stop, progress);
    return serial_list(count, job, stop, progress);
}

}  // namespace fabric::dist
