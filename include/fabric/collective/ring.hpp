// Ring and chain kernels (collective/kernel.hpp).
//
// Ring reduce-scatter and ring allgather, Chan et al. 2007 (their "bucket"
// algorithms) and Thakur, Rabenseifner and Gropp 2005 (the ring allgather of their
// section on allgather): m - 1 rounds in which every participant sends one block to its
// neighbour round the ring and receives one from the other. Reduce-scatter: in
// round t participant i sends block i - (t + 1) (its partial sum of it) and adds
// the block it receives, so that participant i ends with block i summed over all;
// allgather: in round t participant i passes on block i - t, starting with its own.
// A ring allreduce is the two in turn (collective/algorithms.hpp). `direction`
// -1 runs the ring the other way (participant i sends to i - 1), for the
// multi-ported forms that use both directions of a torus's rings at once.
//
// Pipelined chain broadcast and reduce: the participants in a line from the root,
// each passing the data on; with the message cut into segments
// (collective/graph.hpp), every link of the chain carries a different segment at
// once.
#pragma once

#include <cstdint>

#include <fabric/collective/kernel.hpp>

namespace fabric::collective {

namespace detail {
/// What the two ring kernels share: participant i sends to i + direction in every round.
struct RingShape {
    std::uint32_t m = 1;
    int direction = +1;

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return m - 1; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return m; }
    [[nodiscard]] constexpr Step step(std::uint32_t, std::uint64_t i) const {
        const auto from = static_cast<std::uint32_t>(i);
        return {from, wrap(std::int64_t{from} + direction, m)};
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t, std::uint32_t r, F&& f) const {
        f(std::uint64_t{r});
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t, std::uint32_t r, F&& f) const {
        f(std::uint64_t{wrap(std::int64_t{r} - direction, m)});
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t) const { return RoundSet::interval(0, m - 1); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t) const { return RoundSet::interval(0, m - 1); }
};
}  // namespace detail

/// Ring reduce-scatter: participant i ends holding block i reduced over all m.
struct RingReduceScatter : detail::RingShape {
    constexpr explicit RingReduceScatter(std::uint32_t participants, int dir = +1) : RingShape{participants, dir} {}
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return true; }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        f(std::uint64_t{wrap(static_cast<std::int64_t>(i) - direction * (std::int64_t{t} + 1), m)});
    }
};

/// Ring allgather: participant i starts with block i and ends with all m.
struct RingAllgather : detail::RingShape {
    constexpr explicit RingAllgather(std::uint32_t participants, int dir = +1) : RingShape{participants, dir} {}
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        f(std::uint64_t{wrap(static_cast<std::int64_t>(i) - direction * std::int64_t{t}, m)});
    }
};

/// A chain from the root: in round t the participant t places after the root
/// (root + t mod m) sends the data on to the next. `towards_root` reverses it into
/// a reduction: the farthest sends first and the root receives last.
struct ChainPipeline {
    std::uint32_t m = 1;
    std::uint32_t root = 0;
    bool towards_root = false;

    constexpr ChainPipeline(std::uint32_t participants, std::uint32_t root_participant, bool reduce)
        : m(participants), root(root_participant), towards_root(reduce) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return 1; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return m - 1; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return towards_root; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return 1; }
    /// Places after the root (its virtual rank), and back.
    [[nodiscard]] constexpr std::uint32_t place(std::uint32_t r) const { return wrap(std::int64_t{r} - root, m); }
    [[nodiscard]] constexpr std::uint32_t at(std::uint32_t v) const { return (v + root) % m; }
    /// The place that sends in round t.
    [[nodiscard]] constexpr std::uint32_t sender(std::uint32_t t) const { return towards_root ? m - 1 - t : t; }
    [[nodiscard]] constexpr Step step(std::uint32_t t, std::uint64_t) const {
        const std::uint32_t v = sender(t);
        return {at(v), at(towards_root ? v - 1 : v + 1)};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t, std::uint64_t, F&& f) const {
        f(std::uint64_t{0});
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t t, std::uint32_t r, F&& f) const {
        if (place(r) == sender(t)) f(std::uint64_t{0});
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t t, std::uint32_t r, F&& f) const {
        if (place(r) == (towards_root ? sender(t) - 1 : sender(t) + 1)) f(std::uint64_t{0});
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t r) const {
        const std::uint32_t v = place(r);
        if (towards_root) return v == 0 ? RoundSet{} : RoundSet::single(m - 1 - v);
        return v + 1 < m ? RoundSet::single(v) : RoundSet{};
    }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t r) const {
        const std::uint32_t v = place(r);
        if (towards_root) return v + 1 < m ? RoundSet::single(m - 2 - v) : RoundSet{};
        return v == 0 ? RoundSet{} : RoundSet::single(v - 1);
    }
};

/// An allgather that passes blocks both ways at once: round a ring in both
/// directions (each block travelling at most ceil((m-1)/2) hops: the QCDOC SCU's
/// doubled global sum), or along a line without its wraparound (a mesh's line: m - 1
/// rounds, the blocks reaching both ends). Round t: rightwards, participant i passes
/// on block i - t; leftwards, block i + t. Rightward messages are numbered first.
/// A participant sends both ways in a round; by one rail its two messages queue, by
/// two (`two_rails`) they go at once, as the SCU's links of two directions do.
struct LineAllgather {
    std::uint32_t m = 1;
    bool wrap = true;
    bool two_rails = false;  // leftward messages by a participant's second rail, so that both directions go at once

    constexpr LineAllgather(std::uint32_t participants, bool ring, bool second_rail = false)
        : m(participants), wrap(ring), two_rails(second_rail) {}

    /// The rail (of its sender's) message i of round t goes by.
    [[nodiscard]] constexpr std::uint32_t rail(std::uint32_t t, std::uint64_t i) const {
        return two_rails && i >= right(t) ? 1 : 0;
    }

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return wrap ? m / 2 : m - 1; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    /// Rightward and leftward messages of round t.
    [[nodiscard]] constexpr std::uint64_t right(std::uint32_t t) const { return wrap ? m : m - 1 - t; }
    [[nodiscard]] constexpr std::uint64_t left(std::uint32_t t) const {
        return wrap ? (t < (m - 1) / 2 ? m : 0) : m - 1 - t;
    }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t t) const { return right(t) + left(t); }
    [[nodiscard]] constexpr Step step(std::uint32_t t, std::uint64_t i) const {
        const std::int64_t from = sender(t, i);
        return {static_cast<std::uint32_t>(from), wrap ? wrap_of(from + (i < right(t) ? 1 : -1))
                                                       : static_cast<std::uint32_t>(from + (i < right(t) ? 1 : -1))};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        const std::int64_t from = sender(t, i);
        f(std::uint64_t{wrap_of(i < right(t) ? from - t : from + t)});
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t t, std::uint32_t x, F&& f) const {
        if (wrap) {
            f(std::uint64_t{x});
            if (left(t) > 0) f(m + std::uint64_t{x});
            return;
        }
        if (x >= t && x + 2 <= m) f(std::uint64_t{x - t});             // rightwards: t <= x <= m - 2
        if (x >= 1 && x + t <= m - 1) f(right(t) + (x - 1));            // leftwards: 1 <= x <= m - 1 - t
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t t, std::uint32_t x, F&& f) const {
        if (wrap) {
            f(std::uint64_t{wrap_of(std::int64_t{x} - 1)});
            if (left(t) > 0) f(m + std::uint64_t{wrap_of(std::int64_t{x} + 1)});
            return;
        }
        if (x >= 1 && x - 1 >= t && x + 1 <= m) f(std::uint64_t{x - 1 - t});  // from x - 1 rightwards
        if (x + 2 <= m && x + 1 + t <= m - 1) f(right(t) + x);                 // from x + 1 leftwards
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t x) const {
        if (wrap) return RoundSet::interval(0, rounds());
        const std::uint32_t r = x + 2 <= m ? x + 1 : 0, l = x >= 1 ? m - x : 0;
        return RoundSet::interval(0, r > l ? r : l);
    }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t x) const {
        if (wrap) return RoundSet::interval(0, rounds());
        const std::uint32_t r = x, l = x + 2 <= m ? m - 1 - x : 0;
        return RoundSet::interval(0, r > l ? r : l);
    }

private:
    [[nodiscard]] constexpr std::uint32_t wrap_of(std::int64_t a) const { return wrap ? collective::wrap(a, m) : static_cast<std::uint32_t>(a); }
    /// The sender of message i of round t.
    [[nodiscard]] constexpr std::int64_t sender(std::uint32_t t, std::uint64_t i) const {
        const std::uint64_t r = right(t);
        if (wrap) return static_cast<std::int64_t>(i < r ? i : i - r);
        return static_cast<std::int64_t>(i < r ? i + t : i - r + 1);
    }
};

static_assert(RoundKernel<RingReduceScatter> && RoundKernel<RingAllgather> && RoundKernel<ChainPipeline> &&
              RoundKernel<LineAllgather>);

}  // namespace fabric::collective
