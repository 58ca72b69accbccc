// Recursive doubling and halving kernels (collective/kernel.hpp), after Thakur,
// Rabenseifner and Gropp 2005: in each of lg m rounds every participant exchanges
// with the one whose index differs in one bit.
//
// - allreduce by recursive doubling (their section on allreduce: lg p rounds of the whole vector):
//   partners at distance 1, 2, 4, ...; each adds what it receives;
// - reduce-scatter by recursive halving (their section on reduce-scatter): partners
//   at distance m/2, m/4, ..., 1; each sends the half of its current blocks that
//   the partner's half of the participants keeps, and adds the half it receives,
//   so that participant i ends with block i;
// - allgather by recursive doubling (their section on allgather): partners at distance 1, 2, 4,
//   ...; each sends every block it has, and the blocks double each round.
// Rabenseifner's allreduce is the reduce-scatter then the allgather
// (collective/algorithms.hpp).
//
// A count that is not a power of two is folded as MPICH folds it (Fold,
// kernel.hpp): a first round in which each even participant of the first 2r hands
// its data to its odd neighbour (all of it, reduced there, for a reduction; its own
// block for an allgather), the power-of-two algorithm among the q that remain,
// and a last round that hands the even ones their result (its block after a
// reduce-scatter; everything after an allgather or allreduce). Thakur et al. halve
// the first round's data for Rabenseifner's algorithm; this variant sends it whole,
// the same for every operation, which costs alpha + n beta + n gamma more at the
// start (collective/alpha_beta.hpp states it).
#pragma once

#include <cstdint>

#include <fabric/collective/kernel.hpp>

namespace fabric::collective {

class RecursiveExchange {
public:
    enum class Mode : std::uint8_t {
        allreduce,       // one block, the whole vector, reduced in every round
        reduce_scatter,  // m blocks, halved each round, reduced
        allgather        // m blocks, doubled each round
    };
    /// `fold_in`, `fold_out`: whether the first and last (folding) rounds are run
    /// when m is not a power of two: Rabenseifner's allreduce leaves the
    /// reduce-scatter's last and the allgather's first out (the data is already
    /// where the next half wants it). `out_whole`: the allgather's last round sends
    /// every block, the receiver's own too (an allreduce's result), not only the
    /// others.
    constexpr RecursiveExchange(Mode mode, std::uint32_t participants, bool fold_in = true, bool fold_out = true,
                                bool out_whole = false)
        : mode_(mode), fold_(participants), in_(fold_.folds() && fold_in), out_(fold_.folds() && fold_out),
          whole_(out_whole), lg_(floor_log2(fold_.q)) {}

    [[nodiscard]] constexpr Mode mode() const { return mode_; }
    [[nodiscard]] constexpr std::uint32_t participants() const { return fold_.m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return mode_ == Mode::allreduce ? 1 : fold_.m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return lg_ + in_ + out_; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t t) const {
        return mode_ != Mode::allgather && stage(t) != Stage::out;
    }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t t) const {
        return stage(t) == Stage::exchange ? fold_.q : fold_.r;
    }
    [[nodiscard]] constexpr Step step(std::uint32_t t, std::uint64_t i) const {
        const auto j = static_cast<std::uint32_t>(i);
        switch (stage(t)) {
        case Stage::in: return {2 * j, 2 * j + 1};
        case Stage::out: return {2 * j + 1, 2 * j};
        case Stage::exchange: break;
        }
        return {fold_.real(j), fold_.real(j ^ distance(t))};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        const auto j = static_cast<std::uint32_t>(i);
        if (mode_ == Mode::allreduce) return f(std::uint64_t{0});
        const Stage s = stage(t);
        if (s == Stage::in) {  // the even one's data: everything to reduce, or its own block
            if (mode_ == Mode::reduce_scatter) return every(0, fold_.m, f);
            return f(std::uint64_t{2 * j});
        }
        if (s == Stage::out) {  // the even one's result
            if (mode_ == Mode::reduce_scatter) return f(std::uint64_t{2 * j});
            every(0, 2 * j, f);
            if (whole_) f(std::uint64_t{2 * j});
            return every(2 * j + 1, fold_.m, f);
        }
        const std::uint32_t d = distance(t);
        // Halving: the partner's half of the current group; doubling: the sender's group so far.
        const std::uint32_t v = mode_ == Mode::reduce_scatter ? j ^ d : j;
        const std::uint32_t a = v & ~(d - 1);
        every(fold_.first(a), fold_.first(a + d), f);
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t t, std::uint32_t x, F&& f) const {
        const Stage s = stage(t);
        if (s == Stage::exchange) {
            if (const std::uint32_t v = fold_.virtual_of(x); v != no_participant) f(std::uint64_t{v});
        } else if (x < 2 * fold_.r && ((x & 1U) != 0) == (s == Stage::out)) {
            f(std::uint64_t{x / 2});
        }
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t t, std::uint32_t x, F&& f) const {
        const Stage s = stage(t);
        if (s == Stage::exchange) {
            if (const std::uint32_t v = fold_.virtual_of(x); v != no_participant) f(std::uint64_t{v ^ distance(t)});
        } else if (x < 2 * fold_.r && ((x & 1U) != 0) == (s == Stage::in)) {
            f(std::uint64_t{x / 2});
        }
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t x) const {
        const std::uint32_t first = in_ ? 1 : 0;
        if (x < 2 * fold_.r && (x & 1U) == 0) return in_ ? RoundSet::single(0) : RoundSet{};
        RoundSet s = RoundSet::interval(first, first + lg_);
        if (out_ && x < 2 * fold_.r) s.add(first + lg_, first + lg_ + 1);
        return s;
    }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t x) const {
        const std::uint32_t first = in_ ? 1 : 0;
        if (x < 2 * fold_.r && (x & 1U) == 0) return out_ ? RoundSet::single(first + lg_) : RoundSet{};
        RoundSet s;
        if (in_ && x < 2 * fold_.r) s.add(0, 1);
        return s.add(first, first + lg_);
    }

private:
    enum class Stage : std::uint8_t { in, exchange, out };

    [[nodiscard]] constexpr Stage stage(std::uint32_t t) const {
        if (in_ && t == 0) return Stage::in;
        if (out_ && t == rounds() - 1) return Stage::out;
        return Stage::exchange;
    }
    /// The partner distance of an exchange round: doubling from 1, or halving from q / 2.
    [[nodiscard]] constexpr std::uint32_t distance(std::uint32_t t) const {
        const std::uint32_t k = t - (in_ ? 1 : 0);
        return mode_ == Mode::reduce_scatter ? fold_.q >> (k + 1) : std::uint32_t{1} << k;
    }
    template <class F>
    static constexpr void every(std::uint32_t lo, std::uint32_t hi, F& f) {
        for (std::uint32_t b = lo; b < hi; ++b) f(std::uint64_t{b});
    }

    Mode mode_;
    Fold fold_;
    bool in_, out_, whole_;
    std::uint32_t lg_;
};

static_assert(RoundKernel<RecursiveExchange>);

}  // namespace fabric::collective
