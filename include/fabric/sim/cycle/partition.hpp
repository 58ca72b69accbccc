// A partitioned cycle run: which rank steps which router (a partition policy),
// and what the kernel asks of the transport between ranks (a CycleTransport; the
// one over MPI is in dist/partitioned.hpp, the one for a run alone is Alone).
// The kernel itself stays free of MPI: it hands the transport bytes per rank and
// counters to sum.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric {

/// How the routers of a partitioned run are dealt to ranks: block(node, nodes,
/// ranks) names the rank of router `node`, for every node below `nodes`.
template <class P>
concept PartitionPolicy = requires(const P& p, std::uint32_t node, std::uint32_t nodes, std::uint32_t ranks) {
    { p.block(node, nodes, ranks) } -> std::convertible_to<std::uint32_t>;
};

/// Checks PartitionPolicy with a message that says how to fix it (in the body of
/// what takes a policy, so it is what the compiler reports).
template <class P>
constexpr void check_partition_policy() {
    static_assert(PartitionPolicy<P>, "fabric: a partition policy names each router's rank: give it "
                                      "block(node, nodes, ranks) const, returning a rank below ranks (or use Slabs "
                                      "or Groups{n})");
}

/// Contiguous runs of router numbers, as equal as they can be: slabs of a torus
/// (its last dimension counts slowest), ranges of a fat tree's or a ring's routers.
struct Slabs {
    [[nodiscard]] static std::uint32_t block(std::uint32_t node, std::uint32_t nodes, std::uint32_t ranks) {
        return static_cast<std::uint32_t>(std::uint64_t{node} * ranks / nodes);
    }
};

/// Whole groups of `routers` consecutive routers (a PERCS supernode's 32 hubs, a
/// dragonfly group), as many groups to each rank as can be equal.
struct Groups {
    std::uint32_t routers = 1;
    [[nodiscard]] std::uint32_t block(std::uint32_t node, std::uint32_t nodes, std::uint32_t ranks) const {
        const std::uint32_t groups = (nodes + routers - 1) / routers;
        return static_cast<std::uint32_t>(std::uint64_t{node / routers} * ranks / groups);
    }
};

/// What a partitioned run needs from the ranks' transport. exchange(out, in):
/// every rank hands out[r], the bytes for rank r, and gets `in`, the bytes sent
/// to it, in rank order. sum(values): element-wise sums over the ranks, on every
/// rank. gather(values): every rank's values, concatenated in rank order, on every
/// rank. All three are collective: every rank calls them in the same order.
template <class T>
concept CycleTransport = requires(T& t, std::vector<std::vector<std::byte>>& out, std::vector<std::byte>& in,
                                  std::span<std::uint64_t> values, std::vector<std::uint32_t>& list) {
    { t.rank() } -> std::convertible_to<std::uint32_t>;
    { t.ranks() } -> std::convertible_to<std::uint32_t>;
    t.exchange(out, in);
    t.sum(values);
    t.gather(list);
};

namespace cycle {

/// A run on one rank: nothing to exchange.
struct Alone {
    [[nodiscard]] static std::uint32_t rank() { return 0; }
    [[nodiscard]] static std::uint32_t ranks() { return 1; }
    static void exchange(std::vector<std::vector<std::byte>>&, std::vector<std::byte>&) {}
    static void sum(std::span<std::uint64_t>) {}
    static void gather(std::vector<std::uint32_t>&) {}
};

/// The split of one run: each router's rank, and this rank.
class Partition {
public:
    template <class Policy>
    void assign(const Policy& policy, std::uint32_t nodes, std::uint32_t rank, std::uint32_t ranks) {
        check_partition_policy<Policy>();
        detail::require(ranks >= 1 && rank < ranks, "a partitioned run needs a rank below the number of ranks; got rank ",
                        rank, " of ", ranks);
        detail::require(ranks <= nodes, "a partitioned run needs at most one rank per router: ", ranks, " ranks for ",
                        nodes, " routers; run on fewer ranks");
        rank_ = rank;
        ranks_ = ranks;
        of_.assign(nodes, 0);
        std::vector<std::uint32_t> count(ranks, 0);
        for (std::uint32_t n = 0; n < nodes; ++n) {
            of_[n] = static_cast<std::uint32_t>(policy.block(n, nodes, ranks));
            detail::require(of_[n] < ranks, "the partition policy put router ", n, " on rank ", of_[n], " of ", ranks,
                            "; block() must give a rank below the number of ranks");
            ++count[of_[n]];
        }
        for (std::uint32_t r = 0; r < ranks; ++r)
            detail::require(count[r] > 0, "the partition policy gives rank ", r, " of ", ranks, " no router; use "
                            "fewer ranks or a finer policy (Slabs, Groups with smaller groups)");
    }
    void alone() {
        of_.clear();
        rank_ = 0;
        ranks_ = 1;
    }
    [[nodiscard]] bool split() const { return ranks_ > 1; }
    [[nodiscard]] bool mine(std::uint32_t node) const { return of_.empty() || of_[node] == rank_; }
    [[nodiscard]] std::uint32_t rank_of(std::uint32_t node) const { return of_.empty() ? 0 : of_[node]; }
    [[nodiscard]] std::uint32_t rank() const { return rank_; }
    [[nodiscard]] std::uint32_t ranks() const { return ranks_; }
    [[nodiscard]] std::size_t routers() const { return of_.size(); }
    /// Each router's rank (empty when alone).
    [[nodiscard]] const std::vector<std::uint32_t>& ranks_of() const { return of_; }

private:
    std::vector<std::uint32_t> of_;  // per router; empty when alone
    std::uint32_t rank_ = 0, ranks_ = 1;
};

/// Values as bytes between ranks of one build (same layout on both sides).
template <class T>
    requires std::is_trivially_copyable_v<T>
void put_bytes(std::vector<std::byte>& out, const T& value) {
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
}
template <class T>
    requires std::is_trivially_copyable_v<T>
T take_bytes(std::span<const std::byte> in, std::size_t& at) {
    detail::require(at + sizeof(T) <= in.size(), "a partitioned run received a truncated record (", in.size() - at,
                    " bytes left, ", sizeof(T), " due): the ranks run different builds or configurations");
    T value;
    std::memcpy(&value, in.data() + at, sizeof(T));
    at += sizeof(T);
    return value;
}

/// At the end of a partitioned run, every rank's counters, latency histograms,
/// per-channel flit counts and `more` counts become their sums over the ranks,
/// and the reorder depths their maxima, on every rank.
template <CycleTransport Tx>
void sum_over_ranks(Tx& tx, CycleResult& res, std::span<LatencyHistogram* const> hists,
                    std::vector<std::uint64_t>& per_channel, std::span<std::uint64_t* const> more) {
    // Gathered from every rank: the histograms' lengths (each is summed over the longest of its
    // kind), how many long latencies each keeps apart (every rank's are concatenated, then merged),
    // and the maxima (CycleMaxima: what this rank's destinations saw), in halves.
    const std::size_t kinds = hists.size();
    std::vector<std::vector<LatencyCount>> beyond;
    std::vector<std::uint32_t> lengths;
    for (const LatencyHistogram* h : hists) lengths.push_back(static_cast<std::uint32_t>(h->raw().size()));
    for (const LatencyHistogram* h : hists) {
        beyond.push_back(h->beyond());
        lengths.push_back(static_cast<std::uint32_t>(beyond.back().size()));
    }
    std::size_t maxima = 0;
    for_each_count(static_cast<CycleMaxima&>(res), [&](const char*, std::uint64_t m) {
        lengths.push_back(static_cast<std::uint32_t>(m));
        lengths.push_back(static_cast<std::uint32_t>(m >> 32));
        ++maxima;
    });
    const std::size_t stride = 2 * kinds + 2 * maxima;
    tx.gather(lengths);
    for (std::size_t at = 0; at < lengths.size(); at += stride) {
        std::size_t k = 2 * kinds;
        for_each_count(static_cast<CycleMaxima&>(res), [&](const char*, std::uint64_t& m) {
            m = std::max(m, lengths[at + k] | std::uint64_t{lengths[at + k + 1]} << 32);
            k += 2;
        });
    }
    std::vector<std::uint64_t> flat;
    for_each_summed(res, [&](std::uint64_t& c) { flat.push_back(c); });
    flat.insert(flat.end(), per_channel.begin(), per_channel.end());
    for (const std::uint64_t* c : more) flat.push_back(*c);
    std::vector<std::size_t> longest, pairs;
    for (std::size_t i = 0; i < kinds; ++i) {
        std::size_t most = 0, all = 0, before = 0;
        for (std::size_t at = 0, r = 0; at < lengths.size(); at += stride, ++r) {
            most = std::max<std::size_t>(most, lengths[at + i]);
            all += lengths[at + kinds + i];
            if (r < tx.rank()) before += lengths[at + kinds + i];
        }
        longest.push_back(most);
        pairs.push_back(all);
        const LatencyHistogram& h = *hists[i];
        flat.insert(flat.end(), h.raw().begin(), h.raw().end());
        flat.resize(flat.size() + most - h.raw().size(), 0);
        const std::size_t mine = flat.size() + 2 * before;  // this rank's pairs, zeros for the others'
        flat.resize(flat.size() + 2 * all, 0);
        for (std::size_t j = 0; j < beyond[i].size(); ++j) {
            flat[mine + 2 * j] = beyond[i][j].first;
            flat[mine + 2 * j + 1] = beyond[i][j].second;
        }
    }
    tx.sum(flat);
    std::size_t at = 0;
    for_each_summed(res, [&](std::uint64_t& c) { c = flat[at++]; });
    for (std::uint64_t& c : per_channel) c = flat[at++];
    for (std::uint64_t* c : more) *c = flat[at++];
    for (std::size_t i = 0; i < kinds; ++i) {
        const auto from = flat.begin() + static_cast<std::ptrdiff_t>(at);
        std::vector<std::uint64_t> dense(from, from + static_cast<std::ptrdiff_t>(longest[i]));
        at += longest[i];
        std::vector<LatencyCount> far;
        for (std::size_t j = 0; j < pairs[i]; ++j, at += 2) far.emplace_back(flat[at], flat[at + 1]);
        hists[i]->assign(std::move(dense), std::move(far));
    }
}

}  // namespace cycle
}  // namespace fabric
