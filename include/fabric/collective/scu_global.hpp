// The QCDOC SCU's global operations (Boyle et al., section 2.2, "Global
// operations"): sums and broadcasts carried by the SCUs in global mode, one
// dimension of the (logical) partition after another, with pass-through: a node
// forwards a word after receiving its first 8 bits instead of all 72.
//
// Global sum, per dimension of N nodes: every node sends its word along the
// ring and forwards what it receives until it holds the N - 1 words of the
// others, so data hop N - 1 times; the doubled mode uses two disjoint sets of
// links, sending both ways round, and needs floor(N/2) hops. Over a 4-D
// partition that is N_x + N_y + N_z + N_t - 4, or N_x/2 + N_y/2 + N_z/2 + N_t/2.
//
// Timing, in bit times, each link carrying one word per 72 bits and a forward
// starting once 8 bits are in and the link is free: the k-th word a node
// forwards starts k max(72, 8 + L) after its own, so a dimension of h hops takes
//   (h - 1) max(72, 8 + L) + 72 + L.
// A broadcast from one node reaches the farthest of a partition, D = sum of
// floor(N/2) hops away, after 72 + L + (D - 1)(8 + L) with pass-through, against
// D (72 + L) if each node waited for the whole word.
//
// Order of evaluation: whatever order words arrive in, every node adds the words
// of a ring in ring order starting at coordinate 0, dimension after dimension, so
// a floating-point sum is bit-identical on every node and in every run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <memory>

#include <fabric/collective/graph.hpp>
#include <fabric/core/error.hpp>
#include <fabric/link/qcdoc_scu.hpp>

namespace fabric {

struct ScuGlobalResult {
    std::size_t hops = 0;             // the most links any word crossed, summed over dimensions
    std::uint64_t cycles = 0;         // bit times until every node has the result
    double latency_ns = 0;
    std::uint64_t words_sent = 0;     // word transmissions over all links
    std::vector<std::size_t> hops_per_dimension;
    bool complete = true;             // every node ended holding every word it needed
};

class ScuGlobalSum {
public:
    constexpr explicit ScuGlobalSum(bool doubled = false) : doubled_(doubled) {}

    [[nodiscard]] constexpr bool doubled() const { return doubled_; }

    /// Hops of the ring exchange in one dimension of N nodes.
    [[nodiscard]] constexpr std::size_t hops(std::uint32_t n) const {
        if (n <= 1) return 0;
        return doubled_ ? n / 2 : n - 1;
    }
    [[nodiscard]] constexpr std::size_t hops(const std::vector<std::uint32_t>& extents) const {
        std::size_t h = 0;
        for (const auto n : extents) h += hops(n);
        return h;
    }

    /// The closed form of the timing above, in bit times.
    [[nodiscard]] constexpr std::uint64_t model_cycles(const std::vector<std::uint32_t>& extents, const QcdocScu& link) const {
        const std::uint64_t word = QcdocScu::bits_per_word, L = link.latency_cycles();
        const std::uint64_t step = std::max<std::uint64_t>(word, 8 + L);
        std::uint64_t t = 0;
        for (const auto n : extents)
            if (const std::size_t h = hops(n); h > 0) t += (h - 1) * step + word + L;
        return t;
    }

    /// Simulates the exchange word by word on every ring of every dimension: each
    /// node's outgoing link(s) send its own word and then forward, with
    /// pass-through, each word it received, until the next node of the ring
    /// already holds that word. In doubled mode words go both ways round at once
    /// (ties to +). The hop count is what the walk took, not a formula: the test
    /// compares it with N - 1 and floor(N / 2).
    [[nodiscard]] constexpr ScuGlobalResult simulate(const std::vector<std::uint32_t>& extents, const QcdocScu& link) const {
        for (const auto n : extents) detail::require(n >= 1, "partition extents must be at least 1");
        ScuGlobalResult r;
        const std::uint64_t word = QcdocScu::bits_per_word, L = link.latency_cycles();
        std::size_t nodes = 1;
        for (const auto n : extents) nodes *= n;
        for (const auto n : extents) {
            const auto ring = exchange_ring(n, word, L);
            r.cycles += ring.done;
            r.hops += ring.hops;
            r.words_sent += ring.words * (nodes / n);
            r.complete = r.complete && ring.complete;
            r.hops_per_dimension.push_back(ring.hops);
        }
        r.latency_ns = static_cast<double>(r.cycles) * 1e3 / link.clock().count;
        return r;
    }

    /// The exchange as a workload graph over the partition's nodes (dimension 0
    /// fastest): in each dimension every node passes each word on round its ring
    /// (both ways round in doubled mode, the second way by a rank's second rail, as
    /// the SCU's links of both directions send at once) in hops(N) steps, a message
    /// of `word_bytes` a step, each waiting for the word it forwards to have arrived. A message is
    /// forwarded whole, not after its first 8 bits: the graph's time exceeds
    /// model_cycles by the pass-through's saving, (h - 1) min(L, 64) bit times a
    /// dimension of h hops (the test says so).
    [[nodiscard]] collective::CollectiveGraph graph(const std::vector<std::uint32_t>& extents,
                                                    std::uint64_t word_bytes = QcdocScu::data_bits / 8) const {
        const auto grid = std::make_shared<const collective::Grid>(extents);
        collective::Lane lane{{}, 0, 0, grid->points()};
        const auto dims = static_cast<std::uint32_t>(extents.size());
        for (std::uint32_t d = 0; d < dims; ++d) {
            std::vector<collective::BlockRole> roles(dims, collective::BlockRole::fixed);
            for (std::uint32_t e = 0; e < d; ++e) roles[e] = collective::BlockRole::free;
            roles[d] = collective::BlockRole::inner;
            const collective::Kernel k = doubled_ ? collective::Kernel(collective::LineAllgather(extents[d], true, true))
                                                  : collective::Kernel(collective::RingAllgather(extents[d]));
            lane.phases.push_back(collective::Phase{k, d, {}, roles});
        }
        return collective::CollectiveGraph(collective::Operation::allgather, grid, {lane},
                                           collective::Size{word_bytes, 1, 0, 0, word_bytes});
    }

    /// The sum every node ends with, in the fixed order: dimension by dimension,
    /// each ring added from coordinate 0 upwards. values[i] belongs to the node
    /// with logical coordinates of index i (dimension 0 fastest).
    template <class V>
    [[nodiscard]] constexpr V reduce(const std::vector<std::uint32_t>& extents, std::vector<V> values) const {
        std::size_t nodes = 1;
        for (const auto n : extents) nodes *= n;
        detail::require(values.size() == nodes, "a global sum over ", nodes, " nodes needs ", nodes,
                        " values; got ", values.size());
        std::size_t stride = 1;
        for (const auto n : extents) {
            std::vector<V> next(values.size());
            for (std::size_t v = 0; v < values.size(); ++v) {
                const std::size_t base = v - ((v / stride) % n) * stride;
                V acc = values[base];
                for (std::size_t x = 1; x < n; ++x) acc = acc + values[base + x * stride];
                next[v] = acc;
            }
            values = std::move(next);
            stride *= n;
        }
        return values.empty() ? V{} : values[0];
    }

private:
    struct RingExchange {
        std::uint64_t done = 0;   // the last word complete at its last node
        std::size_t hops = 0;     // the most links one word crossed
        std::uint64_t words = 0;  // transmissions on the ring
        bool complete = true;     // every node ends holding every word of the ring
    };

    /// One ring of n nodes (all rings of a dimension run alike and at once). Round
    /// k: every node's link of each direction sends the k-th word of its queue,
    /// unless the next node already holds it.
    [[nodiscard]] constexpr RingExchange exchange_ring(std::uint32_t n, std::uint64_t word, std::uint64_t L) const {
        RingExchange ring;
        if (n <= 1) return ring;
        struct Pending {
            std::uint64_t ready;   // first 8 bits in at this node
            std::size_t hopped;    // links crossed so far
            std::uint32_t origin;  // whose word
        };
        std::vector<char> holds(std::size_t{n} * n, 0);  // holds[node * n + origin]
        for (std::uint32_t j = 0; j < n; ++j) holds[std::size_t{j} * n + j] = 1;
        const int directions = doubled_ ? 2 : 1;
        std::vector<std::uint64_t> link_free(std::size_t{n} * 2, 0);
        std::vector<std::vector<Pending>> queue(std::size_t{n} * 2);  // each read from head[q] on (constexpr, unlike deque)
        std::vector<std::size_t> head(std::size_t{n} * 2, 0);
        for (int dir = 0; dir < directions; ++dir)
            for (std::uint32_t j = 0; j < n; ++j) queue[std::size_t{j} * 2 + dir].push_back({0, 0, j});
        for (bool busy = true; busy;) {
            busy = false;
            for (int dir = 0; dir < directions; ++dir) {
                for (std::uint32_t j = 0; j < n; ++j) {
                    const std::size_t q = std::size_t{j} * 2 + dir;
                    if (head[q] == queue[q].size()) continue;
                    busy = true;
                    const Pending w = queue[q][head[q]++];
                    const std::uint32_t to = dir == 0 ? (j + 1) % n : (j + n - 1) % n;
                    char& has = holds[std::size_t{to} * n + w.origin];
                    if (has) continue;  // the ring is closed for this word
                    has = 1;
                    std::uint64_t& free = link_free[std::size_t{j} * 2 + dir];
                    const std::uint64_t start = std::max(free, w.ready);
                    free = start + word;
                    ++ring.words;
                    ring.done = std::max(ring.done, start + word + L);
                    ring.hops = std::max(ring.hops, w.hopped + 1);
                    queue[std::size_t{to} * 2 + dir].push_back({start + L + 8, w.hopped + 1, w.origin});
                }
            }
        }
        for (const char h : holds) ring.complete = ring.complete && h;
        return ring;
    }

    bool doubled_;
};

class ScuBroadcast {
public:
    constexpr explicit ScuBroadcast(bool pass_through = true) : pass_through_(pass_through) {}

    /// Hops to the farthest node: sum of floor(N/2).
    static constexpr std::size_t depth(const std::vector<std::uint32_t>& extents) {
        std::size_t d = 0;
        for (const auto n : extents) d += n / 2;
        return d;
    }

    [[nodiscard]] constexpr std::uint64_t model_cycles(const std::vector<std::uint32_t>& extents, const QcdocScu& link) const {
        const std::uint64_t word = QcdocScu::bits_per_word, L = link.latency_cycles();
        const std::uint64_t d = depth(extents);
        if (d == 0) return 0;
        return pass_through_ ? word + L + (d - 1) * (8 + L) : d * (word + L);
    }

    /// Floods a word from node 0 along a dimension-ordered spanning tree: along
    /// dimension 0 both ways round, then from every node reached along dimension
    /// 1, and so on. Returns when the last node has the whole word.
    [[nodiscard]] constexpr ScuGlobalResult simulate(const std::vector<std::uint32_t>& extents, const QcdocScu& link) const {
        const std::uint64_t word = QcdocScu::bits_per_word, L = link.latency_cycles();
        std::size_t nodes = 1;
        for (const auto n : extents) nodes *= n;
        // head[v]: when node v has the first 8 bits; whole[v]: the whole word.
        const std::uint64_t never = UINT64_MAX;
        std::vector<std::uint64_t> head(nodes, never), whole(nodes, never), hops(nodes, 0);
        head[0] = 0;
        whole[0] = 0;
        ScuGlobalResult r;
        std::size_t stride = 1;
        for (const auto n : extents) {
            for (std::size_t v = 0; v < nodes; ++v) {
                if (whole[v] == never || (v / stride) % n != 0 || head[v] == never) continue;
                // Node v is the first of its ring in this dimension: send both ways.
                const std::size_t base = v;
                for (const int dir : {+1, -1}) {
                    const std::size_t reach = dir > 0 ? n / 2 : (n - 1) / 2;
                    std::uint64_t at_head = head[v], at_whole = whole[v];
                    std::size_t from = base;
                    for (std::size_t s = 1; s <= reach; ++s) {
                        const std::size_t x = dir > 0 ? s : n - s;
                        const std::size_t to = base + x * stride;
                        // A forward starts when the sender has 8 bits (pass-through) or the whole word.
                        const std::uint64_t start = pass_through_ ? at_head : at_whole;
                        at_head = start + L + 8;
                        at_whole = start + L + word;
                        head[to] = std::min(head[to], at_head);
                        whole[to] = std::min(whole[to], at_whole);
                        hops[to] = hops[from] + 1;
                        ++r.words_sent;
                        from = to;
                    }
                }
            }
            stride *= n;
        }
        for (std::size_t v = 0; v < nodes; ++v) {
            r.cycles = std::max(r.cycles, whole[v]);
            r.hops = std::max<std::size_t>(r.hops, hops[v]);
        }
        r.latency_ns = static_cast<double>(r.cycles) * 1e3 / link.clock().count;
        return r;
    }

private:
    bool pass_through_;
};

/// A partition interrupt (an 8-bit packet) raised at node `root` of a torus
/// partition: every node forwards it once to all its neighbours the first time it
/// sees it. The global clock's window must cover the flood.
struct PartitionInterruptResult {
    std::uint64_t cycles = 0;     // the last node's arrival
    std::uint64_t packets = 0;    // 8-bit packets sent in all
    std::uint64_t forwards = 0;   // nodes that forwarded (each once)
    bool within_window = false;
};

inline PartitionInterruptResult partition_interrupt(const std::vector<std::uint32_t>& extents, std::size_t root,
                                                    std::uint64_t window_cycles, const QcdocScu& link = {}) {
    std::size_t nodes = 1;
    for (const auto n : extents) nodes *= n;
    detail::require(root < nodes, "the partition interrupt's node ", root, " is out of range; valid: 0 to ", nodes - 1);
    const std::uint64_t hop = 8 + link.latency_cycles();
    std::vector<std::uint64_t> arrival(nodes, UINT64_MAX);
    std::vector<std::size_t> frontier{root};
    arrival[root] = 0;
    PartitionInterruptResult r;
    while (!frontier.empty()) {
        std::vector<std::size_t> next;
        for (const std::size_t v : frontier) {
            ++r.forwards;
            std::size_t stride = 1;
            for (const auto n : extents) {
                if (n > 1) {
                    const std::size_t x = (v / stride) % n;
                    const std::size_t up = v - x * stride + ((x + 1) % n) * stride;
                    const std::size_t down = v - x * stride + ((x + n - 1) % n) * stride;
                    const std::size_t neighbours[2] = {up, down};
                    for (std::size_t i = 0; i < (n == 2 ? 1U : 2U); ++i) {  // extent 2: one neighbour
                        const std::size_t w = neighbours[i];
                        ++r.packets;
                        if (arrival[w] == UINT64_MAX) {
                            arrival[w] = arrival[v] + hop;
                            next.push_back(w);
                        }
                    }
                }
                stride *= n;
            }
        }
        frontier.swap(next);
    }
    for (const auto t : arrival) r.cycles = std::max(r.cycles, t);
    r.within_window = r.cycles < window_cycles;
    return r;
}

}  // namespace fabric
