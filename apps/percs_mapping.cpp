// Task mapping on PERCS (Chakaravarthy et al., "Mapping Strategies for the PERCS
// Architecture"): throughput of a mapping, from the flow-level kernel.
//
// With no --supernodes: Tables I to IV of the paper (deterministic schemes), our
// value beside the paper's in every cell, with the bottleneck link class (exit
// status 1 if a cell differs other than the one the tests record as not
// reproduced). With --supernodes:
// one configuration, as text or JSON, or with --channels every channel's load
// (CSV or JSON, for tools/plot percs-supernode). Options and configuration files:
// apps/common/tool.hpp.
#include <fabric/experiment/json.hpp>
#include <fabric/fabric.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/systems/percs.hpp>

#include "common/numbers.hpp"
#include "common/tool.hpp"
#include "percs_mapping_paper.hpp"  // tests/paper: the paper's tables, typed once

#include <cmath>
#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace fabric;

struct Settings : fabric_apps::Common {
    std::uint32_t supernodes = 0;  // n_s; 0: the paper's tables
    std::uint32_t dlinks = 1;      // n_d, D links between each pair of supernodes
    std::string pattern = "halo";  // halo | row_column_alltoall (the paper's "transpose") | alltoall
    std::string mapping = "default";
    std::string routing = "direct";  // direct | indirect
    std::string grid;                // PxQ tasks; empty: the default grid
    std::uint64_t seed = 1;          // for the random mappings
    bool channels = false;  // every channel's load (CSV, or JSON with --format json)

    static fabric_apps::Options<Settings> options();
};

LinkLoads evaluate(const PercsTopology& t, TaskGrid grid, const std::string& pattern, const Placement& placement,
                   const std::string& routing) {
    auto with = [&](const auto& net) {
        if (pattern == "halo")
            return link_load(net, HaloTraffic(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)}),
                             placement);
        if (pattern == "row_column_alltoall") return link_load(net, RowColumnAllToAllTraffic(grid.rows, grid.cols), placement);
        return link_load(net, UniformTraffic(grid.size(), UniformTraffic::Self::excluded), placement);
    };
    if (routing == "direct") return with(PercsFabric<Direct>{t});
    return with(PercsFabric<Indirect>{t});
}

/// GB/s per node for each class (null where a class carries nothing: no limit), and
/// the classes' largest loads.
void print_json(const LinkLoads& loads, std::ostream& out) {
    nlohmann::json tau = nlohmann::json::object(), max_load = nlohmann::json::object();
    for (const auto& c : loads.classes()) {
        const std::string name(c.link_name);
        tau[name] = std::isfinite(c.throughput) ? nlohmann::json(c.throughput) : nlohmann::json(nullptr);
        max_load[name] = c.max_load;
    }
    const double t = loads.throughput();
    const nlohmann::json j{{"throughput", std::isfinite(t) ? nlohmann::json(t) : nlohmann::json(nullptr)},
                           {"bottleneck", std::string(loads.classes()[loads.bottleneck()].link_name)},
                           {"tau", tau},
                           {"max_load", max_load}};
    fabric_apps::write_json(out, j);
}

namespace paper = fabric_paper::percs_mapping;

/// Prints one of the paper's tables with ours beside it; returns how many cells
/// differ from the paper (value, rounded as the paper prints it, or bottleneck
/// class) other than those the tests record as not reproduced, and lists those.
std::size_t print_table(const paper::Table& table, std::vector<std::string>& not_reproduced, fabric_apps::OutputFile& out) {
    out.printf("%s\n%-5s", std::string(table.title).c_str(), table.rows_are_dlinks ? "n_d" : "n_s");
    for (const auto& c : table.columns)
        out.printf(" | %-22s", std::string(percs_mapping_names[static_cast<int>(c.mapping)]).c_str());
    out.printf("\n%-5s", "");
    for (std::size_t i = 0; i < table.columns.size(); ++i) out.printf(" | %-10s %-11s", "paper", "ours");
    out.printf("\n");
    std::size_t differ = 0;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        out.printf("%-5u", table.rows[r]);
        const PercsTopology t(table.supernodes(r), table.dlinks(r));
        const auto grid = default_task_grid(t.node_count() * PercsTopology::tasks_per_node);
        for (const auto& column : table.columns) {
            const auto& cell = column.cells[r];
            const auto loads = evaluate(t, grid, table.pattern == paper::Pattern::halo ? "halo" : "row_column_alltoall",
                                        percs_placement(t, grid, column.mapping), table.direct ? "direct" : "indirect");
            const auto rounded = static_cast<long long>(std::nearbyint(loads.throughput()));
            const std::string bottleneck(loads.classes()[loads.bottleneck()].link_name);
            const bool match = rounded == static_cast<long long>(cell.value) && bottleneck == cell.bottleneck;
            const std::string theirs =
                std::to_string(static_cast<long long>(cell.value)) + " (" + std::string(cell.bottleneck) + ")";
            if (cell.ours_differs != 0 && rounded == static_cast<long long>(cell.ours_differs))
                not_reproduced.push_back(std::string(table.title.substr(0, table.title.find(':'))) + ", " +
                                         std::string(percs_mapping_names[static_cast<int>(column.mapping)]) + ", " +
                                         (table.rows_are_dlinks ? "n_d = " : "n_s = ") + std::to_string(table.rows[r]) +
                                         ": paper " + theirs + ", ours " + std::to_string(rounded));
            else differ += !match;
            out.printf(" | %-10s %-11s", theirs.c_str(), (std::to_string(rounded) + " (" + bottleneck + ")").c_str());
        }
        out.printf("\n");
    }
    out.printf("\n");
    return differ;
}

int tables(fabric_apps::OutputFile& out) {
    out.printf("PERCS mapping study (deterministic schemes), GB/s per node; n_s = 32 is 4096 tasks on a 64 x 64 "
                "grid.\nThe paper prints whole numbers (2.5 shows as 2); ours are rounded the same way.\n\n");
    std::size_t differ = 0, cells = 0;
    std::vector<std::string> not_reproduced;
    for (const auto& table : paper::tables()) {
        differ += print_table(table, not_reproduced, out);
        cells += table.rows.size() * table.columns.size();
    }
    out.printf("%zu of %zu cells match the paper (value and bottleneck class)\n",
                cells - differ - not_reproduced.size(), cells);
    for (const auto& n : not_reproduced) out.printf("not reproduced (see tests/paper/percs_mapping_tables.cpp): %s\n", n.c_str());
    return differ == 0 ? 0 : 1;
}

int one(const Settings& s, fabric_apps::OutputFile& out) {
    detail::require(!s.channels || s.supernodes > 0, "--channels needs one configuration: give --supernodes");
    detail::require(s.format != "json" || s.supernodes > 0, "--json needs one configuration: give --supernodes (the "
                    "paper's tables are printed as text)");
    detail::require(s.format != "csv" || s.channels, "--format csv: the channels' loads are written as CSV (add "
                    "--channels); one configuration is written as text or JSON");
    if (s.supernodes == 0) return tables(out);
    detail::require(s.dlinks >= 1, "dlinks must be positive");
    detail::require(s.pattern == "halo" || s.pattern == "row_column_alltoall" || s.pattern == "alltoall",
                    "pattern: halo, row_column_alltoall (the paper's \"transpose\") or alltoall; got '", s.pattern, "'");
    detail::require(s.routing == "direct" || s.routing == "indirect", "routing: direct or indirect; got '", s.routing, "'");
    const PercsTopology t(s.supernodes, s.dlinks);
    // Flows: every ordered pair of tasks for all-to-all, one or four a task else; about
    // 3e7 flows a second measured (all-to-all on 32 supernodes).
    const double tasks = static_cast<double>(t.node_count()) * PercsTopology::tasks_per_node;
    fabric_apps::check(fabric_apps::Cost().add("flows routed", s.pattern == "alltoall" ? tasks * tasks : 4 * tasks, 150));
    TaskGrid grid = default_task_grid(t.node_count() * PercsTopology::tasks_per_node);
    if (!s.grid.empty()) {
        const auto pq = fabric_apps::parse_numbers<std::size_t>(s.grid, 'x', "grid");
        detail::require(pq.size() == 2, "grid: PxQ, for example 64x64; got '", s.grid, "'");
        grid = TaskGrid{pq[0], pq[1]};
        detail::require(grid.rows >= 1 && grid.cols >= 1, "grid: P and Q must be positive");
    }
    const auto placement = percs_placement(t, grid, parse_percs_mapping(s.mapping), s.seed);
    const auto loads = evaluate(t, grid, s.pattern, placement, s.routing);
    if (s.channels) {
        const auto records = experiment::channel_load_records(t, loads);
        if (s.format == "json")
            fabric_apps::write_json(out.stream(), experiment::to_json(std::span<const experiment::ChannelLoadRecord>(records)));
        else {
            fabric_apps::write_csv_provenance(out.stream());
            experiment::write_csv(out.stream(), records);
        }
        return 0;
    }
    if (s.format == "json") {
        print_json(loads, out.stream());
        return 0;
    }
    out.printf("throughput %.3f GB/s per node, bottleneck %s\n", loads.throughput(),
                std::string(loads.classes()[loads.bottleneck()].link_name).c_str());
    for (const auto& c : loads.classes())
        out.printf("  %-2s max load %-10.6g tau %.3f GB/s\n", std::string(c.link_name).c_str(), c.max_load,
                    c.throughput);
    return 0;
}
fabric_apps::Options<Settings> Settings::options() {
    using namespace fabric_apps;
    using S = Settings;
    std::vector<std::string> mappings;
    for (const auto name : percs_mapping_names) mappings.emplace_back(name);
    Options<S> o{
        option<S>(&S::supernodes, "--supernodes", "n_s; 0 prints the paper's tables", within<std::uint32_t>(0, 512)),
        option<S>(&S::dlinks, "--dlinks", "n_d, D links between each pair of supernodes", within<std::uint32_t>(1, 32))
            .with("--supernodes"),
        option<S>(&S::pattern, "--pattern", "halo, row_column_alltoall (what the paper calls transpose: all-to-all in "
                  "each row and column of the task grid) or alltoall", one_of({"halo", "row_column_alltoall", "alltoall"}))
            .with("--supernodes"),
        option<S>(&S::mapping, "--mapping", "the task mapping", Words{mappings}).with("--supernodes"),
        option<S>(&S::routing, "--routing", "direct or indirect", one_of({"direct", "indirect"})).with("--supernodes"),
        option<S>(&S::grid, "--grid", "PxQ task grid (default: the most square grid of all tasks)", Text{})
            .with("--supernodes"),
        seed_option<S>(&S::seed, "seed of the random mappings")
            .with("--mapping", "node-rnd").with("--mapping", "drawer-rnd").with("--mapping", "sn-rnd"),
        flag<S>(&S::channels, "--channels", "every channel's load (node, port, to, link class, load) as CSV, or JSON "
                "with --format json; for tools/plot percs-supernode").with("--supernodes"),
    };
    for (auto& f : format_options<S>({"text", "json", "csv"}, {"json"})) o.push_back(std::move(f));
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "percs_mapping",
        "throughput of a task mapping on PERCS from the flow-level kernel (Chakaravarthy et al.); without "
        "--supernodes, the paper's Tables I and IV beside ours (status 1 if a cell differs).",
        one);
}
