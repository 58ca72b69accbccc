// Output queues of the cycle kernel (CycleConfig::output_buffer_flits > 0): per
// sender (channel * V + vc) a ring of `depth` flits, each with the cycle from
// which it may go onto the link, between the switch and the link. Per channel the
// link's next free cycle and its round-robin pointer over VCs; per router a mask
// of the queues that hold flits, their number of flits, and the first cycle at
// which any of its links can take one. With depth 0 the queues hold no memory.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

class OutputQueues {
public:
    void reset(const Shape& shape, std::uint32_t depth) {
        depth_ = depth;
        vcs_ = shape.vcs;
        per_router_ = shape.ports * shape.vcs;
        words_ = (per_router_ + 63) / 64;
        const std::size_t channels = depth ? shape.channels() : 0;
        const std::size_t queues = channels * vcs_;
        flits_.assign(queues * depth, Flit{0, 0, 0});
        time_.assign(queues * depth, 0);
        head_.assign(queues, 0);
        count_.assign(queues, 0);
        since_.assign(queues, 0);
        link_free_.assign(channels, 0);
        link_rr_.assign(channels, 0);
        node_flits_.assign(depth ? shape.routers : 0, 0);
        wake_.assign(depth ? shape.routers : 0, 0);
        mask_.assign(depth ? std::size_t{shape.routers} * words_ : 0, 0);
    }

    [[nodiscard]] bool enabled() const { return depth_ != 0; }
    [[nodiscard]] std::size_t size() const { return count_.size(); }
    [[nodiscard]] std::uint32_t count(std::size_t q) const { return count_[q]; }
    [[nodiscard]] bool full(std::size_t q) const { return count_[q] == depth_; }
    [[nodiscard]] const Flit& front(std::size_t q) const { return flits_[q * depth_ + head_[q]]; }
    /// The cycle from which the front flit of `q` may go onto the link.
    [[nodiscard]] std::uint64_t front_ready(std::size_t q) const { return time_[q * depth_ + head_[q]]; }
    /// The cycle at which the front flit of `q` became the front.
    [[nodiscard]] std::uint64_t since(std::size_t q) const { return since_[q]; }
    [[nodiscard]] std::uint32_t node_flits(std::uint32_t node) const { return node_flits_[node]; }

    /// Flit `f` enters queue `q` of router `node`, to go onto the link from `ready` on.
    void push(std::uint32_t node, std::size_t q, const Flit& f, std::uint64_t ready) {
        const std::size_t slot = q * depth_ + (head_[q] + count_[q]) % depth_;
        flits_[slot] = f;
        time_[slot] = ready;
        if (count_[q]++ == 0) {
            since_[q] = ready;
            mark(node, q, true);
        }
        ++node_flits_[node];
        wake_[node] = std::min(wake_[node], ready);
    }
    /// Takes the front flit out of queue `q` of router `node` at cycle `now`.
    Flit pop(std::uint32_t node, std::size_t q, std::uint64_t now) {
        const Flit f = front(q);
        head_[q] = head_[q] + 1 == depth_ ? 0 : head_[q] + 1;
        --node_flits_[node];
        if (--count_[q] == 0) mark(node, q, false);
        else since_[q] = now;
        return f;
    }

    /// The link of `channel` is free from this cycle; its round-robin pointer over VCs.
    [[nodiscard]] std::uint64_t& link_free(std::size_t channel) { return link_free_[channel]; }
    [[nodiscard]] std::uint32_t& link_pointer(std::size_t channel) { return link_rr_[channel]; }
    /// No link of router `node` can take a queued flit before this cycle.
    [[nodiscard]] std::uint64_t& wake(std::uint32_t node) { return wake_[node]; }

    /// Calls f(port) once for every port of router `node` with a queued flit, in order.
    template <class Fn>
    void for_each_port(std::uint32_t node, Fn&& f) const {
        std::uint32_t previous = std::numeric_limits<std::uint32_t>::max();
        for (std::uint32_t w = 0; w < words_; ++w) {
            std::uint64_t bits = mask_[std::size_t{node} * words_ + w];
            while (bits) {
                const auto bit = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
                bits &= bits - 1;
                if (bit / vcs_ == previous) continue;
                previous = bit / vcs_;
                f(previous);
            }
        }
    }

    /// Flits held in all queues.
    [[nodiscard]] std::uint64_t queued() const {
        std::uint64_t flits = 0;
        for (const auto c : count_) flits += c;
        return flits;
    }

private:
    void mark(std::uint32_t node, std::size_t q, bool on) {
        const auto bit = static_cast<std::uint32_t>(q % per_router_);
        std::uint64_t& word = mask_[std::size_t{node} * words_ + bit / 64];
        if (on) word |= std::uint64_t{1} << (bit % 64);
        else word &= ~(std::uint64_t{1} << (bit % 64));
    }

    std::uint32_t depth_ = 0, vcs_ = 1, per_router_ = 1, words_ = 1;
    std::vector<Flit> flits_;
    std::vector<std::uint64_t> time_;
    std::vector<std::uint32_t> head_, count_;
    std::vector<std::uint64_t> since_;
    std::vector<std::uint64_t> link_free_;
    std::vector<std::uint32_t> link_rr_;
    std::vector<std::uint32_t> node_flits_;
    std::vector<std::uint64_t> wake_;
    std::vector<std::uint64_t> mask_;
};

}  // namespace fabric::cycle
