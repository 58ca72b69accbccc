// The dependency engine's table of frontier records (sim/cycle/node_table.hpp):
// after any sequence of insertions and erasures it holds exactly what a std::map
// given the same sequence holds, across its growth and the backward shifts of
// its erasures, with keys that collide on purpose (multiples of a power of two).
#include <doctest/doctest.h>

#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/node_table.hpp>

#include <cstdint>
#include <map>
#include <vector>
namespace unit_node_table {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using fabric::cycle::NodeTable;

void same(const NodeTable<std::uint64_t>& t, const std::map<std::uint64_t, std::uint64_t>& m) {
    REQUIRE(t.size() == m.size());
    std::map<std::uint64_t, std::uint64_t> seen;
    t.for_each([&](std::uint64_t k, const std::uint64_t& v) { CHECK(seen.emplace(k, v).second); });
    CHECK(seen == m);
}

TEST_CASE("NodeTable: the same records as a map after random insertions and erasures") {
    for (const std::uint64_t stride : {1ULL, 3ULL, 1ULL << 20, 1ULL << 40}) {
        NodeTable<std::uint64_t> t;
        std::map<std::uint64_t, std::uint64_t> m;
        fabric::Random rng(stride);
        for (int step = 0; step < 20000; ++step) {
            const std::uint64_t key = (rng.next() % 600) * stride;  // a frontier of up to a few hundred
            if (rng.next() % 3 != 0) {
                auto [v, added] = t.try_emplace(key);
                CHECK(added == (m.count(key) == 0));
                *v += step;
                m[key] += static_cast<std::uint64_t>(step);
            } else {
                t.erase(key);  // absent keys too
                m.erase(key);
            }
            if (step % 997 == 0) same(t, m);
        }
        same(t, m);
        for (const auto& [k, v] : m) CHECK(t[k] == v);
        for (const auto& [k, v] : m) t.erase(k);
        CHECK(t.size() == 0);
    }
}

}  // namespace unit_node_table
