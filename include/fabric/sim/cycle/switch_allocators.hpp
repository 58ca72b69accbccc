// The cycle kernel's switch allocators (the SwitchAllocator concept,
// concepts/allocator.hpp), chosen by type:
//  - SeparableSwitch (the default; BookSim's separable input-first allocator):
//    each input port puts forward the one VC nearest at or after its pointer
//    among those that request; each output port grants the requesting input
//    nearest at or after its own pointer; both pointers move past the pair.
//  - Islip<I> (McKeown's iSLIP, I iterations): each input port requests every
//    output one of its VCs wants; each output grants the requesting input
//    nearest at or after its grant pointer; each input accepts the granting
//    output nearest at or after its accept pointer. Pointers move, past the pair
//    accepted, only for matches of the first iteration: under uniform load the
//    pointers fall out of step and every cycle gives a full matching. Each pair
//    then moves the VC nearest at or after the input's VC pointer.
//  - SeparableOutputFirst (BookSim's separable_output_first): outputs grant,
//    inputs accept, pointers move for the pairs matched: one iteration of iSLIP.
//  - Wavefront: the request matrix swept by diagonals from a rotating first one.
//  - Speedup<A, In, Out>: any of them on a crossbar with input and output speedup.
// BookSim's VC-allocator choice has no counterpart: routes here name the exact
// output VC of every hop, so an input VC makes one VC request and any of those
// allocators reduces to one round-robin arbiter per output VC
// (RoundRobinVcAllocator).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <fabric/concepts/allocator.hpp>
#include <fabric/sim/cycle/allocators.hpp>

namespace fabric {

namespace detail {
/// Whether `a` is nearer than `b` going forward from `from` on a ring of `n`.
constexpr bool nearer(std::uint32_t from, std::uint32_t a, std::uint32_t b, std::uint32_t n) {
    return (a >= from ? a - from : a + n - from) < (b >= from ? b - from : b + n - from);
}

struct SwitchRequest {
    std::uint32_t in, vc, out;
};

/// For allocators that match ports, not VCs: each matched input sends the VC
/// nearest at or after its VC pointer among those that asked for its output;
/// grants go out in increasing output order and move the VC pointers.
template <std::uint32_t Ports, std::uint32_t V, class Grant>
void grant_matched(std::span<const SwitchRequest> requests, const std::array<std::uint32_t, Ports>& in_match,
                   const std::array<std::uint32_t, Ports>& out_match, std::uint32_t* vc_rr, Grant& grant) {
    std::array<std::uint32_t, Ports> vc_of;
    vc_of.fill(cycle::no_port);
    for (const auto [in, vc, out] : requests) {
        if (in_match[in] != out) continue;
        if (vc_of[in] == cycle::no_port || nearer(vc_rr[in], vc, vc_of[in], V)) vc_of[in] = vc;
    }
    for (std::uint32_t out = 0; out < Ports; ++out) {
        const std::uint32_t in = out_match[out];
        if (in == cycle::no_port) continue;
        grant(in, vc_of[in], out);
        vc_rr[in] = vc_of[in] + 1 == V ? 0 : vc_of[in] + 1;
    }
}
}  // namespace detail

struct SeparableSwitch {
    static constexpr std::string_view name = "separable input-first round robin";

    template <std::uint32_t Ports, std::uint32_t V>
    class stage {
    public:
        void reset(std::size_t routers) {
            in_rr_.assign(routers * Ports, 0);
            out_rr_.assign(routers * Ports, 0);
        }
        void begin(std::uint32_t router) {
            base_ = static_cast<std::size_t>(router) * Ports;
            choice_.fill(cycle::no_port);
            any_ = false;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            if (choice_[in] != cycle::no_port && !detail::nearer(in_rr_[base_ + in], vc, choice_[in], V)) return;
            choice_[in] = vc;
            out_[in] = out;
            any_ = true;
        }
        [[nodiscard]] bool any() const { return any_; }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::array<std::uint32_t, Ports> winner;
            winner.fill(cycle::no_port);
            std::uint32_t* const out_rr = out_rr_.data() + base_;
            for (std::uint32_t in = 0; in < Ports; ++in) {
                if (choice_[in] == cycle::no_port) continue;
                const std::uint32_t out = out_[in];
                if (winner[out] == cycle::no_port || detail::nearer(out_rr[out], in, winner[out], Ports)) winner[out] = in;
            }
            for (std::uint32_t out = 0; out < Ports; ++out) {
                const std::uint32_t in = winner[out];
                if (in == cycle::no_port) continue;
                grant(in, choice_[in], out);
                out_rr[out] = in + 1 == Ports ? 0 : in + 1;
                in_rr_[base_ + in] = choice_[in] + 1 == V ? 0 : choice_[in] + 1;
            }
        }

    private:
        std::vector<std::uint32_t> in_rr_, out_rr_;  // per router and port
        std::size_t base_ = 0;
        std::array<std::uint32_t, Ports> choice_{}, out_{};
        bool any_ = false;
    };
};

template <unsigned Iterations = 1>
struct Islip {
    static_assert(Iterations >= 1, "fabric: Islip<I> needs at least one iteration; use Islip<1> for BookSim's default");
    static constexpr std::string_view name = "iSLIP";

    template <std::uint32_t Ports, std::uint32_t V>
    class stage {
    public:
        void reset(std::size_t routers) {
            grant_rr_.assign(routers * Ports, 0);
            accept_rr_.assign(routers * Ports, 0);
            vc_rr_.assign(routers * Ports, 0);
        }
        void begin(std::uint32_t router) {
            base_ = static_cast<std::size_t>(router) * Ports;
            count_ = 0;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { requests_[count_++] = {in, vc, out}; }
        [[nodiscard]] bool any() const { return count_ != 0; }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::array<std::uint32_t, Ports> in_match, out_match, granted, accepted;
            in_match.fill(cycle::no_port);
            out_match.fill(cycle::no_port);
            std::uint32_t* const g = grant_rr_.data() + base_;
            std::uint32_t* const a = accept_rr_.data() + base_;
            for (unsigned it = 0; it < Iterations; ++it) {
                granted.fill(cycle::no_port);
                accepted.fill(cycle::no_port);
                for (std::uint32_t r = 0; r < count_; ++r) {  // grant
                    const auto [in, vc, out] = requests_[r];
                    if (in_match[in] != cycle::no_port || out_match[out] != cycle::no_port) continue;
                    if (granted[out] == cycle::no_port || detail::nearer(g[out], in, granted[out], Ports)) granted[out] = in;
                }
                bool more = false;
                for (std::uint32_t out = 0; out < Ports; ++out) {  // accept
                    const std::uint32_t in = granted[out];
                    if (in == cycle::no_port) continue;
                    if (accepted[in] == cycle::no_port || detail::nearer(a[in], out, accepted[in], Ports)) accepted[in] = out;
                }
                for (std::uint32_t in = 0; in < Ports; ++in) {
                    const std::uint32_t out = accepted[in];
                    if (out == cycle::no_port) continue;
                    in_match[in] = out;
                    out_match[out] = in;
                    more = true;
                    if (it == 0) {
                        a[in] = out + 1 == Ports ? 0 : out + 1;
                        g[out] = in + 1 == Ports ? 0 : in + 1;
                    }
                }
                if (!more) break;
            }
            detail::grant_matched<Ports, V>(std::span(requests_.data(), count_), in_match, out_match,
                                            vc_rr_.data() + base_, grant);
        }

    private:
        std::vector<std::uint32_t> grant_rr_, accept_rr_, vc_rr_;  // per router and port
        std::size_t base_ = 0;
        std::array<detail::SwitchRequest, Ports * V> requests_{};
        std::uint32_t count_ = 0;
    };
};

/// BookSim's separable output-first allocator: each output grants the requesting
/// input nearest at or after its pointer, each input accepts the granting output
/// nearest at or after its own, and both pointers move past the pairs accepted.
/// That is exactly one iteration of iSLIP; the name is BookSim's.
struct SeparableOutputFirst : Islip<1> {
    static constexpr std::string_view name = "separable output-first round robin";
};

/// The wavefront allocator: the request matrix (input x output) is swept diagonal
/// by diagonal, the cells with (in + out) mod Ports = d for d = p, p + 1, ...; a
/// requested cell whose input and output are both still free is matched. Cells of
/// one diagonal share no input and no output, so each diagonal is decided at
/// once, and the matching is maximal. The first diagonal p moves on by one at each
/// allocation of a router (BookSim's "wavefront" sweeps the same diagonals).
struct Wavefront {
    static constexpr std::string_view name = "wavefront";

    template <std::uint32_t Ports, std::uint32_t V>
    class stage {
    public:
        void reset(std::size_t routers) {
            diagonal_.assign(routers, 0);
            vc_rr_.assign(routers * Ports, 0);
        }
        void begin(std::uint32_t router) {
            router_ = router;
            count_ = 0;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { requests_[count_++] = {in, vc, out}; }
        [[nodiscard]] bool any() const { return count_ != 0; }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::array<std::uint32_t, Ports> in_match, out_match;
            in_match.fill(cycle::no_port);
            out_match.fill(cycle::no_port);
            std::uint32_t& first = diagonal_[router_];
            for (std::uint32_t step = 0; step < Ports; ++step) {
                const std::uint32_t d = (first + step) % Ports;
                for (std::uint32_t r = 0; r < count_; ++r) {
                    const auto [in, vc, out] = requests_[r];
                    if ((in + out) % Ports != d || in_match[in] != cycle::no_port || out_match[out] != cycle::no_port)
                        continue;
                    in_match[in] = out;
                    out_match[out] = in;
                }
            }
            first = first + 1 == Ports ? 0 : first + 1;
            detail::grant_matched<Ports, V>(std::span(requests_.data(), count_), in_match, out_match,
                                            vc_rr_.data() + static_cast<std::size_t>(router_) * Ports, grant);
        }

    private:
        std::vector<std::uint32_t> diagonal_;  // per router
        std::vector<std::uint32_t> vc_rr_;     // per router and input port
        std::uint32_t router_ = 0;
        std::array<detail::SwitchRequest, Ports * V> requests_{};
        std::uint32_t count_ = 0;
    };
};

/// Input and output speedup (BookSim's input_speedup and output_speedup) around
/// any switch allocator A: the crossbar has In inputs per input port and Out
/// outputs per output port, and A matches on that larger crossbar. As in
/// BookSim, VC v of input port i uses crossbar input i In + v mod In, and a
/// request from input port i for output port o uses crossbar output
/// o Out + i mod Out; so an input port sends up to In flits a cycle (from VCs of
/// different residues) and an output port takes up to Out. The kernel needs
/// output queues for Out > 1 (a link still takes one flit a cycle), and its
/// ejection port hands on one flit a cycle, the others waiting their turn.
template <SwitchAllocator A, std::uint32_t In, std::uint32_t Out>
struct Speedup {
    static_assert(In >= 1 && Out >= 1 && In <= 16 && Out <= 16,
                  "fabric: Speedup<A, In, Out> takes speedups from 1 to 16; 1 is no speedup");
    static constexpr std::string_view name = A::name;
    static constexpr std::uint32_t input_speedup = In, output_speedup = Out;

    template <std::uint32_t Ports, std::uint32_t V>
    class stage {
    public:
        void reset(std::size_t routers) { inner_.reset(routers); }
        void begin(std::uint32_t router) { inner_.begin(router); }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            inner_.request(in * In + vc % In, vc, out * Out + in % Out);
        }
        [[nodiscard]] bool any() const { return inner_.any(); }
        template <class Grant>
        void allocate(Grant&& grant) {
            inner_.allocate([&](std::uint32_t in, std::uint32_t vc, std::uint32_t out) { grant(in / In, vc, out / Out); });
        }

    private:
        typename A::template stage<Ports * (In > Out ? In : Out), V> inner_;
    };
};

}  // namespace fabric
