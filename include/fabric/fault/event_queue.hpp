// A discrete-event queue for the fault models: actions run in order of time, and
// at equal times in order of a tie key; periodic timers queue only their next
// firing, so the queue's memory does not grow with the simulated time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace fabric {

class EventQueue {
public:
    /// The tie key of an action queued without one: after every keyed action of
    /// the same time, in the order queued.
    static constexpr std::uint64_t in_order = ~std::uint64_t{0};

    /// Queues f at `time`.
    template <class F>
    void push(double time, F&& f, std::uint64_t tie = in_order) {
        std::size_t slot = actions_.size();
        if (free_.empty()) {
            actions_.emplace_back(std::forward<F>(f));
        } else {
            slot = free_.back();
            free_.pop_back();
            actions_[slot] = std::forward<F>(f);
        }
        queue_.push({time, tie != in_order ? tie : (std::uint64_t{1} << 62) + order_++, slot});
    }

    /// f at first, first + period, ... up to `until`, each firing with key `tie`
    /// (keys below 2^62 go before actions queued without one).
    template <class F>
    void periodic(double first, double period, double until, std::uint64_t tie, F f) {
        if (first > until) return;
        push(first, [this, first, period, until, tie, f] {
            f();
            periodic(first + period, period, until, tie, f);
        }, tie);
    }

    /// Runs every action due by `until`; `now` holds each one's time while it runs.
    void run(double until, double& now) {
        while (!queue_.empty() && queue_.top().time <= until) {
            const Event e = queue_.top();
            queue_.pop();
            now = e.time;
            const auto action = std::move(actions_[e.action]);  // its slot is free for what it queues
            free_.push_back(e.action);
            action();
        }
    }

    /// Actions queued and not yet run.
    [[nodiscard]] std::size_t pending() const { return queue_.size(); }
    /// Action slots held (run ones are reused): the queue's memory.
    [[nodiscard]] std::size_t slots() const { return actions_.size(); }

private:
    struct Event {
        double time;
        std::uint64_t order;
        std::size_t action;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : order > o.order; }
    };
    std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
    std::vector<std::function<void()>> actions_;
    std::vector<std::size_t> free_;
    std::uint64_t order_ = 0;
};

}  // namespace fabric
