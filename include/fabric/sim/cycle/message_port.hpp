// The cycle kernel's one hook for what drives it from outside (docs/design.md,
// "Workloads, and the cycle kernel's one hook for them"): a workload's dependency
// engine, or another simulator that embeds fabric under its network interface.
//   - inject: a message (source and destination terminal, flits, traffic class, the
//     driver's handle) is scheduled for a cycle; at that cycle's injection phase it
//     enters its source's queue through the sources' own path (Sources::inject_port),
//     split into packets of at most max_packet_flits, so that every router, flow
//     control and routing option applies. Its packets' route choices are drawn from
//     a generator keyed by the run's seed and the handle, not from the run's shared
//     stream, so that a partitioned run, whose ranks cannot know when another rank's
//     message becomes ready, draws what the serial run draws.
//   - report: each message's `sent` cycle (at its source: the cycle its last flit
//     left the source queue, its switch grant at the source's router) and its
//     `delivered` cycle (at its destination: the cycle its last flit is ejected),
//     with its handle, in the order the kernel learns them, at the rank where each
//     happens. A delivery is learnt at its last flit's switch grant, so its cycle
//     may lie a few cycles (the switch traversal, the ejection latency) past the
//     cycle that reports it.
// A run without a driver leaves the port closed: its packets never look at it (the
// reports ride on branches the kernel takes anyway: a packet's message, a watched
// flit), so it costs such a run no instruction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric::cycle {

/// A message a driver hands the kernel.
struct PortMessage {
    std::uint64_t handle = 0;            // the driver's name for it, below MessagePort::handle_limit
    std::uint32_t source = 0;            // terminals
    std::uint32_t destination = 0;
    std::uint32_t flits = 1;
    std::uint32_t traffic_class = 0;
};

enum class PortEvent : std::uint8_t { sent, delivered };

/// What the kernel tells the driver of a message.
struct PortReport {
    std::uint64_t handle = 0;
    std::uint64_t cycle = 0;             // when it happened
    PortEvent event = PortEvent::delivered;
    std::uint32_t terminal = 0;          // where: the source (sent) or the destination (delivered)
};

class MessagePort {
public:
    static constexpr std::uint64_t never = ~std::uint64_t{0};
    /// Handles are carried in a packet's number with its part (24 bits), so below 2^40.
    static constexpr std::uint64_t handle_limit = std::uint64_t{1} << 40;
    static constexpr std::uint32_t part_limit = std::uint32_t{1} << 24;

    /// Closed and empty, for a new run.
    void reset() {
        open_ = false;
        pending_ = {};
        reports_.clear();
        reported_ = 0;
        order_ = 0;
        arriving_.clear();
        lost_.clear();
    }
    /// Opens the port for a run seeded `seed`: its messages' route choices are keyed by it.
    void open(std::uint64_t seed) {
        open_ = true;
        key_ = Random(seed).next();
    }
    [[nodiscard]] bool is_open() const { return open_; }

    /// Message `m` enters its source queue at the injection phase of cycle `at`;
    /// messages of one cycle enter in the order of `order`, then of scheduling.
    void schedule(std::uint64_t at, std::uint64_t order, const PortMessage& m) {
        detail::require(m.handle < handle_limit, "a message's handle must be below 2^40; got ", m.handle);
        pending_.push(Pending{at, order, order_++, m});
    }
    /// The same, ordered as scheduled.
    void schedule(std::uint64_t at, const PortMessage& m) { schedule(at, 0, m); }
    /// The cycle of the next scheduled message, or never.
    [[nodiscard]] std::uint64_t next_injection() const { return pending_.empty() ? never : pending_.top().at; }
    /// The next scheduled message due by `now`, taken out (false: none).
    bool take_due(std::uint64_t now, PortMessage& m) {
        if (pending_.empty() || pending_.top().at > now) return false;
        m = pending_.top().message;
        pending_.pop();
        return true;
    }
    [[nodiscard]] std::size_t scheduled() const { return pending_.size(); }

    /// What the kernel reported since the driver last cleared them.
    [[nodiscard]] std::vector<PortReport>& reports() { return reports_; }
    /// Reports made in the whole run (never cleared).
    [[nodiscard]] std::uint64_t reported() const { return reported_; }
    /// Handles of messages of which a packet was lost (a failed link): never delivered.
    [[nodiscard]] const std::unordered_set<std::uint64_t>& lost() const { return lost_; }

    /// The generator a message's packets draw their route choices from.
    [[nodiscard]] Random choices(std::uint64_t handle) const {
        return Random(key_ ^ (handle * 0x9e3779b97f4a7c15ULL));
    }
    /// A port packet's number (Losses, alike at every rank): its handle and its part.
    [[nodiscard]] static constexpr std::uint64_t number(std::uint64_t handle, std::uint32_t part) {
        return handle << 24 | part;
    }
    [[nodiscard]] static constexpr std::uint64_t handle_of_number(std::uint64_t number) { return number >> 24; }

    // --- what the kernel calls (a port packet: request_created holds its handle,
    //     message its parts, part which of them) ------------------------------------
    /// A port packet's last flit left its source queue at `at`: its message is sent with its last part.
    void sent(const Packet& pk, std::uint64_t at) {
        if (pk.part + 1 == pk.message) report({pk.request_created, at, PortEvent::sent, pk.src});
    }
    /// A port packet was delivered at `at` (ejected at `terminal`): its message is, with its last part.
    void delivered(const Packet& pk, std::uint32_t terminal, std::uint64_t at, CycleResult& res,
                   LatencyHistogram& latency) {
        if (pk.message > 1) {
            auto [it, added] = arriving_.try_emplace(pk.request_created, pk.message);
            if (--it->second != 0) return;
            arriving_.erase(it);
        }
        ++res.messages_delivered;
        if (pk.measured) {
            ++res.measured_messages_delivered;
            latency.add(at - pk.created);
        }
        report({pk.request_created, at, PortEvent::delivered, terminal});
    }
    /// A part of message `handle` was lost: it will never be delivered.
    void part_lost(std::uint64_t handle, CycleResult& res) {
        if (lost_.insert(handle).second) ++res.messages_lost;
    }

private:
    void report(const PortReport& r) {
        reports_.push_back(r);
        ++reported_;
    }

    struct Pending {
        std::uint64_t at, order, sequence;
        PortMessage message;
        friend bool operator>(const Pending& a, const Pending& b) {
            if (a.at != b.at) return a.at > b.at;
            if (a.order != b.order) return a.order > b.order;
            return a.sequence > b.sequence;
        }
    };
    bool open_ = false;
    std::uint64_t key_ = 0;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
    std::uint64_t order_ = 0;
    std::vector<PortReport> reports_;
    std::uint64_t reported_ = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> arriving_;  // messages of several packets: parts still due
    std::unordered_set<std::uint64_t> lost_;
};

}  // namespace fabric::cycle
