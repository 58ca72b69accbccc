// Strong units: bytes, cycles, time and bandwidth. Only the conversions that
// mean something are defined (bytes / bandwidth = time, bandwidth * time = bytes).
#pragma once

#include <compare>
#include <cstdint>

namespace fabric {

namespace detail {
template <class Derived, class Rep>
struct quantity {
    Rep count{};
    constexpr quantity() = default;
    constexpr explicit quantity(Rep v) : count(v) {}
    friend constexpr Derived operator+(Derived a, Derived b) { return Derived{a.count + b.count}; }
    friend constexpr Derived operator-(Derived a, Derived b) { return Derived{a.count - b.count}; }
    friend constexpr Derived operator*(Derived a, Rep s) { return Derived{a.count * s}; }
    friend constexpr Derived operator*(Rep s, Derived a) { return Derived{a.count * s}; }
    friend constexpr Derived operator/(Derived a, Rep s) { return Derived{a.count / s}; }
    friend constexpr Rep operator/(Derived a, Derived b) { return a.count / b.count; }
    constexpr Derived& operator+=(Derived b) { count += b.count; return static_cast<Derived&>(*this); }
    friend constexpr auto operator<=>(const quantity&, const quantity&) = default;
};
}  // namespace detail

/// A number of bytes.
struct Bytes : detail::quantity<Bytes, std::uint64_t> { using quantity::quantity; };
/// A number of clock cycles of whichever clock the part runs on.
struct Cycles : detail::quantity<Cycles, std::int64_t> { using quantity::quantity; };
/// Time, in nanoseconds.
struct Nanoseconds : detail::quantity<Nanoseconds, double> { using quantity::quantity; };
/// Bandwidth, in gigabytes (1e9 bytes) per second per direction.
struct GBps : detail::quantity<GBps, double> {
    using quantity::quantity;
    [[nodiscard]] constexpr double megabytes_per_second() const { return count * 1e3; }
};
/// A clock frequency, in megahertz.
struct MHz : detail::quantity<MHz, double> {
    using quantity::quantity;
    [[nodiscard]] constexpr Nanoseconds period() const { return Nanoseconds{1e3 / count}; }
};

/// Time to move `b` bytes at bandwidth `bw` (1 GB/s moves one byte per nanosecond).
constexpr Nanoseconds operator/(Bytes b, GBps bw) { return Nanoseconds{static_cast<double>(b.count) / bw.count}; }
/// Bytes moved at `bw` in time `t`.
constexpr double operator*(GBps bw, Nanoseconds t) { return bw.count * t.count; }
/// Duration of `c` cycles of clock `f`.
constexpr Nanoseconds operator*(Cycles c, MHz f) { return Nanoseconds{static_cast<double>(c.count) * 1e3 / f.count}; }

inline namespace literals {
constexpr Bytes operator""_B(unsigned long long v) { return Bytes{v}; }
constexpr Cycles operator""_cyc(unsigned long long v) { return Cycles{static_cast<std::int64_t>(v)}; }
constexpr Nanoseconds operator""_ns(long double v) { return Nanoseconds{static_cast<double>(v)}; }
constexpr Nanoseconds operator""_ns(unsigned long long v) { return Nanoseconds{static_cast<double>(v)}; }
constexpr GBps operator""_GBps(long double v) { return GBps{static_cast<double>(v)}; }
constexpr GBps operator""_GBps(unsigned long long v) { return GBps{static_cast<double>(v)}; }
constexpr MHz operator""_MHz(unsigned long long v) { return MHz{static_cast<double>(v)}; }
}  // namespace literals

}  // namespace fabric
