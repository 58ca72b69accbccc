// What adaptive routing reads in the cycle kernel: how full a router's output port
// is, as an output-queued router would have it. Per (router, port) the flits of
// the packets routed to that port and not yet sent (the backlog: a head adds its
// packet's size when it is routed, each flit sent takes one off), plus those sent
// that still hold the far end's buffers (the flow control's occupied, over all
// VCs). network() answers for any router (SourceAdaptive policies; UGAL-G reads
// routers it is not at); router(n) only for router n (HopAdaptive policies).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/ids.hpp>

namespace fabric::cycle {

/// Backlog per (router, port) of a router with NP ports, the first P of them
/// network ports with V virtual channels each; F is the flow control.
template <class F, std::uint32_t P, std::uint32_t NP, std::uint32_t V>
class PortOccupancy {
public:
    using Sender = typename F::sender_vc;

    void reset(std::uint32_t routers) { backlog_.assign(static_cast<std::size_t>(routers) * NP, 0); }
    /// A packet of `flits` was routed to output `port` of router n.
    void routed(std::uint32_t n, std::uint32_t port, std::uint32_t flits) { backlog_[index(n, port)] += flits; }
    /// One flit left router n through `port`.
    void sent(std::uint32_t n, std::uint32_t port) { --backlog_[index(n, port)]; }

    /// The view of every router; `sender` holds the flow control's state per (channel * V + vc).
    struct Network {
        const PortOccupancy* self;
        const F* flow;
        const Sender* sender;
        [[nodiscard]] std::uint32_t occupancy(NodeId n, PortId p) const {
            std::uint32_t flits = self->backlog_[index(n.value, p.value)];
            if (p.value < P) {
                const std::size_t first = (static_cast<std::size_t>(n.value) * P + p.value) * V;
                for (std::uint32_t v = 0; v < V; ++v) flits += flow->occupied(sender[first + v]);
            }
            return flits;
        }
    };
    /// The view of router `here` alone.
    struct Router {
        Network network;
        NodeId here;
        [[nodiscard]] std::uint32_t occupancy(PortId p) const { return network.occupancy(here, p); }
    };

    [[nodiscard]] Network network(const F& flow, const std::vector<Sender>& sender) const {
        return Network{this, &flow, sender.data()};
    }
    [[nodiscard]] Router router(const F& flow, const std::vector<Sender>& sender, std::uint32_t n) const {
        return Router{network(flow, sender), NodeId{n}};
    }

private:
    static std::size_t index(std::uint32_t n, std::uint32_t port) { return static_cast<std::size_t>(n) * NP + port; }
    std::vector<std::uint32_t> backlog_;
};

}  // namespace fabric::cycle
