// The exact latency histogram: dense bins for short latencies, pairs for long
// ones, and the sum of several ranks' histograms at the end of a partitioned run.
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <fabric/fabric.hpp>

namespace unit_latency_histogram {

using namespace fabric;

// The smallest L with at least a fraction q of `sorted` at most L, counted one by one.
std::uint64_t by_hand(const std::vector<std::uint64_t>& sorted, double q) {
    const auto need = static_cast<std::uint64_t>(q * static_cast<double>(sorted.size()) + 0.999999999);
    return sorted[std::max<std::uint64_t>(need, 1) - 1];
}

TEST_CASE("a latency past the dense bins is counted exactly and costs one pair, not a bin per cycle") {
    LatencyHistogram h;
    std::vector<std::uint64_t> all;
    const std::uint64_t huge = std::uint64_t{1} << 40;  // a bin per cycle would need 8 TiB
    for (std::uint64_t i = 0; i < 20000; ++i) {
        const std::uint64_t c = i % 3 == 0 ? huge + i % 7 : (i * 7919) % 50000;
        h.add(c);
        all.push_back(c);
    }
    std::sort(all.begin(), all.end());
    CHECK(h.count() == all.size());
    CHECK(h.max() == all.back());
    CHECK(h.raw().size() <= LatencyHistogram::dense_cycles);
    CHECK(h.beyond().size() == 7);  // seven distinct long latencies
    for (const double q : {0.001, 0.25, 0.5, 0.66, 0.67, 0.9, 0.99, 1.0}) CHECK(h.percentile(q) == by_hand(all, q));
    const auto s = LatencySummary::of(h);
    CHECK(s.count() == all.size());
    for (const double q : {0.1, 0.5, 0.7, 0.99}) CHECK(s.percentile(q) == h.percentile(q));
    CHECK(s.histogram.size() < LatencyHistogram::dense_cycles);
    long double sum = 0;
    for (const auto c : all) sum += static_cast<long double>(c);
    CHECK(h.mean() == doctest::Approx(static_cast<double>(sum / static_cast<long double>(all.size()))));
}

TEST_CASE("the first long latency lands at dense_cycles, the last short one just below") {
    LatencyHistogram h;
    h.add(LatencyHistogram::dense_cycles - 1);
    h.add(LatencyHistogram::dense_cycles);
    CHECK(h.bins().size() == LatencyHistogram::dense_cycles);
    CHECK(h.bins().back() == 1);
    CHECK(h.beyond() == std::vector<LatencyCount>{{LatencyHistogram::dense_cycles, 1}});
    CHECK(h.percentile(0.5) == LatencyHistogram::dense_cycles - 1);
    CHECK(h.percentile(1.0) == LatencyHistogram::dense_cycles);
}

// Two ranks as two threads: sum and gather as MPI's allreduce and allgather do them.
struct Shared {
    std::barrier<> meet{2};
    std::vector<std::uint32_t> gathered[2];
    std::vector<std::uint64_t> summed[2];
};
struct ThreadTransport {
    Shared* shared;
    std::uint32_t me;
    [[nodiscard]] std::uint32_t rank() const { return me; }
    [[nodiscard]] static std::uint32_t ranks() { return 2; }
    static void exchange(std::vector<std::vector<std::byte>>&, std::vector<std::byte>&) {}
    void sum(std::span<std::uint64_t> v) {
        shared->summed[me].assign(v.begin(), v.end());
        shared->meet.arrive_and_wait();
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = shared->summed[0].at(i) + shared->summed[1].at(i);
        shared->meet.arrive_and_wait();
    }
    void gather(std::vector<std::uint32_t>& list) {
        shared->gathered[me] = list;
        shared->meet.arrive_and_wait();
        list = shared->gathered[0];
        list.insert(list.end(), shared->gathered[1].begin(), shared->gathered[1].end());
        shared->meet.arrive_and_wait();
    }
};

TEST_CASE("summed over ranks, histograms with long latencies equal one histogram of every sample") {
    // Rank 0 and rank 1 each see short and long latencies, some long ones on both.
    const std::vector<std::uint64_t> seen[2] = {{5, 9, 100000, 300000, 300000, 70000},
                                                 {9, 2000, 300000, 1 << 20, 65536}};
    LatencyHistogram each[2][2];  // [rank][kind]: kind 1 holds only rank 0's samples
    LatencyHistogram whole[2];
    for (int r = 0; r < 2; ++r)
        for (const auto c : seen[r]) {
            each[r][0].add(c);
            whole[0].add(c);
            if (r == 0) {
                each[r][1].add(c);
                whole[1].add(c);
            }
        }
    Shared shared;
    CycleResult result[2];
    auto run = [&](std::uint32_t r) {
        ThreadTransport tx{&shared, r};
        std::vector<LatencyHistogram*> hists{&each[r][0], &each[r][1]};
        std::vector<std::uint64_t> per_channel{r + 1u};
        std::uint64_t extra = 10 * (r + 1);
        std::vector<std::uint64_t*> more{&extra};
        cycle::sum_over_ranks(tx, result[r], hists, per_channel, more);
        CHECK(per_channel == std::vector<std::uint64_t>{3});
        CHECK(extra == 30);
    };
    std::thread other(run, 1u);
    run(0);
    other.join();
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 2; ++k) {
            const LatencyHistogram& h = each[r][k];
            CHECK(h.count() == whole[k].count());
            CHECK(h.max() == whole[k].max());
            CHECK(h.mean() == whole[k].mean());
            CHECK(h.bins() == whole[k].bins());
            CHECK(h.beyond() == whole[k].beyond());
        }
    CHECK(each[1][0].beyond() ==
          std::vector<LatencyCount>{{65536, 1}, {70000, 1}, {100000, 1}, {300000, 3}, {1 << 20, 1}});
}

}  // namespace unit_latency_histogram
