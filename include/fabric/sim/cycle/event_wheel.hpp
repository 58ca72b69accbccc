// The events on the wires (a flit due at an input VC, flow-control feedback due
// at a sender), and a calendar of events by cycle: one bucket per cycle of a power-of-two horizon
// longer than the longest delay an event is scheduled ahead (link latency plus
// serialisation, the flow-control protocol's feedback delay). Buckets keep their
// capacity from run to run, so scheduling does not allocate once the peak is met.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/packet.hpp>

namespace fabric::cycle {

/// A list that only grows: appending is a compare and a store (the growth, rare,
/// is out of line), and emptying keeps the storage.
template <class T>
class Bucket {
public:
    [[gnu::always_inline]] void push_back(const T& x) {
        if (size_ == capacity_) [[unlikely]]
            grow();
        items_[size_++] = x;
    }
    /// Appends an item left for the caller to fill (no copy through the stack).
    [[gnu::always_inline]] T& push_slot() {
        if (size_ == capacity_) [[unlikely]]
            grow();
        return items_[size_++];
    }
    void clear() { size_ = 0; }
    /// Keeps the first `n` items (n at most size()).
    void resize(std::size_t n) { size_ = n; }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] T& operator[](std::size_t i) { return items_[i]; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return items_[i]; }
    [[nodiscard]] T* begin() { return items_.data(); }
    [[nodiscard]] T* end() { return items_.data() + size_; }
    [[nodiscard]] const T* begin() const { return items_.data(); }
    [[nodiscard]] const T* end() const { return items_.data() + size_; }
    void swap(Bucket& other) noexcept {
        items_.swap(other.items_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
    }

private:
    [[gnu::noinline]] void grow() {
        items_.resize(items_.empty() ? 16 : 2 * items_.size());
        capacity_ = items_.size();
    }
    std::vector<T> items_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;  // items_.size(), kept apart: a push compares with it, no division by sizeof(T)
};

/// A flit due at an input VC (router `node`, local index `local`); a head brings
/// its packet's route slot and the step its route takes from there (read by the
/// router it left, which has the route at hand).
struct Arrival {
    Flit flit;
    std::uint32_t node;
    std::uint32_t local;
    std::uint32_t route;
    RouteStep next;
};
/// Flow-control feedback due at sender (channel * V + vc) of router `node`.
struct Feedback {
    std::uint32_t sender;
    std::uint32_t node;
    std::uint64_t value;
};

template <class Event>
class EventWheel {
public:
    /// The smallest power of two greater than `longest_delay`.
    static constexpr std::uint64_t horizon_for(std::uint64_t longest_delay) {
        std::uint64_t size = 1;
        while (size <= longest_delay) size *= 2;
        return size;
    }

    /// Empties the wheel and sizes it for delays up to `longest_delay`.
    void reset(std::uint64_t longest_delay) {
        const std::uint64_t size = horizon_for(longest_delay);
        if (size != buckets_.size()) buckets_.assign(size, {});
        for (auto& b : buckets_) b.clear();
        mask_ = size - 1;
    }

    /// An event at cycle `at`; `at` must lie within the horizon ahead of now.
    [[gnu::always_inline]] void schedule(std::uint64_t at, const Event& e) { buckets_[at & mask_].push_back(e); }
    /// An event at cycle `at` for the caller to fill in place.
    [[gnu::always_inline]] Event& schedule_slot(std::uint64_t at) { return buckets_[at & mask_].push_slot(); }

    /// The events of cycle `now`; the caller handles them, then clears the bucket.
    [[nodiscard]] Bucket<Event>& due(std::uint64_t now) { return buckets_[now & mask_]; }

    /// Every bucket, for a rare sweep (a link failing drops what is on the wire).
    [[nodiscard]] std::vector<Bucket<Event>>& buckets() { return buckets_; }

    [[nodiscard]] std::uint64_t horizon() const { return mask_ + 1; }

private:
    std::vector<Bucket<Event>> buckets_;
    std::uint64_t mask_ = 0;
};

}  // namespace fabric::cycle
