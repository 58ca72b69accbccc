// The links as the cycle kernel sees them: per channel (node * ports + port), the
// router and input port it leads to, the channel that feeds each input port, and
// its latency and serialisation in cycles, derived once from the topology and,
// when the configuration gives a cycle time, from each link class's latency and
// bandwidth; a latency given per class (LinkSettings::class_latency) replaces
// either. Slowing a link (fewer working lanes) grows its serialisation. What a
// flit's hop reads of its link sits in one record. A topology that models the
// links joining each node's terminals to its router (node_links(): the PERCS
// hub's W links) gives, under a cycle time, their serialisation per flit, in
// 1/1024 cycles since it need not be whole (2.5 cycles under percs_cycle_config).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/topology/views.hpp>

namespace fabric::cycle {

class Links {
public:
    static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

    template <class T>
    Links(const T& topo, const LinkSettings& cfg) : ports_(static_cast<std::uint32_t>(T::ports_per_node)) {
        const auto nodes = static_cast<std::uint32_t>(topo.node_count());
        const std::size_t channels = static_cast<std::size_t>(nodes) * ports_;
        wire_.assign(channels, Wire{none, 0, cfg.link_latency, 1});
        up_.assign(channels, Feeder{none, none});
        std::vector<std::uint32_t> class_latency(link_class_count_v<T>, cfg.link_latency);
        std::vector<std::uint32_t> class_serial(link_class_count_v<T>, 1);
        if (cfg.cycle_ns > 0) {
            for_each_link_class(topo, [&](std::size_t c, const auto& link) {
                const double lat = link.latency().count / cfg.cycle_ns;
                const double ser = static_cast<double>(cfg.flit_bytes) / (link.bandwidth().count * cfg.cycle_ns);
                detail::require(lat <= max_delay_cycles && ser <= max_delay_cycles, "with cycles of ", cfg.cycle_ns,
                                " ns a link of this fabric takes ", lat, " cycles of latency and ", ser,
                                " per flit; at most ", max_delay_cycles, " are allowed: use longer cycles");
                class_latency[c] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(lat - 1e-9)));
                class_serial[c] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(ser - 1e-9)));
            });
        }
        if (!cfg.class_latency.empty()) {
            detail::require(cfg.class_latency.size() == link_class_count_v<T>, "class_latency gives ",
                            cfg.class_latency.size(), " latencies; this topology has ", link_class_count_v<T>,
                            " link classes, one latency each (or none: link_latency for all)");
            class_latency.assign(cfg.class_latency.begin(), cfg.class_latency.end());
        }
        if constexpr (InjectionLimitedTopology<T>) {
            const NodeLinks node = topo.node_links();
            if (cfg.cycle_ns > 0 && node.modelled()) {
                // Each terminal of a node has its share of the node's links.
                double terminals = 1;
                if constexpr (ConcentratedTopology<T>) terminals = static_cast<double>(topo.terminals_per_node());
                const double share = node.bandwidth.count / terminals;
                const double ser = static_cast<double>(cfg.flit_bytes) / (share * cfg.cycle_ns);
                detail::require(ser <= max_delay_cycles, "with cycles of ", cfg.cycle_ns, " ns a flit takes ", ser,
                                " cycles on the ", node.name, " links of a node; at most ", max_delay_cycles,
                                " are allowed: use longer cycles");
                terminal_serial_ = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::llround(ser * 1024)));
            }
        }
        // Plain loops (for_each_channel), not the range-v3 view channels(t): the same
        // channels in the same order, without instantiating its iterators per topology.
        views::for_each_channel(topo, [&](const Channel& link) {
            const std::size_t c = link.index;
            const std::uint32_t back = topo.reverse_port(link.node, link.port).value;
            wire_[c] = Wire{link.to.value, back, class_latency[link.link_class], class_serial[link.link_class]};
            up_[channel(link.to.value, back)] = Feeder{static_cast<std::uint32_t>(c), link.node.value};
        });
    }

    [[nodiscard]] std::size_t channel(std::uint32_t node, std::uint32_t port) const {
        return static_cast<std::size_t>(node) * ports_ + port;
    }
    [[nodiscard]] std::size_t channels() const { return wire_.size(); }
    [[nodiscard]] bool connected(std::size_t c) const { return wire_[c].down != none; }
    /// The router a channel leads to, and its input port there.
    [[nodiscard]] std::uint32_t down(std::size_t c) const { return wire_[c].down; }
    [[nodiscard]] std::uint32_t down_port(std::size_t c) const { return wire_[c].down_port; }
    /// The channel in the other direction of the same link.
    [[nodiscard]] std::size_t reverse(std::size_t c) const { return channel(wire_[c].down, wire_[c].down_port); }
    /// The channel feeding input port `port` of router `node` (none for an unused port).
    [[nodiscard]] std::uint32_t up(std::size_t c) const { return up_[c].channel; }
    /// The router of that feeding channel.
    [[nodiscard]] std::uint32_t up_node(std::size_t c) const { return up_[c].node; }
    [[nodiscard]] std::uint32_t latency(std::size_t c) const { return wire_[c].latency; }
    [[nodiscard]] std::uint32_t serialisation(std::size_t c) const { return wire_[c].serial; }
    /// A flit's serialisation on the links joining a terminal to its router, both
    /// ways, in 1/1024 cycles (rounded); 0 when the topology does not model them
    /// (or no cycle time is given): then a terminal injects and ejects a flit a cycle.
    [[nodiscard]] std::uint32_t terminal_serialisation() const { return terminal_serial_; }
    [[nodiscard]] std::uint32_t max_latency() const {
        std::uint32_t m = 1;
        for (const Wire& w : wire_)
            if (w.down != none) m = std::max(m, w.latency);
        return m;
    }
    [[nodiscard]] std::uint32_t max_serialisation() const {
        std::uint32_t m = 1;
        for (const Wire& w : wire_) m = std::max(m, w.serial);
        return m;
    }

    /// The link of channel c runs at 1/factor of its bandwidth, both directions.
    void slow(std::size_t c, double factor) {
        detail::require(factor >= 1 && std::isfinite(factor),
                        "a link can only be slowed by a finite factor of at least 1; got ", factor);
        for (const std::size_t x : {c, reverse(c)}) {
            const double cycles = std::ceil(static_cast<double>(wire_[x].serial) * factor - 1e-9);
            detail::require(cycles <= max_delay_cycles, "slowed by ", factor, ", a flit would take ", cycles,
                            " cycles on the link; at most ", max_delay_cycles, " are allowed");
            wire_[x].serial = static_cast<std::uint32_t>(cycles);
        }
    }

private:
    struct Wire {
        std::uint32_t down, down_port, latency, serial;
    };
    std::uint32_t ports_;
    std::uint32_t terminal_serial_ = 0;  // 1/1024 cycles a flit on a terminal's own link; 0: not modelled
    std::vector<Wire> wire_;
    struct Feeder {
        std::uint32_t channel, node;  // the channel feeding an input port, and its router
    };
    std::vector<Feeder> up_;
};

}  // namespace fabric::cycle
