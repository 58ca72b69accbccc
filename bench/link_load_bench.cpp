// Rate of the flow-level kernel, one JSON line a row, each with its goal beside it:
//  - a 16x16x16 torus under uniform all-to-all (4096^2 = 16.7 million flows),
//    dimension order with the tie split, pair by pair (link_load_pairwise) and as
//    link_load takes it (by symmetry: one source's flows and one ring's legs a
//    dimension), and whether the two agree bit for bit;
//  - a million-node torus, 128x128x64 (2^20 nodes: its shares are dyadic, so even
//    the tie-split halves add exactly), under uniform and tornado traffic, and
//    100x100x100 with ties always + and with ties split (10^12 pairs: both ways
//    count the crossings, integers and halves, and scale by 1/10^6 once, so the
//    symmetric path takes it; issue 57's goal, under a second);
//  - a 16,512-terminal dragonfly (a = 16 routers a group, h = 8 global and p = 8
//    terminals a router, g = 129 groups, the balanced one of Kim et al.) under
//    uniform traffic and its worst case, each group to the next (group shift).
// Seconds are the best of the repeats of link_load alone (the fabric is built
// before); peak_rss_MiB is the process's peak so far.
//
//   link_load_bench [--extent K] [--repeat R]
#include <fabric/fabric.hpp>

#include "memory.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

int repeat = 3;
constexpr double goal_seconds = 1.0;  // issue 43: each large row under a second on the 2-core machine

/// The best time of `repeat` runs of link_load, and its result.
template <class Run>
std::pair<double, fabric::LinkLoads> best_of(Run run) {
    double best = 1e300;
    for (int r = 0;; ++r) {
        const auto start = std::chrono::steady_clock::now();
        auto loads = run();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = took.count() < best ? took.count() : best;
        if (r + 1 >= repeat) return {best, std::move(loads)};
    }
}

void row(const std::string& topology, const char* pattern, const char* method, double flows, double seconds,
         const fabric::LinkLoads& loads, double expected_max_load, std::string_view extra = "") {
    std::printf("{\"bench\": \"link_load\", \"topology\": \"%s\", \"pattern\": \"%s\", \"method\": \"%s\", "
                "\"flows\": %.0f, \"seconds\": %.4f, \"flows_per_second\": %.4g, \"goal_seconds\": %.1f, "
                "\"meets_goal\": %s, \"max_load\": %.6f, \"expected_max_load\": %.6f, \"peak_rss_MiB\": %.1f%s}\n",
                topology.c_str(), pattern, method, flows, seconds, flows / seconds, goal_seconds,
                seconds < goal_seconds ? "true" : "false", loads.max_load(), expected_max_load,
                fabric_bench::peak_rss_mib(), std::string(extra).c_str());
}

template <class Fab, class P>
const char* method_of(const Fab& fab, const P& pattern) {
    return fabric::why_not_by_symmetry(fab, pattern).empty() ? "symmetry" : "pairs";
}

}  // namespace

int main(int argc, char** argv) {
    long long k = 16;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--extent") == 0) k = std::atoll(argv[i + 1]);
        else if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::atoi(argv[i + 1]);
    }
    using T = fabric::Torus<3>;
    {
        const T topo{{k, k, k}};
        const fabric::Fabric<T, fabric::DorTieSplit<>> net{topo};
        const fabric::UniformTraffic uniform(topo.node_count());
        const double flows = static_cast<double>(topo.node_count()) * static_cast<double>(topo.node_count());
        const std::string name = std::to_string(k) + "x" + std::to_string(k) + "x" + std::to_string(k) + " torus";
        const auto [pair_s, pairs] = best_of([&] { return fabric::link_load_pairwise(net, uniform); });
        row(name, "uniform", "pairs", flows, pair_s, pairs, static_cast<double>(k) / 8);
        const auto [fast_s, fast] = best_of([&] { return fabric::link_load(net, uniform); });
        const bool same = std::equal(pairs.per_channel().begin(), pairs.per_channel().end(),
                                     fast.per_channel().begin(), fast.per_channel().end());
        row(name, "uniform", method_of(net, uniform), flows, fast_s, fast, static_cast<double>(k) / 8,
            same ? ", \"equals_pairs\": true" : ", \"equals_pairs\": false");
    }
    {
        const T topo{{128, 128, 64}};
        const fabric::Fabric<T, fabric::DorTieSplit<>> net{topo};
        const double n = static_cast<double>(topo.node_count());
        const fabric::UniformTraffic uniform(topo.node_count());
        const auto [us, u] = best_of([&] { return fabric::link_load(net, uniform); });
        row("128x128x64 torus", "uniform", method_of(net, uniform), n * n, us, u, 128.0 / 8);
        const fabric::TornadoTraffic tornado(fabric::Grid{128, 128, 64});
        const auto [ts, t] = best_of([&] { return fabric::link_load(net, tornado); });
        row("128x128x64 torus", "tornado", method_of(net, tornado), n, ts, t, 128.0 / 2 - 1);  // k/2 - 1 hops, one unit each
    }
    {
        const T topo{{100, 100, 100}};
        const fabric::UniformTraffic uniform(topo.node_count());
        const double n = static_cast<double>(topo.node_count());
        const fabric::Fabric<T, fabric::DorTiePositive<>> positive{topo};
        const auto [ps, p] = best_of([&] { return fabric::link_load(positive, uniform); });
        row("100x100x100 torus, ties +", "uniform", method_of(positive, uniform), n * n, ps, p, 100.0 / 8 + 0.25);
        const fabric::Fabric<T, fabric::DorTieSplit<>> split{topo};
        const fabric::TornadoTraffic tornado(fabric::Grid{100, 100, 100});
        const auto [ts, t] = best_of([&] { return fabric::link_load(split, tornado); });
        row("100x100x100 torus", "tornado", method_of(split, tornado), n, ts, t, 100.0 / 2 - 1);
        // Ties split: k/8 with self-traffic included (a ring of 100 crosses one channel
        // 1 + 2 + ... + 49 + 50/2 = 1250 times from a source, 1250 x 10^4 = k/8 x 10^6).
        const auto [ss, sp] = best_of([&] { return fabric::link_load(split, uniform); });
        row("100x100x100 torus", "uniform", method_of(split, uniform), n * n, ss, sp, 100.0 / 8);
    }
    {
        using D = fabric::Concentrated<fabric::Dragonfly<23>, 8>;
        const D df(fabric::Dragonfly<23>(16, 8), 8);
        const fabric::Fabric<D, fabric::DragonflyMinimal> net{df};
        const std::size_t terminals = fabric::terminal_count(df);  // 16,512
        const double n = static_cast<double>(terminals);
        const std::string name = std::to_string(terminals) + "-terminal dragonfly (a 16, h 8, p 8, g 129)";
        const fabric::UniformTraffic uniform(terminals);
        const auto [us, u] = best_of([&] { return fabric::link_load(net, uniform); });
        // The busiest local channel, router r to q: r's 8 terminals to the 8 groups
        // whose links q owns (8 x 8 x 128 flows), the 8 groups arriving over r's links
        // to q's 8 terminals (the same), and r's terminals to q's (64): 16,448 / 16,512.
        // A global link carries a group pair's 128 x 128 flows: 16,384 / 16,512.
        row(name, "uniform", method_of(net, uniform), n * n, us, u, 16448.0 / n,
            ", \"global_max_load\": " + std::to_string(u.link_class(D::global_class).max_load) +
                ", \"expected_global_max_load\": " + std::to_string(16384.0 / n));
        const fabric::GroupShiftTraffic worst(128, 129);  // every group to the next: one global link carries a p
        const auto [ws, w] = best_of([&] { return fabric::link_load(net, worst); });
        row(name, "group shift (worst case)", method_of(net, worst), n * 128, ws, w, 128.0);
    }
    return 0;
}
