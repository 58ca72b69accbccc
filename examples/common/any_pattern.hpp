// One traffic pattern chosen at run time, for command-line examples: a variant
// over the library's patterns, visited per call (the kernels themselves stay
// instantiated per pattern type in library code; an example needs only one).
#pragma once

#include <fabric/mapping/patterns.hpp>

#include <string>
#include <variant>
#include <vector>

namespace fabric_examples {

class AnyPattern {
public:
    using Variant = std::variant<fabric::UniformTraffic, fabric::HaloTraffic, fabric::TransposeTraffic,
                                 fabric::BitComplementTraffic, fabric::TornadoTraffic,
                                 fabric::RandomPermutationTraffic>;

    /// name: uniform, neighbour, transpose, bitcomp, tornado, randperm; `grid` the
    /// node grid (extents, dimension 0 fastest).
    static AnyPattern make(const std::string& name, const std::vector<long long>& grid, std::uint64_t seed) {
        std::size_t n = 1;
        for (const auto k : grid) n *= static_cast<std::size_t>(k);
        if (name == "uniform") return AnyPattern{fabric::UniformTraffic(n)};
        if (name == "neighbour" || name == "halo") return AnyPattern{fabric::HaloTraffic(fabric::Grid(grid))};
        if (name == "transpose") {
            if (grid.size() != 2)
                throw fabric::config_error("fabric: transpose traffic needs a 2-D grid of nodes");
            return AnyPattern{fabric::TransposeTraffic(static_cast<std::size_t>(grid[1]), static_cast<std::size_t>(grid[0]))};
        }
        if (name == "bitcomp") return AnyPattern{fabric::BitComplementTraffic(n)};
        if (name == "tornado") return AnyPattern{fabric::TornadoTraffic(fabric::Grid(grid))};
        if (name == "randperm") return AnyPattern{fabric::RandomPermutationTraffic(n, seed)};
        throw fabric::config_error("fabric: unknown traffic pattern '" + name +
                                   "'; valid: uniform, neighbour, transpose, bitcomp, tornado, randperm");
    }

    [[nodiscard]] std::size_t task_count() const {
        return std::visit([](const auto& p) { return p.task_count(); }, v_);
    }
    template <class F>
    void for_each_flow(F&& f) const {
        std::visit([&](const auto& p) { p.for_each_flow(f); }, v_);
    }
    [[nodiscard]] std::size_t sample(std::size_t src, fabric::Random& rng) const {
        return std::visit([&](const auto& p) { return p.sample(src, rng); }, v_);
    }

private:
    explicit AnyPattern(Variant v) : v_(std::move(v)) {}
    Variant v_;
};

}  // namespace fabric_examples
