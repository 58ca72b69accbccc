// What the two PERCS-beside-a-dragonfly examples share: the all-to-all model's
// PERCS system (d = 1: 33 supernodes of 32 hubs, one D link between every pair),
// the group size and count of the dragonfly beside it, and the three patterns:
// uniform (every hub to every other), the worst case (every hub of supernode i to
// supernode i + 1) and the mapping study's halo (a 32 x 33 grid, a row a supernode).
#pragma once

#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/systems/percs.hpp>

#include <array>
#include <cstdint>
#include <variant>

namespace fabric_examples {

using ComparisonPattern = std::variant<fabric::UniformTraffic, fabric::GroupShiftTraffic, fabric::HaloTraffic>;

struct PercsDragonflyComparison {
    fabric::PercsTopology percs = fabric::PercsTopology::alltoall_model(1);
    std::uint32_t a = fabric::PercsTopology::nodes_per_supernode;  // routers a group
    std::uint32_t groups = percs.supernodes();

    [[nodiscard]] std::array<ComparisonPattern, 3> patterns() const {
        return {fabric::UniformTraffic(percs.node_count(), fabric::UniformTraffic::Self::excluded),
                fabric::GroupShiftTraffic(a, groups), fabric::HaloTraffic(fabric::Grid({a, groups}))};
    }
};

}  // namespace fabric_examples
