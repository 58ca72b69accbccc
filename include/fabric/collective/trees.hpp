// Tree kernels (collective/kernel.hpp).
//
// BinomialTree: binomial trees (Thakur, Rabenseifner and Gropp 2005, on broadcast and reduce: MPICH's
// broadcast for short messages, ceil(lg m) (alpha + n beta); its reduce, ceil(lg m)
// (alpha + n beta + n gamma); the scatter and the gather that van de Geijn's
// broadcast and Rabenseifner's reduce are made of). Places are counted from the
// root (v = participant - root mod m); place v's parent is v with its lowest set bit
// cleared. Going down (broadcast, scatter), round k has mask 2^(R-1-k), R = ceil(lg
// m): every place v that is a multiple of 2 mask sends to v + mask, farthest
// subtree first, as MPICH does. Going up (reduce, gather), round k has mask 2^k:
// place v = mask mod 2 mask sends to v - mask. A broadcast or reduce sends the
// whole vector (one block); a scatter sends a subtree its participants' blocks, a
// gather sends them up.
//
// The in-order binary tree of the double binary tree (Sanders, Speck and Träff
// 2009, the algorithm NCCL's tree allreduce uses): positions 1 to m in order, the
// root at 2^floor(lg m), position x at height tz(x) (its trailing zero bits), its
// children x -/+ lowbit(x)/2 (the right one moved down while past m). Every leaf
// is an odd position; the second tree is the first mirrored (m even) or shifted by
// one (m odd), so that the leaves of one are the inner nodes of the other and
// every participant's bandwidth is used in one tree or the other. A reduction goes
// up by height (round h: every position of height h sends to its parent) and the
// result comes down the same way (round u: to every position of height H - 1 - u).
#pragma once

#include <cstdint>

#include <fabric/collective/kernel.hpp>

namespace fabric::collective {

class BinomialTree {
public:
    enum class Kind : std::uint8_t { broadcast, scatter, reduce, gather };

    constexpr BinomialTree(Kind kind, std::uint32_t participants, std::uint32_t root)
        : kind_(kind), m_(participants), root_(root), r_(ceil_log2(participants)) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m_; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return scatters() ? m_ : 1; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return r_; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return kind_ == Kind::reduce; }
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t k) const {
        const std::uint32_t mask = mask_of(k);
        return (m_ - mask + 2 * mask - 1) / (2 * mask);
    }
    [[nodiscard]] constexpr Step step(std::uint32_t k, std::uint64_t j) const {
        const std::uint32_t v = sender(k, j), mask = mask_of(k);
        return {at(v), at(down() ? v + mask : v - mask)};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t k, std::uint64_t j, F&& f) const {
        if (!scatters()) return f(std::uint64_t{0});
        const std::uint32_t v = sender(k, j), mask = mask_of(k);
        const std::uint32_t lo = down() ? v + mask : v;  // the subtree that receives (down) or sends (up)
        const std::uint32_t hi = lo + mask < m_ ? lo + mask : m_;
        for (std::uint32_t u = lo; u < hi; ++u) f(std::uint64_t{at(u)});
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t k, std::uint32_t r, F&& f) const {
        const std::uint32_t v = place(r), mask = mask_of(k);
        if (down() ? v % (2 * mask) == 0 && v + mask < m_ : v % (2 * mask) == mask) f(index(v, k));
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t k, std::uint32_t r, F&& f) const {
        const std::uint32_t v = place(r), mask = mask_of(k);
        if (down() ? v % (2 * mask) == mask : v % (2 * mask) == 0 && v + mask < m_)
            f(index(down() ? v - mask : v + mask, k));
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t r) const {
        const std::uint32_t v = place(r);
        if (!down()) return v == 0 ? RoundSet{} : RoundSet::single(trailing_zeros(v));
        std::uint32_t s = v == 0 ? 0 : r_ - trailing_zeros(v);  // the round after it receives
        while (s < r_ && v + mask_of(s) >= m_) ++s;
        return RoundSet::interval(s, r_);
    }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t r) const {
        const std::uint32_t v = place(r);
        if (down()) return v == 0 ? RoundSet{} : RoundSet::single(r_ - 1 - trailing_zeros(v));
        const std::uint32_t below = v == 0 ? r_ : trailing_zeros(v);
        std::uint32_t e = 0;
        while (e < below && v + (std::uint32_t{1} << e) < m_) ++e;
        return RoundSet::interval(0, e);
    }

private:
    [[nodiscard]] constexpr bool down() const { return kind_ == Kind::broadcast || kind_ == Kind::scatter; }
    [[nodiscard]] constexpr bool scatters() const { return kind_ == Kind::scatter || kind_ == Kind::gather; }
    [[nodiscard]] constexpr std::uint32_t mask_of(std::uint32_t k) const {
        return std::uint32_t{1} << (down() ? r_ - 1 - k : k);
    }
    [[nodiscard]] constexpr std::uint32_t sender(std::uint32_t k, std::uint64_t j) const {
        const std::uint32_t mask = mask_of(k);
        return static_cast<std::uint32_t>(j) * 2 * mask + (down() ? 0 : mask);
    }
    [[nodiscard]] constexpr std::uint64_t index(std::uint32_t sender_place, std::uint32_t k) const {
        return sender_place / (2 * mask_of(k));
    }
    [[nodiscard]] constexpr std::uint32_t place(std::uint32_t r) const { return wrap(std::int64_t{r} - root_, m_); }
    [[nodiscard]] constexpr std::uint32_t at(std::uint32_t v) const { return (v + root_) % m_; }

    Kind kind_;
    std::uint32_t m_, root_, r_;
};

/// One of the double binary tree's two in-order trees, up (a reduction) or down (a broadcast).
class InOrderTree {
public:
    enum class Layout : std::uint8_t { plain, mirrored, shifted };

    /// The second tree's layout for m participants (Sanders et al.: mirrored for an even m, shifted for an odd).
    static constexpr Layout second(std::uint32_t m) { return m % 2 == 0 ? Layout::mirrored : Layout::shifted; }

    constexpr InOrderTree(std::uint32_t participants, Layout layout, bool up)
        : m_(participants), layout_(layout), up_(up), h_(floor_log2(participants)) {}

    [[nodiscard]] constexpr std::uint32_t participants() const { return m_; }
    [[nodiscard]] constexpr std::uint64_t blocks() const { return 1; }
    [[nodiscard]] constexpr std::uint32_t rounds() const { return h_; }
    [[nodiscard]] constexpr bool reduces(std::uint32_t) const { return up_; }
    /// Positions of height h: the odd multiples of 2^h up to m.
    [[nodiscard]] constexpr std::uint64_t messages(std::uint32_t t) const { return ((m_ >> height(t)) + 1) / 2; }
    [[nodiscard]] constexpr Step step(std::uint32_t t, std::uint64_t j) const {
        const std::uint32_t x = position(t, j);
        return up_ ? Step{rank(x), rank(parent(x))} : Step{rank(parent(x)), rank(x)};
    }
    template <class F>
    constexpr void for_each_block(std::uint32_t, std::uint64_t, F&& f) const {
        f(std::uint64_t{0});
    }
    template <class F>
    constexpr void for_each_send(std::uint32_t t, std::uint32_t r, F&& f) const {
        if (up_) own(t, r, f);
        else children(t, r, f);
    }
    template <class F>
    constexpr void for_each_receive(std::uint32_t t, std::uint32_t r, F&& f) const {
        if (up_) children(t, r, f);
        else own(t, r, f);
    }
    [[nodiscard]] constexpr RoundSet send_rounds(std::uint32_t r) const { return up_ ? own_rounds(r) : child_rounds(r); }
    [[nodiscard]] constexpr RoundSet receive_rounds(std::uint32_t r) const { return up_ ? child_rounds(r) : own_rounds(r); }

    /// Tree structure, by position (1 to m).
    [[nodiscard]] constexpr std::uint32_t root() const { return std::uint32_t{1} << h_; }
    [[nodiscard]] constexpr std::uint32_t parent(std::uint32_t x) const {
        std::uint32_t y = x;
        do {
            const std::uint32_t b = y & (~y + 1);
            y = (y - b) | (2 * b);
        } while (y > m_);
        return y;
    }
    /// Its left and right child (0: none).
    [[nodiscard]] constexpr std::uint32_t left(std::uint32_t x) const {
        const std::uint32_t b = x & (~x + 1);
        return b == 1 ? 0 : x - b / 2;
    }
    [[nodiscard]] constexpr std::uint32_t right(std::uint32_t x) const {
        std::uint32_t c = (x & (~x + 1)) / 2;
        while (c >= 1 && x + c > m_) c /= 2;
        return c >= 1 ? x + c : 0;
    }
    [[nodiscard]] constexpr std::uint32_t position_of(std::uint32_t r) const {
        switch (layout_) {
        case Layout::mirrored: return m_ - r;
        case Layout::shifted: return r == 0 ? m_ : r;
        case Layout::plain: break;
        }
        return r + 1;
    }
    [[nodiscard]] constexpr std::uint32_t rank(std::uint32_t x) const {
        switch (layout_) {
        case Layout::mirrored: return m_ - x;
        case Layout::shifted: return x % m_;
        case Layout::plain: break;
        }
        return x - 1;
    }

private:
    /// Going up, round t moves height t; coming down, height H - 1 - t.
    [[nodiscard]] constexpr std::uint32_t height(std::uint32_t t) const { return up_ ? t : h_ - 1 - t; }
    [[nodiscard]] constexpr std::uint32_t round_of_height(std::uint32_t h) const { return up_ ? h : h_ - 1 - h; }
    [[nodiscard]] constexpr std::uint32_t position(std::uint32_t t, std::uint64_t j) const {
        return static_cast<std::uint32_t>((2 * j + 1) << height(t));
    }
    /// The message of position x (between it and its parent), in its round.
    [[nodiscard]] static constexpr std::uint64_t index_of(std::uint32_t x) { return (x >> trailing_zeros(x)) / 2; }
    template <class F>
    constexpr void own(std::uint32_t t, std::uint32_t r, F& f) const {
        const std::uint32_t x = position_of(r);
        if (x != root() && trailing_zeros(x) == height(t)) f(index_of(x));
    }
    template <class F>
    constexpr void children(std::uint32_t t, std::uint32_t r, F& f) const {
        const std::uint32_t x = position_of(r);
        for (const std::uint32_t c : {left(x), right(x)})
            if (c != 0 && trailing_zeros(c) == height(t)) f(index_of(c));
    }
    [[nodiscard]] constexpr RoundSet own_rounds(std::uint32_t r) const {
        const std::uint32_t x = position_of(r);
        return x == root() ? RoundSet{} : RoundSet::single(round_of_height(trailing_zeros(x)));
    }
    [[nodiscard]] constexpr RoundSet child_rounds(std::uint32_t r) const {
        const std::uint32_t x = position_of(r);
        RoundSet s;
        for (const std::uint32_t c : {left(x), right(x)})
            if (c != 0) s.insert(round_of_height(trailing_zeros(c)));
        return s;
    }

    std::uint32_t m_;
    Layout layout_;
    bool up_;
    std::uint32_t h_;
};

static_assert(RoundKernel<BinomialTree> && RoundKernel<InOrderTree>);

}  // namespace fabric::collective
