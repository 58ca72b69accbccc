// One traffic pattern chosen at run time by name (command-line tools and
// configuration files): a variant over the library's patterns, visited per call.
// The kernels stay instantiated per pattern type; a tool needs only this one.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>

namespace fabric {

class NamedPattern {
public:
    using Variant = std::variant<UniformTraffic, NeighbourTraffic, HaloTraffic, TransposeTraffic,
                                 RowColumnAllToAllTraffic, BitComplementTraffic, BitReverseTraffic, ShuffleTraffic,
                                 TornadoTraffic, RandomPermutationTraffic, HotSpotTraffic, GroupShiftTraffic>;

    /// The names make() knows, as the literature defines them (standard_patterns.hpp);
    /// row_column_alltoall is what the PERCS mapping paper calls transpose, and
    /// hotspot[:F] sends fraction F (default 0.1) to node 0, the rest uniformly;
    /// group_shift on a 2-D grid sends each task uniformly to the row (dimension
    /// 1) after its own, the dragonfly's worst case when a row is a group.
    static constexpr const char* names =
        "uniform, neighbour, halo, transpose, row_column_alltoall, bitcomp, bitrev, shuffle, tornado, randperm, "
        "hotspot[:F], group_shift";

    /// `grid` the node grid (extents, dimension 0 fastest); `seed` for randperm.
    static NamedPattern make(const std::string& name, const std::vector<long long>& grid, std::uint64_t seed) {
        std::size_t n = 1;
        for (const auto k : grid) n *= static_cast<std::size_t>(k);
        if (name == "uniform") return NamedPattern{UniformTraffic(n)};
        if (name == "neighbour" || name == "neighbor") return NamedPattern{NeighbourTraffic(Grid(grid))};
        if (name == "halo") return NamedPattern{HaloTraffic(Grid(grid))};
        if (name == "transpose") return NamedPattern{TransposeTraffic(n)};
        if (name == "row_column_alltoall") {
            detail::require(grid.size() == 2, "row_column_alltoall traffic needs a 2-D grid of nodes; got ",
                            grid.size(), " dimensions");
            return NamedPattern{RowColumnAllToAllTraffic(static_cast<std::size_t>(grid[1]),
                                                         static_cast<std::size_t>(grid[0]))};
        }
        if (name == "bitcomp") return NamedPattern{BitComplementTraffic(n)};
        if (name == "bitrev") return NamedPattern{BitReverseTraffic(n)};
        if (name == "shuffle") return NamedPattern{ShuffleTraffic(n)};
        if (name == "tornado") return NamedPattern{TornadoTraffic(Grid(grid))};
        if (name == "randperm") return NamedPattern{RandomPermutationTraffic(n, seed)};
        if (name == "group_shift") {
            detail::require(grid.size() == 2, "group_shift traffic needs a 2-D grid of nodes (members, groups); got ",
                            grid.size(), " dimensions");
            return NamedPattern{GroupShiftTraffic(static_cast<std::size_t>(grid[0]), static_cast<std::size_t>(grid[1]))};
        }
        if (name == "hotspot") return NamedPattern{HotSpotTraffic(n, {0}, 0.1)};
        if (name.starts_with("hotspot:")) {
            const std::string f = name.substr(8);
            char* end = nullptr;
            const double fraction = std::strtod(f.c_str(), &end);
            detail::require(!f.empty() && end == f.c_str() + f.size() && std::isfinite(fraction),
                            "hotspot:F needs a number F in [0, 1]; got '", f, "'");
            return NamedPattern{HotSpotTraffic(n, {0}, fraction)};
        }
        throw config_error("fabric: unknown traffic pattern '" + name + "'; valid: " + names);
    }

    [[nodiscard]] std::size_t task_count() const {
        return std::visit([](const auto& p) { return p.task_count(); }, v_);
    }
    template <class F>
    void for_each_flow(F&& f) const {
        std::visit([&](const auto& p) { p.for_each_flow(f); }, v_);
    }
    /// Invariant when the pattern chosen is (concepts/symmetry.hpp); one source's
    /// flows are asked for only then.
    [[nodiscard]] bool invariant_under(const Translations& group) const {
        return std::visit([&](const auto& p) {
            if constexpr (requires { p.invariant_under(group); }) return static_cast<bool>(p.invariant_under(group));
            else return false;
        }, v_);
    }
    template <class F>
    void for_each_flow_from(std::size_t source, F&& f) const {
        std::visit([&](const auto& p) {
            if constexpr (requires { p.for_each_flow_from(source, f); }) p.for_each_flow_from(source, f);
            else p.for_each_flow([&](std::size_t s, std::size_t d, double amount) { if (s == source) f(d, amount); });
        }, v_);
    }
    [[nodiscard]] std::size_t sample(std::size_t src, Random& rng) const {
        return std::visit([&](const auto& p) { return p.sample(src, rng); }, v_);
    }

private:
    explicit NamedPattern(Variant v) : v_(std::move(v)) {}
    Variant v_;
};

}  // namespace fabric
