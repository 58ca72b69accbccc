// Links that corrupt flits, found sick by their receivers' CRC counts
// (link/crc_errors.hpp) during a run. A link given a flit error rate corrupts
// each flit it carries with that probability; a packet whose flit was corrupted
// fails its CRC at the receiver (drawn once per packet, when its tail arrives, as
// 1 - (1 - rate)^flits). The packet is still delivered: retransmission is not
// modelled, only its count. When the receiver's ratio of errors passes the rule's
// threshold the link is sick: routes written from then on avoid it (where the
// routing policy can), while it goes on carrying what was routed over it before:
// a sick link is routed round before it breaks. The draws use their own random
// stream, so a run without error rates is the run it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/link/crc_errors.hpp>

namespace fabric::cycle {

class LinkErrors {
public:
    /// Channel `channel` corrupts a flit with probability `rate`; its receiver judges it by `rule`.
    void set(std::uint32_t channel, double rate, CrcRule rule) {
        detail::require(rate >= 0 && rate < 1, "a link's flit error rate lies in [0, 1); got ", rate);
        rule.validate();
        for (Erring& e : erring_)
            if (e.channel == channel) {
                e = Erring{channel, rate, rule};
                return;
            }
        erring_.push_back(Erring{channel, rate, rule});
    }
    /// Whether any link has an error rate (routes may then need detours).
    [[nodiscard]] bool any() const { return !erring_.empty(); }
    /// The same, as this run has it: one load where every arrival asks.
    [[gnu::always_inline]] [[nodiscard]] bool on() const { return on_; }

    /// The start of a run of `channels` channels with `flit_bytes` a flit: every
    /// count zero, every link healthy, the stream seeded from the run's seed.
    void reset(std::size_t channels, std::uint32_t flit_bytes, std::uint64_t seed) {
        index_.assign(erring_.empty() ? 0 : channels, none);
        counters_.clear();
        for (std::size_t i = 0; i < erring_.size(); ++i) {
            detail::require(erring_[i].channel < channels, "a link error rate names channel ", erring_[i].channel,
                            " of ", channels);
            index_[erring_[i].channel] = static_cast<std::uint32_t>(i);
            counters_.emplace_back(erring_[i].rule);
        }
        flit_bytes_ = flit_bytes;
        on_ = !erring_.empty();
        rng_ = Random(seed ^ 0x6c696e6b5f637263ULL);  // "link_crc": a stream apart from the run's
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
    struct Erring {
        std::uint32_t channel;
        double rate;
        CrcRule rule;
    };
    std::vector<Erring> erring_;             // the links with an error rate, as set
    std::vector<std::uint32_t> index_;       // per channel: its entry in erring_ (none: healthy); empty: no rates
    std::vector<CrcErrorCounter> counters_;  // per entry, this run's
    std::uint32_t flit_bytes_ = 16;
    bool on_ = false;
    Random rng_{0};
};

}  // namespace fabric::cycle
