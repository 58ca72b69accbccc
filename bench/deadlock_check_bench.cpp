// The run-time deadlock check on a 6,132-router dragonfly (a = 28 routers per
// group, h = 8 global ports, g = 219 groups) under minimal routing: built from the
// policy's distinct dependencies (for_each_turn), and, for comparison, from every
// pair's route on a smaller dragonfly and on this one. Prints time and peak memory
// with the goal of issue 12 (under 0.5 s and 100 MB at 6,132 nodes). Then dimension
// order on a 2,048-node ring and a 1000 x 2 torus, by its turns and, on the ring,
// by every pair's route (the hostile-input issue: cubic, 8.5 s and 1 GB for 1000 x 2).
#include <chrono>
#include <cstdio>
#include <span>

#include <sys/resource.h>

#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/torus.hpp>

namespace {
/// Minimal routing without the turn list: the check walks every pair's route.
struct Walked : fabric::DragonflyMinimal {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};
struct WalkedDor : fabric::DorTieSplit<> {
    template <class T, class F>
    void for_each_turn(const T&, F&&) const = delete;
};

double peak_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

template <class R, class T>
void measure(const char* how, const T& topo, const R& routing, double goal_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto report = fabric::channel_dependencies(topo, routing);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"bench\": \"deadlock_check\", \"how\": \"%s\", \"routers\": %zu, \"channels\": %zu, "
                "\"dependencies\": %zu, \"acyclic\": %s, \"seconds\": %.3f, \"goal_seconds\": %g, "
                "\"peak_rss_MiB\": %.1f, \"goal_MiB\": %g}\n",
                how, topo.node_count(), report.channels, report.dependencies, report.acyclic ? "true" : "false", s,
                goal_seconds, peak_mib(), goal_seconds > 0 ? 100.0 : 0.0);
}
}  // namespace

int main() {
    const fabric::Dragonfly<35> big(28, 8, 219);
    measure("turns", big, fabric::DragonflyMinimal{}, 0.5);
    const fabric::Dragonfly<35> small(28, 8, 40);
    measure("routes", small, Walked{}, 0);
    measure("routes", big, Walked{}, 0);
    const fabric::Torus<1> ring({2048});
    measure("turns", ring, fabric::DorTieSplit<>{}, 0.5);
    measure("turns", fabric::Torus<2>({1000, 2}), fabric::DorTieSplit<>{}, 0.5);
    measure("routes", fabric::Torus<1>({512}), WalkedDor{}, 0);
    measure("routes", ring, WalkedDor{}, 0);
}
