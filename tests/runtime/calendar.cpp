// The dependency engine's calendar (sim/cycle/calendar.hpp): after any sequence of
// pushes and pops it pops what a std::multiset given the same sequence would take
// first, by (cycle, key), with ties on the cycle, equal events, keys past 2^63 and
// cycles at both ends of their range; and a small case by hand.
#include <doctest/doctest.h>

#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/calendar.hpp>

#include <cstdint>
#include <set>
#include <utility>
namespace unit_calendar {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using fabric::cycle::Calendar;
using Pair = std::pair<std::uint64_t, std::uint64_t>;

TEST_CASE("Calendar: three events by hand, the cycle first, then the key") {
    Calendar c;
    c.push(7, 1);
    c.push(5, 9);
    c.push(5, 2);
    REQUIRE(c.size() == 3);
    CHECK(Pair{c.top().cycle, c.top().key} == Pair{5, 2});
    c.pop();
    CHECK(Pair{c.top().cycle, c.top().key} == Pair{5, 9});
    c.pop();
    CHECK(Pair{c.top().cycle, c.top().key} == Pair{7, 1});
    c.pop();
    CHECK(c.empty());
}

TEST_CASE("Calendar: pops in the order a multiset keeps, through random pushes and pops") {
    for (const std::uint64_t spread : {1ULL, 4ULL, 1000ULL, ~0ULL}) {
        Calendar c;
        std::multiset<Pair> m;
        fabric::Random rng(spread);
        for (int step = 0; step < 30000; ++step) {
            if (m.empty() || rng.below(5) < 3) {  // grows on the whole, down to empty now and then
                const std::uint64_t cycle = spread == ~0ULL ? rng.next() : rng.below(spread);
                const std::uint64_t key = rng.below(2) ? rng.below(8) : rng.next();  // equal events, keys past 2^63
                c.push(cycle, key);
                m.emplace(cycle, key);
            } else {
                REQUIRE(Pair{c.top().cycle, c.top().key} == *m.begin());
                c.pop();
                m.erase(m.begin());
            }
            REQUIRE(c.size() == m.size());
        }
        while (!m.empty()) {
            REQUIRE(Pair{c.top().cycle, c.top().key} == *m.begin());
            c.pop();
            m.erase(m.begin());
        }
        CHECK(c.empty());
    }
    Calendar ends;  // the range's ends: 0 and the largest cycle and key
    ends.push(~0ULL, ~0ULL);
    ends.push(0, ~0ULL);
    ends.push(~0ULL, 0);
    ends.push(0, 0);
    for (const Pair& expected : {Pair{0, 0}, Pair{0, ~0ULL}, Pair{~0ULL, 0}, Pair{~0ULL, ~0ULL}}) {
        REQUIRE(Pair{ends.top().cycle, ends.top().key} == expected);
        ends.pop();
    }
}

}  // namespace unit_calendar
