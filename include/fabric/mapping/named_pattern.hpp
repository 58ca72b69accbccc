// One traffic pattern chosen at run time by name (command-line tools and
// configuration files): a variant over the library's patterns, visited per call.
// The kernels stay instantiated per pattern type; a tool needs only this one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/patterns.hpp>

namespace fabric {

class NamedPattern {
public:
    using Variant = std::variant<UniformTraffic, HaloTraffic, TransposeTraffic,
                                 BitComplementTraffic, TornadoTraffic,
                                 RandomPermutationTraffic>;

    /// name: uniform, neighbour, transpose, bitcomp, tornado, randperm; `grid` the
    /// node grid (extents, dimension 0 fastest).
    static NamedPattern make(const std::string& name, const std::vector<long long>& grid, std::uint64_t seed) {
        std::size_t n = 1;
        for (const auto k : grid) n *= static_cast<std::size_t>(k);
        if (name == "uniform") return NamedPattern{UniformTraffic(n)};
        if (name == "neighbour" || name == "halo") return NamedPattern{HaloTraffic(Grid(grid))};
        if (name == "transpose") {
            if (grid.size() != 2)
                throw config_error("fabric: transpose traffic needs a 2-D grid of nodes; got " + std::to_string(grid.size()) + " dimensions");
            return NamedPattern{TransposeTraffic(static_cast<std::size_t>(grid[1]), static_cast<std::size_t>(grid[0]))};
        }
        if (name == "bitcomp") return NamedPattern{BitComplementTraffic(n)};
        if (name == "tornado") return NamedPattern{TornadoTraffic(Grid(grid))};
        if (name == "randperm") return NamedPattern{RandomPermutationTraffic(n, seed)};
        throw config_error("fabric: unknown traffic pattern '" + name +
                                   "'; valid: uniform, neighbour, transpose, bitcomp, tornado, randperm");
    }

    /// The names make() knows.
    static constexpr const char* names = "uniform, neighbour, transpose, bitcomp, tornado, randperm";

    [[nodiscard]] std::size_t task_count() const {
        return std::visit([](const auto& p) { return p.task_count(); }, v_);
    }
    template <class F>
    void for_each_flow(F&& f) const {
        std::visit([&](const auto& p) { p.for_each_flow(f); }, v_);
    }
    [[nodiscard]] std::size_t sample(std::size_t src, Random& rng) const {
        return std::visit([&](const auto& p) { return p.sample(src, rng); }, v_);
    }

private:
    explicit NamedPattern(Variant v) : v_(std::move(v)) {}
    Variant v_;
};

}  // namespace fabric
