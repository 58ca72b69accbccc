// Where a workload's ranks sit on a network: rank -> its terminals. A rank owns
// one terminal or several (its rails: a multi-ported NIC), and a message leaves
// and arrives by the rail its node names (Node::rail), so that a multi-ported
// algorithm can inject in every direction at once: place a rank on the p
// terminals of one router of a Concentrated topology (rails(ranks, p)). Built from
// the mapping layer's task placement (fabric::Placement: task t on node t) or given
// outright; several ranks may share a terminal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/mapping/placement.hpp>

namespace fabric::workload {

class RankPlacement {
public:
    /// No placement given: rank r on terminal r (set for a run by its rank count).
    RankPlacement() = default;
    /// Rank r on the terminals terminals_of_rank[r] (its rails, in order).
    explicit RankPlacement(std::vector<std::vector<std::uint32_t>> terminals_of_rank)
        : rails_(std::move(terminals_of_rank)) {
        for (std::size_t r = 0; r < rails_.size(); ++r)
            fabric::detail::require(!rails_[r].empty(), "rank ", r, " is placed on no terminal");
    }

    /// Rank r on terminal r, for `ranks` ranks.
    static RankPlacement identity(std::uint32_t ranks) {
        std::vector<std::vector<std::uint32_t>> t(ranks);
        for (std::uint32_t r = 0; r < ranks; ++r) t[r] = {r};
        return RankPlacement(std::move(t));
    }
    /// Rank r on the `rails` terminals r * rails to r * rails + rails - 1: every
    /// terminal of one router of a topology concentrated `rails` to a router.
    static RankPlacement rails(std::uint32_t ranks, std::uint32_t rails) {
        fabric::detail::require(rails >= 1, "a rank needs at least one rail");
        std::vector<std::vector<std::uint32_t>> t(ranks);
        for (std::uint32_t r = 0; r < ranks; ++r)
            for (std::uint32_t i = 0; i < rails; ++i) t[r].push_back(r * rails + i);
        return RankPlacement(std::move(t));
    }
    /// The mapping layer's placement: rank (task) t on terminal (node) p.node_of(t).
    static RankPlacement from(const fabric::Placement& p) {
        std::vector<std::vector<std::uint32_t>> t(p.task_count());
        for (std::size_t r = 0; r < t.size(); ++r) t[r] = {p.node_of(r)};
        return RankPlacement(std::move(t));
    }

    /// Whether a placement was given (else identity applies).
    [[nodiscard]] bool given() const { return !rails_.empty(); }
    [[nodiscard]] std::uint32_t ranks() const { return static_cast<std::uint32_t>(rails_.size()); }
    [[nodiscard]] const std::vector<std::uint32_t>& terminals(std::uint32_t rank) const { return rails_[rank]; }
    /// The terminal of `rank`'s rail `rail`.
    [[nodiscard]] std::uint32_t terminal(std::uint32_t rank, std::uint32_t rail) const { return rails_[rank][rail]; }
    [[nodiscard]] std::uint32_t rails_of(std::uint32_t rank) const {
        return static_cast<std::uint32_t>(rails_[rank].size());
    }

    /// Refuses a placement that does not fit a workload of `ranks` ranks on `terminals` terminals.
    void check(std::uint32_t ranks, std::uint32_t terminals) const {
        fabric::detail::require(rails_.size() == ranks, "the placement places ", rails_.size(), " ranks; the workload has ",
                        ranks);
        for (std::size_t r = 0; r < rails_.size(); ++r)
            for (const std::uint32_t t : rails_[r])
                fabric::detail::require(t < terminals, "rank ", r, " is placed on terminal ", t, ", past the network's ",
                                terminals, " terminals (0 to ", terminals - 1, ")");
    }

private:
    std::vector<std::vector<std::uint32_t>> rails_;
};

}  // namespace fabric::workload
