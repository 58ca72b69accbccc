// A first-in first-out queue on a ring that doubles when full: the cycle kernel's
// source queues. Pushing and popping never allocate once the ring has reached
// the run's peak.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace fabric::cycle {

template <class T>
class RingQueue {
public:
    void push(T value) {
        if (size_ > mask_) grow();
        ring_[(head_ + size_++) & mask_] = std::move(value);
    }
    [[nodiscard]] const T& front() const { return ring_[head_]; }
    void pop() {
        head_ = (head_ + 1) & mask_;
        --size_;
    }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] std::size_t capacity() const { return ring_.size(); }

private:
    [[gnu::noinline]] void grow() {
        std::vector<T> grown(ring_.size() * 2);
        for (std::size_t i = 0; i < size_; ++i) grown[i] = std::move(ring_[(head_ + i) % ring_.size()]);
        ring_.swap(grown);
        head_ = 0;
        mask_ = ring_.size() - 1;
    }

    std::vector<T> ring_ = std::vector<T>(8);
    std::size_t head_ = 0, size_ = 0, mask_ = 7;  // mask_: the ring's size (a power of two) - 1
};

}  // namespace fabric::cycle
