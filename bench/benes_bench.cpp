// Permutations routed per second: the three-stage network of GF11 (576 ports,
// 24 x 24 crossbars) and the recursive Benes network for 2^10, 2^16 and 2^20
// ports (looping algorithm, O(N log N)); with peak memory.
#include <fabric/core/random.hpp>
#include <fabric/routing/benes_looping.hpp>

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

namespace {
using namespace fabric;
template <class Net>
void bench(const char* form, const Net& net, int repeat) {
    std::vector<std::uint32_t> perm(net.ports());
    std::iota(perm.begin(), perm.end(), 0U);
    Random rng(1);
    double total = 0;
    for (int r = 0; r < repeat; ++r) {
        rng.shuffle(std::span<std::uint32_t>(perm));
        const auto start = std::chrono::steady_clock::now();
        const auto s = route(net, perm);
        total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        (void)s;
    }
    std::printf("{\"bench\": \"benes_route\", \"form\": \"%s\", \"ports\": %zu, \"permutations\": %d, "
                "\"seconds_each\": %.6f, \"permutations_per_second\": %.4g, \"peak_rss_MiB\": %.1f}\n",
                form, net.ports(), repeat, total / repeat, repeat / total, fabric_bench::peak_rss_mib());
}
}  // namespace

int main() {
    bench("clos r=24", ClosNetwork(24), 2000);
    bench("recursive", BenesNetwork(1 << 10), 2000);
    bench("recursive", BenesNetwork(1 << 16), 20);
    bench("recursive", BenesNetwork(1 << 20), 3);
    return 0;
}
