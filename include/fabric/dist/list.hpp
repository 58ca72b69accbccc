// A list of independent runs, the unit of work dist/sweep.hpp deals over MPI
// ranks: job(i) for i in [0, n), results in list order, ending at the first
// result a stop rule holds for. serial_list is that list run in order on one
// process, the reference the dealt runs must equal. Needs no MPI.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include <fabric/dist/codec.hpp>

namespace fabric::dist {

/// Called on rank 0 between its own runs, and once at the end: runs finished, runs in the list.
using ListProgress = std::function<void(std::size_t finished, std::size_t total)>;

/// A stop rule that never stops: every run of the list is made.
struct RunAll {
    template <class R>
    constexpr bool operator()(const R&) const {
        return false;
    }
};

template <class Job>
using job_result_t = std::remove_cvref_t<std::invoke_result_t<Job&, std::size_t>>;

/// A run of a list: job(i) gives a result that can cross ranks.
template <class Job>
concept ListJob = std::invocable<Job&, std::size_t> && Encodable<job_result_t<Job>> &&
                  std::default_initializable<job_result_t<Job>>;

/// Checks ListJob with a message that says how to fix it (in the body, so it is what the compiler reports).
template <class Job>
constexpr void check_list_job() {
    static_assert(ListJob<Job>, "fabric: a run of a list is called as job(std::size_t index) and gives a result that "
                                "can cross MPI ranks and be default-constructed: make the result trivially copyable, "
                                "a Boost.Hana struct, or specialise fabric::dist::Codec for it");
}

/// The reference: the list run in order on this process, ending at the first
/// stop (progress, if given, after every run).
template <class Job, class Stop = RunAll>
auto serial_list(std::size_t count, Job&& job, Stop&& stop = {}, const ListProgress& progress = {}) {
    check_list_job<Job>();
    std::vector<job_result_t<Job>> out;
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(job(i));
        if (progress) progress(out.size(), count);
        if (stop(std::as_const(out.back()))) break;
    }
    return out;
}

}  // namespace fabric::dist
