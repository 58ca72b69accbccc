// Word-level simulation of one QCDOC SCU link (Boyle et al., section 2.2), in bit
// times of the core clock (one bit per cycle on the wire).
//
// A transfer is driven by DMA descriptors at both ends: the sender's engine reads
// words of its memory (start, block length, stride, count) and the receiver's
// writes them to its memory in the same order. On the wire a data word is a
// 72-bit packet (8-bit header with two parity bits, 64 data bits); an
// acknowledgement, a negative acknowledgement and a partition interrupt are 8-bit
// packets. The protocol:
//  - every word is acknowledged once it is in the receiver's memory, and at most
//    `window` words may be unacknowledged (three in QCDOC);
//  - idle receive: until its receive is posted, the receiver keeps up to `window`
//    words in its register and acknowledges none, which stalls the sender; when
//    the receive is posted they go to memory and are acknowledged, so a send and
//    its receive may start in either order;
//  - supervisor packets (one word each, raising an interrupt at the receiver) go
//    before normal data at the next packet boundary, outside the window;
//  - each parity bit covers the data bits of one parity (even or odd positions),
//    and the header's type code survives any single-bit error; an error the
//    receiver detects is answered by a negative acknowledgement and the word is
//    sent again; an even number of flips in one parity group goes undetected;
//  - both ends keep a checksum (the 64-bit sum) of the words sent and received,
//    to compare at the end of a run.
//
// Timing. Writing the start command at cycle 0, the sender's DMA needs
// `dma_startup_cycles` before the first word goes on the wire; a word takes 72
// cycles to send and `latency_cycles` (the link's) to arrive; the receiver
// answers after `ack_turnaround_cycles`, and the 8-bit acknowledgement takes 8 +
// latency cycles back. The round trip of a word is therefore 72 + 2 latency +
// turnaround + 8 = 152 cycles with the defaults: more than two words (144) and
// less than three (216), which is why three words in the air reach full bandwidth
// and one or two do not. The paper gives the memory-to-memory latency, about
// 600 ns at 500 MHz, and no HSSL figures; the DMA start-up is the one parameter
// fitted to the 600 ns: 196 cycles = 300 - 72 - 32. Everything else (the 3.3 us
// for 23 further words, 1.3 GB/s per node) follows without re-fitting.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <queue>
#include <span>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/random.hpp>
#include <fabric/link/qcdoc_scu.hpp>

namespace fabric {

/// A block-strided DMA transfer: `count` blocks of `block` consecutive words, the
/// blocks `stride` words apart, the first at `start`.
struct DmaDescriptor {
    std::size_t start = 0;
    std::size_t block = 1;
    std::size_t stride = 1;
    std::size_t count = 1;

    [[nodiscard]] constexpr std::size_t words() const { return block * count; }
    [[nodiscard]] constexpr std::size_t address(std::size_t i) const {
        return start + (i / block) * stride + i % block;
    }
    void validate(std::size_t memory_words, const char* side) const {
        detail::require(block >= 1 && count >= 1, side, " DMA descriptor needs a block length and a count of at "
                        "least 1; got ", block, " and ", count);
        detail::require(count == 1 || stride >= block, side, " DMA blocks overlap: the stride (", stride,
                        ") is shorter than the block (", block, ")");
        detail::require(address(words() - 1) < memory_words, side, " DMA descriptor reaches word ",
                        address(words() - 1), ", past the end of a memory of ", memory_words, " words");
    }
};

/// The SCU's stored DMA instructions: up to 24 transfers, one per link, started
/// together by a single write.
class DmaProgram {
public:
    static constexpr std::size_t max_transfers = 24;
    void store(std::size_t link, DmaDescriptor d) {
        detail::require(link < max_transfers, "the SCU stores one DMA transfer per link, links 0 to 23; got link ",
                        link);
        slots_[link] = d;
        used_[link] = true;
    }
    [[nodiscard]] std::size_t stored() const {
        std::size_t n = 0;
        for (const bool u : used_) n += u;
        return n;
    }
    /// The transfers a single start write launches, in link order.
    [[nodiscard]] std::vector<std::pair<std::size_t, DmaDescriptor>> start() const {
        std::vector<std::pair<std::size_t, DmaDescriptor>> out;
        for (std::size_t l = 0; l < max_transfers; ++l)
            if (used_[l]) out.emplace_back(l, slots_[l]);
        return out;
    }

private:
    DmaDescriptor slots_[max_transfers]{};
    bool used_[max_transfers]{};
};

struct ScuTiming {
    /// Cycles from the start command to the first word on the wire; fitted to the
    /// paper's ~600 ns memory-to-memory latency at 500 MHz (see above).
    std::uint32_t dma_startup_cycles = 196;
    /// Cycles the receiver takes to answer a word with an acknowledgement.
    std::uint32_t ack_turnaround_cycles = 8;
    /// Words that may be unacknowledged ("three in the air"); also the receiver's register.
    std::uint32_t window = 3;

    void validate() const {
        detail::require(window >= 1, "the SCU window needs at least 1 word in the air; got 0");
    }
};

/// A supervisor packet: one word sent at `cycle`, taking priority over normal data.
struct SupervisorPacket {
    std::uint64_t cycle = 0;
    std::uint64_t word = 0;
};

struct ScuTransfer {
    std::uint64_t words = 0;
    std::uint64_t first_word_cycles = 0;  // start command to first word in the receiver's memory
    std::uint64_t last_word_cycles = 0;   // start command to last word in memory
    double first_word_ns = 0;
    double transfer_ns = 0;               // start command to last word in memory
    double link_MBps = 0;                 // payload rate from the first word's arrival to the last
    std::uint64_t resends = 0;            // words sent again after a detected error
    std::uint64_t detected_errors = 0;
    std::uint64_t undetected_errors = 0;
    std::uint64_t sender_checksum = 0;
    std::uint64_t receiver_checksum = 0;
    std::uint64_t max_unacknowledged = 0;
    std::vector<std::uint64_t> received;  // the receiver's memory after the transfer
    std::vector<std::uint64_t> supervisor_arrivals;  // cycle each supervisor packet raised its interrupt
    std::vector<std::uint64_t> supervisor_words;
};

class ScuLinkSim {
public:
    explicit ScuLinkSim(QcdocScu link = {}, ScuTiming timing = {}, double bit_error_rate = 0, std::uint64_t seed = 1)
        : link_(link), t_(timing), ber_(bit_error_rate), seed_(seed) {
        t_.validate();
        detail::require(bit_error_rate >= 0 && bit_error_rate < 0.01, "bit error rate must be in [0, 0.01); got ",
                        bit_error_rate);
    }

    /// Sends the words `send` selects from `source` to a receiver whose memory has
    /// `receiver_words` words, placed where `receive` says. The start command is
    /// written at cycle 0; the receive is posted at `receive_posted` (before or
    /// after: idle receive holds what arrives early).
    ScuTransfer transfer(std::span<const std::uint64_t> source, DmaDescriptor send, std::size_t receiver_words,
                         DmaDescriptor receive, std::uint64_t receive_posted = 0,
                         std::span<const SupervisorPacket> supervisor = {}) const {
        send.validate(source.size(), "the sender's");
        receive.validate(receiver_words, "the receiver's");
        detail::require(send.words() == receive.words(), "the send moves ", send.words(),
                        " words but the receive expects ", receive.words());
        for (std::size_t i = 1; i < supervisor.size(); ++i)
            detail::require(supervisor[i - 1].cycle <= supervisor[i].cycle, "supervisor packets must be in time order");

        const std::uint64_t n = send.words();
        const std::uint32_t L = link_.latency_cycles();
        constexpr std::uint32_t word_bits = QcdocScu::bits_per_word;
        constexpr std::uint32_t short_bits = 8;
        Random rng(seed_);

        ScuTransfer out;
        out.words = n;
        out.received.assign(receiver_words, 0);
        std::vector<std::uint8_t> delivered(n, 0), acknowledged(n, 0);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> held;  // (sequence, word) in the idle-receive register
        std::deque<std::uint64_t> resend;
        std::uint64_t next = 0, unacked = 0, in_memory = 0;
        std::uint64_t wire_free = t_.dma_startup_cycles;  // forward wire; the DMA's first word is ready then
        std::uint64_t back_free = 0;                       // reverse wire
        std::size_t next_supervisor = 0;

        enum class Kind : std::uint8_t { word, interrupt, ack, nak };  // interrupt: a supervisor packet
        struct Event {
            std::uint64_t time;
            std::uint64_t order;  // ties in time resolve in the order events were made
            Kind kind;
            std::uint64_t seq;
            std::uint64_t word;
            bool bad;
            bool operator>(const Event& o) const { return time != o.time ? time > o.time : order > o.order; }
        };
        std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
        std::uint64_t order = 0;

        // The receiver answers a word on the reverse wire: an 8-bit packet.
        auto answer = [&](std::uint64_t now, Kind kind, std::uint64_t seq) {
            const std::uint64_t begin = std::max(back_free, now + t_.ack_turnaround_cycles);
            back_free = begin + short_bits;
            events.push({begin + short_bits + L, order++, kind, seq, 0, false});
        };
        auto store = [&](std::uint64_t now, std::uint64_t seq, std::uint64_t word) {
            if (delivered[seq]) return;
            delivered[seq] = 1;
            out.received[receive.address(seq)] = word;
            out.receiver_checksum += word;
            if (in_memory == 0) out.first_word_cycles = now;
            ++in_memory;
            out.last_word_cycles = now;
            answer(now, Kind::ack, seq);
        };
        auto data_ready = [&] { return !resend.empty() || (next < n && unacked < t_.window); };

        std::uint64_t now = 0;
        for (;;) {
            while (!events.empty() && events.top().time <= now) {
                const Event e = events.top();
                events.pop();
                switch (e.kind) {
                    case Kind::word:
                        if (e.bad) answer(e.time, Kind::nak, e.seq);
                        else if (e.time >= receive_posted) store(e.time, e.seq, e.word);
                        else held.emplace_back(e.seq, e.word);  // idle receive: no acknowledgement yet
                        break;
                    case Kind::interrupt:
                        out.supervisor_arrivals.push_back(e.time);
                        out.supervisor_words.push_back(e.word);
                        break;
                    case Kind::ack:
                        if (!acknowledged[e.seq]) {
                            acknowledged[e.seq] = 1;
                            --unacked;
                            out.sender_checksum += source[send.address(e.seq)];
                        }
                        break;
                    case Kind::nak:
                        resend.push_back(e.seq);
                        break;
                }
            }
            if (now >= receive_posted && !held.empty()) {
                for (const auto& [seq, word] : held) store(now, seq, word);
                held.clear();
            }
            // The forward wire starts packets while it is free: supervisor packets first.
            while (wire_free <= now) {
                const std::uint64_t t = now;
                if (next_supervisor < supervisor.size() && supervisor[next_supervisor].cycle <= t) {
                    const SupervisorPacket& sp = supervisor[next_supervisor++];
                    wire_free = t + word_bits;
                    events.push({t + word_bits + L, order++, Kind::interrupt, next_supervisor - 1, sp.word, false});
                    continue;
                }
                if (!data_ready()) break;
                std::uint64_t seq;
                if (!resend.empty()) {
                    seq = resend.front();
                    resend.pop_front();
                    ++out.resends;
                } else {
                    seq = next++;
                    ++unacked;
                    out.max_unacknowledged = std::max(out.max_unacknowledged, unacked);
                }
                std::uint64_t word = source[send.address(seq)];
                const auto [detected, flips] = corrupt(rng);
                out.detected_errors += detected;
                if (!detected && flips != 0) {
                    word ^= flips;  // an error the parity cannot see: only the checksums will
                    ++out.undetected_errors;
                }
                wire_free = t + word_bits;
                events.push({t + word_bits + L, order++, Kind::word, seq, word, detected});
            }
            if (in_memory == n && unacked == 0 && events.empty() && next_supervisor == supervisor.size()) break;
            // The next moment anything can happen.
            std::uint64_t wake = events.empty() ? UINT64_MAX : events.top().time;
            if (data_ready()) wake = std::min(wake, std::max(wire_free, now + 1));
            else if (next_supervisor < supervisor.size())
                wake = std::min(wake, std::max({wire_free, supervisor[next_supervisor].cycle, now + 1}));
            if (!held.empty() && receive_posted > now) wake = std::min(wake, receive_posted);
            detail::require(wake != UINT64_MAX, "SCU link simulation stalled with ", n - in_memory,
                            " words undelivered");
            now = wake;
        }
        const double ns_per_cycle = 1e3 / link_.clock().count;
        out.first_word_ns = static_cast<double>(out.first_word_cycles) * ns_per_cycle;
        out.transfer_ns = static_cast<double>(out.last_word_cycles) * ns_per_cycle;
        const double span = static_cast<double>(out.last_word_cycles - out.first_word_cycles) * ns_per_cycle;
        out.link_MBps = n > 1 && span > 0 ? static_cast<double>(n - 1) * 8.0 / span * 1e3 : 0.0;
        return out;
    }

    [[nodiscard]] const QcdocScu& link() const { return link_; }
    [[nodiscard]] const ScuTiming& timing() const { return t_; }

    /// The probability that a word has an error the parity bits catch (or the
    /// header's code does): what the resend rate should approach.
    [[nodiscard]] double detected_error_probability(int samples = 200000, std::uint64_t seed = 99) const {
        Random rng(seed);
        int detected = 0;
        for (int i = 0; i < samples; ++i) detected += corrupt(rng).first;
        return static_cast<double>(detected) / samples;
    }

private:
    /// Draws the bit errors of one 72-bit packet: whether the receiver detects them,
    /// and the data bits flipped (nonzero and undetected means silent corruption).
    [[nodiscard]] std::pair<bool, std::uint64_t> corrupt(Random& rng) const {
        if (ber_ == 0) return {false, 0};
        std::uint64_t flips = 0;
        int parity_flips[2] = {0, 0};
        int type_flips = 0;
        for (unsigned b = 0; b < QcdocScu::data_bits; ++b)
            if (rng.chance(ber_)) {
                flips ^= std::uint64_t{1} << b;
                ++parity_flips[b & 1U];
            }
        for (int p = 0; p < 2; ++p)
            if (rng.chance(ber_)) ++parity_flips[p];
        for (int t = 0; t < 6; ++t)
            if (rng.chance(ber_)) ++type_flips;
        const bool detected = (parity_flips[0] & 1) || (parity_flips[1] & 1) || type_flips > 0;
        return {detected, detected ? 0 : flips};
    }

    QcdocScu link_;
    ScuTiming t_;
    double ber_;
    std::uint64_t seed_;
};

}  // namespace fabric
