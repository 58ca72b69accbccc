// The throughput tables of Chakaravarthy et al., "Mapping Strategies for the PERCS
// Architecture", as the paper prints them: typed once, here, and read by the
// paper test (tests/paper/percs_mapping_tables.cpp) and by the tool that shows
// them beside ours (apps/percs_mapping). The paper's numbers are data of the
// tests, not of the library.
//
// Throughputs are GB/s per node, printed as whole numbers (2.5 shows as "2",
// 106.67 as "107"); the bottleneck is the link class the paper names ((*) = LR in
// Tables I and II; D unless named). The random schemes (DRW RND, SN RND) are the
// paper's draws (random_columns), checked against our spread over seeds, in the
// test only.
#pragma once

#include <fabric/mapping/percs_mappings.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace fabric_paper::percs_mapping {

enum class Pattern { halo, transpose };

struct Cell {
    double value;
    std::string_view bottleneck;  // "LL", "LR" or "D"
    double ours_differs = 0;      // not 0: a cell we do not reproduce, and our value (the test says why)
};

struct Column {
    fabric::PercsMapping mapping;
    std::vector<Cell> cells;  // one per row
};

struct Table {
    std::string_view title;
    Pattern pattern;
    bool direct;                       // direct routing, else indirect
    bool rows_are_dlinks;              // rows are n_d at n_s = fixed, else n_s at n_d = fixed
    std::uint32_t fixed;               // n_s (rows n_d) or n_d (rows n_s)
    std::vector<std::uint32_t> rows;
    std::vector<Column> columns;

    [[nodiscard]] std::uint32_t supernodes(std::size_t row) const { return rows_are_dlinks ? fixed : rows[row]; }
    [[nodiscard]] std::uint32_t dlinks(std::size_t row) const { return rows_are_dlinks ? rows[row] : fixed; }
};

/// Tables I to IV, deterministic schemes.
inline std::vector<Table> tables() {
    using enum fabric::PercsMapping;
    const std::vector<std::uint32_t> nd{1, 2, 4, 8, 16};
    return {
        {"Table I: Halo, n_s = 32, direct routing", Pattern::halo, true, true, 32, nd,
         {{def, {{2, "D"}, {5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}}},
          {drawer_seq, {{5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}, {80, "D"}}},
          {sn_seq, {{10, "D"}, {20, "D"}, {40, "D"}, {80, "D"}, {160, "D"}}},
          {modcolor, {{20, "D"}, {40, "D"}, {64, "LR"}, {107, "LR"}, {160, "LR"}}}}},
        {"Table II: Halo, n_d = 4, direct routing", Pattern::halo, true, false, 4, {16, 32, 64, 128},
         {{def, {{10, "D"}, {10, "D"}, {5, "D"}, {5, "D"}}},
          {drawer_seq, {{20, "D"}, {20, "D"}, {20, "D"}, {10, "D", 20}}},  // 10: see the test
          {sn_seq, {{40, "D"}, {40, "D"}, {40, "D"}, {40, "D"}}},
          {modcolor, {{64, "LR"}, {64, "LR"}, {64, "LR"}, {64, "LR"}}}}},
        {"Table III: Halo, n_s = 32, indirect routing", Pattern::halo, false, true, 32, nd,
         {{def, {{20, "D"}, {34, "LR"}, {80, "D"}, {103, "LL"}, {64, "LL"}}},
          {drawer_seq, {{36, "D"}, {58, "LR"}, {128, "LL"}, {93, "LL"}, {179, "LL"}}},
          {sn_seq, {{53, "D"}, {91, "LR"}, {134, "LL"}, {183, "LR"}, {168, "LL"}}}}},
        {"Table IV: Transpose, n_s = 32, direct routing", Pattern::transpose, true, true, 32, nd,
         {{sn_seq, {{2, "D"}, {5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}}},
          {hybrid, {{20, "D"}, {40, "D"}, {80, "D"}, {80, "LR"}, {80, "LR"}}}}},
    };
}

/// A random scheme's column (DRW RND, SN RND): the paper's value and bottleneck
/// class in each row of the table at `table` (the index in tables()). Table II
/// prints no class: (*) marks none of its random cells, so D.
struct RandomColumn {
    std::size_t table;
    fabric::PercsMapping mapping;
    std::vector<Cell> cells;  // one per row of the table
};

inline std::vector<RandomColumn> random_columns() {
    using enum fabric::PercsMapping;
    return {
        {0, drawer_rnd, {{8, "D"}, {16, "D"}, {33, "D"}, {66, "D"}, {120, "LR"}}},
        {0, sn_rnd, {{10, "D"}, {20, "D"}, {40, "D"}, {80, "D"}, {128, "LR"}}},
        {1, drawer_rnd, {{29, "D"}, {33, "D"}, {37, "D"}, {38, "D"}}},
        {1, sn_rnd, {{40, "D"}, {40, "D"}, {40, "D"}, {40, "D"}}},
        {2, drawer_rnd, {{27, "D"}, {53, "D"}, {107, "D"}, {127, "LL"}, {103, "LL"}}},
        {2, sn_rnd, {{53, "D"}, {96, "LR"}, {174, "LR"}, {167, "LL"}, {148, "LL"}}},
    };
}

}  // namespace fabric_paper::percs_mapping
