// Chakaravarthy et al., "Mapping Strategies for the PERCS Architecture": the
// throughput tables, reproduced by the flow-level kernel.
//
// The paper's tables are typed in percs_mapping_paper.hpp. It prints throughputs
// (GB/s per node) as whole numbers; its 2.5 shows as "2" and its 106.67 as "107",
// i.e. rounded to nearest with ties to even (printf's %.0f). Each cell is checked
// as: our value, so rounded, equals the paper's, and the bottleneck class is the
// one the paper names.
#include <doctest/doctest.h>

#include "percs_mapping_paper.hpp"

#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/systems/percs.hpp>

#include <cfenv>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace unit_percs_mapping_tables {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric_paper::percs_mapping;

namespace {

template <class Routing>
LinkLoads run(std::uint32_t ns, std::uint32_t nd, Pattern pattern, PercsMapping mapping, std::uint64_t seed = 1) {
    const PercsTopology t(ns, nd);
    const auto grid = default_task_grid(128 * ns);
    const auto placement = percs_placement(t, grid, mapping, seed);
    const PercsFabric<Routing> net{t};
    if (pattern == Pattern::halo) {
        // Grid extents are given fastest dimension first: Q columns, then P rows.
        return link_load(net, HaloTraffic(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)}),
                         placement);
    }
    return link_load(net, RowColumnAllToAllTraffic(grid.rows, grid.cols), placement);
}

/// The paper's printed value of x: nearest integer, ties to even.
double printed(double x) {
    REQUIRE(std::fegetround() == FE_TONEAREST);
    return std::nearbyint(x);
}

template <class Routing>
void check_cell(std::uint32_t ns, std::uint32_t nd, Pattern pattern, PercsMapping mapping, const Cell& paper) {
    CAPTURE(ns);
    CAPTURE(nd);
    CAPTURE(percs_mapping_names[static_cast<std::size_t>(mapping)]);
    const auto loads = run<Routing>(ns, nd, pattern, mapping);
    CAPTURE(loads.throughput());
    if (paper.ours_differs != 0) {  // a cell we do not reproduce: our own value is checked
        CHECK(printed(loads.throughput()) == paper.ours_differs);
        return;
    }
    CHECK(printed(loads.throughput()) == paper.value);
    CHECK(loads.link_class(loads.bottleneck()).link_name == paper.bottleneck);
}

/// Every cell of one of the paper's tables (tests/paper/percs_mapping_paper.hpp).
void check_table(std::size_t index, std::string_view title) {
    const Table table = tables().at(index);
    REQUIRE(table.title.starts_with(title));
    for (const Column& column : table.columns) {
        REQUIRE(column.cells.size() == table.rows.size());
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            if (table.direct)
                check_cell<Direct>(table.supernodes(r), table.dlinks(r), table.pattern, column.mapping, column.cells[r]);
            else
                check_cell<Indirect>(table.supernodes(r), table.dlinks(r), table.pattern, column.mapping,
                                     column.cells[r]);
        }
    }
}

const std::vector<std::uint32_t> nd_column{1, 2, 4, 8, 16};

}  // namespace

TEST_CASE("Table I: Halo, n_s = 32, direct routing (deterministic schemes)") { check_table(0, "Table I:"); }

// Not reproduced: DRW SEQ at n_s = 128, where the paper prints 10 and we give 20
// (the cell's ours_differs); the next test works the cell by hand.
TEST_CASE("Table II: Halo, n_d = 4, direct routing, n_s from 16 to 128 (deterministic schemes)") {
    check_table(1, "Table II:");
}

// DRW SEQ at n_s = 128, by hand. 4 x 8 drawer blocks in order on the 128 x 128 grid:
// a block row holds 16 blocks, a supernode 4 consecutive ones, a 4 x 32 strip.
// Its 32 tasks on the top edge send 1/4 each to the strip above (8 units), the
// bottom edge 8 units to the strip below, each side 1 unit: 8 units at most between
// two supernodes, 2 on each of the 4 D links, tau_D = 4 x 10 / 2 = 20. The paper's
// 10 needs 16 units between two supernodes. Of every P x Q grid of 16,384 tasks
// (4 | P, 8 | Q) only 8 x 2048 gives it, with wrap-around: two block rows, so the
// strip above is the strip below. On that grid supernode blocking (8 x 16 blocks:
// one block row) sends only east and west, tau_D = 80 against the paper's 40 in the
// same row, and mod-colour cannot be laid (P must be a multiple of 32): no one grid
// gives the row. We keep 20 and report the paper's 10 as not reproduced (a misprint
// or a grid the paper does not state).
TEST_CASE("Table II, DRW SEQ at n_s = 128 worked by hand: 20, not the paper's 10") {
    const PercsTopology t(128, 4);
    const PercsFabric<Direct> net{t};
    const auto d_throughput = [&](TaskGrid grid, PercsMapping mapping) {
        const HaloTraffic halo(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)});
        return link_load(net, halo, percs_placement(t, grid, mapping)).link_class(PercsTopology::D).throughput;
    };
    CHECK(default_task_grid(128 * 128) == TaskGrid{128, 128});
    CHECK(d_throughput({128, 128}, PercsMapping::drawer_seq) == doctest::Approx(20));
    for (std::size_t rows = 4; rows <= 2048; rows *= 2) {
        CAPTURE(rows);
        const double tau = d_throughput({rows, 16384 / rows}, PercsMapping::drawer_seq);
        if (rows == 8) CHECK(tau == doctest::Approx(10));
        else CHECK(tau >= 20 - 1e-9);
    }
    CHECK(d_throughput({8, 2048}, PercsMapping::sn_seq) == doctest::Approx(80));
    CHECK(d_throughput({8, 2048}, PercsMapping::def) == doctest::Approx(5));  // the row's DEF still 5
    CHECK_THROWS_AS(percs_placement(t, {8, 2048}, PercsMapping::modcolor), config_error);
}

TEST_CASE("Table III: Halo, n_s = 32, indirect routing (deterministic schemes)") { check_table(2, "Table III:"); }

TEST_CASE("Table IV: Transpose, n_s = 32, direct routing") { check_table(3, "Table IV:"); }

// The random schemes, as distributions over 48 seeds. A draw of DRW RND under direct
// routing loads a D link with k/4 for a whole k (whole units between supernodes: a
// block's edges carry 2 north-south, 1 east-west), so it gives 160/k GB/s at n_d = 4:
// 40, 32, 26.7, 22.9 ... The paper's 29, 33, 37 and 38 of Table II are none of these,
// so they are means over draws the paper does not count; ours are lower (25.5, 28.9,
// 32.7, 34.5 over 48 seeds) and the paper's lie in the upper part of our spread
// (reported, docs/fidelity.md). SN RND under direct routing is a perfect colouring
// whatever the draw (one 8 x 16 block a supernode): every seed gives the paper's value.
TEST_CASE("random schemes (Tables I-III): the paper's value within our spread over 48 seeds, its bottleneck class "
          "among ours") {
    using enum PercsMapping;
    const std::vector<Table> all = tables();
    for (const RandomColumn& column : random_columns()) {
        const Table& table = all.at(column.table);
        REQUIRE(column.cells.size() == table.rows.size());
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const std::uint32_t ns = table.supernodes(r), nd = table.dlinks(r);
            const Cell& paper = column.cells[r];
            CAPTURE(table.title);
            CAPTURE(percs_mapping_names[static_cast<std::size_t>(column.mapping)]);
            CAPTURE(ns);
            CAPTURE(nd);
            double lo = 1e300, hi = 0, sum = 0;
            std::map<std::string, int> classes;
            constexpr int seeds = 48;
            for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
                const LinkLoads loads = table.direct
                                            ? run<Direct>(ns, nd, Pattern::halo, column.mapping, seed)
                                            : run<Indirect>(ns, nd, Pattern::halo, column.mapping, seed);
                const double t = loads.throughput();
                lo = std::min(lo, t);
                hi = std::max(hi, t);
                sum += t;
                ++classes[std::string(loads.link_class(loads.bottleneck()).link_name)];
                if (table.direct && column.mapping == drawer_rnd && loads.bottleneck() == PercsTopology::D) {
                    const double k = 40.0 * nd / t;  // whole units on the busiest D pair
                    CHECK(k == doctest::Approx(std::round(k)));
                }
            }
            std::string seen;
            for (const auto& [name, count] : classes) seen += name + ":" + std::to_string(count) + " ";
            MESSAGE(table.title.substr(0, table.title.find(':')), " ", percs_mapping_names[static_cast<std::size_t>(column.mapping)],
                    " n_s ", ns, " n_d ", nd, ": paper ", paper.value, " (", paper.bottleneck, "), ours ", lo, " .. ",
                    hi, " mean ", sum / seeds, " bottlenecks ", seen);
            CHECK(paper.value >= printed(lo));
            CHECK(paper.value <= printed(hi));
            CHECK(classes.contains(std::string(paper.bottleneck)));
            if (table.direct && column.mapping == sn_rnd) {
                CHECK(printed(lo) == paper.value);
                CHECK(printed(hi) == paper.value);
            }
        }
    }
    // The seed picks the placement (the throughput may still not move).
    const PercsTopology t(32, 4);
    const auto grid = default_task_grid(128 * 32);
    CHECK(percs_placement(t, grid, drawer_rnd, 1).nodes() != percs_placement(t, grid, drawer_rnd, 2).nodes());
    CHECK(percs_placement(t, grid, sn_rnd, 1).nodes() != percs_placement(t, grid, sn_rnd, 2).nodes());
    // Table II's DRW RND values are no single draw's: 160 / k printed is 160, 80, 53,
    // 40, 32, 27, 23, 20, 18 ... for whole k.
    for (const double v : {29.0, 33.0, 37.0, 38.0})
        for (int k = 1; k <= 16; ++k) CHECK(printed(160.0 / k) != v);
}

// Section VI.A: under indirect routing "for n_d >= 4, typically the LL becomes the
// bottleneck"; "we disabled the accounting for the load due to the middle L-hop in
// our program. We found that bottleneck shifted to a different type of link". Every
// deterministic cell of Table III at n_d >= 4 whose bottleneck is LL, with the middle
// L hop uncounted: the bottleneck moves to LR or D (DEF 8 and 16: 103 and 64 -> LR 107; DRW SEQ 4:
// 128 -> D 142; DRW SEQ 8, 16 and SN SEQ 4, 16: to LR 183), and the throughput does not fall. SN SEQ at
// n_d = 8, bound by LR (183), stays so: its LR load is the first and last L hops'.
TEST_CASE("section VI.A: the middle L hop uncounted, Table III's LL bottlenecks shift to another class") {
    const Table table = tables().at(2);
    REQUIRE(table.title.starts_with("Table III:"));
    int shifted = 0;
    for (const Column& column : table.columns)
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const Cell& paper = column.cells[r];
            const std::uint32_t ns = table.supernodes(r), nd = table.dlinks(r);
            if (paper.bottleneck != "LL" || nd < 4) continue;
            CAPTURE(percs_mapping_names[static_cast<std::size_t>(column.mapping)]);
            CAPTURE(nd);
            const LinkLoads counted = run<Indirect>(ns, nd, Pattern::halo, column.mapping);
            const LinkLoads uncounted = run<PercsIndirectMiddleLUncounted<>>(ns, nd, Pattern::halo, column.mapping);
            REQUIRE(counted.link_class(counted.bottleneck()).link_name == paper.bottleneck);
            const std::string_view now = uncounted.link_class(uncounted.bottleneck()).link_name;
            MESSAGE(percs_mapping_names[static_cast<std::size_t>(column.mapping)], " n_d ", nd, ": ",
                    paper.bottleneck, " ", counted.throughput(), " -> ", now, " ", uncounted.throughput());
            CHECK(now != paper.bottleneck);
            CHECK(uncounted.throughput() >= counted.throughput() * (1 - 1e-12));
            // The D hops are counted as before.
            CHECK(uncounted.link_class(PercsTopology::D).max_load == doctest::Approx(counted.link_class(PercsTopology::D).max_load));
            ++shifted;
        }
    CHECK(shifted == 7);  // DEF 8, 16; DRW SEQ 4, 8, 16; SN SEQ 4, 16
    // The LR cell: the same with or without the middle hop.
    const LinkLoads lr = run<PercsIndirectMiddleLUncounted<>>(32, 8, Pattern::halo, PercsMapping::sn_seq);
    CHECK(lr.link_class(lr.bottleneck()).link_name == "LR");
    CHECK(printed(lr.throughput()) == 183);
}

TEST_CASE("equations (2) to (6): the analytic D-link throughputs and bounds") {
    using enum PercsMapping;
    for (const std::uint32_t nd : nd_column) {
        CAPTURE(nd);
        // (2) a perfect colouring with alpha x beta blocks: tau_D = 4 n_d / max(alpha, beta) * 40.
        CHECK(run<Direct>(32, nd, Pattern::halo, modcolor).link_class(PercsTopology::D).throughput ==
              doctest::Approx(4.0 * nd / 8 * 40));
        CHECK(run<Direct>(32, nd, Pattern::halo, sn_seq).link_class(PercsTopology::D).throughput ==
              doctest::Approx(4.0 * nd / 16 * 40));
    }
    // (3) row-wise Transpose, Q <= 128: tau_D = 20 h; (4) hybrid: tau >= min(20 h, 80);
    // (5) supernode blocking under indirect routing: tau_D = 5 n_s n_d / 3;
    // (6) hybrid under indirect routing: tau >= min(10 h, 320 / (4 + n_d)).
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> systems{{16, 2}, {16, 8}, {32, 1}, {32, 4},
                                                                       {64, 2}, {64, 8}, {128, 1}};
    for (const auto& [ns, nd] : systems) {
        CAPTURE(ns);
        CAPTURE(nd);
        const double h = ns * nd / 32.0;
        const auto grid = default_task_grid(128 * ns);
        if (grid.cols <= 128)
            CHECK(run<Direct>(ns, nd, Pattern::transpose, row).link_class(PercsTopology::D).throughput ==
                  doctest::Approx(20 * h));
        // The paper proves LR throughput "at least 80", so (4) is a lower bound,
        // met with equality on the n_s = 32 systems of Table IV.
        CHECK(run<Direct>(ns, nd, Pattern::transpose, hybrid).throughput() >= std::min(20 * h, 80.0) * (1 - 1e-12));
        CHECK(run<Indirect>(ns, nd, Pattern::halo, sn_seq).link_class(PercsTopology::D).throughput ==
              doctest::Approx(5.0 * ns * nd / 3));
        CHECK(run<Indirect>(ns, nd, Pattern::transpose, hybrid).throughput() >=
              std::min(10 * h, 320.0 / (4 + nd)) * (1 - 1e-12));
    }
}

}  // namespace unit_percs_mapping_tables
