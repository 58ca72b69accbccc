// The two allocation stages of the cycle kernel's routers, each owning its state:
//  - VcAllocation: which input VC holds each output VC, and per output VC the
//    round-robin arbiter that grants it (RoundRobinVcAllocator) among the heads
//    that ask in a router step; with priority levels, only the highest level's
//    requests for an output VC compete.
//  - SwitchArbitration<A>: the switch allocator policy A, a second stage of A for
//    speculative requests (CycleConfig::speculative), and, with priority levels,
//    requests allocated level by level, each on the switch ports the levels above
//    left room on (input and output speedup counted).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/core/large_pages.hpp>
#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/shape.hpp>

namespace fabric::cycle {

class VcAllocation {
public:
    void reset(std::size_t input_vcs, std::uint32_t per_router) {
        vcs_.assign(input_vcs, OutputVc{});
        requests_.assign(per_router, {});
        levels_.assign(per_router, 0);
        count_ = 0;
    }
    /// The input VC holding output VC `ov` (an input VC index: router * per_router + port * V + vc), none, or tail_pending.
    [[nodiscard]] std::uint32_t& owner(std::size_t ov) { return vcs_[ov].owner; }
    [[nodiscard]] std::uint32_t owner(std::size_t ov) const { return vcs_[ov].owner; }

    void begin() { count_ = 0; }
    /// The one request of a step: input VC `iv` takes output VC `ov`, whose pointer moves past it.
    void grant(std::size_t iv, std::size_t ov) {
        vcs_[ov] = OutputVc{static_cast<std::uint32_t>(iv), static_cast<std::uint32_t>(iv + 1)};
    }
    void request(std::size_t iv, std::size_t ov, std::uint8_t level) {
        levels_[count_] = level;
        requests_[count_++] = {iv, ov};
    }
    /// Grants each free output VC asked for to the requester nearest at or after
    /// its pointer (among the highest level when `prioritised`): grant(input VC)
    /// per winner, lost() per request whose output VC went to another.
    template <class Grant, class Lost>
    void allocate(bool prioritised, Grant&& grant, Lost&& lost) {
        if (prioritised && count_ > 1) keep_highest_levels();
        RoundRobinVcAllocator::allocate_with(
            std::span<const std::pair<std::size_t, std::size_t>>(requests_.data(), count_),
            [&](std::size_t ov) -> std::uint32_t& { return vcs_[ov].owner; },
            [&](std::size_t ov) -> std::uint32_t& { return vcs_[ov].pointer; }, vcs_.size(), grant, lost);
    }

    /// Without priority levels, `n` requests given as lists (input VC vbase +
    /// local[i] asks for output VC ov[i]), granted as request for each and
    /// allocate would: in request order, each free output VC to its requester
    /// nearest at or after its pointer; lost() per request whose VC went to another.
    template <class Grant, class Lost>
    void allocate_lists(std::uint32_t n, const std::uint32_t* local, const std::size_t* ov, std::size_t vbase,
                        Grant&& grant, Lost&& lost) {
        for (std::uint32_t i = 0; i < n; ++i) {
            OutputVc& o = vcs_[ov[i]];
            if (o.owner != none) {
                lost();
                continue;
            }
            std::size_t best = vbase + local[i];
            for (std::uint32_t j = i + 1; j < n; ++j)
                if (ov[j] == ov[i] && ring_distance(o.pointer, vbase + local[j], vcs_.size()) <
                                          ring_distance(o.pointer, best, vcs_.size()))  // seldom: sized here
                    best = vbase + local[j];
            o.owner = static_cast<std::uint32_t>(best);
            o.pointer = static_cast<std::uint32_t>(best + 1);
            grant(best);
        }
    }

private:
    /// Keeps, of the requests, those of the highest level among the requests for the same output VC.
    void keep_highest_levels() {
        std::size_t keep = 0;
        for (std::size_t i = 0; i < count_; ++i) {
            std::uint8_t best = levels_[i];
            for (std::size_t j = 0; j < count_; ++j)
                if (requests_[j].second == requests_[i].second) best = std::min(best, levels_[j]);
            if (levels_[i] == best) {
                levels_[keep] = levels_[i];
                requests_[keep++] = requests_[i];
            }
        }
        count_ = keep;
    }

    struct OutputVc {
        std::uint32_t owner = none;  // the input VC holding it
        std::uint32_t pointer = 0;   // its arbiter's round-robin pointer
    };
    std::vector<OutputVc, detail::LargePageAllocator<OutputVc>> vcs_;  // per output VC, side by side
    std::vector<std::pair<std::size_t, std::size_t>> requests_;  // this step's (input VC, output VC)
    std::vector<std::uint8_t> levels_;
    std::size_t count_ = 0;
};

template <SwitchAllocator A>
class SwitchArbitration {
public:
    static constexpr std::uint32_t in_speedup = [] {
        if constexpr (requires { A::input_speedup; }) return A::input_speedup;
        else return 1U;
    }();
    static constexpr std::uint32_t out_speedup = [] {
        if constexpr (requires { A::output_speedup; }) return A::output_speedup;
        else return 1U;
    }();

    void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs, bool speculative, std::uint32_t levels) {
        levels_ = levels;
        main_.reset(routers, ports, vcs);
        speculative_on_ = speculative;
        if (speculative) speculative_.reset(routers, ports, vcs);
        ranked_.assign(std::size_t{ports} * vcs, {});
        in_used_.assign(ports, 0);
        out_used_.assign(ports, 0);
    }
    [[nodiscard]] bool prioritised() const { return levels_ > 1; }

    void begin(std::uint32_t router) {
        router_ = router;
        ranked_count_ = 0;
        main_.begin(router);
    }
    void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out, std::uint8_t level) {
        if (levels_ > 1) ranked_[ranked_count_++] = {in, vc, out, level};
        else main_.request(in, vc, out);
    }
    /// A request without priority levels (prioritised() false).
    void request_unranked(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { main_.request(in, vc, out); }
    void begin_speculative() { speculative_.begin(router_); }
    /// A step's one request, with no levels and no speculation, crosses the switch:
    /// the policy moves its pointers as its allocation would (its own shortcut
    /// where it has one, else a whole allocation of the one request).
    void alone(std::uint32_t router, std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
        if constexpr (requires { main_.alone(router, in, vc, out); }) {
            main_.alone(router, in, vc, out);
        } else {
            main_.begin(router);
            main_.request(in, vc, out);
            main_.allocate([](std::uint32_t, std::uint32_t, std::uint32_t) {});
        }
    }
    void request_speculative(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { speculative_.request(in, vc, out); }
    /// Without levels or speculation: a step's `n` requests (request(i)) allocated at
    /// once, where the policy can (its allocate_all); false, and nothing done, if not.
    template <class Request, class Grant>
    bool allocate_all(std::uint32_t router, std::uint32_t n, Request&& request, Grant&& grant) {
        if constexpr (requires { main_.allocate_all(router, n, request, grant); })
            return main_.allocate_all(router, n, request, grant);
        else return false;
    }
    [[nodiscard]] bool any(bool speculate) const {
        return main_.any() || ranked_count_ != 0 || (speculate && speculative_.any());
    }

    /// Allocates this step's requests; grant(in, vc, out) for each pair that crosses the switch.
    template <class Grant>
    void allocate(bool speculate, Grant&& grant) {
        if (levels_ <= 1 && !speculate) {
            if (main_.any()) main_.allocate(grant);
            return;
        }
        const bool counted = levels_ > 1 || speculate;  // later stages use what earlier ones left
        if (counted) {
            std::fill(in_used_.begin(), in_used_.end(), 0);
            std::fill(out_used_.begin(), out_used_.end(), 0);
        }
        auto take = [&](std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            if (counted) {
                ++in_used_[in];
                ++out_used_[out];
            }
            grant(in, vc, out);
        };
        if (levels_ <= 1) {
            if (main_.any()) main_.allocate(take);
        } else {  // priority levels in turn, highest first, each on the ports the ones above left room on
            for (std::uint32_t level = 0; ranked_count_ > 0 && level < levels_; ++level) {
                main_.begin(router_);
                for (std::size_t i = 0; i < ranked_count_; ++i)
                    if (const Ranked& r = ranked_[i]; r.level == level && room(r.in, r.out)) main_.request(r.in, r.vc, r.out);
                if (main_.any()) main_.allocate(take);
            }
        }
        // A speculative grant stands only where the stages before left its input and output port room.
        if (speculate && speculative_.any())
            speculative_.allocate([&](std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
                if (room(in, out)) take(in, vc, out);
            });
    }

private:
    struct Ranked {
        std::uint32_t in, vc, out;
        std::uint8_t level;
    };
    [[nodiscard]] bool room(std::uint32_t in, std::uint32_t out) const {
        return in_used_[in] < in_speedup && out_used_[out] < out_speedup;
    }

    typename A::stage main_, speculative_;
    bool speculative_on_ = false;
    std::uint32_t levels_ = 1, router_ = 0;
    std::vector<Ranked> ranked_;  // with priority levels: this step's switch requests
    std::size_t ranked_count_ = 0;
    std::vector<std::uint32_t> in_used_, out_used_;  // per port: flits it has taken this step
};

}  // namespace fabric::cycle
