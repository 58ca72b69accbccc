// A collective algorithm's kernel: what the algorithm does on m participants, in
// rounds, by arithmetic over indices. Round t has messages(t) messages; message i
// goes from one participant to another (step(t, i)) and carries some of the
// algorithm's blocks (for_each_block), which the receiver either reduces into its
// own data (reduces(t)) or takes as they are. Each participant's part in a round
// is found without a scan: for_each_send(t, r) and for_each_receive(t, r) give the
// indices of its messages, and send_rounds(r), receive_rounds(r) the rounds it
// sends and receives in, as a few intervals (a ring: every round; a binomial
// tree: one round to receive, then a run of rounds to send).
//
// A kernel knows nothing of ranks, bytes, segments or the network: collective/
// phases.hpp places kernels on ranks (a whole network, each line of a torus, each
// group of a dragonfly), and collective/graph.hpp turns them into the workload
// graph the cycle kernel runs, with the dependencies every algorithm shares (a
// participant's send waits for its previous send to leave and for what it received
// since). Blocks are the unit of the correctness law (collective/verify.hpp) and of
// sizes: a message's bytes are its blocks' bytes, never said twice.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>

namespace fabric::collective {

/// No such round (before the first or after the last).
inline constexpr std::uint32_t no_round = ~std::uint32_t{0};
/// A participant that takes no part.
inline constexpr std::uint32_t no_participant = ~std::uint32_t{0};

/// One message of a round: from one participant to another.
struct Step {
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    friend constexpr bool operator==(const Step&, const Step&) = default;
};

/// The rounds a participant sends (or receives) in: up to four intervals [lo, hi),
/// ascending and disjoint.
class RoundSet {
public:
    constexpr RoundSet() = default;
    /// Every round in [lo, hi) (none if hi <= lo).
    static constexpr RoundSet interval(std::uint32_t lo, std::uint32_t hi) {
        RoundSet s;
        s.add(lo, hi);
        return s;
    }
    static constexpr RoundSet single(std::uint32_t t) { return interval(t, t + 1); }
    /// Adds [lo, hi), after every interval already in (or merged with the last).
    constexpr RoundSet& add(std::uint32_t lo, std::uint32_t hi) {
        if (hi <= lo) return *this;
        if (n_ > 0 && lo <= hi_[n_ - 1]) {
            hi_[n_ - 1] = std::max(hi_[n_ - 1], hi);
            return *this;
        }
        lo_[n_] = lo;
        hi_[n_] = hi;
        ++n_;
        return *this;
    }
    /// Adds round t, wherever it falls (at most four separate runs).
    constexpr RoundSet& insert(std::uint32_t t) {
        RoundSet out;
        bool placed = false;
        for (std::size_t k = 0; k < n_; ++k) {
            if (!placed && t < lo_[k]) {
                out.add(t, t + 1);
                placed = true;
            }
            out.add(lo_[k], hi_[k]);
            if (!placed && t < hi_[k]) placed = true;
        }
        if (!placed) out.add(t, t + 1);
        return *this = out;
    }
    [[nodiscard]] constexpr bool empty() const { return n_ == 0; }
    [[nodiscard]] constexpr bool contains(std::uint32_t t) const {
        for (std::size_t k = 0; k < n_; ++k)
            if (t >= lo_[k] && t < hi_[k]) return true;
        return false;
    }
    /// The last round below t, or no_round.
    [[nodiscard]] constexpr std::uint32_t before(std::uint32_t t) const {
        for (std::size_t k = n_; k-- > 0;)
            if (lo_[k] < t) return std::min(hi_[k], t) - 1;
        return no_round;
    }
    /// The first round at or after t, or no_round.
    [[nodiscard]] constexpr std::uint32_t from(std::uint32_t t) const {
        for (std::size_t k = 0; k < n_; ++k)
            if (hi_[k] > t) return std::max(lo_[k], t);
        return no_round;
    }
    friend constexpr bool operator==(const RoundSet&, const RoundSet&) = default;

private:
    std::array<std::uint32_t, 4> lo_{}, hi_{};
    std::size_t n_ = 0;
};

namespace detail {
struct index_sink {
    constexpr void operator()(std::uint64_t) const {}
};
}  // namespace detail

/// What collective/phases.hpp and graph.hpp need of an algorithm on m participants.
template <class K>
concept RoundKernel = requires(const K& k, std::uint32_t t, std::uint64_t i, std::uint32_t r) {
    { k.participants() } -> std::convertible_to<std::uint32_t>;
    { k.blocks() } -> std::convertible_to<std::uint64_t>;      // its blocks, 0 to blocks() - 1
    { k.rounds() } -> std::convertible_to<std::uint32_t>;
    { k.reduces(t) } -> std::convertible_to<bool>;             // round t's receivers reduce what they receive
    { k.messages(t) } -> std::convertible_to<std::uint64_t>;
    { k.step(t, i) } -> std::same_as<Step>;
    k.for_each_block(t, i, detail::index_sink{});              // the blocks message i of round t carries
    k.for_each_send(t, r, detail::index_sink{});               // the messages participant r sends in round t
    k.for_each_receive(t, r, detail::index_sink{});
    { k.send_rounds(r) } -> std::same_as<RoundSet>;
    { k.receive_rounds(r) } -> std::same_as<RoundSet>;
};

/// The rail (of its sender's) message i of round t goes by: a kernel's rail(t, i)
/// where it sends by several (both directions of a line at once), else 0.
template <RoundKernel K>
[[nodiscard]] constexpr std::uint32_t rail_of(const K& k, std::uint32_t t, std::uint64_t i) {
    if constexpr (requires { k.rail(t, i); }) return k.rail(t, i);
    else return (void)k, (void)t, (void)i, 0;
}

// Arithmetic the kernels share.

/// floor(log2 x), x >= 1.
[[nodiscard]] constexpr std::uint32_t floor_log2(std::uint64_t x) {
    return static_cast<std::uint32_t>(63 - std::countl_zero(x));
}
/// ceil(log2 x), x >= 1 (0 for 1).
[[nodiscard]] constexpr std::uint32_t ceil_log2(std::uint64_t x) {
    return x <= 1 ? 0 : floor_log2(x - 1) + 1;
}
/// Trailing zero bits of x >= 1.
[[nodiscard]] constexpr std::uint32_t trailing_zeros(std::uint64_t x) {
    return static_cast<std::uint32_t>(std::countr_zero(x));
}
/// (a mod m) for a possibly negative a.
[[nodiscard]] constexpr std::uint32_t wrap(std::int64_t a, std::uint32_t m) {
    const std::int64_t r = a % static_cast<std::int64_t>(m);
    return static_cast<std::uint32_t>(r < 0 ? r + m : r);
}

/// The usual treatment of a participant count that is not a power of two (MPICH;
/// Thakur, Rabenseifner and Gropp 2005, on allreduce): with q the largest
/// power of two not above m and r = m - q, the first 2r participants pair up, the
/// even one of each pair hands its data to the odd one and sits out, and the q that
/// remain (virtual participants 0 to q - 1) run the power-of-two algorithm; the
/// even ones get the result back at the end. Virtual participant v is participant
/// 2v + 1 for v < r, else v + r; a block kept per participant is kept by the
/// virtual participant that stands for it, so virtual participants [a, b) stand for
/// the participants, and blocks, [first(a), first(b)).
struct Fold {
    std::uint32_t m = 1, q = 1, r = 0;

    constexpr explicit Fold(std::uint32_t participants)
        : m(participants), q(std::uint32_t{1} << floor_log2(participants)), r(participants - q) {}

    [[nodiscard]] constexpr bool folds() const { return r > 0; }
    [[nodiscard]] constexpr std::uint32_t real(std::uint32_t v) const { return v < r ? 2 * v + 1 : v + r; }
    /// The virtual participant x is, or no_participant for an even x below 2r (it sat out).
    [[nodiscard]] constexpr std::uint32_t virtual_of(std::uint32_t x) const {
        if (x < 2 * r) return (x & 1U) != 0 ? x / 2 : no_participant;
        return x - r;
    }
    /// The first participant (and block) that virtual participant v stands for.
    [[nodiscard]] constexpr std::uint32_t first(std::uint32_t v) const { return v < r ? 2 * v : v + r; }
};

}  // namespace fabric::collective
