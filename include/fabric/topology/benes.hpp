// Rearrangeable permutation networks (Kumar, "Unique design concepts in GF11").
//
//  - BenesNetwork: the recursive Benes network of 2x2 switches for N = 2^n ports:
//    an input column of N/2 switches, two Benes networks of N/2 ports (upper and
//    lower), an output column of N/2 switches; 2n - 1 columns (stages) of N/2
//    switches. Input switch k takes ports 2k and 2k+1 and feeds port k of the upper
//    half from its output 0 and port k of the lower half from its output 1; output
//    switch k takes port k of the upper half on its input 0 and of the lower half
//    on its input 1.
//  - ClosNetwork: the three-stage rearrangeable network of r x r crossbars, r per
//    stage, N = r^2 ports (GF11: r = 24, 576 ports, 72 crossbars). Input switch a
//    serves ports a r .. a r + r - 1; its output m goes to middle switch m (input
//    a); middle switch m's output b goes to output switch b (input m).
//
// Every switch can multicast: each of its outputs takes one of its inputs, so an
// input may feed several outputs and no output is fed twice. A switch setting is
// therefore, for every switch, the input each output takes. `carry` pushes the
// values at the network's inputs through a setting and returns what reaches each
// output, independently of how the setting was computed: tests check routes with it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric {

/// Marks an output fed by nothing.
inline constexpr std::uint32_t unconnected = std::numeric_limits<std::uint32_t>::max();

class BenesNetwork {
public:
    constexpr explicit BenesNetwork(std::size_t ports) : n_(ports) {
        detail::require(ports >= 2 && std::has_single_bit(ports), "a recursive Benes network has N = 2^n ports, N >= 2; "
                        "got ", ports);
        log_ = static_cast<std::size_t>(std::countr_zero(ports));
    }
    [[nodiscard]] constexpr std::size_t ports() const { return n_; }
    [[nodiscard]] constexpr std::size_t stages() const { return 2 * log_ - 1; }
    [[nodiscard]] constexpr std::size_t switches_per_stage() const { return n_ / 2; }
    [[nodiscard]] constexpr std::size_t switches() const { return stages() * switches_per_stage(); }

    /// A setting: for every switch (stage-major, in the recursive layout below) and
    /// each of its two outputs, which input (0 or 1) feeds it. Straight is {0, 1},
    /// cross {1, 0}; {0, 0} or {1, 1} broadcast one input to both outputs.
    struct Setting {
        std::vector<std::uint8_t> out0, out1;  // per switch
    };

    /// Index of the switch at (stage, row) where rows are numbered through the
    /// recursion: stage s < n - 1 belongs to depth s (input columns), stage 2n-2-s
    /// to depth s (output columns), stage n - 1 is the middle column of 2x2 networks.
    [[nodiscard]] constexpr std::size_t index(std::size_t stage, std::size_t row) const { return stage * (n_ / 2) + row; }

    /// Pushes `in` through `s`; an output fed by nothing holds `unconnected`.
    [[nodiscard]] constexpr std::vector<std::uint32_t> carry(const Setting& s, std::vector<std::uint32_t> in) const {
        detail::require(in.size() == n_, "the network has ", n_, " inputs; got ", in.size(), " values");
        detail::require(s.out0.size() == switches() && s.out1.size() == switches(),
                        "a setting of this network has ", switches(), " switches");
        carry_rec(s, in, 0, 0, n_);
        return in;
    }

private:
    // Sub-network at depth d, covering rows [row0, row0 + size/2) of its columns.
    constexpr void carry_rec(const Setting& s, std::vector<std::uint32_t>& v, std::size_t d, std::size_t row0,
                   std::size_t size) const {
        const std::size_t half = size / 2;
        if (size == 2) {
            const std::size_t k = index(log_ - 1, row0);
            const std::uint32_t a = v[0], b = v[1];
            v[0] = s.out0[k] ? b : a;
            v[1] = s.out1[k] ? b : a;
            return;
        }
        // Input column: switch j takes v[2j], v[2j+1]; output 0 to the upper half, 1 to the lower.
        std::vector<std::uint32_t> upper(half, 0), lower(half, 0);
        for (std::size_t j = 0; j < half; ++j) {
            const std::size_t k = index(d, row0 + j);
            const std::uint32_t a = v[2 * j], b = v[2 * j + 1];
            upper[j] = s.out0[k] ? b : a;
            lower[j] = s.out1[k] ? b : a;
        }
        carry_rec(s, upper, d + 1, row0, half);
        carry_rec(s, lower, d + 1, row0 + half / 2, half);
        // Output column: switch j takes upper[j] on input 0 and lower[j] on input 1.
        for (std::size_t j = 0; j < half; ++j) {
            const std::size_t k = index(stages() - 1 - d, row0 + j);
            v[2 * j] = s.out0[k] ? lower[j] : upper[j];
            v[2 * j + 1] = s.out1[k] ? lower[j] : upper[j];
        }
    }

    std::size_t n_;
    std::size_t log_ = 1;
};

class ClosNetwork {
public:
    constexpr explicit ClosNetwork(std::size_t radix) : r_(radix) {
        detail::require(radix >= 2 && radix <= 4096, "a three-stage Clos network needs r x r crossbars with r in "
                        "[2, 4096]; got ", radix);
    }
    [[nodiscard]] constexpr std::size_t radix() const { return r_; }
    [[nodiscard]] constexpr std::size_t ports() const { return r_ * r_; }
    [[nodiscard]] constexpr std::size_t stages() const { return 3; }
    [[nodiscard]] constexpr std::size_t switches_per_stage() const { return r_; }
    [[nodiscard]] constexpr std::size_t switches() const { return 3 * r_; }

    /// A setting: for each stage, switch and output, the input that feeds it
    /// (`unconnected` for none). Indexed [stage][switch * r + output].
    struct Setting {
        std::vector<std::uint32_t> take[3];
    };
    [[nodiscard]] constexpr Setting empty_setting() const {
        Setting s;
        for (auto& t : s.take) t.assign(r_ * r_, unconnected);
        return s;
    }

    [[nodiscard]] constexpr std::vector<std::uint32_t> carry(const Setting& s, const std::vector<std::uint32_t>& in) const {
        detail::require(in.size() == ports(), "the network has ", ports(), " inputs; got ", in.size(), " values");
        std::vector<std::uint32_t> a(ports(), unconnected), b(ports(), unconnected), out(ports(), unconnected);
        // Stage 1: input switch x, output m -> middle switch m, input x.
        for (std::size_t x = 0; x < r_; ++x)
            for (std::size_t m = 0; m < r_; ++m)
                if (const auto from = s.take[0][x * r_ + m]; from != unconnected) a[m * r_ + x] = in[x * r_ + from];
        // Stage 2: middle switch m, output y -> output switch y, input m.
        for (std::size_t m = 0; m < r_; ++m)
            for (std::size_t y = 0; y < r_; ++y)
                if (const auto from = s.take[1][m * r_ + y]; from != unconnected) b[y * r_ + m] = a[m * r_ + from];
        // Stage 3: output switch y, output q -> network output y r + q.
        for (std::size_t y = 0; y < r_; ++y)
            for (std::size_t q = 0; q < r_; ++q)
                if (const auto from = s.take[2][y * r_ + q]; from != unconnected) out[y * r_ + q] = b[y * r_ + from];
        return out;
    }

private:
    std::size_t r_;
};

}  // namespace fabric
