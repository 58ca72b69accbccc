// The state of a stage-list run (kernel.hpp) in flat arrays: input VCs and their
// rings, output VCs, routers' switch state, the packets' hot records, the source
// queues, and the lists by cycle (arrivals on the wires; VCs due at VC
// allocation and at the switch). Sized once when a run starts, from the
// topology's constants (layout.hpp), the run's router count, buffer depth and
// delays. The phases of a cycle work on a View: the same arrays by pointer, held
// in the run's own locals, so that no pointer is read again from memory after a
// store.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/large_pages.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/stage/layout.hpp>
#include <fabric/sim/cycle/stage/lists.hpp>
#include <fabric/sim/cycle/stage/switch.hpp>

namespace fabric::cycle {

template <class S, class A>
class StageNetwork {
public:
    using Pk = StagePacket<S>;
    using Ov = StageOutVc<S::L>;
    using Switch = StageSwitch<A, S>;
    using Router = StageRouter<S::L, typename Switch::State>;

    /// What changes as a run goes: the packet records (which grow), the lists' lengths, the counts.
    struct Live {
        Pk* packets;
        std::uint32_t* free;  // packet records free to take, the last first
        std::uint32_t n_free;
        std::uint32_t n_bidding = 0;
        std::uint64_t queued = 0;
    };
    /// The run's arrays by pointer and its sizes: the same through a run, so that a
    /// cycle's phases keep them in registers (a const local of the run).
    struct View {
        StageVc* vcs;
        Flit* flits;  // per network input VC, `ring` slots behind its front flit
        Ov* ovs;
        Router* rt;
        Live* live;
        StageQueue* queues;   // per terminal and injection queue
        std::uint32_t* deal;  // per terminal: the queue its next message goes to
        std::uint32_t* held;  // per terminal: packets in its queues
        typename CycleLists<StageArrival>::View arrivals;
        typename CycleLists<std::uint32_t>::View va, sa;
        std::uint32_t* bidding;  // routers with bids this cycle
        std::uint32_t ring, depth, per_node, queues_per;
        std::uint32_t delay;     // every link's grant-to-arrival delay when they are all alike, else 0
        // With adaptive routing (else empty): per router and port, the flits of the packets
        // routed there and not yet sent; per output VC, the cycle from which the wake kernel
        // would have seen its last credit back (its credit one cycle after the flit left).
        std::uint32_t* backlog;
        std::uint64_t* seen_from;
        // With a credit delay above one cycle (else unused): per cycle, the output VCs a credit reaches then.
        typename CycleLists<std::uint32_t>::View credits;
        std::uint32_t credit_delay;
    };

    /// Every buffer empty, every sender with its credits, the wiring read from
    /// `links`; `exit` the cycles from a switch grant to the link (switch
    /// allocation and traversal), `va_ahead` and `sa_ahead` the furthest a VC is
    /// listed ahead for VC allocation and for the switch; a credit reaches its sender
    /// `credit_delay` cycles after its flit leaves.
    void reset(const Shape& shape, const Links& links, std::uint32_t buffer, std::uint32_t injection_queues,
               std::uint64_t exit, std::uint64_t va_ahead, std::uint64_t sa_ahead, bool adaptive = false,
               std::uint32_t credit_delay = 1) {
        routers_ = shape.routers;
        per_node_ = shape.per_node;
        queues_per_ = injection_queues;
        depth_ = buffer;
        vcs_.assign(std::size_t{routers_} * S::LP, StageVc{});
        flits_.assign(std::size_t{routers_} * S::NV * (buffer - 1), Flit{0, 0, 0});
        Ov fresh;
        fresh.credits = static_cast<std::int32_t>(buffer);
        ovs_.assign(std::size_t{routers_} * S::NVP, fresh);
        rt_.assign(routers_, Router{});
        std::uint64_t longest = 1;
        delay_ = none;
        for (std::size_t c = 0; c < std::size_t{routers_} * S::P; ++c) {
            if (links.connected(c)) {
                const auto delay = static_cast<std::uint32_t>(exit + links.serialisation(c) - 1 + links.latency(c));
                delay_ = delay_ == none || delay_ == delay ? delay : 0;
                for (std::uint32_t vc = 0; vc < S::V; ++vc) {
                    Ov& o = ovs_[c / S::P * S::NVP + c % S::P * S::V + vc];
                    o.down = links.down(c) * S::LP + links.down_port(c) * S::V + vc;
                    o.delay = delay;
                }
                longest = std::max<std::uint64_t>(longest, delay);
            }
            // Input port c's VCs return their credits to the output VCs of the channel feeding it.
            if (const std::uint32_t up = links.up(c); up != Links::none)
                for (std::uint32_t vc = 0; vc < S::V; ++vc)
                    vcs_[c / S::P * S::LP + c % S::P * S::V + vc].up = up / S::P * S::NVP + up % S::P * S::V + vc;
        }
        packets_.clear();
        free_.clear();
        queues_.assign(std::size_t{shape.terminals} * queues_per_, StageQueue{});
        deal_.assign(shape.terminals, 0);
        held_.assign(shape.terminals, 0);
        arrivals_.reset(longest, std::max<std::size_t>(1, std::size_t{routers_} * S::P));
        va_.reset(std::max<std::uint64_t>(va_ahead, 1), vcs_.size());
        sa_.reset(std::max<std::uint64_t>(sa_ahead, 1), vcs_.size());
        bidding_.assign(routers_, 0);
        if (delay_ == none) delay_ = 0;
        backlog_.assign(adaptive ? std::size_t{routers_} * S::NP : 0, 0);
        seen_from_.assign(adaptive ? ovs_.size() : 0, 0);
        credit_delay_ = credit_delay;
        credits_.reset(credit_delay, credit_delay > 1 ? std::size_t{routers_} * S::NV : 1);
    }

    [[nodiscard]] View view() {
        live_ = Live{packets_.data(), free_.data(), static_cast<std::uint32_t>(free_.size())};
        return View{vcs_.data(), flits_.data(), ovs_.data(), rt_.data(), &live_, queues_.data(), deal_.data(),
                    held_.data(), arrivals_.view(), va_.view(), sa_.view(), bidding_.data(),
                    depth_ - 1, depth_, per_node_, queues_per_, delay_, backlog_.data(), seen_from_.data(),
                    credits_.view(), credit_delay_};
    }

    /// With a credit delay of d > 1 cycles: the credits due now (their flits left
    /// their buffers d cycles ago), counted at their senders before anything of the
    /// cycle checks one, as the wake kernel delivers them; a holder waiting for one bids now.
    [[gnu::noinline]] static void return_credits(const View& v, std::uint64_t now) {
        const std::uint32_t* x = v.credits.begin(now);
        const std::uint32_t n = v.credits.size(now);
        v.credits.clear(now);
        for (const std::uint32_t* end = x + n; x != end; ++x) {
            Ov& up = v.ovs[*x];
            ++up.credits;
            if (up.credit_wait) {
                up.credit_wait = 0;
                v.sa.push(now, *x / S::NVP * S::LP + up.owner);
            }
        }
    }

    /// More packet records (none was free): twice as many, the new ones free.
    [[gnu::noinline]] void grow_packets() {
        const std::size_t had = packets_.size(), now = std::max<std::size_t>(64, 2 * had);
        packets_.resize(now);
        free_.resize(now);
        for (std::size_t i = 0; i < now - had; ++i) free_[i] = static_cast<std::uint32_t>(now - 1 - i);
        live_.packets = packets_.data();
        live_.free = free_.data();
        live_.n_free = static_cast<std::uint32_t>(now - had);
    }

    /// Flits put on each channel's link so far.
    [[nodiscard]] std::vector<std::uint64_t> sent() const {
        std::vector<std::uint64_t> per_channel(std::size_t{routers_} * S::P, 0);
        for (std::size_t c = 0; c < per_channel.size(); ++c)
            for (std::uint32_t vc = 0; vc < S::V; ++vc) per_channel[c] += ovs_[c / S::P * S::NVP + c % S::P * S::V + vc].sent;
        return per_channel;
    }
    [[nodiscard]] std::uint32_t routers() const { return routers_; }
    /// Flits in the routers' network input VCs, and on the links (due at an input VC):
    /// counted where asked (the watchdog's looks, the run's end), not kept a move.
    [[nodiscard]] std::uint64_t buffered() const {
        std::uint64_t flits = 0;
        for (std::size_t r = 0; r < routers_; ++r)
            for (std::uint32_t l = 0; l < S::NV; ++l) flits += vcs_[r * S::LP + l].count;
        return flits;
    }
    [[nodiscard]] std::uint64_t in_flight() const { return arrivals_.total(); }

private:
    template <class X>
    using Array = std::vector<X, detail::LargePageAllocator<X>>;
    std::uint32_t routers_ = 0, per_node_ = 1, queues_per_ = 1, depth_ = 1;
    Array<StageVc> vcs_;
    Array<Flit> flits_;
    Array<Ov> ovs_;
    std::vector<Router> rt_;
    Array<Pk> packets_;
    std::vector<std::uint32_t> free_;
    std::vector<StageQueue> queues_;
    std::vector<std::uint32_t> deal_, held_;
    CycleLists<StageArrival> arrivals_;
    CycleLists<std::uint32_t> va_, sa_;
    std::vector<std::uint32_t> bidding_;
    std::uint32_t delay_ = 0;
    std::vector<std::uint32_t> backlog_;
    std::vector<std::uint64_t> seen_from_;
    CycleLists<std::uint32_t> credits_;
    std::uint32_t credit_delay_ = 1;
    Live live_{};
};

}  // namespace fabric::cycle
