// The rest of the DNP Fault Manager's registers in the EURETILE 2012 report, vol.
// II: the Remote Fault Descriptor Registers of Table 5, one per torus direction,
// each holding the last LiFaMa Diagnostic Message (Table 6) heard from the
// neighbour that way; where Table 2 puts every LO|FA|MO register in BAR5; and the
// range of the R/W TIMER (section 2.2: "from 1ms up to 65s").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <fabric/core/error.hpp>
#include <fabric/fault/lofamo_registers.hpp>

namespace fabric::lofamo {

/// The LO|FA|MO registers of Table 2, with their number in BAR5. The table's
/// addresses are 0x400 + 4 x the number (register_address).
enum class Register : std::uint8_t {
    remote_x_plus = 19, remote_x_minus = 20, remote_y_plus = 21, remote_y_minus = 22, remote_z_plus = 23,
    remote_z_minus = 24, timer = 25, mask = 26, thresholds = 27, dnp_watchdog = 29, host_watchdog = 30
};
/// The BAR5 address of a register: 0x400 + 4 x its number (Table 2's column).
constexpr std::uint32_t register_address(Register r) { return 0x400U + 4U * static_cast<std::uint32_t>(r); }

/// The Remote Fault Descriptor Register that holds the neighbour in direction `d`.
constexpr Register remote_fault_register(Direction d) {
    switch (d) {
        case Direction::x_plus: return Register::remote_x_plus;
        case Direction::x_minus: return Register::remote_x_minus;
        case Direction::y_plus: return Register::remote_y_plus;
        case Direction::y_minus: return Register::remote_y_minus;
        case Direction::z_plus: return Register::remote_z_plus;
        case Direction::z_minus: break;
    }
    return Register::remote_z_minus;
}

/// Remote Fault Descriptor Registers (Table 5): six 32-bit words, X+ X- Y+ Y-
/// Z+ Z-, each "Neighbour Node Status" as a LiFaMa Diagnostic Message (Table 6).
/// The DFM "collects RX LiFaMa messages containing the remote nodes status and
/// it updates the Remote Fault Descriptor Register" (section 2.2): a message
/// heard from direction d replaces the word of d. A word of 0 (valid bit clear):
/// nothing heard from that neighbour.
struct RemoteFaultDescriptor {
    std::array<std::uint32_t, directions> word{};  // indexed by Direction

    /// The DFM files message `m`, heard over the link of direction `from`.
    constexpr void file(Direction from, const LifamaMessage& m) { word[static_cast<std::size_t>(from)] = m.encode(); }
    /// The word as it was received (the message's own encoding, valid bit included).
    constexpr void file(Direction from, std::uint32_t encoded) { word[static_cast<std::size_t>(from)] = encoded; }
    [[nodiscard]] constexpr std::uint32_t read(Direction from) const { return word[static_cast<std::size_t>(from)]; }
    [[nodiscard]] LifamaMessage message(Direction from) const { return LifamaMessage::decode(read(from)); }
    /// Whether anything was heard from direction `from` (the message's valid bit).
    [[nodiscard]] constexpr bool heard(Direction from) const { return (read(from) >> LifamaMessage::valid_bit) != 0; }
    /// The six words in Table 5's order: X+, X-, Y+, Y-, Z+, Z-.
    [[nodiscard]] constexpr std::array<std::uint32_t, directions> table_order() const {
        return {read(Direction::x_plus), read(Direction::x_minus), read(Direction::y_plus),
                read(Direction::y_minus), read(Direction::z_plus), read(Direction::z_minus)};
    }
    friend constexpr bool operator==(const RemoteFaultDescriptor&, const RemoteFaultDescriptor&) = default;
};

/// The DNP's R/W TIMER (section 2.2): the period of the DWR writes and of the
/// HWR reads "from 1ms up to 65s", in microseconds as the event model counts.
inline constexpr double rw_timer_min_us = 1e3;
inline constexpr double rw_timer_max_us = 65e6;

/// Refuses a DNP-side period outside the R/W TIMER's range.
inline void require_rw_timer(const char* what, double period_us) {
    fabric::detail::require(period_us >= rw_timer_min_us && period_us <= rw_timer_max_us, "LO|FA|MO: the DNP's R/W "
                            "timer takes periods from 1 ms to 65 s (EURETILE report, section 2.2); ", what, " is ",
                            period_us, " us");
}

}  // namespace fabric::lofamo
