// The input side of every router of the cycle kernel: per input virtual channel
// its state (which output it asks for or holds, from when its front flit may act)
// and, for the network ports, its flits: the front one kept with the state (a
// VC seldom holds more than one), the others in a ring; a terminal's injection
// port has no ring, its flits stay in the source queue until they leave.
//
// Two masks per router, one bit per input VC (shape.hpp's `local` index):
//  - front: the VC has a front flit;
//  - blocked: the VC's front flit waits for something only an event at its router
//    can change (an output VC held by another packet, the flow control's
//    permission, room in an output queue). A router step looks at the VCs with a
//    front flit that are not blocked, in index order, and every event that may
//    unblock one clears the router's blocked mask (router.hpp), so a flit that
//    waits costs nothing until then.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/large_pages.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

enum class VcState : std::uint8_t { idle, waiting_vc, active };

struct InputVc {
    std::uint32_t head = 0;    // ring index of the flit behind the front one
    std::uint32_t count = 0;   // flits buffered (network ports)
    VcState state = VcState::idle;
    std::uint8_t out_vc = 0;
    std::uint16_t out_port = 0;
    std::uint32_t route = 0;   // the route slot of its packet (RouteStore), so that a hop need not read the packet
    std::uint64_t ready = 0;   // cycle from which the front flit may take its next step
    std::uint64_t since = 0;   // cycle at which the front flit became the front
    std::uint32_t packet = 0;  // the packet whose flits it passes on
    std::uint32_t last = 0;    // index of the last flit it passed on
    Flit front{0, 0, 0};       // the front flit (network ports): beside the VC's state, the ring only behind it
};
static_assert(sizeof(InputVc) == 48, "an input VC's state is counted in the memory model: keep it packed");

class InputBuffers {
public:
    void reset(const Shape& shape, std::uint32_t depth) {
        depth_ = depth;
        ring_ = depth - 1;  // the front flit is kept with the VC's state
        vcs_per_port_ = shape.vcs;
        per_router_ = shape.per_router();
        network_per_router_ = shape.ports * shape.vcs;
        words_ = shape.mask_words();
        vcs_.assign(shape.input_vcs(), InputVc{});
        flits_.assign(std::size_t{shape.routers} * network_per_router_ * ring_, Flit{0, 0, 0});
        stride_ = 2 * words_;
        masks_.assign(std::size_t{shape.routers} * stride_, 0);
    }

    [[nodiscard]] std::size_t size() const { return vcs_.size(); }
    [[nodiscard]] std::uint32_t depth() const { return depth_; }
    [[nodiscard]] std::uint32_t per_router() const { return per_router_; }
    [[nodiscard]] std::uint32_t words() const { return words_; }
    [[nodiscard]] std::size_t index(std::uint32_t node, std::uint32_t local) const {
        return std::size_t{node} * per_router_ + local;
    }
    [[nodiscard]] std::uint32_t node_of(std::size_t iv) const { return static_cast<std::uint32_t>(iv / per_router_); }
    [[nodiscard]] std::uint32_t local_of(std::size_t iv) const { return static_cast<std::uint32_t>(iv % per_router_); }
    [[nodiscard]] InputVc& operator[](std::size_t iv) { return vcs_[iv]; }
    [[nodiscard]] const InputVc& operator[](std::size_t iv) const { return vcs_[iv]; }
    /// The input VCs of router `node`, by local index.
    [[nodiscard]] InputVc* router(std::uint32_t node) { return vcs_.data() + std::size_t{node} * per_router_; }
    [[nodiscard]] const InputVc* router(std::uint32_t node) const {
        return vcs_.data() + std::size_t{node} * per_router_;
    }

    /// Appends an arriving flit to network VC `local` of router `node`; returns
    /// whether it is the front now. A full ring means the flow control let too
    /// many flits through: an error in the protocol, reported where.
    [[gnu::always_inline]] bool push(std::uint32_t node, std::uint32_t local, const Flit& f) {
        InputVc& v = vcs_[index(node, local)];
        if (v.count == 0) {
            v.front = f;
            v.count = 1;
            set(front_word(node, local), local);
            return true;
        }
        if (v.count == depth_) overflow(node, local);
        std::uint32_t slot = v.head + v.count - 1;
        if (slot >= ring_) slot -= ring_;
        flits_[ring(node, local) + slot] = f;
        ++v.count;
        return false;
    }
    /// The front flit of network VC `local` of router `node`.
    [[gnu::always_inline]] [[nodiscard]] const Flit& front(std::uint32_t node, std::uint32_t local) const {
        return vcs_[index(node, local)].front;
    }
    /// Takes the front flit out of a network VC; returns whether another is at the front now.
    [[gnu::always_inline]] bool pop(std::uint32_t node, std::uint32_t local) {
        return pop(vcs_[index(node, local)], node, local);
    }
    /// The same, given the VC's state (vcs_[index(node, local)]) at hand.
    [[gnu::always_inline]] bool pop(InputVc& v, std::uint32_t node, std::uint32_t local) {
        if (--v.count != 0) {
            v.front = flits_[ring(node, local) + v.head];
            v.head = v.head + 1 == ring_ ? 0 : v.head + 1;
            return true;
        }
        clear_both(node, local);
        return false;
    }

    /// Marks whether a VC has a front flit (the injection VCs are marked by the
    /// kernel as their source queues fill and empty).
    [[gnu::always_inline]] void mark(std::uint32_t node, std::uint32_t local, bool on) {
        if (on) set(front_word(node, local), local);
        else clear_both(node, local);
    }
    [[gnu::always_inline]] [[nodiscard]] bool has_front(std::uint32_t node, std::uint32_t local) const {
        return (front_word(node, local) >> (local % 64)) & 1U;
    }
    [[gnu::always_inline]] [[nodiscard]] bool any_front(std::uint32_t node) const { return any_front_in(masks(node)); }
    /// The same, given the router's mask words (masks(node)) at hand.
    [[gnu::always_inline]] [[nodiscard]] bool any_front_in(const std::uint64_t* w) const {
        if (w[0]) return true;
        for (std::uint32_t i = 1; i < words_; ++i)
            if (w[i]) return true;
        return false;
    }
    /// The front flit of VC `local` waits for an event at its router.
    [[gnu::always_inline]] void block(std::uint32_t node, std::uint32_t local) {
        set(masks_[std::size_t{node} * stride_ + words_ + local / 64], local);
    }
    /// unblock(node), returning whether any front flit of the router was blocked.
    [[gnu::always_inline]] bool unblock_any(std::uint32_t node) {
        std::uint64_t* w = masks_.data() + std::size_t{node} * stride_ + words_;
        std::uint64_t any = w[0];
        w[0] = 0;
        for (std::uint32_t i = 1; i < words_; ++i) {
            any |= w[i];
            w[i] = 0;
        }
        return any != 0;
    }
    /// An event at router `node` that may let any waiting front flit go.
    [[gnu::always_inline]] void unblock(std::uint32_t node) {
        std::uint64_t* w = masks_.data() + std::size_t{node} * stride_ + words_;
        w[0] = 0;  // most routers have one word
        for (std::uint32_t i = 1; i < words_; ++i) w[i] = 0;
    }
    /// Router `node`'s mask words (its front words, then its blocked words): they stay
    /// where they are until reset.
    [[gnu::always_inline]] [[nodiscard]] const std::uint64_t* masks(std::uint32_t node) const {
        return masks_.data() + std::size_t{node} * stride_;
    }
    /// live(node, 0) from the router's mask words (masks(node)), when a router has one word.
    [[gnu::always_inline]] [[nodiscard]] static std::uint64_t live_of_one_word(const std::uint64_t* masks) {
        return masks[0] & ~masks[1];
    }
    /// Word `w` of router `node`'s mask of VCs with a front flit that are not blocked.
    [[gnu::always_inline]] [[nodiscard]] std::uint64_t live(std::uint32_t node, std::uint32_t w) const {
        const std::uint64_t* m = masks_.data() + std::size_t{node} * stride_ + w;
        return m[0] & ~m[words_];
    }
    /// Calls f(local) for every VC of router `node` with a front flit that is not
    /// blocked, in index order (a mask read word by word before the calls, so f
    /// may change the masks).
    template <class Fn>
    void for_each_live(std::uint32_t node, Fn&& f) const {
        for (std::uint32_t w = 0; w < words_; ++w) {
            std::uint64_t bits = live(node, w);
            while (bits) {
                const auto bit = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
                bits &= bits - 1;
                f(bit);
            }
        }
    }
    /// Calls f(local) for every VC of router `node` with a front flit, blocked or not.
    template <class Fn>
    void for_each_front(std::uint32_t node, Fn&& f) const {
        const std::size_t at = std::size_t{node} * stride_;
        for (std::uint32_t w = 0; w < words_; ++w) {
            std::uint64_t bits = masks_[at + w];
            while (bits) {
                const auto bit = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
                bits &= bits - 1;
                f(bit);
            }
        }
    }

    /// Flits held in all network rings.
    [[nodiscard]] std::uint64_t buffered() const {
        std::uint64_t flits = 0;
        for (const auto& v : vcs_) flits += v.count;
        return flits;
    }

private:
    [[nodiscard]] std::size_t ring(std::uint32_t node, std::uint32_t local) const {
        return (std::size_t{node} * network_per_router_ + local) * ring_;
    }
    // Per router, its front words then its blocked words, side by side.
    [[nodiscard]] std::uint64_t& front_word(std::uint32_t node, std::uint32_t local) {
        return masks_[std::size_t{node} * stride_ + local / 64];
    }
    [[nodiscard]] std::uint64_t front_word(std::uint32_t node, std::uint32_t local) const {
        return masks_[std::size_t{node} * stride_ + local / 64];
    }
    static void set(std::uint64_t& word, std::uint32_t local) { word |= std::uint64_t{1} << (local % 64); }
    void clear_both(std::uint32_t node, std::uint32_t local) {
        const std::uint64_t bit = ~(std::uint64_t{1} << (local % 64));
        std::uint64_t* m = masks_.data() + std::size_t{node} * stride_ + local / 64;
        m[0] &= bit;
        m[words_] &= bit;
    }
    [[noreturn]] void overflow(std::uint32_t node, std::uint32_t local) const {
        throw std::logic_error(detail::message("buffer overflow at node ", node, " port ", local / vcs_per_port_,
                                               " vc ", local % vcs_per_port_,
                                               ": the flow-control protocol let too many flits through"));
    }

    std::uint32_t depth_ = 1, ring_ = 0, vcs_per_port_ = 1, per_router_ = 0, network_per_router_ = 0, words_ = 1;
    std::uint32_t stride_ = 2;  // a router's mask words: 2 * words_
    // Walked at random by every step: on large pages once past 2 MiB (core/large_pages.hpp).
    std::vector<InputVc, detail::LargePageAllocator<InputVc>> vcs_;
    std::vector<Flit, detail::LargePageAllocator<Flit>> flits_;
    std::vector<std::uint64_t> masks_;  // per router: front words, then blocked words
};

}  // namespace fabric::cycle
