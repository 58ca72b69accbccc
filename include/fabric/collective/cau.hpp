// The PERCS hub's Collective Acceleration Unit (Arimilli et al., section IV):
// one CAU per hub; collective trees set up over hubs, each edge a network path of
// one or more hops; multicast, barrier and reductions. A CAU combines a tree's
// values when all its inputs have arrived (its own and its children's) and sends
// the result up; the root's result goes back down the tree.
//
// Operations and types, as the paper lists them: fixed point NOP, SUM, MIN, MAX,
// OR, AND, XOR, signed and unsigned (64-bit here); floating point MIN, MAX, SUM,
// PROD, single and double. Evaluation order: a CAU combines its own value first,
// then its children's in the order the tree lists them, whatever order they
// arrive in, so floating-point results are the same from run to run; the whole
// tree evaluates as a post-order fold, which `serial` computes for comparison.
//
// Reliability: packets carry a sequence number; a CAU acknowledges each; a sender
// whose acknowledgement does not come within the timeout sends the same packet
// again, and a receiver ignores a sequence number it has already combined.
//
// Several trees run at once as long as no hub is in more trees than its CAM has
// entries. Times are in nanoseconds.
//
// graph() gives one tree's reduction as a workload graph over its hubs (rank i is
// the tree's hub i: a run places rank i on that hub's terminal): each hub combines
// (a compute node of the CAU's cycles) once its children's packets are in (a leaf
// at once) and sends the result up; the root's result comes down the tree, each
// hub combining (forwarding) it before it sends it on. With no packet lost, its
// time is reduce()'s done time when each tree edge's hops(a, b) x per_hop is the
// network's latency of a packet between the two hubs and cau_ns the CAU's cycles;
// reduce() sends a hub's packets to all its children at once, a network one after
// the other, which the flit-level test reports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/workload/graph.hpp>

namespace fabric::cau {

enum class Op : std::uint8_t { nop, sum, min, max, bit_or, bit_and, bit_xor, prod };

/// The paper's operations for each type: fixed point has no PROD, floating point
/// no bitwise operations and no NOP.
template <class V>
constexpr bool supports(Op op) {
    if constexpr (std::is_floating_point_v<V>)
        return op == Op::sum || op == Op::min || op == Op::max || op == Op::prod;
    else
        return op != Op::prod;
}

template <class V>
constexpr V combine(Op op, V a, V b) {
    switch (op) {
        case Op::nop: return a;
        case Op::sum: return a + b;
        case Op::min:
            if constexpr (requires { b < a; }) return b < a ? b : a;
            break;
        case Op::max:
            if constexpr (requires { a < b; }) return a < b ? b : a;
            break;
        case Op::prod:
            if constexpr (requires { a * b; }) return a * b;
            break;
        case Op::bit_or:
            if constexpr (std::is_integral_v<V>) return a | b;
            break;
        case Op::bit_and:
            if constexpr (std::is_integral_v<V>) return a & b;
            break;
        case Op::bit_xor:
            if constexpr (std::is_integral_v<V>) return a ^ b;
            break;
    }
    return a;
}

/// A collective tree over hubs: parent[v] (root: itself) and children in order.
class Tree {
public:
    /// A k-ary tree over `hubs` in the order given; hubs[0] is the root.
    static Tree k_ary(std::vector<std::uint32_t> hubs, std::size_t k) {
        detail::require(!hubs.empty(), "a collective tree needs at least one hub");
        detail::require(k >= 1, "a tree's fan-out must be at least 1");
        Tree t;
        t.hubs_ = std::move(hubs);
        t.parent_.resize(t.hubs_.size());
        t.children_.resize(t.hubs_.size());
        for (std::size_t i = 0; i < t.hubs_.size(); ++i) {
            t.parent_[i] = i == 0 ? 0 : (i - 1) / k;
            if (i) t.children_[t.parent_[i]].push_back(i);
        }
        std::set<std::uint32_t> distinct(t.hubs_.begin(), t.hubs_.end());
        detail::require(distinct.size() == t.hubs_.size(), "a hub appears twice in a collective tree");
        return t;
    }
    [[nodiscard]] std::size_t size() const { return hubs_.size(); }
    [[nodiscard]] std::uint32_t hub(std::size_t i) const { return hubs_[i]; }
    [[nodiscard]] std::size_t parent(std::size_t i) const { return parent_[i]; }
    [[nodiscard]] const std::vector<std::size_t>& children(std::size_t i) const { return children_[i]; }
    [[nodiscard]] std::size_t depth() const {
        std::size_t d = 0;
        for (std::size_t i = 0; i < size(); ++i) {
            std::size_t x = i, h = 0;
            while (x != 0) {
                x = parent_[x];
                ++h;
            }
            d = std::max(d, h);
        }
        return d;
    }

private:
    std::vector<std::uint32_t> hubs_;
    std::vector<std::size_t> parent_;
    std::vector<std::vector<std::size_t>> children_;
};

/// One tree's reduction and multicast as a workload graph (see the top of the file):
/// packets of `bytes`, each hub combining in `cau_cycles`.
inline workload::ExplicitGraph graph(const Tree& t, std::uint64_t bytes, std::uint64_t cau_cycles) {
    workload::GraphBuilder b("CAU tree");
    const auto n = static_cast<std::uint32_t>(t.size());
    std::vector<workload::NodeIndex> up_fire(n), down_fire(n, 0);
    // Up: each hub fires (combines) after its children's packets, then sends up.
    for (std::uint32_t i = 0; i < n; ++i) up_fire[i] = b.add_compute(i, cau_cycles);
    for (std::uint32_t i = 1; i < n; ++i) {
        const auto parent = static_cast<std::uint32_t>(t.parent(i));
        const workload::NodeIndex up = b.add_message(i, parent, bytes);
        b.node(up).tag = 1;
        b.depend(up, up_fire[i]);
        b.depend(up_fire[parent], up);
    }
    // Down: the root's result to each child, which combines (forwards) it before sending it on.
    for (std::uint32_t v = 0; v < n; ++v) {
        if (t.children(v).empty()) continue;
        for (const std::size_t c : t.children(v)) {
            const workload::NodeIndex down = b.add_message(v, static_cast<std::uint32_t>(c), bytes);
            b.node(down).tag = 2;
            b.depend(down, v == 0 ? up_fire[0] : down_fire[v]);
            down_fire[c] = b.add_compute(static_cast<std::uint32_t>(c), cau_cycles);
            b.depend(down_fire[c], down);
        }
    }
    return b.build(n);
}

/// The CAU's timings and CAM size. The paper gives none of them (only "a
/// multiple-entry content addressable memory structure per CAU"): every value
/// here is the library's own.
struct Timing {
    double per_hop_ns = 50;       // one network hop of a CAU packet (link, router): ours
    double cau_ns = 30;           // a CAU combining its inputs: ours
    double ack_timeout_ns = 2000; // resend when no acknowledgement came back in time: ours
    std::size_t cam_entries = 64; // trees a CAU can take part in at once: ours ("multiple-entry")
};

/// The serial reduction in the tree's fixed order: own value, then each child's
/// subtree in order.
template <class V>
V serial(const Tree& t, Op op, const std::vector<V>& values, std::size_t at = 0) {
    V acc = values[at];
    for (const auto c : t.children(at)) acc = combine(op, acc, serial(t, op, values, c));
    return acc;
}

template <class V>
struct Result {
    V value{};
    double done_ns = 0;          // every hub has the result
    std::size_t packets = 0;     // packets sent, resends included
    std::size_t resends = 0;
};

/// Runs reductions (and, with Op::nop on zeros, a barrier; with a value only at
/// the root, a multicast) on several trees at once. `hops(a, b)` gives the length
/// of the network path between hubs a and b. `lose` lists packets to drop, as
/// (tree, child index, attempt) for the upward packets: the n-th attempt of that
/// child's packet is lost.
template <class V, class Hops>
std::vector<Result<V>> reduce(const std::vector<Tree>& trees, Op op, const std::vector<std::vector<V>>& values,
                              Hops&& hops, Timing timing = {},
                              const std::set<std::tuple<std::size_t, std::size_t, std::size_t>>& lose = {}) {
    detail::require(supports<V>(op), "the CAU does not offer this operation for this type (fixed point: NOP, SUM, "
                    "MIN, MAX, OR, AND, XOR; floating point: MIN, MAX, SUM, PROD)");
    detail::require(trees.size() == values.size(), "one value list per tree");
    std::map<std::uint32_t, std::size_t> entries;
    for (const auto& t : trees)
        for (std::size_t i = 0; i < t.size(); ++i)
            detail::require(++entries[t.hub(i)] <= timing.cam_entries, "hub ", t.hub(i), " is in more trees than its "
                            "CAU has CAM entries (", timing.cam_entries, ")");
    struct Event {
        double time;
        std::uint64_t order;
        std::size_t tree, from, attempt;
        bool down;
        bool operator>(const Event& o) const { return time != o.time ? time > o.time : order > o.order; }
    };
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
    std::uint64_t order = 0;
    std::vector<Result<V>> out(trees.size());
    std::vector<std::vector<std::vector<std::optional<V>>>> got(trees.size());  // [tree][hub][child slot]
    std::vector<std::vector<V>> partial(trees.size());
    std::vector<std::vector<std::uint8_t>> fired(trees.size()), acked(trees.size());
    auto edge = [&](const Tree& t, std::size_t a, std::size_t b) {
        return static_cast<double>(hops(t.hub(a), t.hub(b))) * timing.per_hop_ns;
    };
    auto send_up = [&](std::size_t ti, std::size_t from, std::size_t attempt, double at) {
        const Tree& t = trees[ti];
        ++out[ti].packets;
        if (attempt > 0) ++out[ti].resends;
        if (!lose.count({ti, from, attempt})) events.push({at + edge(t, from, t.parent(from)), order++, ti, from, attempt, false});
        // The acknowledgement deadline: resend if the parent has not acknowledged by then.
        events.push({at + timing.ack_timeout_ns, order++, ti, from, attempt + 1, true});
    };
    // Leaves fire at once; inner CAUs when all children are in.
    std::function<void(std::size_t, std::size_t, double)> try_fire = [&](std::size_t ti, std::size_t i, double at) {
        const Tree& t = trees[ti];
        if (fired[ti][i]) return;
        for (const auto& g : got[ti][i])
            if (!g) return;
        fired[ti][i] = 1;
        V acc = values[ti][i];
        for (std::size_t k = 0; k < t.children(i).size(); ++k) acc = combine(op, acc, *got[ti][i][k]);
        partial[ti][i] = acc;
        const double ready = at + timing.cau_ns;
        if (i == 0) {
            // The root multicasts the result down the tree.
            out[ti].value = acc;
            std::function<double(std::size_t, double)> down = [&](std::size_t v, double t0) {
                double last = t0;
                for (const auto c : t.children(v)) {
                    ++out[ti].packets;
                    last = std::max(last, down(c, t0 + edge(t, v, c) + timing.cau_ns));
                }
                return last;
            };
            out[ti].done_ns = down(0, ready);
        } else {
            send_up(ti, i, 0, ready);
        }
    };
    for (std::size_t ti = 0; ti < trees.size(); ++ti) {
        const Tree& t = trees[ti];
        detail::require(values[ti].size() == t.size(), "tree ", ti, " has ", t.size(), " hubs but ", values[ti].size(),
                        " values");
        got[ti].resize(t.size());
        for (std::size_t i = 0; i < t.size(); ++i) got[ti][i].assign(t.children(i).size(), std::nullopt);
        partial[ti].resize(t.size());
        fired[ti].assign(t.size(), 0);
        acked[ti].assign(t.size(), 0);
        for (std::size_t i = 0; i < t.size(); ++i)
            if (t.children(i).empty()) try_fire(ti, i, 0.0);
    }
    while (!events.empty()) {
        const Event e = events.top();
        events.pop();
        const Tree& t = trees[e.tree];
        if (e.down) {  // an acknowledgement deadline
            if (!acked[e.tree][e.from]) send_up(e.tree, e.from, e.attempt, e.time);
            continue;
        }
        // A child's partial result reaches its parent: combine once (sequence number), acknowledge.
        const std::size_t parent = t.parent(e.from);
        const auto& kids = t.children(parent);
        const auto slot = static_cast<std::size_t>(std::find(kids.begin(), kids.end(), e.from) - kids.begin());
        acked[e.tree][e.from] = 1;
        if (!got[e.tree][parent][slot]) {
            got[e.tree][parent][slot] = partial[e.tree][e.from];
            try_fire(e.tree, parent, e.time);
        }
    }
    return out;
}

}  // namespace fabric::cau
