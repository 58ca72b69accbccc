// The sizes every part of a cycle-kernel run is laid out by, as run-time numbers:
// routers, their network ports (P), terminal ports (injection and ejection, one
// per terminal a router may have), virtual channels per port (V), and the
// terminals. One kernel instantiation serves any of them, so a topology's port
// count or a link type's VC count does not make a kernel of its own.
//
// Indices, used alike by every part:
//   channel c = router * P + port          (port < P: a link's sending end)
//   sender    = c * V + vc                 (flow control's state per link VC)
//   local     = port * V + vc              (an input VC within its router; ports
//                                           P .. P + terminal_ports - 1 inject)
//   input VC  = router * per_router + local
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include <fabric/core/error.hpp>

namespace fabric::cycle {

inline constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

/// The most virtual channels per port the kernel lays out (a VC's number travels in 8 bits).
inline constexpr std::uint32_t max_vcs = 64;

struct Shape {
    std::uint32_t routers = 0;
    std::uint32_t ports = 0;           // P: network ports per router
    std::uint32_t terminal_ports = 1;  // ports P .. P + terminal_ports - 1: terminals' injection and ejection
    std::uint32_t vcs = 1;             // V
    std::uint32_t per_node = 1;        // terminals on each router in this run (at most terminal_ports)
    std::uint32_t terminals = 0;       // routers * per_node, from router 0

    /// Ports per router, terminals' included.
    [[nodiscard]] constexpr std::uint32_t all_ports() const { return ports + terminal_ports; }
    /// Input VCs per router.
    [[nodiscard]] constexpr std::uint32_t per_router() const { return all_ports() * vcs; }
    /// 64-bit words of a mask with one bit per input VC of a router.
    [[nodiscard]] constexpr std::uint32_t mask_words() const { return (per_router() + 63) / 64; }
    [[nodiscard]] constexpr std::size_t channels() const { return std::size_t{routers} * ports; }
    [[nodiscard]] constexpr std::size_t input_vcs() const { return std::size_t{routers} * per_router(); }

    [[nodiscard]] constexpr std::size_t channel(std::uint32_t router, std::uint32_t port) const {
        return std::size_t{router} * ports + port;
    }
    [[nodiscard]] constexpr std::size_t input_vc(std::uint32_t router, std::uint32_t local) const {
        return std::size_t{router} * per_router() + local;
    }
    /// Terminal t's router, the port it injects and ejects on, and the terminal at `port` of router n.
    [[nodiscard]] constexpr std::uint32_t router_of(std::uint32_t t) const { return per_node == 1 ? t : t / per_node; }
    [[nodiscard]] constexpr std::uint32_t port_of_terminal(std::uint32_t t) const {
        return per_node == 1 ? ports : ports + t % per_node;
    }
    [[nodiscard]] constexpr std::uint32_t terminal_at(std::uint32_t n, std::uint32_t port) const {
        return n * per_node + (port - ports);
    }

    void validate() const {
        detail::require(vcs >= 1 && vcs <= max_vcs, "the cycle kernel lays out 1 to ", max_vcs,
                        " virtual channels per port; this fabric's links have ", vcs);
        detail::require(std::uint64_t{all_ports()} * vcs < (std::uint64_t{1} << 16), "the cycle kernel numbers a "
                        "router's input VCs in 16 bits: ", all_ports(), " ports of ", vcs, " VCs are too many");
    }
};

}  // namespace fabric::cycle
