// Switch settings for the Benes networks of topology/benes.hpp, computed ahead of
// time as GF11 does (Kumar, section "Use of precomputed switch settings").
//
//  - route(BenesNetwork, perm): the looping algorithm. In each sub-network the two
//    inputs of an input switch go to different halves and the two outputs of an
//    output switch come from different halves; following these constraints from
//    input to partner output to its input and so on closes loops that 2-colour all
//    inputs. Level by level over one array per depth: O(N log N) time, O(N) memory
//    per level.
//  - route(ClosNetwork, perm): the connections form an r-regular bipartite
//    multigraph between input and output switches; colouring its edges with r
//    colours (Koenig) gives each connection a middle switch, every colour class
//    being a perfect matching. Colours come from alternating paths, and a set of
//    middle switches may be excluded (faulty), as long as no switch has more
//    connections than middle switches left.
//  - SettingsTable: up to 1024 settings, selected by a 10-bit number.
// Two-pass multicast on both networks is in benes_multicast.hpp.
// A pattern that is not a permutation is refused with a message.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/topology/benes.hpp>

namespace fabric {

namespace detail {

/// Checks that `perm` is a permutation of 0 .. n-1 and returns its inverse.
constexpr std::vector<std::uint32_t> inverse_permutation(std::span<const std::uint32_t> perm, std::size_t n) {
    require(perm.size() == n, "a pattern for this network maps ", n, " inputs; got ", perm.size());
    std::vector<std::uint32_t> inv(n, unconnected);
    for (std::size_t i = 0; i < n; ++i) {
        require(perm[i] < n, "input ", i, " is sent to output ", perm[i], ", which does not exist; valid: 0 to ", n - 1);
        require(inv[perm[i]] == unconnected, "not a permutation: inputs ", inv[perm[i]], " and ", i,
                " both go to output ", perm[i], "; use a multicast for one-to-many, or fix the pattern");
        inv[perm[i]] = static_cast<std::uint32_t>(i);
    }
    return inv;
}

}  // namespace detail

/// Looping algorithm: the setting that routes input i to output perm[i].
constexpr BenesNetwork::Setting route(const BenesNetwork& net, std::span<const std::uint32_t> perm) {
    const std::size_t n = net.ports();
    (void)detail::inverse_permutation(perm, n);  // validates
    BenesNetwork::Setting s;
    s.out0.assign(net.switches(), 0);
    s.out1.assign(net.switches(), 1);
    const std::size_t levels = static_cast<std::size_t>(std::countr_zero(n));
    // p: the permutation of every sub-network of the current depth, side by side;
    // a sub-network of size m at offset o maps local input j to local output p[o + j].
    std::vector<std::uint32_t> p(perm.begin(), perm.end()), next(n, 0), inv(n, 0);
    std::vector<std::uint8_t> colour(n, 0);
    constexpr std::uint8_t unset = 2;
    for (std::size_t d = 0; d + 1 < levels; ++d) {
        const std::size_t m = n >> d, half = m / 2;
        for (std::size_t o = 0; o < n; o += m) {
            const std::size_t row0 = o / 2;
            for (std::size_t j = 0; j < m; ++j) {
                inv[o + p[o + j]] = static_cast<std::uint32_t>(j);
                colour[o + j] = unset;
            }
            // Colour the inputs loop by loop: 0 = upper half, 1 = lower half.
            for (std::size_t start = 0; start < m; start += 2) {
                if (colour[o + start] != unset) continue;
                std::size_t j = start;
                colour[o + j] = 0;
                for (;;) {
                    const std::size_t partner = j ^ 1U;  // the other input of j's switch: the other half
                    if (colour[o + partner] != unset) break;
                    colour[o + partner] = static_cast<std::uint8_t>(1 - colour[o + j]);
                    // The output beside partner's output must come from j's half.
                    const std::size_t k = inv[o + (p[o + partner] ^ 1U)];
                    if (colour[o + k] != unset) break;
                    colour[o + k] = colour[o + j];
                    j = k;
                }
            }
            for (std::size_t sw = 0; sw < half; ++sw) {
                const std::size_t in_k = net.index(d, row0 + sw);
                const bool cross = colour[o + 2 * sw] != 0;
                s.out0[in_k] = cross ? 1 : 0;
                s.out1[in_k] = cross ? 0 : 1;
                // Output switch sw: output 2 sw takes the upper half's output sw if
                // the input feeding it went up.
                const std::size_t out_k = net.index(net.stages() - 1 - d, row0 + sw);
                const bool from_lower = colour[o + inv[o + 2 * sw]] != 0;
                s.out0[out_k] = from_lower ? 1 : 0;
                s.out1[out_k] = from_lower ? 0 : 1;
                // The halves' permutations: upper at o, lower at o + half.
                const std::size_t up_in = cross ? 2 * sw + 1 : 2 * sw, low_in = up_in ^ 1U;
                next[o + sw] = p[o + up_in] >> 1;
                next[o + half + sw] = p[o + low_in] >> 1;
            }
        }
        std::swap(p, next);
    }
    // The middle column of 2x2 switches.
    for (std::size_t o = 0; o < n; o += 2) {
        const std::size_t k = net.index(levels - 1, o / 2);
        const bool cross = p[o] != 0;
        s.out0[k] = cross ? 1 : 0;
        s.out1[k] = cross ? 0 : 1;
    }
    return s;
}

namespace detail {

/// Colours the edges (left[e], right[e]) of a bipartite multigraph with colours
/// from `allowed` so that no two edges at a vertex share one (alternating paths,
/// Koenig). Returns the colour of each edge.
inline std::vector<std::uint32_t> edge_colour(std::size_t left_n, std::size_t right_n,
                                              const std::vector<std::uint32_t>& left,
                                              const std::vector<std::uint32_t>& right,
                                              const std::vector<std::uint32_t>& allowed, std::size_t colours) {
    const std::uint32_t none = unconnected;
    // at_left[u * colours + c]: the edge of colour c at left vertex u, or none.
    std::vector<std::uint32_t> at_left(left_n * colours, none), at_right(right_n * colours, none);
    std::vector<std::uint32_t> colour(left.size(), none);
    auto free_at = [&](const std::vector<std::uint32_t>& at, std::size_t v) -> std::uint32_t {
        for (const auto c : allowed)
            if (at[v * colours + c] == none) return c;
        return none;
    };
    for (std::uint32_t e = 0; e < left.size(); ++e) {
        const std::uint32_t u = left[e], v = right[e];
        const std::uint32_t a = free_at(at_left, u), b = free_at(at_right, v);
        require(a != none && b != none, "a switch has more connections than the middle switches available");
        if (at_right[v * colours + a] != none) {
            // Swap a and b along the path from v that alternates a, b, a, ...
            std::uint32_t x = v;
            bool on_right = true;
            std::uint32_t want = a, other = b;
            std::vector<std::uint32_t> path;
            for (;;) {
                const std::uint32_t f = on_right ? at_right[x * colours + want] : at_left[x * colours + want];
                if (f == none) break;
                path.push_back(f);
                x = on_right ? left[f] : right[f];
                on_right = !on_right;
                std::swap(want, other);
            }
            for (const auto f : path) {
                at_left[left[f] * colours + colour[f]] = none;
                at_right[right[f] * colours + colour[f]] = none;
            }
            for (const auto f : path) {
                colour[f] = colour[f] == a ? b : a;
                at_left[left[f] * colours + colour[f]] = f;
                at_right[right[f] * colours + colour[f]] = f;
            }
        }
        colour[e] = a;
        at_left[u * colours + a] = e;
        at_right[v * colours + a] = e;
    }
    return colour;
}

}  // namespace detail

/// The setting of a three-stage network that routes input i to output perm[i]
/// (unconnected: input idle). `faulty_middle` lists middle switches not to use.
inline ClosNetwork::Setting route(const ClosNetwork& net, std::span<const std::uint32_t> perm,
                                  std::span<const std::uint32_t> faulty_middle = {}) {
    const std::size_t r = net.radix(), n = net.ports();
    detail::require(perm.size() == n, "a pattern for this network maps ", n, " inputs; got ", perm.size());
    std::vector<std::uint32_t> seen(n, unconnected), left, right, port_in, port_out;
    for (std::size_t i = 0; i < n; ++i) {
        if (perm[i] == unconnected) continue;
        detail::require(perm[i] < n, "input ", i, " is sent to output ", perm[i], ", which does not exist");
        detail::require(seen[perm[i]] == unconnected, "not a permutation: inputs ", seen[perm[i]], " and ", i,
                        " both go to output ", perm[i], "; use a multicast for one-to-many, or fix the pattern");
        seen[perm[i]] = static_cast<std::uint32_t>(i);
        left.push_back(static_cast<std::uint32_t>(i / r));
        right.push_back(perm[i] / static_cast<std::uint32_t>(r));
        port_in.push_back(static_cast<std::uint32_t>(i % r));
        port_out.push_back(perm[i] % static_cast<std::uint32_t>(r));
    }
    std::vector<std::uint32_t> allowed;
    for (std::uint32_t m = 0; m < r; ++m)
        if (std::find(faulty_middle.begin(), faulty_middle.end(), m) == faulty_middle.end()) allowed.push_back(m);
    const auto middle = detail::edge_colour(r, r, left, right, allowed, r);
    auto s = net.empty_setting();
    for (std::size_t e = 0; e < left.size(); ++e) {
        s.take[0][left[e] * r + middle[e]] = port_in[e];
        s.take[1][middle[e] * r + right[e]] = left[e];
        s.take[2][right[e] * r + port_out[e]] = middle[e];
    }
    return s;
}

/// Settings for up to 1024 patterns, chosen by a 10-bit switch-setting number.
template <class Setting>
class SettingsTable {
public:
    static constexpr std::size_t capacity = 1024;

    void store(std::uint32_t number, Setting s) {
        detail::require(number < capacity, "switch-setting numbers have 10 bits (0 to 1023); got ", number);
        if (!slots_[number]) ++stored_;
        slots_[number] = std::move(s);
    }
    [[nodiscard]] const Setting& select(std::uint32_t number) const {
        detail::require(number < capacity, "switch-setting numbers have 10 bits (0 to 1023); got ", number);
        detail::require(slots_[number].has_value(), "no switch setting is stored under number ", number);
        return *slots_[number];
    }
    [[nodiscard]] std::size_t stored() const { return stored_; }

private:
    std::vector<std::optional<Setting>> slots_ = std::vector<std::optional<Setting>>(capacity);
    std::size_t stored_ = 0;
};

}  // namespace fabric
