// Permutations that machines configured by permutation (GF11) store as switch
// settings: perm[i] is where processor i's word goes. Each is checked to be a
// permutation by the tests; together they express the usual connectivities.
// All are constexpr (tests/static/compile_time.cpp routes them through a Benes
// network at compile time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric::permutations {

/// i -> (i + shift) mod p: a ring.
constexpr std::vector<std::uint32_t> ring_shift(std::uint32_t p, std::uint32_t shift = 1) {
    detail::require(p >= 1, "a ring needs at least one processor");
    std::vector<std::uint32_t> perm(p, 0);
    for (std::uint32_t i = 0; i < p; ++i) perm[i] = (i + shift) % p;
    return perm;
}

/// One step of a rows x cols torus, processors row by row: +x (along a row) or +y.
constexpr std::vector<std::uint32_t> torus_shift(std::uint32_t rows, std::uint32_t cols, bool along_x) {
    detail::require(rows >= 1 && cols >= 1, "a torus needs at least one row and one column");
    const std::uint32_t p = rows * cols;
    std::vector<std::uint32_t> perm(p, 0);
    for (std::uint32_t i = 0; i < p; ++i)
        perm[i] = along_x ? (i / cols) * cols + (i % cols + 1) % cols : (i + cols) % p;
    return perm;
}

/// i -> i xor 2^stage: the partners of one FFT butterfly stage (p a power of 2).
constexpr std::vector<std::uint32_t> butterfly(std::uint32_t p, std::uint32_t stage) {
    detail::require((std::uint64_t{1} << stage) < p && p % (std::uint32_t{1} << (stage + 1)) == 0,
                    "butterfly stage ", stage, " needs p a multiple of 2^(stage + 1); got p = ", p);
    std::vector<std::uint32_t> perm(p, 0);
    for (std::uint32_t i = 0; i < p; ++i) perm[i] = i ^ (1U << stage);
    return perm;
}

/// One exchange step of a binary tree (node i's children 2i + 1, 2i + 2): every
/// even-numbered parent swaps with its left child; the others stay.
constexpr std::vector<std::uint32_t> tree_exchange(std::uint32_t p) {
    std::vector<std::uint32_t> perm(p, 0);
    std::iota(perm.begin(), perm.end(), 0U);
    for (std::uint32_t parent = 0; 2 * parent + 1 < p; parent += 2) {
        const std::uint32_t child = 2 * parent + 1;
        if (perm[parent] == parent && perm[child] == child) {
            perm[parent] = child;
            perm[child] = parent;
        }
    }
    return perm;
}

/// i -> i with its n address bits reversed (p = 2^n).
constexpr std::vector<std::uint32_t> bit_reversal(std::uint32_t p) {
    std::uint32_t bits = 0;
    while ((std::uint32_t{1} << bits) < p) ++bits;
    detail::require(p >= 1 && (std::uint32_t{1} << bits) == p, "bit reversal needs p = 2^n; got ", p);
    std::vector<std::uint32_t> perm(p, 0);
    for (std::uint32_t i = 0; i < p; ++i) {
        std::uint32_t r = 0;
        for (std::uint32_t b = 0; b < bits; ++b) r |= ((i >> b) & 1U) << (bits - 1 - b);
        perm[i] = r;
    }
    return perm;
}

/// How many words a network carried where `perm` sends them: in[i] was to arrive
/// at out[perm[i]].
template <class T>
constexpr std::size_t delivered(const std::vector<std::uint32_t>& perm, const std::vector<T>& in, const std::vector<T>& out) {
    detail::require(in.size() == perm.size() && out.size() == perm.size(), "delivered: a permutation of ",
                    perm.size(), " needs as many words in and out; got ", in.size(), " and ", out.size());
    std::size_t ok = 0;
    for (std::size_t i = 0; i < perm.size(); ++i) ok += perm[i] < out.size() && out[perm[i]] == in[i];
    return ok;
}

}  // namespace fabric::permutations
