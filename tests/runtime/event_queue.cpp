// The fault models' event queue: time order, keyed ties before unkeyed ones in
// queue order, periodic timers that fire at every multiple, and memory that does
// not grow with the simulated time.
#include <doctest/doctest.h>

#include <fabric/fault/event_queue.hpp>

#include <string>
#include <vector>

namespace unit_event_queue {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using fabric::EventQueue;

TEST_CASE("EventQueue: time order; at one time, keyed actions by key, then the rest as queued") {
    EventQueue q;
    std::string seen;
    double now = -1;
    q.push(2.0, [&] { seen += "c"; });
    q.push(1.0, [&] { seen += "b"; });
    q.push(1.0, [&] { seen += "B"; }, 7);
    q.push(1.0, [&] { seen += "A"; }, 3);
    q.push(1.0, [&] { seen += "d"; });
    q.push(5.0, [&] { seen += "late"; });
    q.run(4.0, now);
    CHECK(seen == "ABbdc");
    CHECK(now == 2.0);
    CHECK(q.pending() == 1);
}

TEST_CASE("EventQueue: a periodic timer fires at first + k period up to the end; an action may queue more") {
    EventQueue q;
    std::vector<double> fired;
    double now = 0;
    q.periodic(0.5, 2.0, 9.0, 0, [&] {
        fired.push_back(now);
        if (now == 4.5) q.push(now + 0.25, [&] { fired.push_back(-now); });
    });
    q.run(100.0, now);
    CHECK(fired == std::vector<double>{0.5, 2.5, 4.5, -4.75, 6.5, 8.5});
    CHECK(q.pending() == 0);
}

TEST_CASE("EventQueue: a million firings of five timers hold a handful of slots") {
    EventQueue q;
    double now = 0;
    std::size_t count = 0;
    for (std::uint64_t t = 0; t < 5; ++t) q.periodic(static_cast<double>(t), 5.0, 1e6, t, [&] { ++count; });
    q.run(1e6, now);
    CHECK(count == 200001 + 4 * 200000);  // timer t fires at t, t + 5, ... <= 10^6: 0 once more
    CHECK(q.slots() <= 10);
}

}  // namespace unit_event_queue
