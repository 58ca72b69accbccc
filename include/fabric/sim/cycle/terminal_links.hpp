// The links joining each terminal to its router, where the topology models them
// and they are slower than a flit a cycle (the PERCS hub's W links: 2.5 cycles a
// 128-byte flit under percs_cycle_config). Times are in 1/1024 cycles, since a
// flit's time on such a link need not be whole; Links::terminal_serialisation
// gives it, rounded.
//
// Into the router, the link carries a flit before the switch takes it: it streams
// the source's flits, none before it exists (created + injection latency), and at
// most an input VC's buffer ahead of the switch, so the link keeps busy while a
// head waits in the router's pipeline; the switch takes a source flit only once
// the link has it wholly across. Out of the router, the switch puts a flit on the
// link, and the next waits until the link is free.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric::cycle {

class TerminalLinks {
public:
    /// `links` terminal links each way; `serial`: 1/1024 cycles a flit (0: not
    /// limited, and nothing here is used); `depth`: flits an input VC holds.
    void reset(std::size_t links, std::uint32_t serial, std::uint32_t depth) {
        serial_ = serial;
        depth_ = depth;
        in_free_.assign(serial != 0 ? links : 0, 0);
        out_free_.assign(in_free_.size(), 0);
    }
    [[nodiscard]] bool limited() const { return serial_ != 0; }

    /// The first cycle at which a source flit that exists from `avail` can cross
    /// the switch, not before `ready`: once link `l` has carried it.
    [[nodiscard]] std::uint64_t in_ready(std::size_t l, std::uint64_t avail, std::uint64_t ready) const {
        return std::max(ready, (start(in_free_[l], avail, ready) + serial_ + 1023) / 1024);
    }
    /// A source flit that exists from `avail` crossed the switch at `now` after
    /// link `l` carried it; returns the first cycle its next flit can cross.
    std::uint64_t in_took(std::size_t l, std::uint64_t avail, std::uint64_t now) {
        std::uint64_t& free = in_free_[l];
        free = start(free, avail, now) + serial_;
        return (free + serial_ + 1023) / 1024;
    }

    struct Crossing {
        std::uint64_t across;  // the cycle by whose end the flit is across
        std::uint64_t next;    // the first cycle the link can take the next (the cycle it frees in)
    };
    /// A flit goes onto outgoing link `l` at cycle `at`, from when the link is free.
    Crossing out(std::size_t l, std::uint64_t at) {
        std::uint64_t& free = out_free_[l];
        free = std::max(at * 1024, free) + serial_;
        return {(free + 1023) / 1024 - 1, std::max(at + 1, free / 1024)};
    }

private:
    /// When an incoming link free from `free` starts a flit that exists from
    /// `avail`, for a switch that takes it at `at`: at most `depth_` flits ahead.
    [[nodiscard]] std::uint64_t start(std::uint64_t free, std::uint64_t avail, std::uint64_t at) const {
        const std::uint64_t ahead = std::uint64_t{depth_} * serial_, sub = at * 1024;
        return std::max({free, avail * 1024, sub > ahead ? sub - ahead : 0});
    }

    std::uint32_t serial_ = 0, depth_ = 0;
    std::vector<std::uint64_t> in_free_, out_free_;  // per terminal link: free from (1/1024 cycles)
};

}  // namespace fabric::cycle
