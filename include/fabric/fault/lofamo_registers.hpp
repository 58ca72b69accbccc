// The LO|FA|MO registers of the EURETILE 2012 report, vol. II, as types with
// encode and decode: the DNP Watchdog Register (Table 3), the Host Watchdog
// Register (Table 4) and the LiFaMa Diagnostic Message carried in the spare bits
// of link Credits (Table 6). Two-bit status fields read 00 normal, 01 sick (or
// warning), 10 broken (or alarm); 11 is not defined and is refused on decode.
#pragma once

#include <array>
#include <cstdint>

#include <fabric/core/error.hpp>

namespace fabric::lofamo {

enum class Status : std::uint8_t { normal = 0, sick = 1, broken = 2 };
/// Sensor fields call the same codes warning and alarm (named sensor_* so that
/// `using namespace fabric::lofamo` does not hide POSIX alarm()).
inline constexpr Status sensor_warning = Status::sick;
inline constexpr Status sensor_alarm = Status::broken;

/// The six torus directions in the registers' order of Tables 3 and 6 (low bits first).
enum class Direction : std::uint8_t { z_minus = 0, z_plus = 1, y_minus = 2, y_plus = 3, x_minus = 4, x_plus = 5 };
inline constexpr std::size_t directions = 6;

namespace detail {
constexpr std::uint32_t field(std::uint32_t word, unsigned low, unsigned bits) {
    return (word >> low) & ((1U << bits) - 1U);
}
constexpr std::uint32_t put(std::uint32_t value, unsigned low, unsigned bits) {
    return (value & ((1U << bits) - 1U)) << low;
}
inline Status status(std::uint32_t word, unsigned low, const char* name) {
    const std::uint32_t v = field(word, low, 2);
    fabric::detail::require(v <= 2, "LO|FA|MO field ", name, " at bits ", low + 1, "-", low, " holds 11, which no "
                            "status means (00 normal, 01 sick or warning, 10 broken or alarm)");
    return static_cast<Status>(v);
}

// The DNP health fields (core, current, voltage, temperature, six links) appear
// in both the DNP Watchdog Register and the LiFaMa message, at the bit
// positions each type names (core_low ... links_low).
template <class R>
constexpr std::uint32_t put_dnp_health(const R& r) {
    std::uint32_t w = put(static_cast<std::uint32_t>(r.core), R::core_low, 2) |
                      put(static_cast<std::uint32_t>(r.current), R::current_low, 2) |
                      put(static_cast<std::uint32_t>(r.voltage), R::voltage_low, 2) |
                      put(static_cast<std::uint32_t>(r.temperature), R::temperature_low, 2);
    for (std::size_t d = 0; d < directions; ++d)
        w |= put(static_cast<std::uint32_t>(r.link[d]), static_cast<unsigned>(R::links_low + 2 * d), 2);
    return w;
}
template <class R>
void get_dnp_health(std::uint32_t w, R& r) {
    r.core = status(w, R::core_low, "DNP core status");
    r.current = status(w, R::current_low, "current status");
    r.voltage = status(w, R::voltage_low, "voltage status");
    r.temperature = status(w, R::temperature_low, "temperature status");
    for (std::size_t d = 0; d < directions; ++d)
        r.link[d] = status(w, static_cast<unsigned>(R::links_low + 2 * d), "link status");
}
}  // namespace detail

/// DNP Watchdog Register (Table 3). Bit 0 valid; bits 1-6 neighbours' hosts
/// failing (Z-, Z+, Y-, Y+, X-, X+); 8-7 DNP core; 10-9 current; 12-11 voltage;
/// 14-13 temperature; 15-26 link status, two bits per direction from Z- to X+;
/// 30-27 spare; 31 LiFaMa busy.
struct DnpWatchdogRegister {
    bool valid = false;
    std::array<bool, directions> neighbour_failing{};  // indexed by Direction
    Status core = Status::normal;
    Status current = Status::normal;
    Status voltage = Status::normal;
    Status temperature = Status::normal;
    std::array<Status, directions> link{};  // indexed by Direction
    bool lifama_busy = false;

    static constexpr unsigned valid_bit = 0, neighbours_low = 1, core_low = 7, current_low = 9, voltage_low = 11,
                              temperature_low = 13, links_low = 15, lifama_bit = 31;

    [[nodiscard]] constexpr std::uint32_t encode() const {
        std::uint32_t w = detail::put(valid, valid_bit, 1);
        for (std::size_t d = 0; d < directions; ++d)
            w |= detail::put(neighbour_failing[d], static_cast<unsigned>(neighbours_low + d), 1);
        w |= detail::put_dnp_health(*this);
        w |= detail::put(lifama_busy, lifama_bit, 1);
        return w;
    }
    static DnpWatchdogRegister decode(std::uint32_t w) {
        DnpWatchdogRegister r;
        r.valid = detail::field(w, valid_bit, 1) != 0;
        for (std::size_t d = 0; d < directions; ++d)
            r.neighbour_failing[d] = detail::field(w, static_cast<unsigned>(neighbours_low + d), 1) != 0;
        detail::get_dnp_health(w, r);
        r.lifama_busy = detail::field(w, lifama_bit, 1) != 0;
        return r;
    }
    friend constexpr bool operator==(const DnpWatchdogRegister&, const DnpWatchdogRegister&) = default;
};

/// Host Watchdog Register (Table 4). Bit 0 valid; 2-1 service network; 4-3
/// memory; 6-5 peripherals; 30-7 spare; 31 send LiFaMa diagnostic message.
struct HostWatchdogRegister {
    bool valid = false;
    Status service_net = Status::normal;
    Status memory = Status::normal;
    Status peripheral = Status::normal;
    bool send_ldm = false;

    static constexpr unsigned valid_bit = 0, service_low = 1, memory_low = 3, peripheral_low = 5, send_ldm_bit = 31;

    [[nodiscard]] constexpr std::uint32_t encode() const {
        return detail::put(valid, valid_bit, 1) | detail::put(static_cast<std::uint32_t>(service_net), service_low, 2) |
               detail::put(static_cast<std::uint32_t>(memory), memory_low, 2) |
               detail::put(static_cast<std::uint32_t>(peripheral), peripheral_low, 2) |
               detail::put(send_ldm, send_ldm_bit, 1);
    }
    static HostWatchdogRegister decode(std::uint32_t w) {
        HostWatchdogRegister r;
        r.valid = detail::field(w, valid_bit, 1) != 0;
        r.service_net = detail::status(w, service_low, "service network status");
        r.memory = detail::status(w, memory_low, "memory status");
        r.peripheral = detail::status(w, peripheral_low, "peripheral status");
        r.send_ldm = detail::field(w, send_ldm_bit, 1) != 0;
        return r;
    }
    friend constexpr bool operator==(const HostWatchdogRegister&, const HostWatchdogRegister&) = default;
};

/// LiFaMa Diagnostic Message (Table 6): 1-0 service network; 3-2 memory; 5-4
/// peripherals; 7-6 DNP core; 9-8 current; 11-10 voltage; 13-12 temperature;
/// 14-25 link status, two bits per direction from Z- to X+; 30-26 spare; 31 valid.
struct LifamaMessage {
    Status service_net = Status::normal;
    Status memory = Status::normal;
    Status peripheral = Status::normal;
    Status core = Status::normal;
    Status current = Status::normal;
    Status voltage = Status::normal;
    Status temperature = Status::normal;
    std::array<Status, directions> link{};
    bool valid = false;

    static constexpr unsigned service_low = 0, memory_low = 2, peripheral_low = 4, core_low = 6, current_low = 8,
                              voltage_low = 10, temperature_low = 12, links_low = 14, valid_bit = 31;

    [[nodiscard]] constexpr std::uint32_t encode() const {
        std::uint32_t w = detail::put(static_cast<std::uint32_t>(service_net), service_low, 2) |
                          detail::put(static_cast<std::uint32_t>(memory), memory_low, 2) |
                          detail::put(static_cast<std::uint32_t>(peripheral), peripheral_low, 2) |
                          detail::put_dnp_health(*this);
        return w | detail::put(valid, valid_bit, 1);
    }
    static LifamaMessage decode(std::uint32_t w) {
        LifamaMessage m;
        m.service_net = detail::status(w, service_low, "service network status");
        m.memory = detail::status(w, memory_low, "memory status");
        m.peripheral = detail::status(w, peripheral_low, "peripheral status");
        detail::get_dnp_health(w, m);
        m.valid = detail::field(w, valid_bit, 1) != 0;
        return m;
    }
    /// True when the message reports anything other than normal.
    [[nodiscard]] constexpr bool reports_fault() const {
        bool any = service_net != Status::normal || memory != Status::normal || peripheral != Status::normal ||
                   core != Status::normal || current != Status::normal || voltage != Status::normal ||
                   temperature != Status::normal;
        for (const auto l : link) any = any || l != Status::normal;
        return any;
    }
    friend constexpr bool operator==(const LifamaMessage&, const LifamaMessage&) = default;
};

}  // namespace fabric::lofamo
