// A small, fully specified random source. The standard distributions are not
// specified bit for bit across standard libraries, so seeded results that tests
// and papers compare against are drawn from here instead.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace fabric {

/// xoshiro256** seeded through splitmix64: fast, and the same sequence everywhere.
class Random {
public:
    constexpr explicit Random(std::uint64_t seed = 0) {
        for (auto& s : state_) s = splitmix(seed);
    }

    constexpr std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    /// Uniform integer in [0, bound), without modulo bias (Lemire's method).
    constexpr std::uint64_t below(std::uint64_t bound) {
        if (bound <= 1) return 0;
        for (;;) {
            const unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
            const auto low = static_cast<std::uint64_t>(m);
            if (low >= bound || low >= (-bound) % bound) return static_cast<std::uint64_t>(m >> 64);
        }
    }

    /// Uniform double in [0, 1) with 53 random bits.
    constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// Bernoulli trial with probability p.
    constexpr bool chance(double p) { return uniform() < p; }

    /// Fisher-Yates shuffle.
    template <class T>
    constexpr void shuffle(std::span<T> items) {
        for (std::size_t i = items.size(); i > 1; --i) {
            const auto j = static_cast<std::size_t>(below(i));
            std::swap(items[i - 1], items[j]);
        }
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static constexpr std::uint64_t splitmix(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t state_[4]{};
};

}  // namespace fabric
