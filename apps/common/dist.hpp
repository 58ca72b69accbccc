// The tools under mpirun: built with MPI (FABRIC_APPS_MPI, where CMake found
// it) and launched by mpirun, a tool deals its list of runs over the ranks
// (dist/sweep.hpp) and prints on rank 0 only; run on its own, or built
// without MPI, it runs the same list in order. Either way the output is the same.
//
// The ranks agree (dist/agree.hpp) before any of them waits on another: a check
// that refuses a run on one rank (rank 0 alone opens the outputs) ends every rank
// with the same status and one message, from rank 0. checkpoint() is that point of
// agreement; run_list and partitioned() call it before the ranks first talk, and
// run_tool calls settle() once at the end, or in place of the next checkpoint when
// this rank has failed.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include <unistd.h>

#include <fabric/dist/list.hpp>

#include "output.hpp"
#ifdef FABRIC_APPS_MPI
#include <fabric/dist/agree.hpp>
#include <fabric/dist/sweep.hpp>
#endif

namespace fabric_apps {

#ifdef FABRIC_APPS_MPI
inline fabric::dist::Session*& session_slot() {
    static fabric::dist::Session* session = nullptr;
    return session;
}
#endif

/// In main(), before run_tool: MPI for the tool's lifetime when mpirun launched it.
class MpiScope {
public:
    MpiScope([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv)
#ifdef FABRIC_APPS_MPI
        : session_(argc, argv) {
        session_slot() = &session_;
    }
    ~MpiScope() { session_slot() = nullptr; }

private:
    fabric::dist::Session session_;
#else
    {
    }
#endif
};

/// Ranks the tool's runs are dealt over (1 without mpirun).
inline int ranks() {
#ifdef FABRIC_APPS_MPI
    if (const auto* s = session_slot(); s && s->active()) return s->size();
#endif
    return 1;
}

/// Rank 0, or the only process: the one that prints.
inline bool root_rank() {
#ifdef FABRIC_APPS_MPI
    if (const auto* s = session_slot(); s && s->active()) return s->root();
#endif
    return true;
}

/// What a rank says at a point of agreement, and what the ranks agreed on.
struct Verdict {
    bool failed = false;
    int status = 0;
    std::string message;  // the fabric: message (and usage) rank 0 prints
};

/// Thrown at a checkpoint when another rank has failed: the ranks agreed on `verdict`,
/// which rank 0 prints; this rank ends with its status.
struct AgreedFailure {
    Verdict verdict;
};

/// Every rank calls it with its verdict and gets the agreed one (alone: its own).
inline Verdict settle(const Verdict& mine) {
#ifdef FABRIC_APPS_MPI
    if (const auto* s = session_slot(); s && s->active() && s->size() > 1) {
        const fabric::dist::Verdict v = fabric::dist::agree(s->comm(), {mine.failed, mine.status, mine.message});
        return {v.failed, v.status, v.message};
    }
#endif
    return mine;
}

/// A point of agreement before the ranks first wait on each other: throws
/// AgreedFailure when a rank has failed (and settled in place of this call).
inline void checkpoint() {
    const Verdict v = settle({});
    if (v.failed) throw AgreedFailure{v};
}

/// "runs finished k of n" on stderr, on rank 0 and only when stderr is a terminal.
inline fabric::dist::ListProgress list_progress() {
    if (!root_rank() || !isatty(STDERR_FILENO)) return {};
    const auto start = std::chrono::steady_clock::now();
    const int n = ranks();
    return [start, n](std::size_t finished, std::size_t total) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "\r%zu of %zu runs finished on %d rank%s, %.0f s ", finished, total, n, n > 1 ? "s" : "", s);
        progress_line_open() = true;  // ended before results are written (output.hpp)
    };
}

/// The list job(0) .. job(count - 1), ending at the first result stop() holds
/// for: dealt over the ranks under mpirun, in order otherwise. The results are
/// on rank 0 (empty elsewhere).
template <class Job, class Stop = fabric::dist::RunAll>
auto run_list(std::size_t count, Job&& job, Stop&& stop = {}) {
    checkpoint();  // no rank deals runs to ranks that have given up
    auto progress = list_progress();
#ifdef FABRIC_APPS_MPI
    if (const auto* s = session_slot(); s && s->active())
        return fabric::dist::run_list(s->comm(), count, job, stop, progress);
#endif
    return fabric::dist::serial_list(count, job, stop, progress);
}

}  // namespace fabric_apps
