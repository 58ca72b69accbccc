// A collective at flit level (CycleSimulator::run_workload) beside its alpha-beta
// cost, in nccl-tests' terms: one row a size with the simulated cycles, algbw and
// busbw (bytes a cycle; busbw = algbw x 2(p-1)/p for an allreduce, (p-1)/p for an
// allgather, reduce-scatter or all-to-all, 1 for a broadcast or reduce), the
// alpha-beta prediction and the ratio of the two. Alpha and beta are fitted from
// two single-message runs (one flit, then two) from rank 0 to rank 1, as
// tests/collective/runs.cpp does: where nothing contends the ratio is 1 exactly.
// Beside them the busiest channel's flits a cycle, and with --critical-path the
// chain of messages and reductions that set each finish.
//
//   collective_sim --collective allreduce --algorithm ring --bytes 64KiB,1MiB --dims 8
//   collective_sim --topology fattree --k 4 --levels 2 --collective alltoall --algorithm pairwise --bytes 4KiB
//   collective_sim --dims 8,8 --algorithm multiported --bytes 16MiB   (a rank a router, 2d terminals its rails)
//   collective_sim --topology dragonfly --a 4 --h 2 --algorithm hierarchical --bytes 1MiB
//
// Options and configuration files: apps/common/tool.hpp; docs/collectives.md.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/policies.hpp>
#include <fabric/collective/shapes.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/minimal_adaptive.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/graph.hpp>

#include "common/kernel_cost.hpp"
#include "common/tool.hpp"

namespace {
using namespace fabric;
using collective::Algorithm;
using collective::Operation;

struct Settings : fabric_apps::Common {
    std::string topology = "torus";
    std::vector<std::uint32_t> dims{8};  // a ring of 8
    std::uint32_t k = 4, levels = 2;     // a fat tree's arity and levels
    std::string routing = "dor";         // a torus's: dimension order, or minimal adaptive
    std::uint32_t a = 4, h = 2;          // a dragonfly's routers a group and global ports a router
    std::string collective = "allreduce";
    std::string algorithm = "ring";
    std::string bytes = "64KiB";
    std::uint32_t ranks = 0;  // 0: every terminal
    std::uint32_t segments = 1;
    std::uint32_t root = 0;
    double reduce_per_byte = 0;
    std::uint32_t flit_bytes = 16;
    std::uint32_t link_latency = 1;
    bool critical_path = false;

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        std::vector<std::string> ops, algs;
        for (const Operation op : collective::operations) ops.emplace_back(collective::name(op));
        for (const Algorithm a : collective::algorithms) algs.emplace_back(collective::name(a));
        Options<S> o{
            option<S>(&S::topology, "--topology", "the network: a torus (--dims), a fat tree (--k, --levels) or a "
                      "dragonfly of a h + 1 groups (--a, --h; minimal routing)", one_of({"torus", "fattree", "dragonfly"})),
            option<S>(&S::a, "--a", "a dragonfly's routers a group", within<std::uint32_t>(1, 32)),
            option<S>(&S::h, "--h", "a dragonfly's global ports a router", within<std::uint32_t>(1, 32)),
            option<S>(&S::dims, "--dims", "a torus's extents, 1 to 3 of them (8: a ring of 8)",
                      within<std::uint32_t>(2, 4096)),
            option<S>(&S::routing, "--routing", "a torus's routing: dimension order (ties split) or minimal "
                      "adaptive (routing/minimal_adaptive.hpp)", one_of({"dor", "adaptive"})),
            option<S>(&S::k, "--k", "a fat tree's arity", within<std::uint32_t>(2, 16)),
            option<S>(&S::levels, "--levels", "a fat tree's levels", within<std::uint32_t>(1, 6)),
            option<S>(&S::collective, "--collective", "the operation", one_of(ops)),
            option<S>(&S::algorithm, "--algorithm", "the algorithm (docs/collectives.md lists which does which)",
                      one_of(algs)),
            option<S>(&S::bytes, "--bytes", "sizes, comma-separated, each in bytes or with KiB, MiB or GiB "
                      "(nccl-tests' size: an allreduce's whole vector)", Text{"SIZE[,SIZE...]"}),
            option<S>(&S::ranks, "--ranks", "ranks, on terminals 0 to ranks - 1 (0: every terminal; a composed "
                      "algorithm takes every terminal)", within<std::uint32_t>(0, 1U << 20)),
            option<S>(&S::segments, "--segments", "pieces each message is cut into (pipelining)",
                      within<std::uint32_t>(1, 1U << 16)),
            option<S>(&S::root, "--root", "a broadcast's or reduce's root rank", within<std::uint32_t>(0, 1U << 20)),
            option<S>(&S::reduce_per_byte, "--reduce-per-byte", "gamma: cycles a reduction takes a byte",
                      within(0.0, 1e6)),
            option<S>(&S::flit_bytes, "--flit-bytes", "bytes a flit carries", within<std::uint32_t>(1, 1U << 16)),
            option<S>(&S::link_latency, "--link-latency", "every link's latency, cycles", within<std::uint32_t>(1, 1U << 16)),
        };
        o.push_back(flag<S>(&S::critical_path, "--critical-path", "keep every node's times and give, for each size, "
                            "the chain of messages and reductions that set its finish (text and JSON)"));
        for (auto& f : format_options<S>({"text", "csv", "json"})) o.push_back(std::move(f));
        return o;
    }
};

/// "64KiB,1MiB,100": each a whole number of bytes, KiB, MiB or GiB.
std::vector<std::uint64_t> sizes_of(const std::string& text) {
    std::vector<std::uint64_t> out;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find(',', start);
        std::string_view s = std::string_view(text).substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::uint64_t unit = 1;
        for (const auto& [suffix, u] : {std::pair{"KiB", 1ULL << 10}, std::pair{"MiB", 1ULL << 20}, std::pair{"GiB", 1ULL << 30}})
            if (s.ends_with(suffix)) {
                unit = u;
                s.remove_suffix(3);
                break;
            }
        const auto n = fabric_apps::parse_number<std::uint64_t>(s, "--bytes");
        detail::require(n <= (1ULL << 40) / unit, "--bytes: '", text, "' has a size past 1 TiB");
        out.push_back(n * unit);
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

struct Row {
    std::uint64_t bytes = 0, cycles = 0;
    double algbw = 0, busbw = 0, alpha_beta = 0, ratio = 0;
    double busiest_link = 0;             // flits a cycle on the busiest channel, over the whole run
    nlohmann::json path = nullptr;       // with --critical-path: its nodes, first to last
};

/// The chain of nodes that set a recorded run's finish (fabric::critical_path), as JSON.
template <class G>
nlohmann::json path_of(const G& g, const WorkloadResult& r) {
    nlohmann::json out = nlohmann::json::array();
    for (const workload::NodeIndex i : critical_path(g, r)) {
        const workload::Node x = g.node(i);
        const cycle::NodeTimes& t = r.nodes[i];
        if (x.is_message())
            out.push_back({{"node", i}, {"kind", "message"}, {"rank", x.rank}, {"peer", x.peer}, {"bytes", x.bytes},
                           {"ready", t.ready}, {"injected", t.injected}, {"delivered", t.delivered}});
        else
            out.push_back({{"node", i}, {"kind", "reduction"}, {"rank", x.rank}, {"cycles", x.cycles},
                           {"ready", t.ready}, {"start", t.injected}, {"end", t.delivered}});
    }
    return out;
}

/// Runs the collective on `topo`: every terminal a rank, or (rails > 1) every router a rank of `rails` terminals.
template <class Fab, class T>
int run(const Settings& s, const Fab& fab, const T& topo, fabric_apps::OutputFile& out, std::uint32_t rails = 1) {
    const Operation op = *collective::named(s.collective, collective::operations);  // (the options' words)
    const Algorithm a = *collective::named(s.algorithm, collective::algorithms);
    detail::require(collective::supports(op, a), s.collective, " has no algorithm '", s.algorithm, "'; see "
                    "docs/collectives.md for which does which");
    // As the policy types have it at compile time (collective/policies.hpp): the dimension-wise forms on a torus,
    // the hierarchical one on a dragonfly.
    if (a == Algorithm::dimension_wise || a == Algorithm::multiported)
        detail::require(collective::has_dimensions_v<T>, "--algorithm ", s.algorithm, " runs along the dimensions of "
                        "a torus; on a dragonfly use hierarchical, on a fat tree a flat algorithm");
    if (a == Algorithm::hierarchical)
        detail::require(collective::has_groups_v<T>, "--algorithm hierarchical runs within a dragonfly's groups, then "
                        "across them; on a torus use dimension-wise, on a fat tree a flat algorithm");
    const CollectiveRequest placed{.rails = rails};
    const std::uint32_t terminals = collective::rank_count(topo, placed);
    const bool composed = collective::composed(a);
    detail::require(s.ranks <= terminals, "--ranks ", s.ranks, " is more than the ", terminals, rails > 1 ? " routers" :
                    " terminals");
    detail::require(!composed || s.ranks == 0 || s.ranks == terminals, "--algorithm ", s.algorithm,
                    " lays the ranks out on the topology: it takes every terminal; leave --ranks out");
    const std::uint32_t p = s.ranks ? s.ranks : terminals;
    detail::require(!s.critical_path || s.format != "csv", "--critical-path is written in text or JSON; CSV has one "
                    "row a size");
    detail::require(p >= 2, "a collective needs at least 2 ranks; got ", p);
    detail::require(s.root < p, "--root ", s.root, " is not a rank (there are ", p, ")");
    CycleConfig cfg;
    cfg.flit_bytes = s.flit_bytes;
    cfg.link_latency = s.link_latency;
    WorkloadOptions options;
    if (rails > 1) options.placement = workload::RankPlacement::rails(p, rails);
    // Alpha and beta from two single-message runs, rank 0 to rank 1.
    std::uint64_t one[2];
    for (const std::uint64_t flits : {1U, 2U}) {
        workload::GraphBuilder b("one message");
        b.add_message(0, 1, flits * s.flit_bytes);
        CycleSimulator<Fab> sim(fab, cfg);
        one[flits - 1] = sim.run_workload(b.build(p), options).finish_cycle;
    }
    const double beta = static_cast<double>(one[1] - one[0]) / s.flit_bytes;
    const collective::AlphaBeta model{static_cast<double>(one[0]) - s.flit_bytes * beta, beta,
                                      static_cast<double>(s.flit_bytes)};
    std::vector<Row> rows;
    for (const std::uint64_t bytes : sizes_of(s.bytes)) {
        const std::uint64_t n = op == Operation::barrier ? 0 : bytes;
        const collective::Size size{n, s.segments, collective::reducing(op) ? s.reduce_per_byte : 0, s.root};
        const CollectiveRequest req{.bytes = n, .segments = s.segments, .root = s.root,
                                    .reduce_per_byte = size.reduce_per_byte, .rails = rails};
        const collective::Shape shape = composed ? collective::shape_of(topo, req, a) : collective::Shape::line(p);
        const auto g = collective::build(op, a, shape, size);
        const double flits = fabric_apps::messages_and_flits(g, s.flit_bytes).second;
        // About 2e6 flit-hops a second on one core (a ring allreduce of 1 MiB on a 32 x 32 torus, a few hops
        // each): 750 instructions a flit-hop at the reference machine's rate (apps/common/limits.hpp).
        fabric_apps::Cost cost;
        cost.add("flit-hops of the run", flits * 4, 750);
        if (s.critical_path)
            cost.need("every node's times and predecessors, for --critical-path",
                      static_cast<double>(g.size()) * 2 * sizeof(cycle::NodeTimes));
        fabric_apps::check(cost);
        CycleSimulator<Fab> sim(fab, cfg);
        WorkloadOptions run_options = options;
        run_options.record_nodes = s.critical_path;
        const WorkloadResult r = sim.run_workload(g, run_options);
        if (!r.finished) {  // a deadlock, or a wait that never ends: say which ranks wait for what (status 3)
            std::fprintf(stderr, "%s\n", r.report().c_str());
            return 3;
        }
        Row row{bytes, r.finish_cycle};
        row.algbw = r.finish_cycle ? static_cast<double>(bytes) / static_cast<double>(r.finish_cycle) : 0;
        row.busbw = row.algbw * collective::bus_factor(op, p);
        row.alpha_beta = collective::cost(op, a, shape, size, model);
        row.ratio = row.alpha_beta > 0 ? static_cast<double>(r.finish_cycle) / row.alpha_beta : 0;
        for (const double u : r.network.channel_utilisation) row.busiest_link = std::max(row.busiest_link, u);
        if (s.critical_path) row.path = path_of(g, r);
        rows.push_back(std::move(row));
    }
    auto& o = out.stream();
    if (s.format == "json") {
        auto record = [&](const Row& row) {
            nlohmann::json j{{"operation", s.collective}, {"algorithm", s.algorithm}, {"ranks", p},
                             {"bytes", row.bytes}, {"cycles", row.cycles}, {"algbw", row.algbw},
                             {"busbw", row.busbw}, {"alpha_beta", row.alpha_beta}, {"ratio", row.ratio},
                             {"busiest_link", row.busiest_link}};
            if (!row.path.is_null()) j["critical_path"] = row.path;
            return j;
        };
        nlohmann::json j{{"alpha", model.alpha}, {"beta", model.beta}};
        if (rows.size() == 1) j["collective"] = record(rows[0]);
        else {
            j["collectives"] = nlohmann::json::array();
            for (const Row& row : rows) j["collectives"].push_back(record(row));
        }
        fabric_apps::write_json(o, j);
        return 0;
    }
    if (s.format == "csv") {
        fabric_apps::write_csv_provenance(o);
        o << "operation,algorithm,ranks,bytes,cycles,algbw,busbw,alpha_beta,ratio,busiest_link\n";
        for (const Row& row : rows)
            o << s.collective << ',' << s.algorithm << ',' << p << ',' << row.bytes << ',' << row.cycles << ','
              << row.algbw << ',' << row.busbw << ',' << row.alpha_beta << ',' << row.ratio << ','
              << row.busiest_link << '\n';
        return 0;
    }
    out.printf("%s by %s, %u ranks; alpha %.0f cycles, beta %g cycles a byte (two single-message runs)\n",
               s.collective.c_str(), s.algorithm.c_str(), p, model.alpha, model.beta);
    out.printf("%14s %12s %12s %12s %14s %8s %8s\n", "bytes", "cycles", "algbw B/c", "busbw B/c", "alpha-beta",
               "ratio", "busiest");
    for (const Row& row : rows)
        out.printf("%14llu %12llu %12.4f %12.4f %14.1f %8.4f %8.4f\n", static_cast<unsigned long long>(row.bytes),
                   static_cast<unsigned long long>(row.cycles), row.algbw, row.busbw, row.alpha_beta, row.ratio,
                   row.busiest_link);
    for (const Row& row : rows) {
        if (row.path.is_null()) continue;
        out.printf("critical path at %llu bytes (%zu nodes):\n", static_cast<unsigned long long>(row.bytes),
                   row.path.size());
        for (const nlohmann::json& n : row.path) {
            const auto at = [&](const char* k) { return static_cast<unsigned long long>(n[k].get<std::uint64_t>()); };
            if (n["kind"] == "message")
                out.printf("  message rank %llu -> rank %llu, %llu bytes: ready %llu, delivered %llu\n", at("rank"),
                           at("peer"), at("bytes"), at("ready"), at("delivered"));
            else
                out.printf("  reduction on rank %llu, %llu cycles: ready %llu, %llu to %llu\n", at("rank"),
                           at("cycles"), at("ready"), at("start"), at("end"));
        }
    }
    return 0;
}

template <std::size_t D>
int on_torus(const Settings& s, fabric_apps::OutputFile& out) {
    using T = Torus<D>;
    std::array<std::uint32_t, D> extents{};
    for (std::size_t d = 0; d < D; ++d) extents[d] = s.dims[d];
    const T topo(extents);
    if (s.routing == "adaptive") {
        detail::require(s.algorithm != "multiported", "--algorithm multiported runs under dimension order here; "
                        "leave --routing out");
        using A = KAryNCube<D, BasicLink<MinimalAdaptive::vcs_required<T>>, DynamicExtents, Boundary::wrap>;
        const A adaptive(extents);
        const Fabric<A, MinimalAdaptive> fab{adaptive};
        return run(s, fab, adaptive, out);
    }
    if (s.algorithm == "multiported") {
        // Sack and Gropp's multi-ported rank: the 2d terminals of one router, one a direction of each dimension.
        using C = Concentrated<T, 2 * D>;
        const std::uint32_t rails = 2 * collective::dimensions_of(topo);
        const C multi(topo, rails);
        const Fabric<C, DorTieSplit<>> fab{multi};
        return run(s, fab, multi, out, rails);
    }
    const Fabric<T, DorTieSplit<>> fab{topo};
    return run(s, fab, topo, out);
}

int simulate(const Settings& s, fabric_apps::OutputFile& out) {
    if (s.topology == "dragonfly") {
        detail::require(s.routing == "dor", "--routing ", s.routing, ": a torus's routing; a dragonfly routes "
                        "minimally here (leave --routing out)");
        using Df = Dragonfly<>;
        const Df topo(s.a, s.h);
        const Fabric<Df, DragonflyMinimal> fab{topo};
        return run(s, fab, topo, out);
    }
    if (s.topology == "fattree") {
        detail::require(s.routing == "dor", "--routing ", s.routing, ": a torus's routing; a fat tree routes by "
                        "nearest common ancestors (leave --routing out)");
        using Ft = FatTree<16>;
        const Ft topo(s.k, s.levels);
        const Fabric<Ft, FatTreeNca> fab{topo};
        return run(s, fab, topo, out);
    }
    switch (s.dims.size()) {
    case 1: return on_torus<1>(s, out);
    case 2: return on_torus<2>(s, out);
    case 3: return on_torus<3>(s, out);
    default: detail::require(false, "--dims: a torus of 1 to 3 dimensions; got ", s.dims.size());
    }
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "collective_sim",
        "a collective at flit level beside its alpha-beta cost: cycles, algbw, busbw (nccl-tests' factors), ratio.",
        simulate);
}
