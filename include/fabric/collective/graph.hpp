// A collective as a workload graph (concepts/workload.hpp), by arithmetic over node
// indices: the phases of its lanes (collective/phases.hpp) say who sends what in
// each round, and this class numbers the messages and derives every dependency
// from one rule, the same for every algorithm:
//
//   a rank's send in round t, and its reduction of what it receives in round t,
//   wait for its history: its sends of its previous sending round to have left
//   (Completion::sent), and everything it received since that round began
//   (Completion::delivered; or the reduction after it, where that round reduces
//   and reducing costs time).
//
// That is an MPI rank running its rounds one after the other (a blocking sendrecv
// a round), which is what the alpha-beta costs of Thakur et al. assume; a message
// that arrives early waits, as in MPI, for its receiver to reach its round before
// it is reduced into the receiver's data. A message
// may be cut into `segments` pieces: piece j of a send waits for piece j - 1 of
// the same message to have left, and for piece j of what it waits for, so that the
// pieces of a chain or a tree flow as a pipeline (each piece carries the j-th part
// of every block of its message). Where the operation reduces and the endpoints
// give reducing a cost (gamma cycles a byte, rounded up per piece), each piece
// received in a reducing round is followed by a compute node of that many cycles
// on the receiver. The graph never holds its nodes: a node is found from its index
// by a binary search over its lane's rounds, whose first node indices are the only
// table kept (one number a round), so memory is bounded by the rounds, not the
// messages (a 1,024-rank ring allreduce: 2,047 numbers for its 2,095,104 messages).
//
// Numbering: lanes one after another; in a lane, rounds in order; in a round,
// piece by piece, each piece's messages (in the phase's order) and then, where the
// round reduces at a cost, their compute nodes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <fabric/collective/operation.hpp>
#include <fabric/collective/phases.hpp>
#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>

namespace fabric::collective {

/// How big a collective is, and how its data are cut.
struct Size {
    std::uint64_t bytes = 0;        // nccl-tests' size (collective/operation.hpp)
    std::uint32_t segments = 1;     // pieces each message is cut into (pipelining)
    double reduce_per_byte = 0;     // gamma: cycles a reduction takes a byte (the endpoints' reduce_per_byte)
    std::uint32_t root = 0;         // a broadcast's or reduce's root rank
    /// Every message this many bytes, whatever blocks it stands for (0: its blocks'
    /// bytes): a schedule that sums as it goes, whose every message is one word.
    std::uint64_t message_bytes = 0;
};

class CollectiveGraph {
public:
    using NodeIndex = workload::NodeIndex;

    /// Where a node is: lane, round of the lane, piece, message of the round, and
    /// whether it is the message or the reduction after it.
    struct Where {
        std::uint32_t lane = 0, round = 0, segment = 0;
        std::uint64_t message = 0;
        bool compute = false;
    };

    /// `rows`: the blocks come in rows of equal bytes (`size.bytes` each): an
    /// all-to-all's p rows, one per source rank; 1 otherwise.
    CollectiveGraph(Operation op, std::shared_ptr<const Grid> grid, std::vector<Lane> lanes, const Size& size,
                    std::uint64_t rows = 1)
        : op_(op), grid_(std::move(grid)), size_(size), rows_(rows) {
        fabric::detail::require(size_.segments >= 1, "a collective's messages are cut into at least 1 segment; got 0");
        fabric::detail::require(std::isfinite(size_.reduce_per_byte) && size_.reduce_per_byte >= 0,
                                "a reduction's cycles a byte must be finite and at least 0; got ",
                                size_.reduce_per_byte);
        fabric::detail::require(!rooted(op) || size_.root < grid_->points(), "the root ", size_.root,
                                " is past the ", grid_->points(), " ranks");
        NodeIndex node = 0;
        for (Lane& lane : lanes) {
            Placed placed;
            placed.rail = lane.rail;
            placed.first_block = lane.first_block;
            placed.first_node = node;
            std::uint32_t round = 0;
            for (Phase& phase : lane.phases) {
                placed.phase_first_round.push_back(round);
                placed.phases.emplace_back(grid_, std::move(phase));
                round += placed.phases.back().rounds();
            }
            placed.phase_first_round.push_back(round);
            placed.round_first_node.reserve(std::size_t{round} + 1);
            NodeIndex at = 0;
            for (std::uint32_t t = 0; t < round; ++t) {
                placed.round_first_node.push_back(at);
                const auto [p, u] = placed.phase_of(t);
                at += placed.phases[p].messages(u) * size_.segments * width(placed.phases[p], u);
            }
            placed.round_first_node.push_back(at);
            node += at;
            blocks_ = std::max(blocks_, lane.first_block + lane.blocks);
            lanes_.push_back(std::move(placed));
        }
        size_nodes_ = node;
        fabric::detail::require(rows_ >= 1 && blocks_ % rows_ == 0, "a collective's ", blocks_,
                                " blocks do not fall in ", rows_, " rows");
    }

    // WorkloadGraph.
    [[nodiscard]] NodeIndex size() const { return size_nodes_; }
    [[nodiscard]] std::uint32_t ranks() const { return grid_->points(); }
    [[nodiscard]] workload::Node node(NodeIndex index) const {
        const Where w = where(index);
        const Placed& lane = lanes_[w.lane];
        const auto [p, u] = lane.phase_of(w.round);
        const Step s = lane.phases[p].step(u, w.message);
        const std::uint64_t bytes = message_bytes(w);
        workload::Node n;
        if (w.compute) {
            n.kind = workload::NodeKind::compute;
            n.rank = n.peer = s.to;
            n.cycles = reduce_cycles(bytes);
        } else {
            n.rank = s.from;
            n.peer = s.to;
            n.bytes = bytes;
            n.rail = lane.rail + lane.phases[p].rail(u, w.message);
        }
        n.tag = w.round;
        return n;
    }
    [[nodiscard]] std::uint32_t predecessors(NodeIndex index) const {
        const Where w = where(index);
        const Placed& lane = lanes_[w.lane];
        const auto [p, u] = lane.phase_of(w.round);
        const Step s = lane.phases[p].step(u, w.message);
        // A compute node waits for its message; a piece past the first for the piece before.
        std::uint64_t count = w.compute || w.segment > 0 ? 1 : 0;
        history(w.lane, w.round, w.compute ? s.to : s.from, w.segment,
                [&](NodeIndex, workload::Completion) { ++count; });
        return static_cast<std::uint32_t>(count);
    }
    template <class F>
    void for_each_successor(NodeIndex index, F&& f) const {
        const Where w = where(index);
        const Placed& lane = lanes_[w.lane];
        const auto [p, u] = lane.phase_of(w.round);
        const Step s = lane.phases[p].step(u, w.message);
        if (!w.compute) {
            if (w.segment + 1 < size_.segments)
                f(at(w.lane, w.round, w.segment + 1, false, w.message), workload::Completion::sent);
            consumers(w.lane, w.round, s.from, w.segment, [&](NodeIndex i) { f(i, workload::Completion::sent); });
            if (width(lane.phases[p], u) == 2) {
                f(at(w.lane, w.round, w.segment, true, w.message), workload::Completion::delivered);
                return;
            }
        }
        // This receipt (or the reduction after it) is in the receiver's history.
        consumers(w.lane, w.round, s.to, w.segment, [&](NodeIndex i) { f(i, workload::Completion::delivered); });
    }
    template <class F>
    void for_each_root(F&& f) const {
        for (std::uint32_t l = 0; l < lanes_.size(); ++l) {
            const Placed& lane = lanes_[l];
            // A root is a rank's first send with nothing received before it.
            auto root_round = [&](std::uint32_t a) {
                const std::uint32_t t = lane.next(0, a, &PlacedPhase::send_rounds);
                if (t == no_round || lane.previous(t, a, &PlacedPhase::receive_rounds) != no_round) return no_round;
                return t;
            };
            std::vector<std::uint32_t> rounds;
            for (std::uint32_t a = 0; a < ranks(); ++a)
                if (const std::uint32_t t = root_round(a); t != no_round) rounds.push_back(t);
            std::sort(rounds.begin(), rounds.end());
            rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
            for (const std::uint32_t t : rounds) {
                const auto [p, u] = lane.phase_of(t);
                const std::uint64_t count = lane.phases[p].messages(u);
                for (std::uint64_t i = 0; i < count; ++i)
                    if (root_round(lane.phases[p].step(u, i).from) == t) f(at(l, t, 0, false, i));
            }
        }
    }

    // What the collective is, for its laws and outputs.
    [[nodiscard]] Operation operation() const { return op_; }
    [[nodiscard]] const Size& settings() const { return size_; }
    [[nodiscard]] std::uint32_t segments() const { return size_.segments; }
    [[nodiscard]] std::uint64_t blocks() const { return blocks_; }
    [[nodiscard]] std::uint32_t lanes() const { return static_cast<std::uint32_t>(lanes_.size()); }
    [[nodiscard]] std::uint32_t rounds(std::uint32_t lane) const {
        return static_cast<std::uint32_t>(lanes_[lane].round_first_node.size() - 1);
    }
    [[nodiscard]] const Grid& grid() const { return *grid_; }
    /// Block b's number within its lane (an allgather's lane block r is rank r's; an
    /// all-to-all's s p + d goes from rank s to rank d).
    [[nodiscard]] std::uint64_t lane_block(std::uint64_t b) const {
        for (std::size_t l = lanes_.size(); l-- > 0;)
            if (b >= lanes_[l].first_block) return b - lanes_[l].first_block;
        return b;
    }
    /// The bytes of block b, and of its piece j.
    [[nodiscard]] std::uint64_t block_bytes(std::uint64_t b) const {
        const std::uint64_t per_row = blocks_ / rows_, k = b % per_row;
        return size_.bytes / per_row + (k < size_.bytes % per_row ? 1 : 0);
    }
    [[nodiscard]] std::uint64_t piece_bytes(std::uint64_t b, std::uint32_t j) const {
        const std::uint64_t all = block_bytes(b);
        return all / size_.segments + (j < all % size_.segments ? 1 : 0);
    }
    [[nodiscard]] Where where(NodeIndex index) const {
        std::uint32_t l = 0;
        while (l + 1 < lanes_.size() && lanes_[l + 1].first_node <= index) ++l;
        const Placed& lane = lanes_[l];
        const NodeIndex local = index - lane.first_node;
        const auto t = static_cast<std::uint32_t>(
            std::upper_bound(lane.round_first_node.begin(), lane.round_first_node.end(), local) -
            lane.round_first_node.begin() - 1);
        const auto [p, u] = lane.phase_of(t);
        const std::uint64_t count = lane.phases[p].messages(u);
        const std::uint64_t w = width(lane.phases[p], u);
        const std::uint64_t in = local - lane.round_first_node[t];
        Where out;
        out.lane = l;
        out.round = t;
        out.segment = static_cast<std::uint32_t>(in / (w * count));
        out.compute = (in % (w * count)) / count == 1;
        out.message = in % count;
        return out;
    }
    /// The blocks (of the whole collective) a message node carries a piece of (its
    /// segment's); a compute node, those its reduction reduces.
    template <class F>
    void for_each_block(NodeIndex index, F&& f) const {
        const Where w = where(index);
        const Placed& lane = lanes_[w.lane];
        const auto [p, u] = lane.phase_of(w.round);
        lane.phases[p].for_each_block(u, w.message, [&](std::uint64_t b) { f(lane.first_block + b); });
    }
    /// Whether the message node's receiver reduces what it carries.
    [[nodiscard]] bool reduces(NodeIndex index) const {
        const Where w = where(index);
        const auto [p, u] = lanes_[w.lane].phase_of(w.round);
        return lanes_[w.lane].phases[p].reduces(u);
    }
    /// The node index of a message (or its compute node).
    [[nodiscard]] NodeIndex at(std::uint32_t l, std::uint32_t t, std::uint32_t j, bool compute,
                               std::uint64_t message) const {
        const Placed& lane = lanes_[l];
        const auto [p, u] = lane.phase_of(t);
        const std::uint64_t count = lane.phases[p].messages(u);
        return lane.first_node + lane.round_first_node[t] + (j * width(lane.phases[p], u) + (compute ? 1 : 0)) * count +
               message;
    }

private:
    struct Placed {
        std::vector<PlacedPhase> phases;
        std::vector<std::uint32_t> phase_first_round;  // phases + 1 entries
        std::vector<NodeIndex> round_first_node;       // rounds + 1 entries, from the lane's first node
        std::uint32_t rail = 0;
        std::uint64_t first_block = 0;
        NodeIndex first_node = 0;

        [[nodiscard]] std::pair<std::size_t, std::uint32_t> phase_of(std::uint32_t t) const {
            std::size_t p = 0;
            while (p + 1 < phases.size() && phase_first_round[p + 1] <= t) ++p;
            return {p, t - phase_first_round[p]};
        }
        /// The last round below t in which `rank` sends (or receives), over every phase.
        [[nodiscard]] std::uint32_t previous(std::uint32_t t, std::uint32_t rank,
                                             RoundSet (PlacedPhase::*rounds_of)(std::uint32_t) const) const {
            if (phases.empty() || t == 0) return no_round;
            auto [p, u] = phase_of(std::min<std::uint32_t>(t, phase_first_round.back()));
            if (t >= phase_first_round.back()) u = phases[p].rounds();
            for (std::size_t q = p + 1; q-- > 0;) {
                const std::uint32_t r = (phases[q].*rounds_of)(rank).before(q == p ? u : phases[q].rounds());
                if (r != no_round) return phase_first_round[q] + r;
            }
            return no_round;
        }
        /// The first round at or after t in which `rank` sends (or receives).
        [[nodiscard]] std::uint32_t next(std::uint32_t t, std::uint32_t rank,
                                         RoundSet (PlacedPhase::*rounds_of)(std::uint32_t) const) const {
            if (t >= phase_first_round.back()) return no_round;
            const auto [p, u] = phase_of(t);
            for (std::size_t q = p; q < phases.size(); ++q) {
                const std::uint32_t r = (phases[q].*rounds_of)(rank).from(q == p ? u : 0);
                if (r != no_round) return phase_first_round[q] + r;
            }
            return no_round;
        }
        template <class F>
        void sends(std::uint32_t t, std::uint32_t rank, F&& f) const {
            const auto [p, u] = phase_of(t);
            phases[p].for_each_send(u, rank, f);
        }
    };

    /// A rank's history before round t, for piece j: what its sends and reductions of
    /// round t wait for. f(node, completion awaited) for its sends of its previous
    /// sending round (sent) and its receipts since that round began (delivered, or
    /// the reduction after each).
    template <class F>
    void history(std::uint32_t l, std::uint32_t t, std::uint32_t rank, std::uint32_t j, F&& f) const {
        const Placed& lane = lanes_[l];
        const std::uint32_t ps = lane.previous(t, rank, &PlacedPhase::send_rounds);
        if (ps != no_round)
            lane.sends(ps, rank, [&](std::uint64_t i) { f(at(l, ps, j, false, i), workload::Completion::sent); });
        for (std::uint32_t r = lane.previous(t, rank, &PlacedPhase::receive_rounds);
             r != no_round && (ps == no_round || r >= ps); r = lane.previous(r, rank, &PlacedPhase::receive_rounds)) {
            const auto [p, u] = lane.phase_of(r);
            const bool computed = width(lane.phases[p], u) == 2;
            lane.phases[p].for_each_receive(u, rank, [&](std::uint64_t i) {
                f(at(l, r, j, computed, i), workload::Completion::delivered);
            });
        }
    }
    /// The nodes of `rank` whose history a node of round t (a send, or a receipt)
    /// is in: the reductions of its receipts in rounds t + 1 up to its next sending
    /// round, and that round's sends, each piece j.
    template <class F>
    void consumers(std::uint32_t l, std::uint32_t t, std::uint32_t rank, std::uint32_t j, F&& f) const {
        const Placed& lane = lanes_[l];
        const std::uint32_t ns = lane.next(t + 1, rank, &PlacedPhase::send_rounds);
        if (size_.reduce_per_byte > 0)
            for (std::uint32_t r = lane.next(t + 1, rank, &PlacedPhase::receive_rounds);
                 r != no_round && (ns == no_round || r <= ns); r = lane.next(r + 1, rank, &PlacedPhase::receive_rounds)) {
                const auto [p, u] = lane.phase_of(r);
                if (width(lane.phases[p], u) == 2)
                    lane.phases[p].for_each_receive(u, rank, [&](std::uint64_t i) { f(at(l, r, j, true, i)); });
            }
        if (ns != no_round) lane.sends(ns, rank, [&](std::uint64_t i) { f(at(l, ns, j, false, i)); });
    }
    [[nodiscard]] std::uint64_t width(const PlacedPhase& phase, std::uint32_t u) const {
        return size_.reduce_per_byte > 0 && phase.reduces(u) ? 2 : 1;
    }
    [[nodiscard]] std::uint64_t message_bytes(const Where& w) const {
        if (const std::uint64_t all = size_.message_bytes; all > 0)
            return all / size_.segments + (w.segment < all % size_.segments ? 1 : 0);
        const Placed& lane = lanes_[w.lane];
        const auto [p, u] = lane.phase_of(w.round);
        std::uint64_t bytes = 0;
        lane.phases[p].for_each_block(u, w.message,
                                      [&](std::uint64_t b) { bytes += piece_bytes(lane.first_block + b, w.segment); });
        return bytes;
    }
    [[nodiscard]] std::uint64_t reduce_cycles(std::uint64_t bytes) const {
        const double c = size_.reduce_per_byte * static_cast<double>(bytes);
        return c <= 0 ? 0 : static_cast<std::uint64_t>(std::ceil(c));
    }

    Operation op_;
    std::shared_ptr<const Grid> grid_;
    Size size_;
    std::uint64_t rows_ = 1;
    std::vector<Placed> lanes_;
    std::uint64_t blocks_ = 0;
    NodeIndex size_nodes_ = 0;
};

static_assert(workload::WorkloadGraph<CollectiveGraph>);

}  // namespace fabric::collective
