// Placement: which node each task runs on. Several tasks may share a node (a
// PERCS hub carries 4 processors, so 4 tasks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric {

class Placement {
public:
    /// Task t on node t / (tasks / nodes): consecutive tasks fill a node, then the next.
    static constexpr Placement blocked(std::size_t tasks, std::size_t nodes) {
        detail::require(nodes >= 1 && tasks >= nodes && tasks % nodes == 0, "a blocked placement needs the task "
                        "count to be a positive multiple of the node count; got ", tasks, " tasks on ", nodes,
                        " nodes");
        const std::size_t per_node = tasks / nodes;
        std::vector<std::uint32_t> node_of(tasks, 0);  // (n, 0), not (n): Clang 14 cannot default-fill a vector in constant evaluation
        for (std::size_t t = 0; t < tasks; ++t) node_of[t] = static_cast<std::uint32_t>(t / per_node);
        return Placement(std::move(node_of), nodes);
    }

    constexpr Placement(std::vector<std::uint32_t> node_of_task, std::size_t nodes)
        : node_of_(std::move(node_of_task)), nodes_(nodes) {
        for (std::size_t t = 0; t < node_of_.size(); ++t)
            detail::require(node_of_[t] < nodes_, "task ", t, " is placed on node ", node_of_[t],
                            ", which is out of range; valid: 0 to ", nodes_ - 1);
    }

    [[nodiscard]] constexpr std::size_t task_count() const { return node_of_.size(); }
    [[nodiscard]] constexpr std::size_t node_count() const { return nodes_; }
    [[nodiscard]] constexpr std::uint32_t node_of(std::size_t task) const { return node_of_[task]; }
    [[nodiscard]] constexpr const std::vector<std::uint32_t>& nodes() const { return node_of_; }

private:
    std::vector<std::uint32_t> node_of_;
    std::size_t nodes_;
};

}  // namespace fabric
