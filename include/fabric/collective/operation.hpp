// The collective operations, their names, and the figures nccl-tests reports for
// them: algbw = size / time, busbw = algbw x a factor that makes it comparable with
// the links' bandwidth whatever the rank count (nccl-tests' doc/PERFORMANCE.md):
// allreduce 2(p-1)/p; allgather, reduce-scatter and alltoall (p-1)/p; broadcast and
// reduce 1. The size is nccl-tests' too: the whole vector of an allreduce,
// broadcast or reduce; the whole gathered (scattered) vector of an allgather
// (reduce-scatter), of which each rank holds 1/p; each rank's whole send buffer of
// an all-to-all, 1/p of it for each rank.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fabric::collective {

enum class Operation : std::uint8_t { allreduce, allgather, reduce_scatter, broadcast, reduce, alltoall, barrier };

inline constexpr std::array<Operation, 7> operations{Operation::allreduce, Operation::allgather,
                                                     Operation::reduce_scatter, Operation::broadcast,
                                                     Operation::reduce, Operation::alltoall, Operation::barrier};

[[nodiscard]] constexpr std::string_view name(Operation op) {
    switch (op) {
    case Operation::allreduce: return "allreduce";
    case Operation::allgather: return "allgather";
    case Operation::reduce_scatter: return "reduce-scatter";
    case Operation::broadcast: return "broadcast";
    case Operation::reduce: return "reduce";
    case Operation::alltoall: return "alltoall";
    case Operation::barrier: return "barrier";
    }
    return "?";
}

/// The member of `all` (operations, or the catalogue's algorithms) whose name() is `word`, if any.
template <class E, std::size_t N>
[[nodiscard]] constexpr std::optional<E> named(std::string_view word, const std::array<E, N>& all) {
    for (const E e : all)
        if (name(e) == word) return e;
    return std::nullopt;
}

/// nccl-tests' bus bandwidth factor for p ranks (0 for a barrier, which moves no data).
[[nodiscard]] constexpr double bus_factor(Operation op, std::uint32_t p) {
    const double n = p;
    switch (op) {
    case Operation::allreduce: return 2 * (n - 1) / n;
    case Operation::allgather:
    case Operation::reduce_scatter:
    case Operation::alltoall: return (n - 1) / n;
    case Operation::broadcast:
    case Operation::reduce: return 1;
    case Operation::barrier: return 0;
    }
    return 0;
}

/// Whether the operation has a root (broadcast, reduce).
[[nodiscard]] constexpr bool rooted(Operation op) { return op == Operation::broadcast || op == Operation::reduce; }

/// Whether the operation reduces (its compute nodes take the endpoints' reduction cost).
[[nodiscard]] constexpr bool reducing(Operation op) {
    return op == Operation::allreduce || op == Operation::reduce_scatter || op == Operation::reduce;
}

}  // namespace fabric::collective
