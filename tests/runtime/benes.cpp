// Benes networks: every permutation of 2, 4 and 8 ports routes with no conflict
// and delivers every input; random permutations up to 2^16 ports and on GF11's
// 576-port network; multicasts in exactly two passes; structure by formula;
// refusals; the settings table; spares around faults; SIMD timing.
#include <doctest/doctest.h>

#include "../support/sanitized.hpp"

#include <fabric/core/random.hpp>
#include <fabric/flow/synchronous.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/routing/benes_multicast.hpp>
#include <fabric/systems/gf11.hpp>
#include <fabric/topology/benes.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

namespace unit_benes {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
std::vector<std::uint32_t> identity(std::size_t n) {
    std::vector<std::uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0U);
    return v;
}
std::vector<std::uint32_t> random_permutation(std::size_t n, std::uint64_t seed) {
    auto v = identity(n);
    Random(seed).shuffle(std::span<std::uint32_t>(v));
    return v;
}
/// Each input's value arrives at its output: out[perm[i]] == i.
template <class Net, class Setting>
bool delivers(const Net& net, const Setting& s, const std::vector<std::uint32_t>& perm) {
    const auto out = net.carry(s, identity(net.ports()));
    for (std::size_t i = 0; i < perm.size(); ++i)
        if (out[perm[i]] != i) return false;
    return true;
}
/// A crossbar setting is conflict free when every switch output takes one input
/// and, for a permutation, every switch input feeds exactly one output.
bool clos_conflict_free(const ClosNetwork& net, const ClosNetwork::Setting& s) {
    const std::size_t r = net.radix();
    for (const auto& stage : s.take)
        for (std::size_t sw = 0; sw < r; ++sw) {
            std::vector<int> fed(r, 0);
            for (std::size_t o = 0; o < r; ++o) {
                const auto from = stage[sw * r + o];
                if (from == unconnected || from >= r) return false;
                ++fed[from];
            }
            for (const int f : fed)
                if (f != 1) return false;
        }
    return true;
}
}  // namespace

TEST_CASE("structure by formula: 2n - 1 stages of N/2 switches; 72 crossbars of 24 x 24 for GF11") {
    for (std::size_t n = 1; n <= 20; ++n) {
        const BenesNetwork b(std::size_t{1} << n);
        CHECK(b.stages() == 2 * n - 1);
        CHECK(b.switches_per_stage() == (std::size_t{1} << n) / 2);
        CHECK(b.switches() == (2 * n - 1) * ((std::size_t{1} << n) / 2));
    }
    const ClosNetwork gf11(24);
    CHECK(gf11.ports() == 576);
    CHECK(gf11.stages() == 3);
    CHECK(gf11.switches() == 72);
    CHECK_THROWS_WITH_AS(BenesNetwork(12), doctest::Contains("N = 2^n"), config_error);
}

TEST_CASE("every permutation of 2, 4 and 8 ports routes with no conflict and delivers every input") {
    for (const std::size_t n : {2U, 4U, 8U}) {
        const BenesNetwork net(n);
        auto perm = identity(n);
        std::size_t count = 0;
        do {
            const auto s = route(net, perm);
            // 2x2 switches set straight or crossed: no output fed twice, no input dropped.
            for (std::size_t k = 0; k < net.switches(); ++k) REQUIRE(s.out0[k] != s.out1[k]);
            REQUIRE(delivers(net, s, perm));
            ++count;
        } while (std::next_permutation(perm.begin(), perm.end()));
        CHECK(count == (n == 2 ? 2U : n == 4 ? 24U : 40320U));
    }
}

TEST_CASE("random permutations up to 2^16 ports, and on the 576-port three-stage network") {
    for (std::size_t n = 16; n <= (1U << 16); n *= 4) {
        const BenesNetwork net(n);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const auto perm = random_permutation(n, seed);
            CHECK(delivers(net, route(net, perm), perm));
        }
    }
    const ClosNetwork gf11(24);
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const auto perm = random_permutation(576, seed);
        const auto s = route(gf11, perm);
        CHECK(clos_conflict_free(gf11, s));
        CHECK(delivers(gf11, s, perm));
    }
    const ClosNetwork small(4);
    auto perm = identity(16);
    for (int i = 0; i < 2000 && std::next_permutation(perm.begin(), perm.end()); ++i)
        REQUIRE(delivers(small, route(small, perm), perm));
}

TEST_CASE("multicasts are delivered in exactly two passes, replicate then permute") {
    const ClosNetwork net(24);
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        Random rng(seed);
        std::vector<std::vector<std::uint32_t>> dest(576);
        auto outputs = random_permutation(576, seed + 100);
        std::size_t used = 0;
        const std::size_t limit = 100 + rng.below(477);
        while (used < limit) {
            const auto src = rng.below(576);
            const std::size_t k = std::min<std::size_t>(1 + rng.below(seed % 3 == 0 ? 300 : 40), limit - used);
            for (std::size_t c = 0; c < k; ++c) dest[src].push_back(outputs[used++]);
        }
        const auto plan = multicast(net, dest);
        CHECK(plan.copies == limit);
        const auto first = net.carry(plan.replicate, identity(576));
        const auto second = net.carry(plan.permute, first);
        for (std::size_t i = 0; i < 576; ++i)
            for (const auto d : dest[i]) REQUIRE(second[d] == i);
        CHECK(clos_conflict_free(net, plan.permute));
    }
    // One input to all 576 outputs.
    std::vector<std::vector<std::uint32_t>> all(576);
    all[17] = identity(576);
    const auto plan = multicast(net, all);
    const auto out = net.carry(plan.permute, net.carry(plan.replicate, identity(576)));
    CHECK(std::all_of(out.begin(), out.end(), [](std::uint32_t v) { return v == 17; }));
}

namespace {
/// A random multicast on n ports: up to `limit` outputs dealt to random inputs in
/// runs of up to `run` (so some inputs broadcast widely, and mates are often both busy).
std::vector<std::vector<std::uint32_t>> random_multicast(std::size_t n, std::uint64_t seed, std::size_t limit,
                                                         std::size_t run) {
    Random rng(seed);
    std::vector<std::vector<std::uint32_t>> dest(n);
    const auto outputs = random_permutation(n, seed + 100);
    std::size_t used = 0;
    while (used < limit) {
        const auto src = rng.below(n);
        const std::size_t k = std::min<std::size_t>(1 + rng.below(run), limit - used);
        for (std::size_t c = 0; c < k; ++c) dest[src].push_back(outputs[used++]);
    }
    return dest;
}

/// Both passes carried forward, independently of how the settings were computed:
/// every output an input wants receives that input.
bool benes_multicast_delivers(const BenesNetwork& net, const std::vector<std::vector<std::uint32_t>>& dest) {
    const auto plan = multicast(net, dest);
    const auto out = net.carry(plan.permute, net.carry(plan.replicate, identity(net.ports())));
    for (std::size_t i = 0; i < dest.size(); ++i)
        for (const auto d : dest[i])
            if (out[d] != i) return false;
    return true;
}
}  // namespace

TEST_CASE("multicasts on the recursive Benes network are delivered in two passes: every case of 2, 4 and 8 ports") {
    // Every assignment of the outputs of 4 and 8 ports to inputs or to nobody
    // (5^4 and, for 8 ports, 9^8 / a stride), carried through both passes.
    for (const std::size_t n : {2U, 4U, 8U}) {
        const BenesNetwork net(n);
        std::size_t cases = 0, total = 1;
        for (std::size_t i = 0; i < n; ++i) total *= n + 1;
        // 9^8 = 43 million: every 97th (every 997th under the sanitizers, where every 97th takes 30 s).
        const std::size_t stride = n == 8 ? (fabric_tests::sanitized ? 997 : 97) : 1;
        for (std::size_t code = 0; code < total; code += stride) {
            std::vector<std::vector<std::uint32_t>> dest(n);
            std::size_t c = code;
            for (std::uint32_t o = 0; o < n; ++o, c /= n + 1)
                if (c % (n + 1) < n) dest[c % (n + 1)].push_back(o);
            REQUIRE(benes_multicast_delivers(net, dest));
            ++cases;
        }
        CHECK(cases >= total / stride);
    }
}

TEST_CASE("multicasts on the recursive Benes network: random ones up to 4096 ports, one input to all, all to one each") {
    for (const std::size_t n : {16U, 64U, 512U, 4096U})
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            CAPTURE(n);
            CAPTURE(seed);
            const std::size_t limit = n / 4 + static_cast<std::size_t>(seed) * n / 16;  // 5/16 to all of them
            const auto dest = random_multicast(n, seed, std::min(limit, n), seed % 3 == 0 ? n / 2 : 6);
            REQUIRE(benes_multicast_delivers(BenesNetwork(n), dest));
        }
    const BenesNetwork net(512);
    std::vector<std::vector<std::uint32_t>> all(512);
    all[300] = identity(512);
    REQUIRE(benes_multicast_delivers(net, all));
    CHECK(multicast(net, all).copies == 512);
    // Mates both busy everywhere: inputs 2k and 2k+1 to two outputs each, 0 and 1 to 0 .. 3, and so on.
    std::vector<std::vector<std::uint32_t>> pairs(512);
    for (std::uint32_t i = 0; i < 256; ++i) pairs[i] = {2 * i, 2 * i + 1};
    REQUIRE(benes_multicast_delivers(net, pairs));
}

TEST_CASE("patterns that are not permutations, and multicasts whose outputs overlap, are refused") {
    const BenesNetwork b(8);
    CHECK_THROWS_WITH_AS(route(b, std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 6}),
                         doctest::Contains("not a permutation: inputs 6 and 7 both go to output 6"), config_error);
    CHECK_THROWS_WITH_AS(route(b, std::vector<std::uint32_t>{0, 1, 2}), doctest::Contains("maps 8 inputs"),
                         config_error);
    const ClosNetwork c(4);
    std::vector<std::vector<std::uint32_t>> dest(16);
    dest[0] = {1, 2};
    dest[5] = {2};
    CHECK_THROWS_WITH_AS(multicast(c, dest), doctest::Contains("multicast outputs overlap: output 2"), config_error);
    std::vector<std::vector<std::uint32_t>> on8(8);
    on8[0] = {1, 2};
    on8[5] = {2};
    CHECK_THROWS_WITH_AS(multicast(b, on8), doctest::Contains("multicast outputs overlap: output 2"), config_error);
    on8[5] = {9};
    CHECK_THROWS_WITH_AS(multicast(b, on8), doctest::Contains("broadcasts to output 9, which does not exist"),
                         config_error);
}

TEST_CASE("a stored table of up to 1024 settings chosen by a 10-bit number") {
    const ClosNetwork net(24);
    SettingsTable<ClosNetwork::Setting> table;
    const auto ring = [] {
        std::vector<std::uint32_t> p(576);
        for (std::uint32_t i = 0; i < 576; ++i) p[i] = (i + 1) % 576;
        return p;
    }();
    table.store(0, route(net, ring));
    table.store(1023, route(net, identity(576)));
    CHECK(table.stored() == 2);
    CHECK(delivers(net, table.select(0), ring));
    CHECK_THROWS_WITH_AS(table.store(1024, route(net, ring)), doctest::Contains("10 bits"), config_error);
    CHECK_THROWS_WITH_AS((void)table.select(7), doctest::Contains("no switch setting is stored under number 7"),
                         config_error);
}

TEST_CASE("spares: with any 10 of 576 processors faulty, the 566 left realise every permutation tested") {
    Random pick(9);
    for (int trial = 0; trial < 20; ++trial) {
        std::set<std::uint32_t> faulty;
        while (faulty.size() < 10) faulty.insert(static_cast<std::uint32_t>(pick.below(576)));
        const Gf11 machine({faulty.begin(), faulty.end()}, {}, {}, 576);
        REQUIRE(machine.working().size() == 566);
        for (const auto p : machine.working()) CHECK(faulty.count(p) == 0);
        const auto logical = random_permutation(566, 1000 + static_cast<std::uint64_t>(trial));
        const auto s = machine.configure(logical);
        std::vector<std::uint32_t> values(566);
        std::iota(values.begin(), values.end(), 7000U);
        const auto got = machine.transfer(s, values);
        for (std::size_t l = 0; l < 566; ++l) REQUIRE(got[logical[l]] == values[l]);
    }
    // A faulty middle crossbar is routed around; a faulty outer one takes its processors out.
    const Gf11 machine({}, {24 + 5, 2 * 24 + 3});
    // Outer crossbar 3 is gone; with 23 middle crossbars left each outer one may use
    // 23 ports; the last holds 14 processors (566 - 552; its other ports serve disks).
    CHECK(machine.working().size() == 22 * 23 + 14);
    const auto logical = random_permutation(512, 77);
    const auto s = machine.configure(logical);
    for (std::size_t sw = 0; sw < 24; ++sw) CHECK(s.take[1][5 * 24 + sw] == unconnected);  // middle 5 unused
    std::vector<std::uint32_t> values(512);
    std::iota(values.begin(), values.end(), 1U);
    const auto got = machine.transfer(s, values);
    for (std::size_t l = 0; l < 512; ++l) CHECK(got[logical[l]] == values[l]);
}

TEST_CASE("synchronous SIMD timing: a word in 4 cycles of 50 ns, 20 MB/s each, about 11 GB/s for 566") {
    const Synchronous gf11;
    CHECK(gf11.cycles_per_word() == 4);
    CHECK(gf11.word_ns() == 200);
    CHECK(gf11.megabytes_per_second() == doctest::Approx(20.0));
    CHECK(566 * gf11.megabytes_per_second() / 1e3 == doctest::Approx(11.32));  // "about 11 GB/s"
    CHECK(gf11.configurations_per_second() == doctest::Approx(5e6));           // a new setting every 200 ns
    // Fixed delay: the arrival cycle depends on the send cycle alone, not on the pattern.
    CHECK(gf11.arrival_cycle(100) == 100 + 3 + 3);
    CHECK_THROWS_AS((Synchronous{50, 3, 4, 3}.validate()), config_error);
}

}  // namespace unit_benes
