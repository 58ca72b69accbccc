// The collectives a workload file names (a Chakra COMM_COLL_NODE), expanded by the
// catalogue (collective/algorithms.hpp): one algorithm an operation, chosen as
// ASTRA-sim's system file chooses its all-reduce-implementation and the others.
// A workload's collective runs over a list of ranks (its process group), not a
// grid, so only the flat algorithms take it; the composed ones (dimension-wise,
// multiported, hierarchical) are refused where the choice is made.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <fabric/collective/algorithms.hpp>
#include <fabric/core/error.hpp>
#include <fabric/workload/graph.hpp>
#include <fabric/workload/matching.hpp>

namespace fabric::collective {

/// Which algorithm runs each operation, and how messages are cut and reduced.
struct WorkloadAlgorithms {
    // Per Operation, in its order: allreduce, allgather, reduce-scatter, broadcast, reduce, alltoall, barrier.
    std::array<Algorithm, 7> of{Algorithm::ring,     Algorithm::ring,     Algorithm::ring,         Algorithm::binomial,
                                Algorithm::binomial, Algorithm::pairwise, Algorithm::dissemination};
    std::uint32_t segments = 1;   // pieces each message is cut into
    double reduce_per_byte = 0;   // gamma, cycles a byte

    [[nodiscard]] Algorithm operator[](Operation op) const { return of[static_cast<std::size_t>(op)]; }

    /// Runs `op` by `a`; refused (config_error) where the catalogue lacks the pair or `a` is a composed one.
    void choose(Operation op, Algorithm a) {
        fabric::detail::require(!composed(a) || !supports(op, a), name(a), " lays the ranks out as a grid; a "
                                "workload's collective runs over a list of ranks (its process group): choose a flat "
                                "algorithm for ", name(op));
        std::string flat;
        for (const Algorithm x : algorithms)
            if (supports(op, x) && !composed(x)) flat += (flat.empty() ? "" : ", ") + std::string(name(x));
        fabric::detail::require(supports(op, a), name(op), " has no algorithm '", name(a), "'; a workload's ", name(op),
                                " runs by ", flat);
        of[static_cast<std::size_t>(op)] = a;
    }

    /// Choices written "allreduce=ring,alltoall=direct" (what `choose` takes, by name), each operation once.
    void choose(std::string_view list) {
        if (list.empty()) return;
        std::array<bool, operations.size()> given{};
        for (std::string_view rest = list;;) {
            const std::size_t comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            const auto eq = item.find('=');
            fabric::detail::require(eq != std::string_view::npos, "'", item, "' in '", list, "' is not OPERATION=ALGORITHM");
            const auto op = named_or_refused(item.substr(0, eq), operations, "operation");
            fabric::detail::require(!given[static_cast<std::size_t>(op)], name(op), " is given twice in '", list, "'");
            given[static_cast<std::size_t>(op)] = true;
            choose(op, named_or_refused(item.substr(eq + 1), algorithms, "algorithm"));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }

private:
    template <class E, std::size_t N>
    static E named_or_refused(std::string_view word, const std::array<E, N>& all, std::string_view what) {
        if (const auto e = collective::named(word, all)) return *e;
        std::string known;
        for (const E e : all) known += (known.empty() ? "" : ", ") + std::string(name(e));
        fabric::detail::require(false, "'", word, "' is no collective ", what, "; there are ", known);
        return all[0];
    }
};

/// The graph of `call` by the `chosen` algorithms, held as arithmetic (CollectiveGraph: its size known before
/// any node is made); a refusal names the call's file and line.
[[nodiscard]] inline CollectiveGraph expansion(const WorkloadAlgorithms& chosen, const workload::ops::CollectiveCall& call) {
    const auto op = collective::named(call.operation, operations);
    fabric::detail::require(op.has_value(), call.where, "'", call.operation, "' is no collective operation");
    const auto p = static_cast<std::uint32_t>(call.ranks.size());
    const Size size{.bytes = call.bytes, .segments = chosen.segments, .reduce_per_byte = chosen.reduce_per_byte,
                    .root = call.root};
    try {
        return build(*op, chosen[*op], Shape::line(p), size);
    } catch (const config_error& e) {  // say which of the file's collectives it was
        fabric::detail::rethrow_at(call.where, e);
    }
}

/// The expander workload readers take (workload::ops::CollectiveExpander), running the `chosen` algorithms.
[[nodiscard]] inline workload::ops::CollectiveExpander expander(const WorkloadAlgorithms& chosen = {}) {
    return [chosen](const workload::ops::CollectiveCall& call) {
        return workload::to_explicit(expansion(chosen, call), "collective");
    };
}

}  // namespace fabric::collective
