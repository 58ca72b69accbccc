// A table of records keyed by workload node index, for what the dependency engine
// keeps of its frontier (a count for a node with some predecessors done, a record for
// a message in the network): open addressing with linear probing in a power-of-two
// array, deletion by shifting the probe run back (no tombstones), so that inserting
// and erasing allocate nothing once the table has grown to the frontier's peak (it
// doubles when half full and never shrinks). Iteration order is the table's, not
// the keys'; a caller that shows entries sorts them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabric::cycle {

template <class V>
class NodeTable {
public:
    using Key = std::uint64_t;

    NodeTable() { rehash(16); }

    [[nodiscard]] std::size_t size() const { return size_; }

    /// The record of `key` and whether it was added now (default-constructed).
    std::pair<V*, bool> try_emplace(Key key) {
        if (2 * (size_ + 1) > slots_.size()) rehash(2 * slots_.size());
        for (std::size_t at = home(key);; at = (at + 1) & mask_) {
            Slot& s = slots_[at];
            if (!s.used) {
                s = Slot{key, V{}, true};
                ++size_;
                return {&s.value, true};
            }
            if (s.key == key) return {&s.value, false};
        }
    }
    V& operator[](Key key) { return *try_emplace(key).first; }

    /// Removes `key`'s record, if any.
    void erase(Key key) {
        std::size_t at = home(key);
        for (;; at = (at + 1) & mask_) {
            if (!slots_[at].used) return;
            if (slots_[at].key == key) break;
        }
        // Shift back every later entry of the run whose home does not lie between the hole and it.
        for (std::size_t next = (at + 1) & mask_;; next = (next + 1) & mask_) {
            Slot& s = slots_[next];
            if (!s.used) break;
            const std::size_t h = home(s.key);
            const bool stays = at <= next ? (at < h && h <= next) : (at < h || h <= next);
            if (stays) continue;
            slots_[at] = std::move(s);
            at = next;
        }
        slots_[at].used = false;
        --size_;
    }

    /// f(key, record) for every entry, in the table's order.
    template <class F>
    void for_each(F&& f) const {
        for (const Slot& s : slots_)
            if (s.used) f(s.key, s.value);
    }

private:
    struct Slot {
        Key key = 0;
        V value{};
        bool used = false;
    };

    [[nodiscard]] std::size_t home(Key key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);  // Fibonacci hashing
    }

    void rehash(std::size_t capacity) {
        std::vector<Slot> old(capacity);
        old.swap(slots_);
        mask_ = capacity - 1;
        shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
        size_ = 0;
        for (Slot& s : old)
            if (s.used) *try_emplace(s.key).first = std::move(s.value);
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0, size_ = 0;
    unsigned shift_ = 64;
};

}  // namespace fabric::cycle
