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

Iteration iteration(const std::vector<long long>& local, const std::vector<std::uint32_t>& partition) {
    Iteration it;
    // Words per face, counted without overflow; a dimension of one node keeps its faces local.
    double largest = 0, largest_sent = 0;
    for (std::size_t d = 0; d < 4; ++d) {
        double face = words_per_site;
        for (std::size_t e = 0; e < 4; ++e)
            if (e != d) face *= static_cast<double>(local[e]);
        largest = std::max(largest, face);
        if (partition[d] != 1) largest_sent = std::max(largest_sent, face);
    }
    fabric_apps::check_work(largest, "words in a face", 5e6);
    fabric_apps::check_memory(20 * largest_sent, "a face sent and received, about 20 bytes a word");
    const ScuLinkSim link;
    it.face_words = static_cast<std::size_t>(largest_sent);
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
struct Settings {
    std::vector<long long> local{4, 4, 4, 4};            // sites per node
    std::vector<std::uint32_t> partition{8, 4, 4, 8};    // nodes
    std::vector<long long> global{16, 16, 16, 32};       // sites, for the hard-scaling table
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Settings, local, partition, global)

int lattice(const Settings& s) {
    const auto& local = s.local;
    const auto& partition = s.partition;
    const auto& global = s.global;
    fabric::detail::require(local.size() == 4 && partition.size() == 4 && global.size() == 4,
                            "--local, --partition and --global need 4 extents each");
    for (const auto x : local) fabric::detail::require(x >= 1, "--local extents must be at least 1");
    for (const auto x : partition) fabric::detail::require(x >= 1, "--partition extents must be at least 1");
    for (const auto x : global) fabric::detail::require(x >= 1, "--global extents must be at least 1");

    const auto it = iteration(local, partition);
    std::printf("One CG iteration, local volume %lldx%lldx%lldx%lld on a %ux%ux%ux%u partition (500 MHz):\n",
                local[0], local[1], local[2], local[3], partition[0], partition[1], partition[2], partition[3]);
    std::printf("  halo exchange: %zu words per face, %.2f us; x2\n", it.face_words, it.halo_ns / 1e3);
    std::printf("  global sum (doubled): %.2f us; x2\n", it.sum_ns / 1e3);
    std::printf("  communication per iteration: %.2f us\n\n", it.total_ns / 1e3);

    std::printf("Hard scaling: the %lldx%lldx%lldx%lld lattice on partitions of the 1024-node machine\n",
                global[0], global[1], global[2], global[3]);
    std::printf("%8s %14s %14s %12s %12s %14s\n", "nodes", "partition", "local", "halo us", "sum us", "comm/iter us");
    const std::vector<std::vector<std::uint32_t>> partitions{{2, 2, 2, 2}, {4, 2, 2, 2}, {4, 4, 2, 2}, {4, 4, 4, 2},
                                                             {4, 4, 4, 4}, {8, 4, 4, 4}, {8, 4, 4, 8}};
    for (const auto& p : partitions) {
        std::vector<long long> l(4);
        bool fits = true;
        for (std::size_t d = 0; d < 4; ++d) {
            fits = fits && global[d] % p[d] == 0;
            l[d] = global[d] / p[d];
        }
        if (!fits) continue;
        const auto r = iteration(l, p);
        auto shape = [](const auto& e) {
            return std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]) + "x" +
                   std::to_string(e[3]);
        };
        std::printf("%8u %14s %14s %12.2f %12.2f %14.2f\n", p[0] * p[1] * p[2] * p[3], shape(p).c_str(),
                    shape(l).c_str(), r.halo_ns / 1e3, r.sum_ns / 1e3, r.total_ns / 1e3);
    }
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "qcdoc_lattice",
        "the communication of one conjugate-gradient iteration of lattice QCD on QCDOC (halo exchange and global "
        "sums), and its hard scaling.",
        [](CLI::App& app, Settings& s) {
            app.add_option("--local", s.local, "local volume, sites per node (4 extents)")->check(fabric_apps::at_least<long long>(1))->delimiter(',')->capture_default_str();
            app.add_option("--partition", s.partition, "partition, nodes (4 extents)")->check(fabric_apps::at_least<std::uint32_t>(1))->delimiter(',')->capture_default_str();
            app.add_option("--global", s.global, "global lattice for the hard-scaling table (4 extents)")->check(fabric_apps::at_least<long long>(1))->delimiter(',')->capture_default_str();
        },
        lattice);
}
