// A group of translations of a mixed-radix numbering: the way a topology states
// its symmetry to the flow kernel (concepts/symmetry.hpp).
//
// Ids (of nodes, or of tasks) are read as digits, fastest first: id = sum of
// digit_i * stride_i, digit i in [0, extent_i), stride_0 = 1 and stride_{i+1} =
// stride_i * extent_i. Some digits are translated: the group adds to each of them
// modulo its extent (Z_e0 x Z_e1 x ... over those digits) and leaves the others
// alone. A torus's coordinates are all translated; a dragonfly's group number is
// and the router within the group is not (its routers are not alike); a fat
// tree's switch word is and its level is not.
//
// The group acts freely (only the identity fixes an id), so every id is one
// translation of exactly one representative, the id with its translated digits
// zero; the representatives are the orbits' first ids, numbered by their other
// (fixed) digits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace fabric {

struct TranslationDigit {
    std::size_t stride = 1;
    std::uint32_t extent = 1;
    bool translated = false;
};

class Translations {
public:
    /// Digits enough for a rank-8 torus with a slot digit, or a 16-level fat tree.
    static constexpr std::size_t max_digits = 24;

    constexpr Translations() = default;

    /// Appends a digit above the others (extent >= 1).
    constexpr Translations& then(std::uint32_t extent, bool translated) {
        if (count_ == max_digits)
            throw std::length_error("fabric: a Translations holds at most 24 digits; a topology needing more must "
                                    "number its nodes with fewer");
        digits_[count_++] = TranslationDigit{size_, extent, translated && extent > 1};
        size_ *= extent;
        return *this;
    }

    [[nodiscard]] constexpr std::size_t digits() const { return count_; }
    [[nodiscard]] constexpr const TranslationDigit& digit(std::size_t i) const { return digits_[i]; }
    /// Ids numbered: the product of the extents.
    [[nodiscard]] constexpr std::size_t size() const { return size_; }
    /// Elements of the group: the product of the translated extents.
    [[nodiscard]] constexpr std::size_t order() const {
        std::size_t n = 1;
        for (std::size_t i = 0; i < count_; ++i)
            if (digits_[i].translated) n *= digits_[i].extent;
        return n;
    }
    /// Orbits: the product of the fixed extents.
    [[nodiscard]] constexpr std::size_t orbits() const { return size_ / order(); }

    [[nodiscard]] constexpr std::uint32_t value(std::size_t id, std::size_t i) const {
        return static_cast<std::uint32_t>(id / digits_[i].stride % digits_[i].extent);
    }
    /// The first id of id's orbit: its translated digits zero.
    [[nodiscard]] constexpr std::size_t representative(std::size_t id) const {
        for (std::size_t i = 0; i < count_; ++i)
            if (digits_[i].translated) id -= value(id, i) * digits_[i].stride;
        return id;
    }
    /// The number of id's orbit, 0 .. orbits() - 1, read off its fixed digits.
    [[nodiscard]] constexpr std::size_t orbit(std::size_t id) const {
        std::size_t index = 0, scale = 1;
        for (std::size_t i = 0; i < count_; ++i)
            if (!digits_[i].translated) {
                index += value(id, i) * scale;
                scale *= digits_[i].extent;
            }
        return index;
    }
    /// The representative of orbit `index` (the inverse of orbit()).
    [[nodiscard]] constexpr std::size_t representative_of_orbit(std::size_t index) const {
        std::size_t id = 0;
        for (std::size_t i = 0; i < count_; ++i)
            if (!digits_[i].translated) {
                id += index % digits_[i].extent * digits_[i].stride;
                index /= digits_[i].extent;
            }
        return id;
    }
    /// id moved by `by` along digit i (modulo its extent).
    [[nodiscard]] constexpr std::size_t shift(std::size_t id, std::size_t i, std::uint32_t by) const {
        const std::uint32_t e = digits_[i].extent, v = value(id, i);
        return id - v * digits_[i].stride + (v + by % e) % e * digits_[i].stride;
    }
    /// id moved by the translation that takes `from` to its representative.
    [[nodiscard]] constexpr std::size_t relative(std::size_t id, std::size_t from) const {
        for (std::size_t i = 0; i < count_; ++i)
            if (digits_[i].translated) id = shift(id, i, digits_[i].extent - value(from, i));
        return id;
    }

    /// The same group on tasks when `per` tasks share every id (task t on id t / per):
    /// a fixed digit of extent `per` below the others.
    [[nodiscard]] constexpr Translations per_id(std::uint32_t per) const {
        Translations out;
        out.then(per, false);
        for (std::size_t i = 0; i < count_; ++i) out.then(digits_[i].extent, digits_[i].translated);
        return out;
    }
    /// The digits that number ids 0 .. count - 1, when those are a whole number of
    /// the lowest digits' values and every digit left out is fixed (a fat tree's
    /// terminals are on its leaves, the switches of level 0); `ok` false otherwise.
    [[nodiscard]] constexpr Translations below(std::size_t count, bool& ok) const {
        Translations out;
        std::size_t i = 0;
        for (; i < count_ && out.size_ * digits_[i].extent <= count; ++i) out.then(digits_[i].extent, digits_[i].translated);
        ok = out.size_ == count;
        for (; i < count_; ++i) ok = ok && !digits_[i].translated;
        return out;
    }

private:
    std::array<TranslationDigit, max_digits> digits_{};
    std::size_t count_ = 0;
    std::size_t size_ = 1;
};

}  // namespace fabric
