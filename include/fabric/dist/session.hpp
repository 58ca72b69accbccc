// MPI for programs that may or may not be launched by mpirun: a Session
// initialises MPI only when a launcher started the process (Open MPI's, or any
// PMI / PMIx one), so a tool run on its own stays a plain process, and finalises
// it at the end. Opt-in: include it and link fabric::mpi (Debian libopenmpi-dev).
#pragma once

#include <cstdlib>

// MPI's C interface only: Open MPI's and MPICH's deprecated C++ bindings do not
// compile warning-free and the library does not use them.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <fabric/core/error.hpp>

namespace fabric::dist {

class Session {
public:
    /// Initialises MPI when the process was launched by mpirun (or when `always`).
    Session(int& argc, char**& argv, bool always = false) {
        int ready = 0;
        MPI_Initialized(&ready);
        if (!ready && (always || launched())) {
            detail::require(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init failed");
            owned_ = true;
            ready = 1;
        }
        if (ready) {
            active_ = true;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
            MPI_Comm_size(MPI_COMM_WORLD, &size_);
        }
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    ~Session() {
        if (owned_) MPI_Finalize();
    }

    /// Whether an MPI launcher started this process (its environment says so).
    [[nodiscard]] static bool launched() {
        for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
            if (std::getenv(name)) return true;
        return false;
    }

    /// MPI is initialised: the runs may be dealt over the ranks of comm().
    [[nodiscard]] bool active() const { return active_; }
    [[nodiscard]] int rank() const { return rank_; }
    [[nodiscard]] int size() const { return size_; }
    /// Rank 0, or the only process: where results are gathered and printed.
    [[nodiscard]] bool root() const { return rank_ == 0; }
    [[nodiscard]] MPI_Comm comm() const { return MPI_COMM_WORLD; }

private:
    bool owned_ = false, active_ = false;
    int rank_ = 0, size_ = 1;
};

}  // namespace fabric::dist
