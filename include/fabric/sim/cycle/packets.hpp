// The packets of a cycle-kernel run: their records (a pool indexed by slot) and,
// while a packet is in the network, its route (a RouteStore slot). A packet whose
// last flit has left is retired: its slots are freed at the end of the cycle, once
// the cycle's losses have settled (a copy cut this cycle may still have virtual
// channels to release, losses.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>

namespace fabric::cycle {

class PacketTable {
public:
    void reset(std::uint32_t max_hops) {
        pool_.clear();
        routes_.reset(max_hops);
        retiring_.clear();
    }

    /// A fresh record's slot.
    std::uint32_t take() {
        const std::uint32_t id = pool_.take();
        pool_[id] = Packet{};
        return id;
    }
    /// A slot for a record the caller fills whole (a copy from another rank).
    std::uint32_t take_raw() { return pool_.take(); }
    [[nodiscard]] Packet& operator[](std::uint32_t id) { return pool_[id]; }
    [[nodiscard]] const Packet& operator[](std::uint32_t id) const { return pool_[id]; }
    [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(pool_.size()); }

    [[nodiscard]] RouteStore& routes() { return routes_; }
    [[nodiscard]] const RouteStore& routes() const { return routes_; }
    /// The step of packet `id`'s route at hop `hop`.
    [[gnu::always_inline]] [[nodiscard]] const RouteStep& step(std::uint32_t id, std::uint32_t hop) const {
        return routes_.step(pool_[id].route_slot, hop);
    }

    /// Calls f(record) for every packet (copy) held here: not yet retired and freed.
    template <class F>
    void for_each_held(F&& f) const {
        for (std::uint32_t id = 0; id < pool_.size(); ++id)
            if (pool_[id].number != Losses::unnumbered) f(pool_[id]);
    }

    /// This copy of packet `id` has seen its last flit leave.
    void retire(std::uint32_t id) { retiring_.push_back(id); }
    /// At the end of the cycle: the retired packets' slots are free again.
    void free_retired() {
        for (const std::uint32_t id : retiring_) {
            routes_.release(pool_[id].route_slot);
            pool_[id].number = Losses::unnumbered;
            pool_.release(id);
        }
        retiring_.clear();
    }

private:
    SlotPool<Packet> pool_;
    RouteStore routes_;
    Bucket<std::uint32_t> retiring_;  // a push without a reallocation's code at every delivery
};

}  // namespace fabric::cycle
