// What the destination sees of order: messages split into packets and put back
// together (MessageTable), and packets of one source-destination pair that
// overtake one another (ReorderTracker). Both count into the run's CycleResult.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric::cycle {

class MessageTable {
public:
    /// Empty. `numbered`: a partitioned run's table, which holds the messages
    /// bound for this rank's terminals, each known by its number among all the
    /// messages created (every rank counts them alike) rather than its slot, for
    /// the packets that carry it come from other ranks.
    void clear(bool numbered = false) {
        messages_.clear();
        numbered_ = numbered;
        count_ = 0;
        open_.clear();
        first_open_ = 0;
    }

    /// In a numbered table: the next message's number, drawn on every rank for
    /// every message, opened or not.
    [[nodiscard]] std::uint32_t next_number() { return static_cast<std::uint32_t>(count_++); }

    /// A new message of `parts` packets, created at `created`: its slot, or in a
    /// numbered table its number (the one next_number() just gave).
    std::uint32_t open(std::uint32_t parts, std::uint64_t created, bool measured) {
        const std::uint32_t id = messages_.take();
        if (numbered_) open_.push_back({count_ - 1, id, false});
        Message& m = messages_[id];
        m.parts = parts;
        m.arrived = m.lost = m.next = 0;
        m.created = created;
        m.measured = measured;
        m.got.assign(parts, 0);  // keeps its capacity from earlier messages in this slot
        return numbered_ ? static_cast<std::uint32_t>(count_ - 1) : id;
    }

    /// Part `part` of message `id` is complete (delivered at `at`) or lost: the
    /// destination puts it in place, and the message is done with its last part.
    void part_done(std::uint32_t key, std::uint32_t part, std::uint64_t at, bool delivered, CycleResult& r,
                   LatencyHistogram& latency) {
        Entry* entry = numbered_ ? find(key) : nullptr;
        const std::uint32_t id = entry ? entry->slot : key;
        Message& m = messages_[id];
        if (delivered) {
            ++m.arrived;
            m.got[part] = 1;
            if (part != m.next) ++r.packets_early;
            while (m.next < m.parts && m.got[m.next]) ++m.next;
            r.message_reorder_depth = std::max<std::uint64_t>(r.message_reorder_depth, m.arrived - m.next);
        } else {
            ++m.lost;
        }
        if (m.arrived + m.lost < m.parts) return;
        if (m.lost) {
            ++r.messages_lost;
        } else {
            ++r.messages_delivered;
            if (m.measured) {
                ++r.measured_messages_delivered;
                latency.add(at - m.created);
            }
        }
        messages_.release(id);
        if (entry) forget(*entry);
    }

    [[nodiscard]] std::size_t open_messages() const { return messages_.in_use(); }

private:
    /// A numbered message's slot. Numbers are opened in increasing order, so the
    /// open ones are a sorted list (done ones leave its front, a vector reused
    /// without allocating once it has grown to the most open at once).
    struct Entry {
        std::uint64_t number = 0;
        std::uint32_t slot = 0;
        bool done = false;
    };
    Entry* find(std::uint32_t key) {
        // The full number from its low 32 bits: the latest one with them (fewer than 2^32 messages open at once).
        const std::uint64_t last = count_ - 1;
        const std::uint64_t number = last - static_cast<std::uint32_t>(static_cast<std::uint32_t>(last) - key);
        const auto it = std::lower_bound(open_.begin() + static_cast<std::ptrdiff_t>(first_open_), open_.end(), number,
                                         [](const Entry& e, std::uint64_t n) { return e.number < n; });
        detail::require(it != open_.end() && it->number == number && !it->done, "a partitioned run's packet names "
                        "message ", number, ", which is not open on its destination's rank");
        return &*it;
    }
    void forget(Entry& e) {
        e.done = true;
        while (first_open_ < open_.size() && open_[first_open_].done) ++first_open_;
        if (first_open_ > 1024 && 2 * first_open_ > open_.size()) {
            open_.erase(open_.begin(), open_.begin() + static_cast<std::ptrdiff_t>(first_open_));
            first_open_ = 0;
        }
    }

    struct Message {
        std::uint32_t parts = 0, arrived = 0, lost = 0;
        std::uint32_t next = 0;  // parts 0 .. next - 1 have arrived: the destination has them in order
        std::uint64_t created = 0;
        bool measured = false;
        std::vector<std::uint8_t> got;  // per part: arrived
    };
    SlotPool<Message> messages_;
    bool numbered_ = false;
    std::uint64_t count_ = 0;  // messages numbered so far
    std::vector<Entry> open_;  // numbered: open messages from first_open_ on, in number order (some done)
    std::size_t first_open_ = 0;
};

/// Per source-destination pair: the sequence numbers of packets created, and the
/// ones that arrived while an earlier one was still missing.
class ReorderTracker {
public:
    explicit ReorderTracker(std::uint64_t nodes = 0) : nodes_(nodes) {}
    void clear() { pairs_.clear(); }

    [[nodiscard]] std::uint32_t next_sequence(std::uint32_t src, std::uint32_t dst) {
        return pairs_[key(src, dst)].next_sequence++;
    }

    void arrived(std::uint32_t src, std::uint32_t dst, std::uint32_t sequence, CycleResult& r) {
        Pair& p = pairs_[key(src, dst)];
        if (sequence == p.next_expected) {
            ++p.next_expected;
            while (!p.early.empty() && *p.early.begin() == p.next_expected) {
                p.early.erase(p.early.begin());
                ++p.next_expected;
            }
        } else {
            p.early.insert(sequence);
            ++r.packets_overtaking;
            r.reorder_depth = std::max<std::uint64_t>(r.reorder_depth, p.early.size());
        }
    }

private:
    struct Pair {
        std::uint32_t next_sequence = 0;  // the next packet created
        std::uint32_t next_expected = 0;  // the next one the destination can use
        std::set<std::uint32_t> early;    // arrived ahead of a missing one
    };
    [[nodiscard]] std::uint64_t key(std::uint32_t src, std::uint32_t dst) const {
        return static_cast<std::uint64_t>(src) * nodes_ + dst;
    }
    std::uint64_t nodes_;
    std::unordered_map<std::uint64_t, Pair> pairs_;
};

}  // namespace fabric::cycle
