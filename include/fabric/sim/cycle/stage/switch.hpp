// The switch allocators of the stage-list kernel, over a router's bids of a cycle
// (a mask of its input VCs), making the grants and pointer moves the wake kernel's
// allocators (switch_allocators.hpp) make over the same requests: none of them
// depends on the order requests come in (each stage picks the nearest at or after
// a pointer), so a mask is all they need. Grants go out by increasing output port.
//   SeparableSwitch          per input port the VC nearest its pointer, per output
//                            port the input nearest its pointer
//   Islip<I> (and SeparableOutputFirst, which is Islip<1>)
//                            I iterations of grant, accept and match, pointers moved
//                            by the first iteration's matches; each matched input
//                            sends its VC nearest its VC pointer
// A lone bid wins, and the pointers move as a whole allocation of it would move them.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include <fabric/sim/cycle/stage/layout.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace fabric::cycle {

namespace stage_detail {
/// The member of `m` nearest at or after `p` on a ring (m nonzero, p below 64).
[[gnu::always_inline]] inline std::uint32_t nearest(std::uint64_t m, std::uint32_t p) {
    const std::uint64_t ahead = m & (~std::uint64_t{0} << p);
    return static_cast<std::uint32_t>(std::countr_zero(ahead ? ahead : m));
}
constexpr std::uint8_t next(std::uint32_t x, std::uint32_t n) { return static_cast<std::uint8_t>(x + 1 == n ? 0 : x + 1); }
/// A pointer moved past x on a ring of N: x + 1 where N is below 64 (a pointer at N
/// picks as one at 0 would: `nearest` of a mask below N finds none at or after N and
/// takes the lowest), so that no wrap is tested.
template <std::uint32_t N>
[[gnu::always_inline]] inline std::uint8_t after(std::uint32_t x) {
    if constexpr (N < 64) return static_cast<std::uint8_t>(x + 1);
    else return next(x, N);
}

/// Calls f(port, vcs) for each port with a bid in `bids` (a router's input VCs,
/// V a port), in increasing port order, `vcs` the mask of its bidding VCs.
template <std::uint32_t V, class Bids, class F>
[[gnu::always_inline]] inline void for_each_port(const Bids& bids, F&& f) {
    if constexpr (Bids::words == 1) {
        constexpr std::uint64_t vcs = V >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << V) - 1;
        for (std::uint64_t b = bids.w[0]; b;) {
            const std::uint32_t in = static_cast<std::uint32_t>(std::countr_zero(b)) / V;
            f(in, (b >> (in * V)) & vcs);
            b &= ~(vcs << (in * V));
        }
    } else {
        std::uint32_t last = ~0U;
        std::uint64_t mine = 0;
        bids.for_each([&](std::uint32_t l) {
            if (l / V != last && last != ~0U) f(last, mine), mine = 0;
            last = l / V;
            mine |= std::uint64_t{1} << (l % V);
        });
        if (last != ~0U) f(last, mine);
    }
}

template <unsigned I>
constexpr unsigned islip_iterations(const Islip<I>*) {
    return I;
}
constexpr unsigned islip_iterations(const void*) { return 0; }
/// The iterations of the `Islip<I>` that A is (or derives from: SeparableOutputFirst); 0 if none.
template <class A>
inline constexpr unsigned islip_of = islip_iterations(static_cast<const A*>(nullptr));
}  // namespace stage_detail

template <class A, class S>
struct StageSwitch;

/// Which allocators the stage-list kernel has.
template <class A>
inline constexpr bool stage_switch_v = std::is_same_v<A, SeparableSwitch> || stage_detail::islip_of<A> > 0;

template <class S>
struct StageSwitch<SeparableSwitch, S> {
    static constexpr std::uint32_t NP = S::NP, V = S::V;
    struct State {
        std::uint8_t in_rr[NP]{};   // per input port: the VC nearest at or after it is put forward
        std::uint8_t out_rr[NP]{};  // per output port: the input port nearest at or after it wins
    };
    /// A lone bid's grant: the pointers move past it (stage_detail::after: no wrap tested).
    [[gnu::always_inline]] static void lone(State& s, std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
        if (in >= NP || out >= NP) __builtin_unreachable();  // a bid's ports are the router's
        s.out_rr[out] = stage_detail::after<NP>(in);
        s.in_rr[in] = stage_detail::after<V>(vc);
    }
    /// grant(local) for each winner, by increasing output port; `vcs`: the router's input VCs.
    template <class Bids, class Grant>
    [[gnu::always_inline]] static void allocate(State& s, const Bids& bids, const StageVc* vcs, Grant&& grant) {
        std::uint32_t vc_of[NP], by_out[NP];  // read only where `ins` / `outs` have their bit
        std::uint64_t outs = 0;
        stage_detail::for_each_port<V>(bids, [&](std::uint32_t in, std::uint64_t mine) {
            const std::uint32_t vc = stage_detail::nearest(mine, s.in_rr[in]);
            vc_of[in] = vc;
            const std::uint32_t out = vcs[in * V + vc].port;
            const std::uint64_t bit = std::uint64_t{1} << out;
            if (!(outs & bit)) {
                outs |= bit;
                by_out[out] = 0;
            }
            by_out[out] |= 1U << in;
        });
        for (; outs; outs &= outs - 1) {
            const auto out = static_cast<std::uint32_t>(std::countr_zero(outs));
            const std::uint32_t in = stage_detail::nearest(by_out[out], s.out_rr[out]);
            if (in >= NP) __builtin_unreachable();  // by_out[out] holds an input port
            const std::uint32_t vc = vc_of[in];
            s.out_rr[out] = stage_detail::after<NP>(in);
            s.in_rr[in] = stage_detail::after<V>(vc);
            grant(in * V + vc);
        }
    }
};

template <class A, class S>
    requires(stage_detail::islip_of<A> > 0)
struct StageSwitch<A, S> {
    static constexpr std::uint32_t NP = S::NP, V = S::V;
    static constexpr unsigned iterations = stage_detail::islip_of<A>;
    struct State {
        std::uint8_t grant_rr[NP]{}, accept_rr[NP]{}, vc_rr[NP]{};
    };
    /// A lone bid's grant: the pointers move past it (stage_detail::after: no wrap tested).
    [[gnu::always_inline]] static void lone(State& s, std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
        if (in >= NP || out >= NP || vc >= V) __builtin_unreachable();  // a bid's ports and VC are the router's
        s.accept_rr[in] = stage_detail::after<NP>(out);
        s.grant_rr[out] = stage_detail::after<NP>(in);
        s.vc_rr[in] = stage_detail::after<V>(vc);
    }
    template <class Bids, class Grant>
    [[gnu::always_inline]] static void allocate(State& s, const Bids& bids, const StageVc* vcs, Grant&& grant) {
        std::uint64_t wants[NP];  // per output port: the input ports with a VC bidding for it (where `outs` says)
        std::uint64_t outs = 0;
        bids.for_each([&](std::uint32_t l) {
            const std::uint32_t out = vcs[l].port;
            const std::uint64_t bit = std::uint64_t{1} << out;
            if (!(outs & bit)) {
                outs |= bit;
                wants[out] = 0;
            }
            wants[out] |= std::uint64_t{1} << (l / V);
        });
        std::uint64_t free_ins = ~std::uint64_t{0}, free_outs = outs;
        std::uint32_t match_of_out[NP];
        for (unsigned it = 0; it < iterations; ++it) {
            std::uint64_t granted_to[NP];  // per input port: the outputs granting it (where `granted_ins` says)
            std::uint64_t granted_ins = 0;
            for (std::uint64_t b = free_outs; b; b &= b - 1) {  // grant: each free output its nearest free input
                const auto out = static_cast<std::uint32_t>(std::countr_zero(b));
                const std::uint64_t asking = wants[out] & free_ins;
                if (!asking) continue;
                const std::uint32_t in = stage_detail::nearest(asking, s.grant_rr[out]);
                if (in >= NP) __builtin_unreachable();  // `asking` holds an input port
                const std::uint64_t bit = std::uint64_t{1} << in;
                if (!(granted_ins & bit)) {
                    granted_ins |= bit;
                    granted_to[in] = 0;
                }
                granted_to[in] |= std::uint64_t{1} << out;
            }
            if (!granted_ins) break;
            for (std::uint64_t b = granted_ins; b; b &= b - 1) {  // accept: each input its nearest granting output
                const auto in = static_cast<std::uint32_t>(std::countr_zero(b));
                const std::uint32_t out = stage_detail::nearest(granted_to[in], s.accept_rr[in]);
                if (out >= NP) __builtin_unreachable();
                match_of_out[out] = in;
                free_ins &= ~(std::uint64_t{1} << in);
                free_outs &= ~(std::uint64_t{1} << out);
                if (it == 0) {
                    s.accept_rr[in] = stage_detail::after<NP>(out);
                    s.grant_rr[out] = stage_detail::after<NP>(in);
                }
            }
        }
        for (std::uint64_t b = outs & ~free_outs; b; b &= b - 1) {  // each matched input: its VC nearest the pointer
            const auto out = static_cast<std::uint32_t>(std::countr_zero(b));
            const std::uint32_t in = match_of_out[out];
            std::uint64_t mine = 0;
            for (std::uint32_t vc = 0; vc < V; ++vc)
                if (bids.test(in * V + vc) && vcs[in * V + vc].port == out) mine |= std::uint64_t{1} << vc;
            const std::uint32_t vc = stage_detail::nearest(mine, s.vc_rr[in]);
            s.vc_rr[in] = stage_detail::after<V>(vc);
            grant(in * V + vc);
        }
    }
};

}  // namespace fabric::cycle
