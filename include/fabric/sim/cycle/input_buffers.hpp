// The input side of every router of the cycle kernel: per input virtual channel
// (node, port, vc) its state (which output it holds, from when its front flit may
// act) and, for the P network ports, a ring of `depth` flits; port P is the
// injection port, whose flits stay in the source queue until they leave. A mask
// per router marks the VCs that have a front flit, so a router step visits only
// those, in index order.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/packet.hpp>

namespace fabric::cycle {

enum class VcState : std::uint8_t { idle, waiting_vc, active };

struct InputVc {
    std::uint32_t head = 0;    // index of the front flit in its ring
    std::uint32_t count = 0;   // flits buffered (network ports)
    VcState state = VcState::idle;
    std::uint8_t out_vc = 0;
    std::uint16_t out_port = 0;
    std::uint64_t ready = 0;   // cycle from which the front flit may take its next step
    std::uint64_t since = 0;   // cycle at which the front flit became the front
    std::uint32_t packet = 0;  // the packet whose flits it passes on
    std::uint32_t last = 0;    // index of the last flit it passed on
};

/// P network ports and Terminals injection ports per router, V virtual channels each.
template <std::uint32_t P, std::uint32_t V, std::uint32_t Terminals = 1>
class InputBuffers {
public:
    static constexpr std::uint32_t ports = P + Terminals;
    static constexpr std::uint32_t per_router = ports * V;
    static constexpr std::uint32_t words = (per_router + 63) / 64;

    void reset(std::uint32_t nodes, std::uint32_t depth) {
        depth_ = depth;
        vcs_.assign(static_cast<std::size_t>(nodes) * per_router, InputVc{});
        flits_.assign(static_cast<std::size_t>(nodes) * P * V * depth, Flit{0, 0, 0});
        mask_.assign(static_cast<std::size_t>(nodes) * words, 0);
    }

    [[nodiscard]] static constexpr std::size_t index(std::uint32_t node, std::uint32_t port, std::uint32_t vc) {
        return (static_cast<std::size_t>(node) * ports + port) * V + vc;
    }
    [[nodiscard]] static constexpr std::uint32_t node_of(std::size_t iv) { return static_cast<std::uint32_t>(iv / per_router); }
    [[nodiscard]] static constexpr std::uint32_t port_of(std::size_t iv) { return static_cast<std::uint32_t>((iv / V) % ports); }
    [[nodiscard]] static constexpr std::uint32_t vc_of(std::size_t iv) { return static_cast<std::uint32_t>(iv % V); }

    [[nodiscard]] std::size_t size() const { return vcs_.size(); }
    [[nodiscard]] std::uint32_t depth() const { return depth_; }
    [[nodiscard]] InputVc& operator[](std::size_t iv) { return vcs_[iv]; }
    [[nodiscard]] const InputVc& operator[](std::size_t iv) const { return vcs_[iv]; }
    /// The V * (P + Terminals) input VCs of router `node`, port by port.
    [[nodiscard]] InputVc* router(std::uint32_t node) { return vcs_.data() + static_cast<std::size_t>(node) * per_router; }

    /// Appends an arriving flit to network VC `iv`; returns whether it was the
    /// only one (it is the front now). A full ring means the flow control let
    /// too many flits through: an error in the protocol, reported where.
    bool push(std::size_t iv, const Flit& f) {
        InputVc& v = vcs_[iv];
        if (v.count == depth_)
            throw std::logic_error(detail::message("fabric: buffer overflow at node ", node_of(iv), " port ",
                                                   port_of(iv), " vc ", vc_of(iv),
                                                   ": the flow-control protocol let too many flits through"));
        flits_[ring(iv) + (v.head + v.count) % depth_] = f;
        if (++v.count == 1) {
            mark(iv, true);
            return true;
        }
        return false;
    }
    /// The front flit of network VC `iv`.
    [[nodiscard]] const Flit& front(std::size_t iv) const { return flits_[ring(iv) + vcs_[iv].head]; }
    /// Takes the front flit out of network VC `iv`.
    void pop(std::size_t iv) {
        InputVc& v = vcs_[iv];
        v.head = v.head + 1 == depth_ ? 0 : v.head + 1;
        if (--v.count == 0) mark(iv, false);
    }

    /// Marks whether VC `iv` has a front flit (the injection port's VCs are
    /// marked by the kernel as their source queues fill and empty).
    void mark(std::size_t iv, bool on) {
        const std::size_t bit = iv % per_router;
        std::uint64_t& word = mask_[(iv / per_router) * words + bit / 64];
        if (on) word |= std::uint64_t{1} << (bit % 64);
        else word &= ~(std::uint64_t{1} << (bit % 64));
    }
    [[nodiscard]] bool has_front(std::size_t iv) const {
        const std::size_t bit = iv % per_router;
        return (mask_[(iv / per_router) * words + bit / 64] >> (bit % 64)) & 1U;
    }
    [[nodiscard]] bool any_front(std::uint32_t node) const {
        for (std::uint32_t w = 0; w < words; ++w)
            if (mask_[static_cast<std::size_t>(node) * words + w]) return true;
        return false;
    }
    /// Calls f(port, vc) for every VC of router `node` with a front flit, in index order.
    template <class Fn>
    void for_each_front(std::uint32_t node, Fn&& f) const {
        for (std::uint32_t w = 0; w < words; ++w) {
            std::uint64_t bits = mask_[static_cast<std::size_t>(node) * words + w];
            while (bits) {
                const auto bit = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
                bits &= bits - 1;
                f(bit / V, bit % V);
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
    [[nodiscard]] std::size_t ring(std::size_t iv) const {
        return ((iv / per_router) * P * V + iv % per_router) * depth_;
    }

    std::uint32_t depth_ = 1;
    std::vector<InputVc> vcs_;
    std::vector<Flit> flits_;
    std::vector<std::uint64_t> mask_;
};

}  // namespace fabric::cycle
