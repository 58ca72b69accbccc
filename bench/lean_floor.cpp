// How few instructions a flit move can take: the runs of bench/kernel_runs.cpp
// (uniform 0.1, 1-flit packets, the 8x8 and 16x16x16 tori) written from scratch
// with nothing the library's kernel carries for its options, to measure what the
// kernel's goals ask against what its semantics costs. bench/kernel_speed floor
// counts its instructions a move (callgrind) and times it beside the kernel.
//
// The model is the kernel's default router, simplified: dimension order with a
// dateline VC, the shorter way round (ties by a random bit), 2 VCs of 8 flits,
// credits back in 1 cycle, links of 1 cycle; a head is routed in a cycle, asks
// for its output VC, then for the switch; separable round-robin allocators (the
// request nearest a pointer wins; the pointer moves past the winner); Bernoulli
// arrivals drawn as geometric gaps (the kernel's own BernoulliArrivals) and
// uniform destinations. Its figures are its own, not the kernel's: it skips the
// kernel's injection and ejection stages and its source-queue rules.
//
// Two event structures over one model, which must give the same results:
//   wakes   the kernel's: a router is stepped in the cycles it has work, and a
//           step passes over its live VCs (VC allocation, then the switch)
//   stages  per cycle, lists of the VCs due at each stage: VC allocation over
//           the VCs whose routing ends now or that ask again for a held VC,
//           the switch over those granted, losing or given a credit; no router
//           stepped and no VC passed over that is not due
//
//   lean_floor wakes|stages torus8|torus16
// prints one JSON line: flit moves, cycles, mean latency, seconds. Built with
// -DLEAN_FLOOR_OUT_OF_LINE, its stages are functions of their own, so that
// callgrind counts each (bench/callgrind_calls.py reads them).
#include <fabric/core/random.hpp>
#include <fabric/sim/cycle/injection.hpp>

#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
using fabric::Random;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr u32 none = ~0U;

/// A list with a bound fixed at the start: a push is a store and an increment.
template <class T>
struct List {
    std::vector<T> items;
    u32 size = 0;
    void bound(std::size_t n) { items.resize(n); }
    void push(const T& x) { items[size++] = x; }
    void clear() { size = 0; }
    T* begin() { return items.data(); }
    T* end() { return items.data() + size; }
};

/// How far x lies past a round-robin pointer p, in a ring of m: the nearer candidate wins.
constexpr u32 gap(u32 x, u32 p, u32 m) { return x >= p ? x - p : x + m - p; }

#ifdef LEAN_FLOOR_OUT_OF_LINE
#define LEAN_STAGE [[gnu::noinline]]
#else
#define LEAN_STAGE
#endif

enum State : std::uint8_t { idle, routing, waiting, active };

/// A D-dimensional torus of k^D routers and what both event structures share:
/// packets, routes, input VCs and their rings, credits, output VC owners, the
/// allocators' pointers, the events on the wires, and the statistics.
template <u32 D>
struct Model {
    static constexpr u32 P = 2 * D;   // network ports: dimension d up 2d, down 2d + 1
    static constexpr u32 V = 2;
    static constexpr u32 NV = P * V;  // network input VCs (and output VCs) a router
    static constexpr u32 SRC = NV;    // the injection VC's local index; its port is P
    static constexpr u32 L = NV + 1;  // input VCs a router
    static constexpr u32 EJ = P;      // the ejection port
    static constexpr u32 DEPTH = 8;
    static constexpr u32 HOPS = 64;

    struct Vc {
        u64 ready = 0;  // wakes: the cycle its next stage may act; stages: the cycle it last moved a flit
        State state = idle;
        std::uint8_t out_port = 0, out_vc = 0, count = 0;
        u32 head = 0;   // ring slot of its front flit
    };
    struct Step {
        std::uint8_t port, vc;
    };
    struct Arrival {
        u32 router, local, flit;  // flit: packet << 8 | hop
    };
    struct Credit {
        u32 router, out;  // out: the sender's output VC (port * V + vc)
    };

    u32 k, n;
    u64 warmup, measure;
    std::vector<Vc> vcs;                     // per router L
    std::vector<u32> ring;                   // per network input VC DEPTH flits
    std::vector<std::int32_t> credits;       // per output VC
    std::vector<u32> owner, va_rr;           // per output VC: the input VC holding it; VC allocation's pointer
    std::vector<u32> in_rr, out_rr;          // per router and port (P + 1): switch pointers
    std::vector<u32> neighbours;             // per router and port
    std::vector<u64> created;                // per packet
    std::vector<std::uint8_t> measured;      // per packet
    std::vector<u32> free_packets;
    std::vector<Step> routes;                // per packet HOPS steps
    std::vector<std::vector<u32>> queue;     // per router: its terminal's packets not yet injected
    std::vector<u32> queue_front;
    std::array<List<Arrival>, 4> arrivals;   // by cycle, modulo 4
    std::array<List<Credit>, 4> credit_due;
    u64 moves = 0, made = 0, delivered = 0, latency = 0;

    Model(u32 radix, u64 w, u64 m) : k(radix), n(1), warmup(w), measure(m) {
        for (u32 d = 0; d < D; ++d) n *= k;
        vcs.assign(std::size_t{n} * L, Vc{});
        ring.assign(std::size_t{n} * NV * DEPTH, 0);
        credits.assign(std::size_t{n} * NV, DEPTH);
        owner.assign(std::size_t{n} * NV, none);
        va_rr.assign(std::size_t{n} * NV, 0);
        in_rr.assign(std::size_t{n} * (P + 1), 0);
        out_rr.assign(std::size_t{n} * (P + 1), 0);
        queue.resize(n);
        queue_front.assign(n, 0);
        neighbours.resize(std::size_t{n} * P);
        for (u32 r = 0; r < n; ++r) {
            u32 stride = 1;
            for (u32 d = 0; d < D; ++d, stride *= k) {
                const u32 x = r / stride % k;
                neighbours[std::size_t{r} * P + 2 * d] = r - x * stride + (x + 1 == k ? 0 : x + 1) * stride;
                neighbours[std::size_t{r} * P + 2 * d + 1] = r - x * stride + (x == 0 ? k - 1 : x - 1) * stride;
            }
        }
        for (auto& a : arrivals) a.bound(std::size_t{n} * (P + 1));
        for (auto& c : credit_due) c.bound(std::size_t{n} * L);
    }

    [[nodiscard]] Vc& vc(u32 r, u32 local) { return vcs[std::size_t{r} * L + local]; }
    [[nodiscard]] std::size_t out_vc(u32 r, const Vc& v) const {
        return std::size_t{r} * NV + v.out_port * V + v.out_vc;
    }
    [[nodiscard]] Step step_of(u32 flit) const { return routes[std::size_t{flit >> 8} * HOPS + (flit & 0xff)]; }
    [[nodiscard]] u32 flit_at(u32 r, u32 local) {
        if (local == SRC) return queue[r][queue_front[r]] << 8;
        return ring[(std::size_t{r} * NV + local) * DEPTH + vc(r, local).head];
    }

    /// Dimension order, the shorter way (a tie by a random bit), VC 1 past the wrap.
    u32 route(u32 src, u32 dst, Random& rng, Step* out) const {
        u32 len = 0, stride = 1;
        for (u32 d = 0; d < D; ++d, stride *= k) {
            const u32 a = src / stride % k, b = dst / stride % k;
            if (a == b) continue;
            const u32 up_hops = b >= a ? b - a : b + k - a;
            const bool up = up_hops < k - up_hops || (up_hops == k - up_hops && (rng.next() & 1));
            const u32 hops = up ? up_hops : k - up_hops;
            const auto port = static_cast<std::uint8_t>(2 * d + (up ? 0 : 1));
            std::uint8_t v = 0;
            for (u32 h = 0, x = a; h < hops; ++h) {
                out[len++] = Step{port, v};
                if (up ? x + 1 == k : x == 0) v = 1;  // crossed the dateline
                x = up ? (x + 1 == k ? 0 : x + 1) : (x == 0 ? k - 1 : x - 1);
            }
        }
        out[len] = Step{static_cast<std::uint8_t>(EJ), 0};
        return len;
    }

    /// A packet of terminal `src` at `now`; returns whether it is the front of the terminal's queue.
    LEAN_STAGE bool create(u32 src, u64 now, Random& rng) {
        const auto dst = static_cast<u32>(rng.below(n));
        u32 id;
        if (free_packets.empty()) {
            id = static_cast<u32>(created.size());
            created.push_back(0);
            measured.push_back(0);
            routes.resize(routes.size() + HOPS);
        } else {
            id = free_packets.back();
            free_packets.pop_back();
        }
        created[id] = now;
        measured[id] = now >= warmup && now < warmup + measure;
        made += measured[id];
        route(src, dst, rng, &routes[std::size_t{id} * HOPS]);
        queue[src].push_back(id);
        return queue[src].size() - queue_front[src] == 1;
    }

    /// A flit off the wire into its input VC; returns whether it is the VC's front.
    LEAN_STAGE bool arrive(const Arrival& a) {
        Vc& v = vc(a.router, a.local);
        u32 slot = v.head + v.count;
        if (slot >= DEPTH) slot -= DEPTH;
        ring[(std::size_t{a.router} * NV + a.local) * DEPTH + slot] = a.flit;
        return v.count++ == 0;
    }

    /// The front flit of input VC `local` crosses the switch at `now`; returns whether a flit follows it.
    LEAN_STAGE bool transfer(u32 r, u32 local, u64 now) {
        Vc& v = vc(r, local);
        ++moves;
        u32 flit;
        bool more;
        if (local == SRC) {
            flit = queue[r][queue_front[r]++] << 8;
            more = queue_front[r] < queue[r].size();
            if (!more) {
                queue[r].clear();
                queue_front[r] = 0;
            }
        } else {
            flit = ring[(std::size_t{r} * NV + local) * DEPTH + v.head];
            v.head = v.head + 1 == DEPTH ? 0 : v.head + 1;
            more = --v.count != 0;
            const u32 port = local / V;  // its credit goes back to the router that sent it
            credit_due[(now + 1) & 3].push({neighbours[std::size_t{r} * P + port], (port ^ 1U) * V + local % V});
        }
        if (v.out_port == EJ) {
            const u32 id = flit >> 8;
            if (measured[id]) {
                ++delivered;
                latency += now + 2 - created[id];
            }
            free_packets.push_back(id);
        } else {
            const std::size_t ov = out_vc(r, v);
            --credits[ov];
            owner[ov] = none;  // a 1-flit packet's tail frees its output VC
            const u32 down = neighbours[std::size_t{r} * P + v.out_port];
            arrivals[(now + 2) & 3].push({down, (v.out_port ^ 1U) * V + v.out_vc, flit + 1});
        }
        return more;
    }
    /// The flit at the front of a VC: its step, and routing ahead.
    void head(u32 r, u32 local, u32 flit) {
        Vc& v = vc(r, local);
        const Step s = step_of(flit);
        v.state = routing;
        v.out_port = s.port;
        v.out_vc = s.vc;
    }
};

/// The kernel's structure: routers stepped when due, each step passing over its live VCs.
template <u32 D>
struct Wakes {
    using M = Model<D>;
    M& m;
    std::vector<u32> live;          // per router: a mask of VCs holding a flit
    std::vector<u64> wake;          // per router
    std::vector<std::uint8_t> on;   // per router: in the active list
    std::vector<u32> awake;

    explicit Wakes(M& model) : m(model), live(model.n, 0), wake(model.n, ~u64{0}), on(model.n, 0) {}

    void activate(u32 r, u64 at) {
        if (at < wake[r]) wake[r] = at;
        if (!on[r]) {
            on[r] = 1;
            awake.push_back(r);
        }
    }
    void front(u32 r, u32 local, u32 flit, u64 now) {
        m.head(r, local, flit);
        m.vc(r, local).ready = now + 1;  // routing
        live[r] |= 1U << local;
        activate(r, now + 1);
    }
    void credit(const typename M::Credit& c, u64 now) { activate(c.router, now); }

    u64 step(u32 r, u64 now) {
        typename M::Vc* const rv = &m.vcs[std::size_t{r} * M::L];
        u64 next = ~u64{0};
        u32 asks[M::L], n_ask = 0, bid_vc[M::P + 1], bid_out[M::P + 1], bids = 0;
        u32* const in_rr = &m.in_rr[std::size_t{r} * (M::P + 1)];
        for (u32 bits = live[r]; bits; bits &= bits - 1) {
            const auto local = static_cast<u32>(std::countr_zero(bits));
            auto& v = rv[local];
            if (v.ready > now) {
                next = v.ready < next ? v.ready : next;
                continue;
            }
            if (v.state == routing) v.state = waiting;
            if (v.state == waiting) {
                asks[n_ask++] = local;
            } else if (v.out_port == M::EJ || m.credits[m.out_vc(r, v)] > 0) {  // else a credit wakes it
                const u32 port = local / M::V, vc = local % M::V, bit = 1U << port;
                if ((bids & bit) && gap(vc, in_rr[port], M::V) >= gap(bid_vc[port], in_rr[port], M::V)) continue;
                bids |= bit;
                bid_vc[port] = vc;
                bid_out[port] = v.out_port;
            }
        }
        for (u32 i = 0; i < n_ask; ++i) {  // VC allocation: per output VC, the asker nearest its pointer
            auto& v = rv[asks[i]];
            if (v.out_port == M::EJ) {
                v.state = active;
                v.ready = now + 1;
                next = v.ready < next ? v.ready : next;
                continue;
            }
            const std::size_t ov = m.out_vc(r, v);
            if (m.owner[ov] != none) {  // held (or just given to a nearer asker): ask again next cycle
                next = now + 1 < next ? now + 1 : next;
                continue;
            }
            u32 best = asks[i];
            for (u32 j = i + 1; j < n_ask; ++j)
                if (rv[asks[j]].out_port == v.out_port && rv[asks[j]].out_vc == v.out_vc &&
                    gap(asks[j], m.va_rr[ov], M::L) < gap(best, m.va_rr[ov], M::L))
                    best = asks[j];
            m.owner[ov] = best;
            m.va_rr[ov] = best + 1 == M::L ? 0 : best + 1;
            rv[best].state = active;
            rv[best].ready = now + 1;
            next = now + 1 < next ? now + 1 : next;  // and a loser asks again
        }
        if (!bids) return next;
        u32 outs = 0, winner[M::P + 1];  // the switch: per output, the input port nearest its pointer
        u32* const out_rr = &m.out_rr[std::size_t{r} * (M::P + 1)];
        for (u32 b = bids; b; b &= b - 1) {
            const auto in = static_cast<u32>(std::countr_zero(b));
            const u32 out = bid_out[in], bit = 1U << out;
            if ((outs & bit) && gap(in, out_rr[out], M::P + 1) >= gap(winner[out], out_rr[out], M::P + 1)) continue;
            outs |= bit;
            winner[out] = in;
        }
        for (; outs; outs &= outs - 1) {
            const auto out = static_cast<u32>(std::countr_zero(outs));
            const u32 in = winner[out], vc = bid_vc[in], local = in == M::P ? M::SRC : in * M::V + vc;
            out_rr[out] = in + 1 == M::P + 1 ? 0 : in + 1;
            in_rr[in] = vc + 1 == M::V ? 0 : vc + 1;
            if (m.transfer(r, local, now)) {
                front(r, local, m.flit_at(r, local), now);
            } else {
                rv[local].state = idle;
                live[r] &= ~(1U << local);
            }
        }
        return now + 1 < next ? now + 1 : next;  // the losers bid again
    }

    void cycle(u64 now) {
        std::size_t keep = 0;
        for (std::size_t i = 0; i < awake.size(); ++i) {
            const u32 r = awake[i];
            if (wake[r] > now) {
                awake[keep++] = r;
                continue;
            }
            wake[r] = step(r, now);
            if (live[r]) {
                awake[keep++] = r;
            } else {
                on[r] = 0;
                wake[r] = ~u64{0};
            }
        }
        awake.resize(keep);
    }
};

/// Per-stage lists: in each cycle, VC allocation over the VCs whose routing ends
/// then (or that ask again for a held VC), the switch over the VCs granted, losing
/// or given a credit.
template <u32 D>
struct Stages {
    using M = Model<D>;
    static constexpr u32 PP = M::P + 1;  // switch ports, the terminal's included
    M& m;
    std::array<List<u32>, 4> asks, bids;       // by cycle modulo 4: input VCs (router * L + local)
    List<u32> contenders, in_keys, out_keys;
    std::vector<u64> ask_stamp, in_stamp, out_stamp;  // the cycle a best was last set
    std::vector<u32> ask_best, in_best, out_best;
    std::vector<u32> parked;                   // per output VC: its holder, waiting for a credit

    explicit Stages(M& model)
        : m(model), ask_stamp(std::size_t{model.n} * M::NV, ~u64{0}), in_stamp(std::size_t{model.n} * PP, ~u64{0}),
          out_stamp(std::size_t{model.n} * PP, ~u64{0}), ask_best(std::size_t{model.n} * M::NV, none),
          in_best(std::size_t{model.n} * PP, none), out_best(std::size_t{model.n} * PP, none),
          parked(std::size_t{model.n} * M::NV, none) {
        for (auto& l : asks) l.bound(std::size_t{model.n} * M::L);
        for (auto& l : bids) l.bound(std::size_t{model.n} * M::L);
        contenders.bound(std::size_t{model.n} * M::L);
        in_keys.bound(std::size_t{model.n} * PP);
        out_keys.bound(std::size_t{model.n} * PP);
        for (auto& v : m.vcs) v.ready = ~u64{0};
    }

    LEAN_STAGE void front(u32 r, u32 local, u32 flit, u64 now) {
        m.head(r, local, flit);
        asks[(now + 1) & 3].push(r * M::L + local);  // routing takes a cycle
    }
    void credit(const typename M::Credit& c, u64 now) {
        u32& p = parked[std::size_t{c.router} * M::NV + c.out];
        if (p != none) {
            bids[now & 3].push(p);
            p = none;
        }
    }

    LEAN_STAGE void allocate_vcs(u64 now) {
        List<u32>& later = asks[(now + 1) & 3];
        contenders.clear();
        for (const u32 g : asks[now & 3]) {
            auto& v = m.vcs[g];
            if (v.out_port == M::EJ) {  // no VC to hold
                v.state = active;
                bids[(now + 1) & 3].push(g);
                continue;
            }
            const u32 r = g / M::L, local = g - r * M::L;
            const std::size_t ov = m.out_vc(r, v);
            if (m.owner[ov] != none) {
                later.push(g);  // held: asks again next cycle
                continue;
            }
            if (ask_stamp[ov] != now) {
                ask_stamp[ov] = now;
                ask_best[ov] = g;
            } else if (gap(local, m.va_rr[ov], M::L) < gap(ask_best[ov] - r * M::L, m.va_rr[ov], M::L)) {
                ask_best[ov] = g;
            }
            contenders.push(g);
        }
        asks[now & 3].clear();
        for (const u32 g : contenders) {
            auto& v = m.vcs[g];
            const u32 r = g / M::L, local = g - r * M::L;
            const std::size_t ov = m.out_vc(r, v);
            if (ask_best[ov] != g) {
                later.push(g);
                continue;
            }
            m.owner[ov] = local;
            m.va_rr[ov] = local + 1 == M::L ? 0 : local + 1;
            v.state = active;
            bids[(now + 1) & 3].push(g);
        }
    }

    LEAN_STAGE void allocate_switch(u64 now) {
        contenders.clear();
        in_keys.clear();
        out_keys.clear();
        for (const u32 g : bids[now & 3]) {  // per input port, the VC nearest its pointer
            const auto& v = m.vcs[g];
            const u32 r = g / M::L, local = g - r * M::L;
            if (v.out_port != M::EJ && m.credits[m.out_vc(r, v)] <= 0) {
                parked[m.out_vc(r, v)] = g;
                continue;
            }
            contenders.push(g);
            const u32 vc = local % M::V;
            const std::size_t key = std::size_t{r} * PP + local / M::V;
            if (in_stamp[key] != now) {
                in_stamp[key] = now;
                in_best[key] = g;
                in_keys.push(static_cast<u32>(key));
            } else if (gap(vc, m.in_rr[key], M::V) < gap((in_best[key] - r * M::L) % M::V, m.in_rr[key], M::V)) {
                in_best[key] = g;
            }
        }
        bids[now & 3].clear();
        for (const u32 key : in_keys) {  // per output, the input port nearest its pointer
            const u32 r = key / PP, port = key - r * PP;
            const std::size_t out_key = std::size_t{r} * PP + m.vcs[in_best[key]].out_port;
            if (out_stamp[out_key] != now) {
                out_stamp[out_key] = now;
                out_best[out_key] = port;
                out_keys.push(static_cast<u32>(out_key));
            } else if (gap(port, m.out_rr[out_key], PP) < gap(out_best[out_key], m.out_rr[out_key], PP)) {
                out_best[out_key] = port;
            }
        }
        for (const u32 out_key : out_keys) {
            const u32 r = out_key / PP, port = out_best[out_key];
            const std::size_t key = std::size_t{r} * PP + port;
            const u32 local = in_best[key] - r * M::L, vc = local % M::V;
            m.out_rr[out_key] = port + 1 == PP ? 0 : port + 1;
            m.in_rr[key] = vc + 1 == M::V ? 0 : vc + 1;
            m.vc(r, local).ready = now;  // moved: not a loser
            if (m.transfer(r, local, now)) front(r, local, m.flit_at(r, local), now);
            else m.vc(r, local).state = idle;
        }
        List<u32>& later = bids[(now + 1) & 3];
        for (const u32 g : contenders)
            if (m.vcs[g].ready != now) later.push(g);  // lost: bids again next cycle
    }

    void cycle(u64 now) {
        allocate_vcs(now);
        allocate_switch(now);
    }
};

template <u32 D, template <u32> class Structure>
[[gnu::noinline]] void kernel_run(u32 k, u64 warmup, u64 measure) {
    const auto start = std::chrono::steady_clock::now();
    Model<D> m(k, warmup, measure);
    Structure<D> s(m);
    Random rng(1);
    fabric::cycle::BernoulliArrivals arrivals(m.n, 0.1);
    for (u64 now = 0;; ++now) {
        arrivals.step(now, rng, [](u32) { return true; }, [&](u32 src) {
            if (m.create(src, now, rng)) s.front(src, Model<D>::SRC, m.flit_at(src, Model<D>::SRC), now);
        });
        for (const auto& c : m.credit_due[now & 3]) {
            ++m.credits[std::size_t{c.router} * Model<D>::NV + c.out];
            s.credit(c, now);
        }
        m.credit_due[now & 3].clear();
        for (const auto& a : m.arrivals[now & 3])
            if (m.arrive(a)) s.front(a.router, a.local, a.flit, now);
        m.arrivals[now & 3].clear();
        s.cycle(now);
        if (now + 1 >= warmup + measure && m.delivered == m.made) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::printf("{\"flit_moves\": %llu, \"cycles\": %llu, \"latency_mean\": %.4f, \"seconds\": %.6f}\n",
                        static_cast<unsigned long long>(m.moves), static_cast<unsigned long long>(now + 1),
                        static_cast<double>(m.latency) / static_cast<double>(m.delivered), seconds);
            return;
        }
    }
}
}  // namespace

int main(int argc, char** argv) {
    const std::string structure = argc > 1 ? argv[1] : "", which = argc > 2 ? argv[2] : "";
    const bool stages = structure == "stages";
    if ((!stages && structure != "wakes") || (which != "torus8" && which != "torus16")) {
        std::fprintf(stderr, "usage: lean_floor wakes|stages torus8|torus16\n");
        return 2;
    }
    if (which == "torus8") stages ? kernel_run<2, Stages>(8, 2000, 20000) : kernel_run<2, Wakes>(8, 2000, 20000);
    else stages ? kernel_run<3, Stages>(16, 50, 500) : kernel_run<3, Wakes>(16, 50, 500);
    return 0;
}
