// A pool of slots handed out by index and given back: the cycle kernel's packets,
// messages and route slots. Storage grows only when the number in use passes its
// peak; a released slot is reused first.
#pragma once

#include <cstdint>
#include <vector>

#include <fabric/core/large_pages.hpp>

namespace fabric::cycle {

template <class Slot>
class SlotPool {
public:
    /// A free slot's index; its contents are whatever the last user left.
    std::uint32_t take() {
        if (free_.empty()) {
            slots_.emplace_back();
            return static_cast<std::uint32_t>(slots_.size() - 1);
        }
        const std::uint32_t id = free_.back();
        free_.pop_back();
        return id;
    }
    void release(std::uint32_t id) { free_.push_back(id); }
    void clear() {
        slots_.clear();
        free_.clear();
    }

    [[nodiscard]] Slot& operator[](std::uint32_t id) { return slots_[id]; }
    [[nodiscard]] const Slot& operator[](std::uint32_t id) const { return slots_[id]; }
    [[nodiscard]] std::size_t size() const { return slots_.size(); }
    [[nodiscard]] std::size_t in_use() const { return slots_.size() - free_.size(); }

private:
    std::vector<Slot, detail::LargePageAllocator<Slot>> slots_;  // read at random: large pages past 2 MiB
    std::vector<std::uint32_t> free_;
};

}  // namespace fabric::cycle
