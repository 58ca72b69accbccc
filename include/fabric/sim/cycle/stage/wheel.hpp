// Lists by cycle, for the stage-list kernel: a power-of-two ring of lists, the
// list of cycle t in slot t mod the horizon. A stage's delay is an offset: what
// is due at t + d is pushed into the list d slots ahead. A list keeps its storage
// from cycle to cycle, so once the busiest cycle has been met nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/sim/cycle/event_wheel.hpp>

namespace fabric::cycle {

template <class Item>
class CycleLists {
public:
    /// Empty, for offsets up to `longest` cycles ahead.
    void reset(std::uint64_t longest) {
        std::uint64_t size = 1;
        while (size <= longest) size *= 2;
        if (size != lists_.size()) lists_.assign(size, {});
        for (auto& l : lists_) l.clear();
        mask_ = size - 1;
    }
    [[gnu::always_inline]] Bucket<Item>& at(std::uint64_t cycle) { return lists_[cycle & mask_]; }
    [[gnu::always_inline]] void push(std::uint64_t cycle, const Item& x) { lists_[cycle & mask_].push_back(x); }
    [[nodiscard]] std::uint64_t horizon() const { return mask_ + 1; }
    /// Every list, for a rare sweep.
    [[nodiscard]] std::vector<Bucket<Item>>& lists() { return lists_; }

private:
    std::vector<Bucket<Item>> lists_;
    std::uint64_t mask_ = 0;
};

}  // namespace fabric::cycle
