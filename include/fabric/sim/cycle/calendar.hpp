// A calendar of events ordered by (cycle, key): a binary min-heap whose pop walks
// from the root to a leaf taking the smaller child by a select rather than a
// branch, then lifts the last event into the hole (Floyd's bottom-up pop). A
// run's calendar holds events whose order the data decides, so a branch on each
// comparison of a pop is mispredicted about half the time (std::priority_queue's
// is: the dependency engine's heap took about 280,000 mispredicts a run of
// bench/workload_cost.cpp). Events of equal (cycle, key) are interchangeable: any
// min-heap pops the same sequence of events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric::cycle {

class Calendar {
public:
    struct Event {
        std::uint64_t cycle = 0, key = 0;
    };

    [[nodiscard]] bool empty() const { return heap_.empty(); }
    [[nodiscard]] std::size_t size() const { return heap_.size(); }
    /// The earliest event (by cycle, then key); the calendar must not be empty.
    [[nodiscard]] const Event& top() const { return heap_.front(); }

    void push(std::uint64_t cycle, std::uint64_t key) {
        heap_.push_back(Event{cycle, key});
        lift(heap_.size() - 1);
    }

    /// Removes the earliest event; the calendar must not be empty.
    void pop() {
        const std::size_t n = heap_.size() - 1;  // events left
        if (n == 0) {
            heap_.pop_back();
            return;
        }
        Event* const h = heap_.data();
        std::size_t hole = 0;
        // Down to a leaf, each step to the earlier child (chosen by a select).
        for (std::size_t child = 1; child < n; child = 2 * hole + 1) {
            const std::size_t right = child + 1;
            child += static_cast<std::size_t>(right < n && order(h[right]) < order(h[child]));
            h[hole] = h[child];
            hole = child;
        }
        h[hole] = h[n];  // the last event fills the hole, then rises to its place
        heap_.pop_back();
        lift(hole);
    }

private:
    static unsigned __int128 order(const Event& e) { return static_cast<unsigned __int128>(e.cycle) << 64 | e.key; }

    void lift(std::size_t i) {
        Event* const h = heap_.data();
        const Event e = h[i];
        const unsigned __int128 o = order(e);
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (order(h[parent]) <= o) break;
            h[i] = h[parent];
            i = parent;
        }
        h[i] = e;
    }

    std::vector<Event> heap_;
};

}  // namespace fabric::cycle
