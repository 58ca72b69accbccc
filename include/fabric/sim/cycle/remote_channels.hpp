// The channel kind whose far end is on another rank (a partitioned run,
// partition.hpp): what would go onto this rank's event wheels is written to that
// rank's outbox instead (a flit with its arrival cycle; a head with its packet's
// record and route; flow-control feedback), and the outboxes change hands at the
// end of every cycle (exchange). Every rank hears of every lost flit (losses.hpp),
// so that losses settle alike everywhere. The receiving rank keeps a copy of a
// packet while its flits are here, found by the input VC it arrives at (a virtual
// channel carries one packet's flits at a time).
//
// This is the one place of the model that knows ranks: the code that builds a
// partitioned run gives it each router's rank; a run alone has none.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/lookahead.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/packets.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

class RemoteChannels {
public:
    /// Alone: every router is here.
    void alone() {
        rank_of_.clear();
        all_here_ = true;
        rank_ = 0;
        ranks_ = 1;
        plan_ = {};
    }
    /// Split: router n is stepped by rank `ranks_of[n]`; this is rank `rank`.
    void split(std::vector<std::uint32_t> ranks_of, std::uint32_t rank, std::uint32_t ranks) {
        rank_of_ = std::move(ranks_of);
        all_here_ = rank_of_.empty();
        rank_ = rank;
        ranks_ = ranks;
    }
    [[nodiscard]] bool active() const { return ranks_ > 1; }
    [[nodiscard]] bool here(std::uint32_t router) const { return all_here_ || rank_of_[router] == rank_; }
    [[nodiscard]] std::uint32_t rank_of(std::uint32_t router) const { return rank_of_.empty() ? 0 : rank_of_[router]; }
    [[nodiscard]] std::uint32_t ranks() const { return ranks_; }
    /// The latest cycle at which the last flit of a packet (a measured one) from another rank is due here.
    [[nodiscard]] std::uint64_t last_tail_due(bool measured) const { return last_tail_due_[measured ? 1 : 0]; }
    /// How long the windows between exchanges may be, and with which ranks (lookahead.hpp).
    void plan(Lookahead plan) { plan_ = std::move(plan); }
    [[nodiscard]] const Lookahead& lookahead() const { return plan_; }

    void reset(std::size_t input_vcs) {
        outbox_.assign(ranks_, {});
        inbox_.clear();
        last_tail_due_ = {0, 0};
        inbound_.assign(active() ? input_vcs : 0, none);
    }

    /// A flit for router a.node of another rank, arriving at `due`; a head carries
    /// its packet's record and route.
    void post_arrival(std::uint64_t due, const Arrival& a, const Packet& pk, const RouteStore& routes) {
        std::vector<std::byte>& out = outbox_[rank_of(a.node)];
        put_bytes(out, a.flit.index == 0 ? record_head : record_flit);
        put_bytes(out, due);
        put_bytes(out, a);
        if (a.flit.index == 0) {
            put_bytes(out, pk);
            // Its hops and the step out to its terminal (RouteStore).
            for (std::uint32_t h = 0; h <= pk.route_len; ++h) put_bytes(out, routes.step(pk.route_slot, h));
        }
    }
    /// Feedback for a sender of router f.node, on another rank, due at `due`.
    void post_feedback(std::uint64_t due, const Feedback& f) {
        std::vector<std::byte>& out = outbox_[rank_of(f.node)];
        put_bytes(out, record_feedback);
        put_bytes(out, due);
        put_bytes(out, f);
    }

    /// At the end of cycle `now`: this rank's losses go to every other rank, the
    /// outboxes change hands, and what came in is scheduled here (a head gets a
    /// copy of its packet in `packets`; feedback goes to feedback(due, f)).
    /// Returns the ranks sent to.
    template <CycleTransport Tx, class OnFeedback>
    std::uint64_t exchange(std::uint64_t now, Tx& tx, Losses& losses, PacketTable& packets,
                           EventWheel<Arrival>& arrivals, std::uint64_t& in_flight, OnFeedback&& feedback) {
        if (!plan_.everyone && !losses.pending().empty())
            throw std::logic_error("fabric: a packet was lost in a partitioned run that schedules no link failure, "
                                   "whose ranks exchange with their neighbours only; not every rank could hear of it");
        for (const LossNotice& n : losses.pending())
            for (std::uint32_t r = 0; r < ranks_; ++r)
                if (r != rank_) {
                    put_bytes(outbox_[r], record_loss);
                    put_bytes(outbox_[r], n);
                }
        std::uint64_t sent = 0;
        for (const auto& out : outbox_) sent += !out.empty();
        tx.exchange(outbox_, inbox_);
        for (auto& out : outbox_) out.clear();
        const std::span<const std::byte> in(inbox_);
        for (std::size_t at = 0; at < in.size();) {
            const auto kind = take_bytes<std::uint8_t>(in, at);
            if (kind == record_loss) {
                losses.post(take_bytes<LossNotice>(in, at));
                continue;
            }
            const auto due = take_bytes<std::uint64_t>(in, at);
            detail::require(due > now, "a partitioned run received an event due at cycle ", due, " at cycle ", now,
                            ": every link between ranks must take at least one cycle");
            if (kind == record_feedback) {
                feedback(due, take_bytes<Feedback>(in, at));
                continue;
            }
            auto a = take_bytes<Arrival>(in, at);
            const std::size_t iv = std::size_t{a.node} * per_router_ + a.local;
            if (kind == record_head) {
                const std::uint32_t id = packets.take_raw();
                Packet& pk = packets[id] = take_bytes<Packet>(in, at);
                // A new copy: its stretch begins at this hop, behind what was dropped before it.
                pk.entry = a.flit.hop();
                pk.passed = pk.ejected = pk.dropped = 0;
                pk.before = losses.any() ? losses.dropped_before(pk.number, pk.entry) : 0;
                pk.route_slot = packets.routes().take();
                RouteStep* steps = packets.routes().steps(pk.route_slot);
                for (std::uint32_t h = 0; h <= pk.route_len; ++h) steps[h] = take_bytes<RouteStep>(in, at);
                inbound_[iv] = id;
            }
            a.flit.packet = inbound_[iv];
            a.route = packets[a.flit.packet].route_slot;  // this rank's copy of the route
            if (a.flit.tail()) {
                last_tail_due_[0] = std::max(last_tail_due_[0], due);
                if (packets[a.flit.packet].measured) last_tail_due_[1] = std::max(last_tail_due_[1], due);
            }
            arrivals.schedule(due, a);
            ++in_flight;
        }
        inbox_.clear();
        return sent;
    }

    void layout(std::uint32_t per_router) { per_router_ = per_router; }

private:
    static constexpr std::uint8_t record_flit = 0, record_head = 1, record_feedback = 2, record_loss = 3;

    std::vector<std::uint32_t> rank_of_;  // per router; empty when alone
    bool all_here_ = true;                // rank_of_ is empty: asked at every flit and credit sent
    std::uint32_t rank_ = 0, ranks_ = 1, per_router_ = 1;
    std::vector<std::vector<std::byte>> outbox_;  // per rank: records for its routers
    std::vector<std::byte> inbox_;
    std::vector<std::uint32_t> inbound_;  // per input VC: this rank's copy of the packet arriving from another rank
    Lookahead plan_;
    std::array<std::uint64_t, 2> last_tail_due_{};  // of any packet, of a measured one
};

}  // namespace fabric::cycle
