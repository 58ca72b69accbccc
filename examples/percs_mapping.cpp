// Task mapping on PERCS (Chakaravarthy et al., "Mapping Strategies for the PERCS
// Architecture"): throughput of a mapping, from the flow-level kernel.
//
// With no arguments: Tables I (Halo, direct) and IV (Transpose, direct) of the
// paper for n_s = 32, our value beside the paper's in every cell, with the
// bottleneck link class. With arguments: one configuration, as JSON.
#include <fabric/fabric.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/systems/percs.hpp>

#include "common/cli.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace fabric;

const char* const usage =
    "usage: percs_mapping                      (the paper's Tables I and IV)\n"
    "       percs_mapping --supernodes NS --dlinks ND --pattern halo|transpose|alltoall\n"
    "                     --mapping default|node-seq|node-rnd|drawer-seq|drawer-rnd|sn-seq|sn-rnd|\n"
    "                               modcolor|row|column|hybrid\n"
    "                     --routing direct|indirect [--grid PxQ] [--seed S] [--json]\n";

LinkLoads evaluate(const PercsTopology& t, TaskGrid grid, const std::string& pattern, const Placement& placement,
                   const std::string& routing) {
    auto with = [&](const auto& net) {
        if (pattern == "halo")
            return link_load(net, HaloTraffic(Grid{static_cast<long long>(grid.cols), static_cast<long long>(grid.rows)}),
                             placement);
        if (pattern == "transpose") return link_load(net, TransposeTraffic(grid.rows, grid.cols), placement);
        return link_load(net, UniformTraffic(grid.size(), UniformTraffic::Self::excluded), placement);
    };
    if (routing == "direct") return with(PercsFabric<Direct>{t});
    return with(PercsFabric<Indirect>{t});
}

void print_json(const LinkLoads& loads) {
    const auto& c = loads.classes();
    std::printf("{\"throughput\": %.6f, \"bottleneck\": \"%s\", \"tau\": {\"LL\": %.6f, \"LR\": %.6f, \"D\": %.6f}, "
                "\"max_load\": {\"LL\": %.9g, \"LR\": %.9g, \"D\": %.9g}}\n",
                loads.throughput(), std::string(c[loads.bottleneck()].link_name).c_str(), c[0].throughput,
                c[1].throughput, c[2].throughput, c[0].max_load, c[1].max_load, c[2].max_load);
}

struct PaperCell {
    double value;
    const char* bottleneck;
};

/// Prints the table and returns how many of its cells differ from the paper's
/// (value, rounded as the paper prints it, or bottleneck class).
std::size_t print_table(const char* title, const std::string& pattern, const std::vector<PercsMapping>& mappings,
                 const std::vector<std::vector<PaperCell>>& paper) {
    std::printf("%s\n", title);
    std::printf("%-5s", "n_d");
    for (const auto m : mappings) std::printf(" | %-22s", std::string(percs_mapping_names[static_cast<int>(m)]).c_str());
    std::printf("\n%-5s", "");
    for (std::size_t i = 0; i < mappings.size(); ++i) std::printf(" | %-10s %-11s", "paper", "ours");
    std::printf("\n");
    const std::vector<std::uint32_t> nds{1, 2, 4, 8, 16};
    std::size_t differ = 0;
    for (std::size_t r = 0; r < nds.size(); ++r) {
        std::printf("%-5u", nds[r]);
        const PercsTopology t(32, nds[r]);
        const auto grid = default_task_grid(4096);
        for (std::size_t m = 0; m < mappings.size(); ++m) {
            const auto loads = evaluate(t, grid, pattern, percs_placement(t, grid, mappings[m]), "direct");
            const auto rounded = static_cast<long long>(std::nearbyint(loads.throughput()));
            const std::string bottleneck(loads.classes()[loads.bottleneck()].link_name);
            const std::string ours = std::to_string(rounded) + " (" + bottleneck + ")";
            differ += rounded != static_cast<long long>(paper[m][r].value) || bottleneck != paper[m][r].bottleneck;
            const std::string theirs =
                std::to_string(static_cast<long long>(paper[m][r].value)) + " (" + paper[m][r].bottleneck + ")";
            std::printf(" | %-10s %-11s", theirs.c_str(), ours.c_str());
        }
        std::printf("\n");
    }
    std::printf("\n");
    return differ;
}

}  // namespace

int main(int argc, char** argv) {
    const fabric_examples::Cli cli(argc, argv, {"supernodes", "dlinks", "pattern", "mapping", "routing", "grid", "seed"},
                                   {"json"}, usage);
    try {
        if (cli.empty()) {
            std::printf("PERCS mapping study, n_s = 32 (4096 tasks on a 64 x 64 grid), GB/s per node.\n"
                        "The paper prints whole numbers (2.5 shows as 2); ours are rounded the same way.\n\n");
            using enum PercsMapping;
            std::size_t differ = print_table("Table I: Halo, direct routing", "halo", {def, drawer_seq, sn_seq, modcolor},
                        {{{2, "D"}, {5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}},
                         {{5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}, {80, "D"}},
                         {{10, "D"}, {20, "D"}, {40, "D"}, {80, "D"}, {160, "D"}},
                         {{20, "D"}, {40, "D"}, {64, "LR"}, {107, "LR"}, {160, "LR"}}});
            differ += print_table("Table IV: Transpose, direct routing", "transpose", {sn_seq, hybrid},
                        {{{2, "D"}, {5, "D"}, {10, "D"}, {20, "D"}, {40, "D"}},
                         {{20, "D"}, {40, "D"}, {80, "D"}, {80, "LR"}, {80, "LR"}}});
            constexpr std::size_t cells = 4 * 5 + 2 * 5;
            std::printf("%zu of %zu cells match the paper (value and bottleneck class)\n", cells - differ, cells);
            return differ == 0 ? 0 : 1;
        }
        const auto ns = cli.integer("supernodes");
        const auto nd = cli.integer("dlinks");
        if (ns < 1 || nd < 1) cli.fail("--supernodes and --dlinks must be positive");
        const std::string pattern = cli.text("pattern");
        if (pattern != "halo" && pattern != "transpose" && pattern != "alltoall")
            cli.fail("--pattern must be halo, transpose or alltoall; got '" + pattern + "'");
        const std::string routing = cli.text("routing");
        if (routing != "direct" && routing != "indirect")
            cli.fail("--routing must be direct or indirect; got '" + routing + "'");
        const PercsTopology t(static_cast<std::uint32_t>(ns), static_cast<std::uint32_t>(nd));
        TaskGrid grid = default_task_grid(t.node_count() * PercsTopology::tasks_per_node);
        if (cli.has("grid")) {
            const auto pq = cli.list("grid", 'x');
            if (pq.size() != 2 || pq[0] < 1 || pq[1] < 1) cli.fail("--grid needs PxQ, for example 64x64");
            grid = TaskGrid{static_cast<std::size_t>(pq[0]), static_cast<std::size_t>(pq[1])};
        }
        const auto mapping = parse_percs_mapping(cli.text("mapping"));
        const auto placement =
            percs_placement(t, grid, mapping, static_cast<std::uint64_t>(cli.integer("seed", 1)));
        const auto loads = evaluate(t, grid, pattern, placement, routing);
        if (cli.flag("json")) {
            print_json(loads);
        } else {
            std::printf("throughput %.3f GB/s per node, bottleneck %s\n", loads.throughput(),
                        std::string(loads.classes()[loads.bottleneck()].link_name).c_str());
            for (const auto& c : loads.classes())
                std::printf("  %-2s max load %-10.6g tau %.3f GB/s\n", std::string(c.link_name).c_str(), c.max_load,
                            c.throughput);
        }
    } catch (const fabric::config_error& e) {
        std::fprintf(stderr, "%s\n%s", e.what(), usage);
        return 2;
    }
    return 0;
}
