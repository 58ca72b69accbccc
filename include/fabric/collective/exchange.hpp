// Kernels in which every participant sends in every round (collective/kernel.hpp):
// dissemination (a barrier, and Bruck's allgather), and the all-to-alls.
//
// - Circulant, dissemination (Hensgen, Finkel and Manber 1988; Thakur et al. 2005, on the
//   barrier): ceil(lg m) rounds; in round k participant i sends to i + 2^k what
//   it has heard of, and after the last every participant has heard from every
//   other. With direction -1 and data it is Bruck's allgather (Bruck et al. 1997;
//   Thakur et al., on allgather): participant i sends to i - 2^k the blocks i .. i +
//   2^k - 1 it holds (only the m - 2^k the receiver lacks in the last round), and
//   ends with all m (the local rotation Bruck's algorithm ends with moves nothing
//   over the network). Block i is participant i's.
// - Bruck's all-to-all (Bruck et al. 1997; Thakur et al., on all-to-all, for short
//   messages): ceil(lg m) rounds; in round k participant i sends to i + 2^k every
//   block whose offset j (its destination minus its source, mod m) has bit k set.
//   A block so moved has travelled the bits of j below k, so the block at offset j
//   held by i in round k came from source i - (j mod 2^k).
// - Pairwise exchange (Thakur et al., on all-to-all, for long messages): m - 1 rounds;
//   in round s - 1 participant i sends its block for i XOR s (m a power of two) or
//   i + s (otherwise) and receives the one for it.
// - Direct: every participant sends its m - 1 blocks at once, to i + 1, i + 2, ...
//   in that order (MPICH's isend/irecv all-to-all), and its host's queue sends them
//   one after the other.
// All-to-all block (s, d), from participant s to participant d, is block s m + d.
#pragma once

#include <cstdint>

#include <fabric/collective/kernel.hpp>

namespace fabric::collective {

struct Circulant {
    std::uint32_t m = 1;
    int direction = +1;

    constexpr explicit Circulant(std::uint32_t participants, int dir = +1) : m(participants), direction(dir) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return ceil_log2(m); }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return m; }
    [[nodiscard]] constexpr Step step(std::uint32_t k, std::uint64_t i) const {
        const auto from = static_cast<std::uint32_t>(i);
        return {from, wrap(std::int64_t{from} + direction * (std::int64_t{1} << k), m)};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t k, std::uint64_t i, F&& f) const {
        const std::uint32_t d = std::uint32_t{1} << k;
        const std::uint32_t count = d < m - d ? d : m - d;
        for (std::uint32_t j = 0; j < count; ++j)
            f(std::uint64_t{wrap(static_cast<std::int64_t>(i) - direction * std::int64_t{j}, m)});
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t, std::uint32_t r, F&& f) const {
        f(std::uint64_t{r});
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t k, std::uint32_t r, F&& f) const {
        f(std::uint64_t{wrap(std::int64_t{r} - direction * (std::int64_t{1} << k), m)});
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
};

struct BruckAlltoall {
    std::uint32_t m = 1;

    constexpr explicit BruckAlltoall(std::uint32_t participants) : m(participants) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return std::uint64_t{m} * m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return ceil_log2(m); }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return m; }
    [[nodiscard]] constexpr Step step(std::uint32_t k, std::uint64_t i) const {
        const auto from = static_cast<std::uint32_t>(i);
        return {from, (from + (std::uint32_t{1} << k)) % m};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t k, std::uint64_t i, F&& f) const {
        const std::uint32_t bit = std::uint32_t{1} << k;
        for (std::uint32_t j = bit; j < m; ++j) {
            if ((j & bit) == 0) continue;
            const std::uint32_t source = wrap(static_cast<std::int64_t>(i) - (j & (bit - 1)), m);
            f(std::uint64_t{source} * m + (source + j) % m);
        }
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t, std::uint32_t r, F&& f) const {
        f(std::uint64_t{r});
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t k, std::uint32_t r, F&& f) const {
        f(std::uint64_t{wrap(std::int64_t{r} - (std::int64_t{1} << k), m)});
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
};

struct PairwiseAlltoall {
    std::uint32_t m = 1;

    constexpr explicit PairwiseAlltoall(std::uint32_t participants) : m(participants) {}

    [[nodiscard]] constexpr bool exclusive_or() const { return (m & (m - 1)) == 0; }
    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return std::uint64_t{m} * m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return m - 1; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return m; }
    [[nodiscard]] constexpr Step step(std::uint32_t t, std::uint64_t i) const {
        const auto from = static_cast<std::uint32_t>(i);
        const std::uint32_t s = t + 1;
        return {from, exclusive_or() ? from ^ s : (from + s) % m};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        const Step s = step(t, i);
        f(std::uint64_t{s.from} * m + s.to);
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t, std::uint32_t r, F&& f) const {
        f(std::uint64_t{r});
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t t, std::uint32_t r, F&& f) const {
        const std::uint32_t s = t + 1;
        f(std::uint64_t{exclusive_or() ? r ^ s : wrap(std::int64_t{r} - s, m)});
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t) const { return RoundSet::interval(0, m - 1); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t) const { return RoundSet::interval(0, m - 1); }
};

struct DirectAlltoall {
    std::uint32_t m = 1;

    constexpr explicit DirectAlltoall(std::uint32_t participants) : m(participants) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return std::uint64_t{m} * m; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return m > 1 ? 1 : 0; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return false; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t) const { return std::uint64_t{m} * (m - 1); }
    /// Message i: participant i / (m - 1) to the one (i mod (m - 1)) + 1 places on.
    [[nodiscard]] constexpr Step step(std::uint32_t, std::uint64_t i) const {
        const auto from = static_cast<std::uint32_t>(i / (m - 1));
        return {from, static_cast<std::uint32_t>((from + i % (m - 1) + 1) % m)};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t t, std::uint64_t i, F&& f) const {
        const Step s = step(t, i);
        f(std::uint64_t{s.from} * m + s.to);
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t, std::uint32_t r, F&& f) const {
        for (std::uint64_t s = 0; s + 1 < m; ++s) f(std::uint64_t{r} * (m - 1) + s);
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t, std::uint32_t r, F&& f) const {
        for (std::uint32_t s = 1; s < m; ++s) f(std::uint64_t{wrap(std::int64_t{r} - s, m)} * (m - 1) + (s - 1));
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t) const { return RoundSet::interval(0, rounds()); }
};

static_assert(RoundKernel<Circulant> && RoundKernel<BruckAlltoall> && RoundKernel<PairwiseAlltoall> &&
              RoundKernel<DirectAlltoall>);

}  // namespace fabric::collective
