// Lists by cycle, for the stage-list kernel: a power-of-two ring of lists, the
// list of cycle t in slot t mod the horizon, each with room for the most a cycle
// can hold (every input VC once, every channel one flit), so that a push is a
// store and an increment. A stage's delay is an offset: what is due at t + d is
// pushed into the list d slots ahead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/large_pages.hpp>

namespace fabric::cycle {

template <class Item>
class CycleLists {
public:
    /// One cycle's list, to push to through a phase: a store and the bump of a
    /// pointer held in a register (a store of an item could otherwise be the count's,
    /// read again at each push; a pointer rather than a count, so that a push needs
    /// neither the list's start nor an index computed), its count written back by
    /// `done()` at the phase's end. While a slot is open, nothing else pushes to its
    /// cycle's list.
    struct Slot {
        Item* end;     // past the last item
        Item* items;   // the first
        std::uint32_t* size;
        [[gnu::always_inline]] void push(const Item& x) { *end++ = x; }
        [[gnu::always_inline]] void done() const { *size = static_cast<std::uint32_t>(end - items); }
    };
    /// What the phases of a cycle use: the lists' storage by pointer.
    struct View {
        Item* items;
        std::uint32_t* sizes;
        std::uint64_t mask;
        std::size_t room;  // items a list holds
        [[gnu::always_inline]] void push(std::uint64_t cycle, const Item& x) const {
            const std::uint64_t s = cycle & mask;
            items[s * room + sizes[s]++] = x;
        }
        [[gnu::always_inline]] Item* begin(std::uint64_t cycle) const { return items + (cycle & mask) * room; }
        [[gnu::always_inline]] std::uint32_t size(std::uint64_t cycle) const { return sizes[cycle & mask]; }
        [[gnu::always_inline]] void clear(std::uint64_t cycle) const { sizes[cycle & mask] = 0; }
        [[gnu::always_inline]] Slot slot(std::uint64_t cycle) const {
            Item* const first = items + (cycle & mask) * room;
            return Slot{first + sizes[cycle & mask], first, sizes + (cycle & mask)};
        }
    };

    /// Empty, for offsets up to `longest` cycles ahead, each list with room for `room` items.
    void reset(std::uint64_t longest, std::size_t room) {
        std::uint64_t size = 1;
        while (size <= longest) size *= 2;
        room_ = room;
        items_.resize(size * room);
        sizes_.assign(size, 0);
        mask_ = size - 1;
    }
    [[nodiscard]] View view() { return View{items_.data(), sizes_.data(), mask_, room_}; }
    [[nodiscard]] std::uint64_t horizon() const { return mask_ + 1; }
    /// The items in every cycle's list.
    [[nodiscard]] std::uint64_t total() const {
        std::uint64_t n = 0;
        for (const std::uint32_t s : sizes_) n += s;
        return n;
    }

private:
    std::vector<Item, detail::LargePageAllocator<Item>> items_;
    std::vector<std::uint32_t> sizes_;
    std::uint64_t mask_ = 0;
    std::size_t room_ = 0;
};

}  // namespace fabric::cycle
