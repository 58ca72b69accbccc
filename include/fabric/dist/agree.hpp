// Ranks that agree before any of them waits on another: a program whose ranks
// check their input apart (one rank opens the output, every rank reads the
// options) calls agree() at every point where a rank could otherwise wait for one
// that has given up, and once at its end. Each rank says whether it failed, and
// with what status and message; every rank gets back the same verdict: the
// failure of the lowest rank that failed (its status and message, for every rank
// to end with), or, when none failed, the highest status any rank ends with. A
// rank that fails calls agree() once, with its failure, in place of the next call
// the others make, so the ranks stay in step.
//
// Opt-in: include it and link fabric::mpi (Debian libopenmpi-dev).
#pragma once

#include <string>

#include <fabric/dist/session.hpp>  // <mpi.h>, C interface

namespace fabric::dist {

/// What one rank says at a point of agreement, and what they all agree on.
struct Verdict {
    bool failed = false;
    int status = 0;       // the status to exit with
    std::string message;  // why, when failed
    int rank = -1;        // the agreed verdict: the rank whose failure it is (-1: none failed)
};

/// Every rank of `comm` calls it with its own verdict; each gets the agreed one.
inline Verdict agree(MPI_Comm comm, const Verdict& mine) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    struct {
        int failed_first;  // 0 for a rank that failed, so that MINLOC finds the lowest of them
        int rank;
    } in{mine.failed ? 0 : 1, rank}, out{};
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, comm);
    Verdict v;
    if (out.failed_first == 0) {
        v.failed = true;
        v.rank = out.rank;
        int head[2] = {mine.status, static_cast<int>(mine.message.size())};
        MPI_Bcast(head, 2, MPI_INT, out.rank, comm);
        v.status = head[0];
        v.message = rank == out.rank ? mine.message : std::string(static_cast<std::size_t>(head[1]), '\0');
        MPI_Bcast(v.message.data(), head[1], MPI_CHAR, out.rank, comm);
        return v;
    }
    int status = mine.status;
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, comm);
    v.status = status;
    return v;
}

}  // namespace fabric::dist
