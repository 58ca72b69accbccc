// The permutations a GF11 stores as settings, each a permutation with the shape
// its name says; the omega network's conflicts worked by hand, and the Benes
// passing what the omega network cannot.
#include <doctest/doctest.h>

#include <fabric/mapping/permutations.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/routing/omega.hpp>
#include <fabric/topology/benes.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace unit_permutations {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
bool is_permutation(std::vector<std::uint32_t> perm) {
    std::sort(perm.begin(), perm.end());
    for (std::uint32_t i = 0; i < perm.size(); ++i)
        if (perm[i] != i) return false;
    return true;
}
}  // namespace

TEST_CASE("permutations: ring, torus steps, butterflies, tree exchange and bit reversal") {
    const auto ring = permutations::ring_shift(512);
    CHECK(is_permutation(ring));
    CHECK(ring[511] == 0);
    CHECK(ring[7] == 8);
    const auto east = permutations::torus_shift(16, 32, true), south = permutations::torus_shift(16, 32, false);
    CHECK(is_permutation(east));
    CHECK(is_permutation(south));
    CHECK(east[31] == 0);    // the row wraps
    CHECK(east[32] == 33);
    CHECK(south[480] == 0);  // the last row wraps to the first
    for (std::uint32_t stage = 0; stage < 9; ++stage) {
        const auto fly = permutations::butterfly(512, stage);
        CHECK(is_permutation(fly));
        for (std::uint32_t i = 0; i < 512; ++i) CHECK(fly[fly[i]] == i);  // pairs swap
    }
    const auto tree = permutations::tree_exchange(512);
    CHECK(is_permutation(tree));
    CHECK(tree[0] == 1);
    CHECK(tree[1] == 0);
    CHECK(tree[2] == 5);  // parent 2's left child is 5
    CHECK(tree[3] == 3);  // odd parents stay
    CHECK(permutations::bit_reversal(8) == std::vector<std::uint32_t>{0, 4, 2, 6, 1, 5, 3, 7});
    CHECK_THROWS_AS(permutations::bit_reversal(6), config_error);
}

TEST_CASE("omega network: conflicts by hand; the Benes passes bit reversal in one pass") {
    const std::vector<std::uint32_t> identity{0, 1, 2, 3};
    CHECK(omega_conflicts(identity) == 0);
    // Messages 0 -> 0, 1 -> 2, 2 -> 1, 3 -> 3: after the first shuffle 0 and 2 both
    // want switch 0's upper output, 1 and 3 switch 1's lower: 2 conflicts, then
    // the collided pairs stay together through the last stage.
    const std::vector<std::uint32_t> swap{0, 2, 1, 3};
    CHECK(omega_conflicts(swap) == 2);
    const auto reverse = permutations::bit_reversal(8);
    CHECK(omega_conflicts(reverse) > 0);
    const BenesNetwork benes(8);
    std::vector<std::uint32_t> in(8);
    std::iota(in.begin(), in.end(), 0U);
    const auto out = benes.carry(route(benes, reverse), in);
    for (std::uint32_t i = 0; i < 8; ++i) CHECK(out[reverse[i]] == i);
    CHECK_THROWS_AS(omega_conflicts(std::vector<std::uint32_t>{0, 1, 2}), config_error);
}

TEST_CASE("delivered: words that reached the processor the permutation names") {
    const std::vector<std::uint32_t> swap{1, 0, 2};
    CHECK(permutations::delivered(swap, std::vector<int>{7, 8, 9}, std::vector<int>{8, 7, 9}) == 3);
    CHECK(permutations::delivered(swap, std::vector<int>{7, 8, 9}, std::vector<int>{7, 8, 9}) == 1);
    CHECK_THROWS_WITH_AS(permutations::delivered(swap, std::vector<int>{7, 8}, std::vector<int>{7, 8, 9}),
                         doctest::Contains("a permutation of 3 needs as many words in and out; got 2 and 3"),
                         config_error);
}

}  // namespace unit_permutations
