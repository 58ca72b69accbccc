// The VCs of the routers' ejection ports under wait_for_tail_credit, as BookSim has
// them: its ejection port is an output like the others, with V VCs, each held by
// one packet from its VC allocation until its tail's credit is back from the sink
// (the terminal returns a credit for each flit it ejects; the router reads it the
// flow control's feedback delay later). A packet bound for a terminal whose port has
// every VC held waits: with one VC, packets to one sink go one after another, the
// port idle while the last tail's credit comes back. Without wait_for_tail_credit
// the kernel gives the ejection port no VC (a packet there holds nothing).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace fabric::cycle {

class EjectionVcs {
public:
    static constexpr std::uint64_t held = std::numeric_limits<std::uint64_t>::max();

    /// `ports`: the routers' ejection ports (routers x terminal ports); off leaves them without VCs.
    void reset(std::size_t ports, std::uint32_t vcs, std::uint64_t feedback, bool on) {
        on_ = on;
        vcs_ = vcs;
        feedback_ = feedback;
        free_from_.assign(on ? ports * vcs : 0, 0);
        pointer_.assign(on ? ports : 0, 0);
    }
    [[nodiscard]] bool on() const { return on_; }

    /// A head asks for a VC of ejection port `port` at `now`: the free one nearest at
    /// or after the port's pointer, taken (held until its tail's credit is back), and
    /// the pointer moved past it; none if every one is held, `retry` then the first
    /// cycle one of them is free again (`held` if only a tail yet to leave frees one).
    [[nodiscard]] std::uint32_t take(std::size_t port, std::uint64_t now, std::uint64_t& retry) {
        std::uint64_t* const from = free_from_.data() + port * vcs_;
        retry = held;
        for (std::uint32_t i = 0; i < vcs_; ++i) {
            const std::uint32_t vc = (pointer_[port] + i) % vcs_;
            if (from[vc] <= now) {
                from[vc] = held;
                pointer_[port] = (vc + 1) % vcs_;
                return vc;
            }
            retry = std::min(retry, from[vc]);
        }
        return none_free;
    }
    /// The tail of the packet holding VC `vc` of `port` reaches its terminal at `ejected`.
    void tail_out(std::size_t port, std::uint32_t vc, std::uint64_t ejected) {
        free_from_[port * vcs_ + vc] = ejected + feedback_;
    }
    /// The packet holding it was cut short (a failed link): its tail never comes.
    void release(std::size_t port, std::uint32_t vc) { free_from_[port * vcs_ + vc] = 0; }

    static constexpr std::uint32_t none_free = std::numeric_limits<std::uint32_t>::max();

private:
    bool on_ = false;
    std::uint32_t vcs_ = 1;
    std::uint64_t feedback_ = 0;
    std::vector<std::uint64_t> free_from_;  // per (port, vc): the first cycle it may be taken (held: a packet has it)
    std::vector<std::uint32_t> pointer_;    // per port: where the next search starts
};

}  // namespace fabric::cycle
