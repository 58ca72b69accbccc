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
//
// A router step makes few requests (often one), so SeparableSwitch works on the
// ports that requested only, never on every port of the router.
#pragma once

#include <algorithm>
#include <bit>
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
constexpr std::uint32_t past(std::uint32_t x, std::uint32_t n) { return x + 1 == n ? 0 : x + 1; }

struct SwitchRequest {
    std::uint32_t in, vc, out;
};

/// For allocators that match ports, not VCs: each matched input sends the VC
/// nearest at or after its VC pointer among those that asked for its output;
/// grants go out in increasing output order and move the VC pointers.
template <class Grant>
void grant_matched(std::span<const SwitchRequest> requests, std::span<const std::uint32_t> in_match,
                   std::span<const std::uint32_t> out_match, std::span<std::uint32_t> vc_of, std::uint32_t* vc_rr,
                   std::uint32_t vcs, Grant& grant) {
    std::fill(vc_of.begin(), vc_of.end(), cycle::no_port);
    for (const auto [in, vc, out] : requests) {
        if (in_match[in] != out) continue;
        if (vc_of[in] == cycle::no_port || nearer(vc_rr[in], vc, vc_of[in], vcs)) vc_of[in] = vc;
    }
    for (std::uint32_t out = 0; out < out_match.size(); ++out) {
        const std::uint32_t in = out_match[out];
        if (in == cycle::no_port) continue;
        grant(in, vc_of[in], out);
        vc_rr[in] = past(vc_of[in], vcs);
    }
}
}  // namespace detail

struct SeparableSwitch {
    static constexpr std::string_view name = "separable input-first round robin";

    class stage {
    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            ports_ = ports;
            vcs_ = vcs;
            in_rr_.assign(routers * ports, 0);
            out_rr_.assign(routers * ports, 0);
            choice_.assign(ports, cycle::no_port);
            out_.assign(ports, 0);
            winner_.assign(ports, cycle::no_port);
            ins_.assign(ports, 0);
            outs_.assign(ports, 0);
            n_ins_ = 0;
        }
        void begin(std::uint32_t router) {
            base_ = std::size_t{router} * ports_;
            for (std::uint32_t i = 0; i < n_ins_; ++i) choice_[ins_[i]] = cycle::no_port;
            n_ins_ = 0;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            std::uint32_t& choice = choice_[in];
            if (choice == cycle::no_port) {
                ins_[n_ins_++] = in;
            } else if (!detail::nearer(in_rr_[base_ + in], vc, choice, vcs_)) {
                return;
            }
            choice = vc;
            out_[in] = out;
        }
        [[nodiscard]] bool any() const { return n_ins_ != 0; }
        /// The one request of a router's step: it wins, and both pointers move past it.
        void alone(std::uint32_t router, std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            const std::size_t base = std::size_t{router} * ports_;
            out_rr_[base + out] = detail::past(in, ports_);
            in_rr_[base + in] = detail::past(vc, vcs_);
        }
        /// A router step's `n` requests at once (request(i) gives the i-th: its in,
        /// vc and out), as begin, request for each and allocate would grant them;
        /// false, and nothing done, past 64 ports. Neither stage depends on the
        /// requests' order (each picks the nearest at or after its pointer), so no
        /// list of them is kept: per input port its best VC, per output its best input.
        template <class Request, class Grant>
        bool allocate_all(std::uint32_t router, std::uint32_t n, Request&& request, Grant&& grant) {
            if (ports_ > 64) return false;
            const std::size_t base = std::size_t{router} * ports_;
            std::uint32_t* const in_rr = in_rr_.data() + base;
            std::uint32_t* const out_rr = out_rr_.data() + base;
            std::uint32_t vc_of[64], out_of[64], winner[64];  // by port; read only where a mask bit says set
            std::uint64_t ins = 0, outs = 0;
            for (std::uint32_t i = 0; i < n; ++i) {
                const auto r = request(i);
                const std::uint64_t bit = std::uint64_t{1} << r.in;
                if ((ins & bit) && !detail::nearer(in_rr[r.in], r.vc, vc_of[r.in], vcs_)) continue;
                ins |= bit;
                vc_of[r.in] = r.vc;
                out_of[r.in] = r.out;
            }
            for (std::uint64_t b = ins; b; b &= b - 1) {
                const auto in = static_cast<std::uint32_t>(std::countr_zero(b));
                const std::uint32_t out = out_of[in];
                const std::uint64_t bit = std::uint64_t{1} << out;
                if ((outs & bit) && !detail::nearer(out_rr[out], in, winner[out], ports_)) continue;
                outs |= bit;
                winner[out] = in;
            }
            for (; outs; outs &= outs - 1) {
                const auto out = static_cast<std::uint32_t>(std::countr_zero(outs));
                const std::uint32_t in = winner[out], vc = vc_of[in];
                out_rr[out] = detail::past(in, ports_);
                in_rr[in] = detail::past(vc, vcs_);
                grant(in, vc, out);
            }
            return true;
        }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::uint32_t* const out_rr = out_rr_.data() + base_;
            if (n_ins_ == 1) {  // alone: it wins, and both pointers move past it
                const std::uint32_t in = ins_[0], vc = choice_[in], out = out_[in];
                out_rr[out] = detail::past(in, ports_);
                in_rr_[base_ + in] = detail::past(vc, vcs_);
                grant(in, vc, out);
                return;
            }
            if (ports_ <= 64) {  // the outputs asked for as a mask: grants by output port, no sort
                std::uint64_t outs = 0;
                for (std::uint32_t i = 0; i < n_ins_; ++i) {
                    const std::uint32_t in = ins_[i], out = out_[in];
                    std::uint32_t& w = winner_[out];
                    if (w == cycle::no_port) {
                        outs |= std::uint64_t{1} << out;
                        w = in;
                    } else if (detail::nearer(out_rr[out], in, w, ports_)) {
                        w = in;
                    }
                }
                for (; outs; outs &= outs - 1) {
                    const auto out = static_cast<std::uint32_t>(std::countr_zero(outs));
                    const std::uint32_t in = winner_[out];
                    winner_[out] = cycle::no_port;
                    const std::uint32_t vc = choice_[in];
                    out_rr[out] = detail::past(in, ports_);
                    in_rr_[base_ + in] = detail::past(vc, vcs_);
                    grant(in, vc, out);
                }
                return;
            }
            std::uint32_t n_outs = 0;
            for (std::uint32_t i = 0; i < n_ins_; ++i) {
                const std::uint32_t in = ins_[i], out = out_[in];
                std::uint32_t& w = winner_[out];
                if (w == cycle::no_port) {
                    outs_[n_outs++] = out;
                    w = in;
                } else if (detail::nearer(out_rr[out], in, w, ports_)) {
                    w = in;
                }
            }
            for (std::uint32_t i = 1; i < n_outs; ++i) {  // grants go out by output port: a few, sorted in place
                const std::uint32_t x = outs_[i];
                std::uint32_t j = i;
                for (; j > 0 && outs_[j - 1] > x; --j) outs_[j] = outs_[j - 1];
                outs_[j] = x;
            }
            for (std::uint32_t i = 0; i < n_outs; ++i) {
                const std::uint32_t out = outs_[i], in = winner_[out];
                winner_[out] = cycle::no_port;
                const std::uint32_t vc = choice_[in];
                out_rr[out] = detail::past(in, ports_);
                in_rr_[base_ + in] = detail::past(vc, vcs_);
                grant(in, vc, out);
            }
        }

    private:
        std::uint32_t ports_ = 1, vcs_ = 1;
        std::vector<std::uint32_t> in_rr_, out_rr_;  // per router and port
        std::size_t base_ = 0;
        std::vector<std::uint32_t> choice_, out_;  // per input port: the VC put forward and its output
        std::vector<std::uint32_t> winner_;        // per output port, during allocate
        std::vector<std::uint32_t> ins_, outs_;    // the input ports that requested; the outputs asked for
        std::uint32_t n_ins_ = 0;
    };
};

template <unsigned Iterations = 1>
struct Islip {
    static_assert(Iterations >= 1, "fabric: Islip<I> needs at least one iteration; use Islip<1> for BookSim's default");
    static constexpr std::string_view name = "iSLIP";

    class stage {
    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            ports_ = ports;
            vcs_ = vcs;
            grant_rr_.assign(routers * ports, 0);
            accept_rr_.assign(routers * ports, 0);
            vc_rr_.assign(routers * ports, 0);
            requests_.assign(std::size_t{ports} * vcs, {});
            for (auto* v : {&in_match_, &out_match_, &granted_, &accepted_, &vc_of_}) v->assign(ports, 0);
        }
        void begin(std::uint32_t router) {
            base_ = std::size_t{router} * ports_;
            count_ = 0;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { requests_[count_++] = {in, vc, out}; }
        [[nodiscard]] bool any() const { return count_ != 0; }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::fill(in_match_.begin(), in_match_.end(), cycle::no_port);
            std::fill(out_match_.begin(), out_match_.end(), cycle::no_port);
            std::uint32_t* const g = grant_rr_.data() + base_;
            std::uint32_t* const a = accept_rr_.data() + base_;
            for (unsigned it = 0; it < Iterations; ++it) {
                std::fill(granted_.begin(), granted_.end(), cycle::no_port);
                std::fill(accepted_.begin(), accepted_.end(), cycle::no_port);
                for (std::uint32_t r = 0; r < count_; ++r) {  // grant
                    const auto [in, vc, out] = requests_[r];
                    if (in_match_[in] != cycle::no_port || out_match_[out] != cycle::no_port) continue;
                    if (granted_[out] == cycle::no_port || detail::nearer(g[out], in, granted_[out], ports_))
                        granted_[out] = in;
                }
                bool more = false;
                for (std::uint32_t out = 0; out < ports_; ++out) {  // accept
                    const std::uint32_t in = granted_[out];
                    if (in == cycle::no_port) continue;
                    if (accepted_[in] == cycle::no_port || detail::nearer(a[in], out, accepted_[in], ports_))
                        accepted_[in] = out;
                }
                for (std::uint32_t in = 0; in < ports_; ++in) {
                    const std::uint32_t out = accepted_[in];
                    if (out == cycle::no_port) continue;
                    in_match_[in] = out;
                    out_match_[out] = in;
                    more = true;
                    if (it == 0) {
                        a[in] = detail::past(out, ports_);
                        g[out] = detail::past(in, ports_);
                    }
                }
                if (!more) break;
            }
            detail::grant_matched(std::span(requests_.data(), count_), in_match_, out_match_, vc_of_,
                                  vc_rr_.data() + base_, vcs_, grant);
        }

    private:
        std::uint32_t ports_ = 1, vcs_ = 1;
        std::vector<std::uint32_t> grant_rr_, accept_rr_, vc_rr_;  // per router and port
        std::size_t base_ = 0;
        std::vector<detail::SwitchRequest> requests_;
        std::uint32_t count_ = 0;
        std::vector<std::uint32_t> in_match_, out_match_, granted_, accepted_, vc_of_;  // per port, during allocate
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

    class stage {
    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            ports_ = ports;
            vcs_ = vcs;
            diagonal_.assign(routers, 0);
            vc_rr_.assign(routers * ports, 0);
            requests_.assign(std::size_t{ports} * vcs, {});
            for (auto* v : {&in_match_, &out_match_, &vc_of_}) v->assign(ports, 0);
        }
        void begin(std::uint32_t router) {
            router_ = router;
            count_ = 0;
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) { requests_[count_++] = {in, vc, out}; }
        [[nodiscard]] bool any() const { return count_ != 0; }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::fill(in_match_.begin(), in_match_.end(), cycle::no_port);
            std::fill(out_match_.begin(), out_match_.end(), cycle::no_port);
            std::uint32_t& first = diagonal_[router_];
            for (std::uint32_t step = 0; step < ports_; ++step) {
                const std::uint32_t d = (first + step) % ports_;
                for (std::uint32_t r = 0; r < count_; ++r) {
                    const auto [in, vc, out] = requests_[r];
                    if ((in + out) % ports_ != d || in_match_[in] != cycle::no_port ||
                        out_match_[out] != cycle::no_port)
                        continue;
                    in_match_[in] = out;
                    out_match_[out] = in;
                }
            }
            first = detail::past(first, ports_);
            detail::grant_matched(std::span(requests_.data(), count_), in_match_, out_match_, vc_of_,
                                  vc_rr_.data() + std::size_t{router_} * ports_, vcs_, grant);
        }

    private:
        std::uint32_t ports_ = 1, vcs_ = 1;
        std::vector<std::uint32_t> diagonal_;  // per router
        std::vector<std::uint32_t> vc_rr_;     // per router and input port
        std::uint32_t router_ = 0;
        std::vector<detail::SwitchRequest> requests_;
        std::uint32_t count_ = 0;
        std::vector<std::uint32_t> in_match_, out_match_, vc_of_;  // per port, during allocate
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

    class stage {
    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            inner_.reset(routers, ports * (In > Out ? In : Out), vcs);
        }
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
        typename A::stage inner_;
    };
};

}  // namespace fabric
