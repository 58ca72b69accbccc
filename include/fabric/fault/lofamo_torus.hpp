// The 3-D torus LO|FA|MO runs on (fault/lofamo.hpp): which nodes are a node's
// neighbours, and in which direction of its links.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/fault/lofamo_registers.hpp>

namespace fabric::lofamo {

/// Neighbours of node v of a 3-D torus of `ext` nodes, with the direction from v to
/// each (one per distinct node and direction; an extent of 2 gives one neighbour in
/// that dimension).
inline std::vector<std::pair<std::size_t, Direction>> torus_neighbours(const std::array<std::uint32_t, 3>& ext,
                                                                       std::size_t v) {
    std::vector<std::pair<std::size_t, Direction>> out;
    const std::size_t x = v % ext[0], y = (v / ext[0]) % ext[1], z = v / (ext[0] * ext[1]);
    auto at = [&](std::size_t a, std::size_t b, std::size_t c) { return a + ext[0] * (b + ext[1] * c); };
    auto add = [&](std::uint32_t k, std::size_t w_plus, std::size_t w_minus, Direction plus, Direction minus) {
        if (k < 2) return;
        out.emplace_back(w_plus, plus);
        if (k > 2) out.emplace_back(w_minus, minus);
    };
    add(ext[0], at((x + 1) % ext[0], y, z), at((x + ext[0] - 1) % ext[0], y, z), Direction::x_plus,
        Direction::x_minus);
    add(ext[1], at(x, (y + 1) % ext[1], z), at(x, (y + ext[1] - 1) % ext[1], z), Direction::y_plus,
        Direction::y_minus);
    add(ext[2], at(x, y, (z + 1) % ext[2]), at(x, y, (z + ext[2] - 1) % ext[2]), Direction::z_plus,
        Direction::z_minus);
    return out;
}

}  // namespace fabric::lofamo
