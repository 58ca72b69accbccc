// Links that corrupt flits, found sick by their receivers' CRC counts
// (link/crc_errors.hpp) during a run. A link given a flit error rate corrupts
// each flit it carries with that probability. Two ways for the receiver:
//  - counted (set): a packet whose flit was corrupted fails its CRC at the
//    receiver (drawn once per packet, when its tail arrives, as
//    1 - (1 - rate)^flits) and is still delivered: only the count is kept.
//  - replayed (set with replay; the PERCS ISR's "packet replay mechanism to
//    tolerate transient link errors", meant for D links tens of metres long): every
//    flit is checked as it arrives; a corrupted one is not taken, the receiver's
//    negative acknowledgement goes back over the wire (the link's latency) and the
//    sender, which keeps what it sent until it is acknowledged (its retransmission
//    buffer: retransmission_flits), sends it again and everything after it
//    (go-back-N): the flit arrives 2 x latency + serialisation - 1 cycles later
//    (replay_delay), the flits behind it one serialisation apart after it, in
//    order. Nothing is lost; the link's bandwidth goes to the replays (while they
//    wait, the flits hold their credits, and the sender stops when it has none)
//    and the packets' latency grows. A packet that had a flit replayed counts as
//    an error for the link's CRC rule.
// When the receiver's ratio of errors passes the rule's threshold the link is
// sick: routes written from then on avoid it (where the routing policy can),
// while it goes on carrying what was routed over it before: a sick link is
// routed round before it breaks. The draws use their own random stream, so a run
// without error rates is the run it was; a run without them costs nothing more
// (the one test of a flag per arrival it had before). Held flits stay counted in
// flight; a held link's receiver is woken by a marker on the links' event wheel
// (is_wake), so the run loop has no per-cycle test for it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/link/crc_errors.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/links.hpp>

namespace fabric::cycle {

class LinkErrors {
public:
    /// Channel `channel` corrupts a flit with probability `rate`; its receiver judges it
    /// by `rule`, and with `replay` has the flit sent again (else counts it only).
    void set(std::uint32_t channel, double rate, CrcRule rule, bool replay = false) {
        detail::require(rate >= 0 && rate < 1, "a link's flit error rate lies in [0, 1); got ", rate);
        rule.validate();
        for (Erring& e : erring_)
            if (e.channel == channel) {
                e = Erring{channel, rate, rule, replay, {}};
                return;
            }
        erring_.push_back(Erring{channel, rate, rule, replay, {}});
    }
    /// Whether any link has an error rate (routes may then need detours).
    [[nodiscard]] bool any() const { return !erring_.empty(); }
    /// The same, as this run has it: one load where every arrival asks.
    [[gnu::always_inline]] [[nodiscard]] bool on() const { return on_; }

    /// The start of a run of `channels` channels with `flit_bytes` a flit: every
    /// count zero, every link healthy, the stream seeded from the run's seed.
    void reset(std::size_t channels, std::uint32_t flit_bytes, std::uint64_t seed, const Links& links) {
        index_.assign(erring_.empty() ? 0 : channels, none);
        counters_.clear();
        for (std::size_t i = 0; i < erring_.size(); ++i) {
            detail::require(erring_[i].channel < channels, "a link error rate names channel ", erring_[i].channel,
                            " of ", channels);
            index_[erring_[i].channel] = static_cast<std::uint32_t>(i);
            counters_.emplace_back(erring_[i].rule);
            if (erring_[i].replay) reset_replay(erring_[i], links);
        }
        flit_bytes_ = flit_bytes;
        on_ = !erring_.empty();
        rng_ = Random(seed ^ 0x6c696e6b5f637263ULL);  // "link_crc": a stream apart from the run's
    }

    /// Cycles from a corrupted flit's arrival to its replay's: the negative
    /// acknowledgement back over the wire, then the flit again (serialisation and
    /// latency, as put_on_link times it).
    static std::uint64_t replay_delay(const Links& links, std::size_t channel) {
        const std::uint64_t d = 2 * std::uint64_t{links.latency(channel)} + links.serialisation(channel) - 1;
        return d > 0 ? d : 1;
    }
    /// Flits the sender of `channel` keeps until they are acknowledged, to replay at
    /// full rate: what it puts on the wire in the time a flit takes there and its
    /// acknowledgement back (2 x latency + serialisation), one a serialisation.
    static std::uint64_t retransmission_flits(const Links& links, std::size_t channel) {
        const std::uint64_t ser = links.serialisation(channel), window = 2 * std::uint64_t{links.latency(channel)} + ser;
        return (window + ser - 1) / ser;
    }

    /// Whether channel `channel` replays corrupted flits.
    [[nodiscard]] bool replays(std::size_t channel) const {
        const std::uint32_t i = index_[channel];
        return i != none && erring_[i].replay;
    }
    /// The entry of a channel with an error rate (for its wakes).
    [[nodiscard]] std::uint32_t entry(std::size_t channel) const { return index_[channel]; }
    [[nodiscard]] std::uint32_t channel_of_entry(std::uint32_t i) const { return erring_[i].channel; }
    /// The longest a replaying link's receiver waits for a replay: the event wheel must reach that far.
    [[gnu::noinline]] [[nodiscard]] std::uint64_t longest_replay_delay(const Links& links) const {
        std::uint64_t most = 0;
        for (const Erring& e : erring_)
            if (e.replay) most = std::max(most, replay_delay(links, e.channel));
        return most;
    }
    /// Flits held back at their receivers for replay, not yet taken (in flight still).
    [[nodiscard]] std::uint64_t held() const {
        std::uint64_t h = 0;
        for (const Erring& e : erring_) h += e.r.held.size();
        return h;
    }
    /// Flits this run sent again.
    [[nodiscard]] std::uint64_t replayed() const {
        std::uint64_t n = 0;
        for (const Erring& e : erring_) n += e.r.replayed;
        return n;
    }

    /// A wake: a marker on the link's wheel (no flit) that tells a replaying link's
    /// receiver to look at its held flits; `local` names the link's entry.
    static constexpr std::uint32_t wake_node = 0xffffffffU;
    [[nodiscard]] static constexpr bool is_wake(const Arrival& a) { return a.node == wake_node; }

    /// What a replaying receiver did with an arrival: took it (or, for a wake, the
    /// flit it let in), whether the link turned sick with it, and the cycle of the
    /// wake to schedule (0: none).
    struct Outcome {
        bool taken;
        bool sick;
        std::uint64_t wake_at;
    };

    /// Flit `a` came over replaying channel `channel` at `now`: taken, or held
    /// (corrupted, or behind a flit that is; the first held schedules a wake).
    [[gnu::noinline]] Outcome arrive_replaying(std::size_t channel, const Arrival& a, std::uint64_t now,
                                               std::uint32_t packet_flits) {
        const std::uint32_t i = index_[channel];
        Replay& r = erring_[i].r;
        if (!r.held.empty()) {  // go-back-N: it was sent after a flit now being replayed
            r.held.push_back(a);
            return {false, false, 0};
        }
        if (rng_.uniform() < erring_[i].rate) {
            r.held.push_back(a);
            return {false, false, corrupted(i, a, now)};
        }
        return {true, a.flit.tail() && tail_taken(i, a, packet_flits), 0};
    }

    /// The wake of entry i at `now`: its first held flit arrives again, checked
    /// again (a replay can be corrupted too). Taken: `released` holds it and the
    /// next held flit follows a serialisation later.
    template <class Size>
    [[gnu::noinline]] Outcome wake(std::uint32_t i, std::uint64_t now, Size&& packet_flits, Arrival& released) {
        Replay& r = erring_[i].r;
        const Arrival a = r.held.front();
        if (rng_.uniform() < erring_[i].rate) return {false, false, corrupted(i, a, now)};
        r.held.pop_front();
        released = a;
        const bool sick = a.flit.tail() && tail_taken(i, a, packet_flits(a));
        return {true, sick, r.held.empty() ? 0 : now + r.serial};
    }

    /// The tail of a packet of `flits` flits arrived over `channel`; returns
    /// whether the link turned sick with it.
    bool packet_arrived(std::size_t channel, std::uint32_t flits) {
        const std::uint32_t i = index_[channel];
        if (i == none) return false;
        const double fail = any_in_error(erring_[i].rate, static_cast<double>(flits));
        const bool error = rng_.uniform() < fail;
        return counters_[i].count(static_cast<double>(flits) * flit_bytes_, error);
    }
    [[nodiscard]] std::uint64_t crc_errors() const {
        std::uint64_t e = 0;
        for (const CrcErrorCounter& c : counters_) e += c.errors();
        return e;
    }

private:
    static constexpr std::uint32_t none = 0xffffffffU;
    /// A replaying link's receiver, this run's: the flits held back, in order; the
    /// packets with a flit replayed whose tails have not arrived; the flits replayed.
    struct Replay {
        std::deque<Arrival> held{};
        std::uint64_t serial = 1, delay = 1;
        std::vector<std::uint32_t> dirty{};
        std::uint64_t replayed = 0;
    };
    struct Erring {
        std::uint32_t channel;
        double rate;
        CrcRule rule;
        bool replay;
        Replay r;  // with replay
    };

    [[gnu::noinline]] static void reset_replay(Erring& e, const Links& links) {
        e.r = Replay{};
        e.r.serial = links.serialisation(e.channel);
        e.r.delay = replay_delay(links, e.channel);
    }

    /// Flit `a` failed its check at `now`: it is sent again; returns when it arrives.
    std::uint64_t corrupted(std::uint32_t i, const Arrival& a, std::uint64_t now) {
        Replay& r = erring_[i].r;
        ++r.replayed;
        if (std::find(r.dirty.begin(), r.dirty.end(), a.flit.packet) == r.dirty.end()) r.dirty.push_back(a.flit.packet);
        return now + r.delay;
    }
    /// A packet's tail was taken over replaying link i: counted, an error if any of
    /// its flits was replayed there; whether the link turned sick.
    bool tail_taken(std::uint32_t i, const Arrival& a, std::uint32_t packet_flits) {
        Replay& r = erring_[i].r;
        const auto it = std::find(r.dirty.begin(), r.dirty.end(), a.flit.packet);
        const bool error = it != r.dirty.end();
        if (error) r.dirty.erase(it);
        return counters_[i].count(static_cast<double>(packet_flits) * flit_bytes_, error);
    }

    std::vector<Erring> erring_;             // the links with an error rate, as set
    std::vector<std::uint32_t> index_;       // per channel: its entry in erring_ (none: healthy); empty: no rates
    std::vector<CrcErrorCounter> counters_;  // per entry, this run's
    std::uint32_t flit_bytes_ = 16;
    bool on_ = false;
    Random rng_{0};
};

}  // namespace fabric::cycle
