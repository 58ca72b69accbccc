// What the cycle kernel learns when flits are lost, and when it learns it. A flit
// dropped where a link failed (or arriving for a packet already lost) is posted as
// a notice; the notices of a cycle settle together at its end, at every rank of a
// partitioned run alike (they travel with the exchange), so that a packet is cut,
// marked lost and counted at the same cycle whatever the number of ranks. A packet
// is named by its number, which every rank counts in the same order; a rank may
// hold several copies of it (one per stretch of its route through that rank's
// routers), each told what was dropped before its stretch began.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace fabric::cycle {

/// A flit lost (or, with no flit dropped, a packet lost for want of a route).
struct LossNotice {
    std::uint64_t packet = 0;          // the packet's number
    std::uint32_t dst = 0;             // its destination terminal, whose rank counts the loss
    std::uint32_t message = 0, part = 0;  // with max_packet_flits: its message, and which part
    std::uint16_t size = 0;            // the packet's flits
    std::uint16_t index = 0;           // the flit
    std::uint16_t past = 0;            // copies that begin at this hop or later never see the flit
    std::uint8_t flags = 0;            // dropped, cuts, measured
    static constexpr std::uint8_t dropped = 1;  // a flit was dropped (else: no route, nothing dropped yet)
    static constexpr std::uint8_t cuts = 2;     // dropped at a failed link: the flits before it got across
    static constexpr std::uint8_t measured = 4;
    static constexpr std::uint16_t at_the_end = std::numeric_limits<std::uint16_t>::max();  // past every copy
};

/// One packet's notices of a cycle, settled.
struct SettledLoss {
    std::uint64_t packet = 0;
    LossNotice first;              // its first notice (what every notice of the packet says alike)
    bool new_loss = false;         // the packet's first notice of the run: count it lost now
    std::uint16_t cut = 0;         // the lowest flit dropped at a failed link now (0: none, or nothing got across)
    std::size_t dropped_total = 0; // flits of it dropped so far in the run, these included
    std::size_t from = 0, to = 0;  // where this cycle's drops are in pasts()
};

class Losses {
public:
    static constexpr std::uint64_t unnumbered = std::numeric_limits<std::uint64_t>::max();

    void reset() {
        next_ = 0;
        pending_.clear();
        settled_.clear();
        pasts_.clear();
        records_.clear();
    }
    /// The number of the next packet created (by any rank).
    std::uint64_t next_number() { return next_++; }

    void post(const LossNotice& n) { pending_.push_back(n); }
    [[nodiscard]] const std::vector<LossNotice>& pending() const { return pending_; }
    [[nodiscard]] bool any() const { return !records_.empty(); }

    /// Settles the notices posted this cycle (at every rank the same set): one
    /// SettledLoss per packet, in packet order, found again with find().
    void settle() {
        if (pending_.empty() && settled_.empty()) return;  // most cycles: nothing lost
        settled_.clear();
        pasts_.clear();
        if (pending_.empty()) return;
        std::stable_sort(pending_.begin(), pending_.end(),
                         [](const LossNotice& a, const LossNotice& b) { return a.packet < b.packet; });
        for (std::size_t i = 0; i < pending_.size();) {
            SettledLoss s;
            s.packet = pending_[i].packet;
            s.first = pending_[i];
            auto [it, added] = records_.try_emplace(s.packet);
            s.new_loss = added;
            s.from = pasts_.size();
            for (; i < pending_.size() && pending_[i].packet == s.packet; ++i) {
                const LossNotice& n = pending_[i];
                if (!(n.flags & LossNotice::dropped)) continue;
                pasts_.push_back(n.past);
                it->second.push_back(n.past);
                if ((n.flags & LossNotice::cuts) && n.index > 0 && (s.cut == 0 || n.index < s.cut)) s.cut = n.index;
            }
            s.to = pasts_.size();
            s.dropped_total = it->second.size();
            settled_.push_back(s);
        }
        pending_.clear();
    }
    [[nodiscard]] const std::vector<SettledLoss>& settled() const { return settled_; }
    [[nodiscard]] const SettledLoss* find(std::uint64_t packet) const {
        const auto it = std::lower_bound(settled_.begin(), settled_.end(), packet,
                                         [](const SettledLoss& s, std::uint64_t p) { return s.packet < p; });
        return it != settled_.end() && it->packet == packet ? &*it : nullptr;
    }
    /// Of the flits `s` settles, those a copy beginning at hop `entry` never sees.
    [[nodiscard]] std::uint16_t dropped_before(const SettledLoss& s, std::uint32_t entry) const {
        return unseen_from(pasts_.data() + s.from, pasts_.data() + s.to, entry);
    }
    /// Of the flits of `packet` dropped in earlier cycles, those a copy beginning at hop `entry` never sees.
    [[nodiscard]] std::uint16_t dropped_before(std::uint64_t packet, std::uint32_t entry) const {
        const auto it = records_.find(packet);
        if (it == records_.end()) return 0;
        return unseen_from(it->second.data(), it->second.data() + it->second.size(), entry);
    }

private:
    /// Of drops at `pasts`, those a copy beginning at hop `entry` never sees.
    static std::uint16_t unseen_from(const std::uint16_t* first, const std::uint16_t* last, std::uint32_t entry) {
        return static_cast<std::uint16_t>(std::count_if(first, last, [&](std::uint16_t p) { return p <= entry; }));
    }

    std::uint64_t next_ = 0;
    std::vector<LossNotice> pending_;
    std::vector<SettledLoss> settled_;
    std::vector<std::uint16_t> pasts_;  // this cycle's drops, by packet
    std::unordered_map<std::uint64_t, std::vector<std::uint16_t>> records_;  // per lost packet: where each drop was
};

}  // namespace fabric::cycle
