// The communication of one conjugate-gradient iteration of lattice QCD on QCDOC
// (Wilson fermions): two applications of the Dirac operator, each exchanging the
// half-spinors on the faces of every node's local volume with its 8 neighbours in
// 4-D (one face per link, all links at once), and two global sums (the dot
// products). Then a hard-scaling sweep: the same global lattice on more nodes.
//
//   qcdoc_lattice [--local 4,4,4,4] [--partition 8,4,4,8] [--global 16,16,16,32]
#include <fabric/collective/scu_global.hpp>
#include <fabric/sim/scu_link.hpp>

#include "common/tool.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {
using namespace fabric;

// A Wilson half-spinor: 2 spins x 3 colours, complex, in 64-bit words.
constexpr std::size_t words_per_site = 2 * 3 * 2;

struct Iteration {
    std::size_t face_words = 0;  // the largest face
    double halo_ns = 0;          // one exchange: all faces at once, the largest decides
    double sum_ns = 0;           // one global sum, doubled mode
    double total_ns = 0;         // 2 exchanges + 2 sums
};

/// Words in the largest face a node sends (a dimension of one node keeps its faces local; 0 when none
/// leaves), counted in doubles so that no extent overflows it.
double face_sent(const std::vector<long long>& local, const std::vector<std::uint32_t>& partition) {
    double largest_sent = 0;
    for (std::size_t d = 0; d < 4; ++d) {
        double face = words_per_site;
        for (std::size_t e = 0; e < 4; ++e)
            if (e != d) face *= static_cast<double>(local[e]);
        if (partition[d] != 1) largest_sent = std::max(largest_sent, face);
    }
    return largest_sent;
}

/// What the iterations cost, added up before any of them runs: each face through the SCU link's
/// simulation (sim/scu_link.hpp), about 580 instructions a word (callgrind: faces of 768 to 786,432
/// words, 490 to 583), and each doubled global sum's rings, as qcdoc_global_sum counts them (n^2 ring
/// steps a dimension of n). The memory, of the largest one (they run one after another): a face sent and
/// received, about 20 bytes a word, and the global sum's largest ring, about 32 bytes per n^2.
struct IterationCost {
    double face_words = 0, ring_steps = 0, face_bytes = 0, ring_bytes = 0;

    void add(const std::vector<long long>& local, const std::vector<std::uint32_t>& partition) {
        const double face = face_sent(local, partition);
        face_words += face;
        face_bytes = std::max(face_bytes, 20 * face);
        for (const std::uint32_t n : partition) {
            const double n2 = static_cast<double>(n) * n;
            ring_steps += n2;
            ring_bytes = std::max(ring_bytes, 32 * n2);
        }
    }
    void check() const {
        fabric_apps::check(fabric_apps::tool_start()
                               .add("halo exchanges: face words simulated", face_words, 580)
                               .add("global sums: ring steps (n^2 a dimension of n)", ring_steps, 115)
                               .need("a face sent and received, about 20 bytes a word", face_bytes)
                               .need("a global sum's largest ring, about 32 bytes per n^2", ring_bytes));
    }
};

Iteration iteration(const std::vector<long long>& local, const std::vector<std::uint32_t>& partition) {
    Iteration it;
    const ScuLinkSim link;
    it.face_words = static_cast<std::size_t>(face_sent(local, partition));
    if (it.face_words > 0) {
        std::vector<std::uint64_t> face(it.face_words, 1);
        const DmaDescriptor all{0, face.size(), face.size(), 1};
        it.halo_ns = link.transfer(face, all, face.size(), all).transfer_ns;
    }
    it.sum_ns = ScuGlobalSum(true).simulate(partition, QcdocScu{}).latency_ns;
    it.total_ns = 2 * it.halo_ns + 2 * it.sum_ns;
    return it;
}
}  // namespace

namespace {
struct Settings : fabric_apps::Common {
    std::vector<long long> local{4, 4, 4, 4};            // sites per node
    std::vector<std::uint32_t> partition{8, 4, 4, 8};    // nodes
    std::vector<long long> global{16, 16, 16, 32};       // sites, for the hard-scaling table

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::local, "--local", "local volume, sites per node (4 extents)", within<long long>(1, 1LL << 30)),
            option<S>(&S::partition, "--partition", "partition, nodes (4 extents)", within<std::uint32_t>(1, 1U << 30)),
            option<S>(&S::global, "--global", "global lattice for the hard-scaling table (4 extents)",
                      within<long long>(1, 1LL << 30)),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

std::string shape(const auto& e) {
    return std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]) + "x" + std::to_string(e[3]);
}

int lattice(const Settings& s, fabric_apps::OutputFile& out) {
    const auto& local = s.local;
    const auto& partition = s.partition;
    const auto& global = s.global;
    fabric::detail::require(local.size() == 4 && partition.size() == 4 && global.size() == 4,
                            "--local, --partition and --global need 4 extents each");
    // The hard-scaling table: the partitions of the 1024-node machine the global lattice divides.
    const std::vector<std::vector<std::uint32_t>> partitions{{2, 2, 2, 2}, {4, 2, 2, 2}, {4, 4, 2, 2}, {4, 4, 4, 2},
                                                             {4, 4, 4, 4}, {8, 4, 4, 4}, {8, 4, 4, 8}};
    struct Row {
        std::vector<std::uint32_t> p;
        std::vector<long long> l;
        Iteration r;
    };
    std::vector<Row> rows;
    IterationCost cost;
    cost.add(local, partition);
    for (const auto& p : partitions) {
        std::vector<long long> l(4);
        bool fits = true;
        for (std::size_t d = 0; d < 4; ++d) {
            fits = fits && global[d] % p[d] == 0;
            l[d] = global[d] / p[d];
        }
        if (fits) {
            rows.push_back({p, l, {}});
            cost.add(l, p);
        }
    }
    cost.check();  // every iteration's, before the first runs
    const auto it = iteration(local, partition);
    for (Row& r : rows) r.r = iteration(r.l, r.p);
    if (s.format == "json") {
        nlohmann::json scaling = nlohmann::json::array();
        for (const Row& r : rows)
            scaling.push_back({{"nodes", r.p[0] * r.p[1] * r.p[2] * r.p[3]}, {"partition", shape(r.p)},
                               {"local", shape(r.l)}, {"halo_us", r.r.halo_ns / 1e3}, {"sum_us", r.r.sum_ns / 1e3},
                               {"comm_per_iteration_us", r.r.total_ns / 1e3}});
        fabric_apps::write_json(out.stream(), nlohmann::json{{"local", shape(local)}, {"partition", shape(partition)},
                                       {"face_words", it.face_words}, {"halo_us", it.halo_ns / 1e3},
                                       {"sum_us", it.sum_ns / 1e3}, {"comm_per_iteration_us", it.total_ns / 1e3},
                                       {"global", shape(global)}, {"scaling", scaling}});
        return 0;
    }
    out.printf("One CG iteration, local volume %s on a %s partition (500 MHz):\n", shape(local).c_str(),
               shape(partition).c_str());
    out.printf("  halo exchange: %zu words per face, %.2f us; x2\n", it.face_words, it.halo_ns / 1e3);
    out.printf("  global sum (doubled): %.2f us; x2\n", it.sum_ns / 1e3);
    out.printf("  communication per iteration: %.2f us\n\n", it.total_ns / 1e3);
    out.printf("Hard scaling: the %s lattice on partitions of the 1024-node machine\n", shape(global).c_str());
    out.printf("%8s %14s %14s %12s %12s %14s\n", "nodes", "partition", "local", "halo us", "sum us", "comm/iter us");
    for (const Row& r : rows)
        out.printf("%8u %14s %14s %12.2f %12.2f %14.2f\n", r.p[0] * r.p[1] * r.p[2] * r.p[3], shape(r.p).c_str(),
                   shape(r.l).c_str(), r.r.halo_ns / 1e3, r.r.sum_ns / 1e3, r.r.total_ns / 1e3);
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "qcdoc_lattice",
        "the communication of one conjugate-gradient iteration of lattice QCD on QCDOC (halo exchange and global "
        "sums), and its hard scaling.",
        lattice);
}
