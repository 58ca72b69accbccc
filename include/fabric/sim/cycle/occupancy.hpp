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
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

class PortOccupancy {
public:
    /// Tracks routers of `shape` (off until called: a run without adaptive routing keeps nothing).
    void reset(const Shape& shape) {
        ports_ = shape.ports;
        all_ports_ = shape.all_ports();
        vcs_ = shape.vcs;
        backlog_.assign(std::size_t{shape.routers} * all_ports_, 0);
        on_ = !backlog_.empty();
    }
    void off() {
        backlog_.clear();
        on_ = false;
    }
    [[nodiscard]] bool on() const { return on_; }  // asked at every flit moved: a flag, not the vector's size
    /// A packet of `flits` was routed to output `port` of router n.
    void routed(std::uint32_t n, std::uint32_t port, std::uint32_t flits) { backlog_[index(n, port)] += flits; }
    /// One flit left router n through `port`.
    void sent(std::uint32_t n, std::uint32_t port) { --backlog_[index(n, port)]; }

    /// The view of every router; `sender` holds the flow control's state per (channel * V + vc).
    template <class F>
    struct Network {
        const PortOccupancy* self;
        const F* flow;
        const typename F::sender_vc* sender;
        [[nodiscard]] std::uint32_t occupancy(NodeId n, PortId p) const {
            std::uint32_t flits = self->backlog_[self->index(n.value, p.value)];
            if (p.value < self->ports_) {
                const std::size_t first = (std::size_t{n.value} * self->ports_ + p.value) * self->vcs_;
                for (std::uint32_t v = 0; v < self->vcs_; ++v) flits += flow->occupied(sender[first + v]);
            }
            return flits;
        }
    };
    /// The view of router `here` alone.
    template <class F>
    struct Router {
        Network<F> network;
        NodeId here;
        [[nodiscard]] std::uint32_t occupancy(PortId p) const { return network.occupancy(here, p); }
    };

    template <class F>
    [[nodiscard]] Network<F> network(const F& flow, const std::vector<typename F::sender_vc>& sender) const {
        return Network<F>{this, &flow, sender.data()};
    }
    template <class F>
    [[nodiscard]] Router<F> router(const F& flow, const std::vector<typename F::sender_vc>& sender,
                                   std::uint32_t n) const {
        return Router<F>{network(flow, sender), NodeId{n}};
    }

private:
    [[nodiscard]] std::size_t index(std::uint32_t n, std::uint32_t port) const {
        return std::size_t{n} * all_ports_ + port;
    }
    std::uint32_t ports_ = 0, all_ports_ = 1, vcs_ = 1;
    std::vector<std::uint32_t> backlog_;
    bool on_ = false;
};

}  // namespace fabric::cycle
