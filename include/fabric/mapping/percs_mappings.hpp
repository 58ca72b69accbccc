// Task-to-processor mappings for the PERCS mapping study (Chakaravarthy et al.,
// sections IV-C, IV-D and V). A job of n = 128 n_s tasks is a P x Q grid (P rows,
// Q columns, task = row * Q + column); processors are numbered supernode * 128 +
// node * 4 + chip, so processor j sits on node j / 4.
//
//  default        task j on processor j
//  blocking       the grid cut into alpha x beta blocks (node 2x2, drawer 4x8,
//                 supernode 8x16), block k (row-major) on processor block k
//                 (sequential) or on a seeded random one; inside a block, tasks
//                 row-major onto consecutive processors
//  mod-colour     8x8 blocks coloured by supernode: block (i, j) of the p x q block
//                 grid gets colour (i / 2) q + (i even ? j : (5 j + 2) mod q), the
//                 nice-permutation construction of Lemma 4.1; the block of the even
//                 row fills nodes 0-15 of its supernode, the other nodes 16-31, each
//                 block as 2x2 quads in row-major order, one quad per node
//  row / column   whole rows (column-major: whole columns) onto consecutive processors
//  hybrid         row-wise when a row fits in a supernode (Q <= 128), else
//                 column-wise when a column does (P <= 128), else row-wise. The
//                 paper leaves the rule to its full version; this is our reading.
#pragma once

#include <bit>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/math.hpp>
#include <fabric/core/random.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/placement.hpp>
#include <fabric/topology/percs.hpp>

namespace fabric {

/// A P x Q task grid, P rows and Q columns, row-major.
struct TaskGrid {
    std::size_t rows = 0;
    std::size_t cols = 0;
    [[nodiscard]] constexpr std::size_t size() const { return rows * cols; }
    friend constexpr bool operator==(const TaskGrid&, const TaskGrid&) = default;
};

/// The grid the paper uses for n tasks: P x Q with P <= Q, Q a power of two, as
/// close to square as possible.
constexpr TaskGrid default_task_grid(std::size_t tasks) {
    detail::require(tasks >= 1, "a task grid needs at least 1 task");
    for (std::size_t q = std::bit_ceil(static_cast<std::size_t>(
             detail::ceil_nonnegative(detail::sqrt_nonnegative(static_cast<double>(tasks)))));
         q <= tasks; q *= 2)
        if (tasks % q == 0 && tasks / q <= q) return TaskGrid{tasks / q, q};
    throw config_error(detail::message("no P x Q grid with Q a power of two and P <= Q holds ", tasks,
                                       " tasks; give the grid explicitly"));
}

enum class PercsMapping : std::uint8_t {
    def, node_seq, node_rnd, drawer_seq, drawer_rnd, sn_seq, sn_rnd, modcolor, row, column, hybrid
};

inline constexpr std::array<std::string_view, 11> percs_mapping_names{
    "default", "node-seq", "node-rnd", "drawer-seq", "drawer-rnd", "sn-seq", "sn-rnd", "modcolor", "row", "column",
    "hybrid"};

inline PercsMapping parse_percs_mapping(std::string_view name) {
    for (std::size_t i = 0; i < percs_mapping_names.size(); ++i)
        if (percs_mapping_names[i] == name) return static_cast<PercsMapping>(i);
    std::string valid;
    for (const auto n : percs_mapping_names) valid += std::string(valid.empty() ? "" : ", ") + std::string(n);
    throw config_error(detail::message("unknown PERCS mapping '", name, "'; valid: ", valid));
}

namespace detail {

inline constexpr std::uint32_t procs_per_supernode =
    PercsTopology::nodes_per_supernode * PercsTopology::tasks_per_node;

constexpr Placement placement_from_processors(const std::vector<std::uint32_t>& proc, const PercsTopology& t) {
    std::vector<std::uint32_t> node(proc.size(), 0);
    for (std::size_t i = 0; i < proc.size(); ++i) node[i] = proc[i] / PercsTopology::tasks_per_node;
    return Placement(std::move(node), t.node_count());
}

constexpr std::vector<std::uint32_t> block_mapping(TaskGrid g, std::size_t alpha, std::size_t beta, bool random,
                                                std::uint64_t seed, std::string_view name) {
    require(g.rows % alpha == 0 && g.cols % beta == 0, name, " mapping cuts the grid into ", alpha, " x ", beta,
            " blocks, so it needs P a multiple of ", alpha, " and Q a multiple of ", beta, "; got ", g.rows, " x ",
            g.cols);
    const std::size_t block = alpha * beta, per_row = g.cols / beta, blocks = g.size() / block;
    std::vector<std::uint32_t> target(blocks, 0);
    std::iota(target.begin(), target.end(), 0U);
    if (random) Random(seed).shuffle(std::span<std::uint32_t>(target));
    std::vector<std::uint32_t> proc(g.size(), 0);
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.cols; ++c) {
            const std::size_t k = (r / alpha) * per_row + c / beta;
            // Inside the block: 2x2 quads in row-major order, one quad per node.
            const std::size_t br = r % alpha, bc = c % beta;
            const std::size_t offset = ((br / 2) * (beta / 2) + bc / 2) * 4 + (br % 2) * 2 + bc % 2;
            proc[r * g.cols + c] = static_cast<std::uint32_t>(target[k] * block + offset);
        }
    return proc;
}

constexpr std::vector<std::uint32_t> modcolor_mapping(TaskGrid g) {
    require(g.rows % 32 == 0 && g.cols >= 64 && std::has_single_bit(g.cols),
            "mod-colour mapping needs P a multiple of 32 and Q a power of two of at least 64; got ", g.rows, " x ",
            g.cols);
    const std::size_t q = g.cols / 8;
    std::vector<std::uint32_t> proc(g.size(), 0);
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.cols; ++c) {
            const std::size_t bi = r / 8, bj = c / 8;
            const bool odd = bi % 2 == 1;
            const std::size_t colour = (bi / 2) * q + (odd ? (5 * bj + 2) % q : bj);
            const std::size_t quad = ((r % 8) / 2) * 4 + (c % 8) / 2;          // 16 quads, row-major
            const std::size_t node = (odd ? 16 : 0) + quad;
            const std::size_t chip = (r % 2) * 2 + c % 2;
            proc[r * g.cols + c] = static_cast<std::uint32_t>(colour * procs_per_supernode + node * 4 + chip);
        }
    return proc;
}

constexpr std::vector<std::uint32_t> column_mapping(TaskGrid g) {
    std::vector<std::uint32_t> proc(g.size(), 0);
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.cols; ++c) proc[r * g.cols + c] = static_cast<std::uint32_t>(c * g.rows + r);
    return proc;
}

}  // namespace detail

/// The processor of every task under `mapping` (task = row * Q + column).
constexpr std::vector<std::uint32_t> percs_processors(const PercsTopology& t, TaskGrid g, PercsMapping mapping,
                                                   std::uint64_t seed = 1) {
    const std::size_t n = static_cast<std::size_t>(t.supernodes()) * detail::procs_per_supernode;
    detail::require(g.size() == n, "a PERCS job has 128 tasks per supernode (", n, " here); the grid ", g.rows,
                    " x ", g.cols, " holds ", g.size());
    std::vector<std::uint32_t> proc(n, 0);
    switch (mapping) {
        case PercsMapping::def:
        case PercsMapping::row:
            std::iota(proc.begin(), proc.end(), 0U);
            return proc;
        case PercsMapping::node_seq: return detail::block_mapping(g, 2, 2, false, seed, "node-blocking");
        case PercsMapping::node_rnd: return detail::block_mapping(g, 2, 2, true, seed, "node-blocking");
        case PercsMapping::drawer_seq: return detail::block_mapping(g, 4, 8, false, seed, "drawer-blocking");
        case PercsMapping::drawer_rnd: return detail::block_mapping(g, 4, 8, true, seed, "drawer-blocking");
        case PercsMapping::sn_seq: return detail::block_mapping(g, 8, 16, false, seed, "supernode-blocking");
        case PercsMapping::sn_rnd: return detail::block_mapping(g, 8, 16, true, seed, "supernode-blocking");
        case PercsMapping::modcolor: return detail::modcolor_mapping(g);
        case PercsMapping::column: return detail::column_mapping(g);
        case PercsMapping::hybrid:
            if (g.cols <= detail::procs_per_supernode || g.rows > detail::procs_per_supernode) {
                std::iota(proc.begin(), proc.end(), 0U);
                return proc;
            }
            return detail::column_mapping(g);
    }
    return proc;
}

/// The node of every task under `mapping`.
constexpr Placement percs_placement(const PercsTopology& t, TaskGrid g, PercsMapping mapping, std::uint64_t seed = 1) {
    return detail::placement_from_processors(percs_processors(t, g, mapping, seed), t);
}

/// The interconnect paper's hot spot (section VII.A: "communication from all 32 CNs
/// in SN A want to communicate to different CNs in SN B would cause a congestion of
/// 32 on the D-link between A and B"; random routing avoids it): hub k of supernode
/// `from` sends one unit to hub k of supernode `to`, for all 32 k (the pairing of
/// the 32 is ours); nobody else sends. With direct routing the 32 flows share the
/// one D link between the two.
constexpr TrafficMatrix percs_supernode_hotspot(const PercsTopology& t, std::uint32_t from, std::uint32_t to) {
    detail::require(from < t.supernodes() && to < t.supernodes() && from != to,
                    "the hot spot needs two different supernodes below ", t.supernodes(), "; got ", from, " and ", to);
    const std::size_t n = t.node_count();
    std::vector<double> amount(n * n, 0.0);
    for (std::uint32_t k = 0; k < PercsTopology::nodes_per_supernode; ++k)
        amount[PercsTopology::node(from, k).value * n + PercsTopology::node(to, k).value] = 1;
    return TrafficMatrix(n, std::move(amount));
}

}  // namespace fabric
