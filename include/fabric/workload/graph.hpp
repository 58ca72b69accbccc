// A workload graph held as tables (WorkloadGraph, concepts/workload.hpp): what a
// file reader or a program builds node by node. GraphBuilder takes nodes and
// edges in any order and checks the whole graph once, at build(): every rank
// below the rank count, no node waiting for itself, every edge between nodes that
// exist, no cycle. A refusal is a config_error naming the file and line the
// offending node or edge came from (or its index, for a graph built in code), so
// that a reader need only say where each thing was read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>

namespace fabric::workload {

/// Nodes, their successors in compressed rows, and their predecessor counts.
class ExplicitGraph {
public:
    [[nodiscard]] NodeIndex size() const { return nodes_.size(); }
    [[nodiscard]] std::uint32_t ranks() const { return ranks_; }
    [[nodiscard]] const Node& node(NodeIndex i) const { return nodes_[i]; }
    [[nodiscard]] std::uint32_t predecessors(NodeIndex i) const { return predecessors_[i]; }
    template <class F>
    void for_each_successor(NodeIndex i, F&& f) const {
        for (std::uint64_t e = first_[i]; e < first_[i + 1]; ++e) f(successors_[e], completions_[e]);
    }
    template <class F>
    void for_each_root(F&& f) const {
        for (const NodeIndex r : roots_) f(r);
    }
    /// Edges in all.
    [[nodiscard]] std::uint64_t edges() const { return successors_.size(); }
    /// "file:line: " (or "file: node i: ") for node i, to begin a refusal that names it.
    [[nodiscard]] std::string where(NodeIndex i) const { return locate(sources_, files_, lines_, i); }
    /// "file:line" node i was read from, or "" for a node built in code.
    [[nodiscard]] std::string place(NodeIndex i) const { return placed(sources_, files_, lines_, i); }

    /// "file:line" of node i (its file: sources[files[i]], or sources[0] where files is empty), or "" where
    /// its line is unknown (0).
    [[nodiscard]] static std::string placed(const std::vector<std::string>& sources,
                                            const std::vector<std::uint32_t>& files,
                                            const std::vector<std::size_t>& lines, NodeIndex i) {
        const std::size_t line = i < lines.size() ? lines[i] : 0;
        if (line == 0) return {};
        return sources[i < files.size() ? files[i] : 0] + ":" + std::to_string(line);
    }
    /// "file:line: " of node i, or "file: node i: " where its line is unknown.
    [[nodiscard]] static std::string locate(const std::vector<std::string>& sources,
                                            const std::vector<std::uint32_t>& files,
                                            const std::vector<std::size_t>& lines, NodeIndex i) {
        const std::string at = placed(sources, files, lines, i);
        if (!at.empty()) return at + ": ";
        return sources[0] + ": node " + std::to_string(i) + ": ";
    }

private:
    friend class GraphBuilder;
    std::vector<std::string> sources_{"workload"};  // the files nodes were read from; the first names the graph
    std::uint32_t ranks_ = 0;
    std::vector<Node> nodes_;
    std::vector<std::uint32_t> files_;        // per node, its file in sources_ (empty: all from the first)
    std::vector<std::size_t> lines_;          // per node: the line it was read from (0: built in code)
    std::vector<std::uint64_t> first_;        // per node, its first edge; size() + 1 entries
    std::vector<NodeIndex> successors_;       // per edge, in rows by predecessor
    std::vector<Completion> completions_;     // per edge: which completion of the predecessor it waits for
    std::vector<std::uint32_t> predecessors_;
    std::vector<NodeIndex> roots_;
};

static_assert(WorkloadGraph<ExplicitGraph>);

class GraphBuilder {
public:
    /// `source` names where the graph comes from (a file's path) in refusals: file 0.
    explicit GraphBuilder(std::string source = "workload") : sources_{std::move(source)} {}

    /// Another file nodes are read from (a workload of a file per rank): its index, for add().
    std::uint32_t file(std::string name) {
        for (std::uint32_t f = 0; f < sources_.size(); ++f)
            if (sources_[f] == name) return f;
        sources_.push_back(std::move(name));
        return static_cast<std::uint32_t>(sources_.size() - 1);
    }

    /// Adds a node, read from `line` of file `file` (line 0: built in code); returns its index.
    NodeIndex add(const Node& n, std::size_t line = 0, std::uint32_t file = 0) {
        fabric::detail::require(file < sources_.size(), "GraphBuilder::add: file ", file, " was not named by file()");
        nodes_.push_back(n);
        lines_.push_back(line);
        files_.push_back(file);
        return nodes_.size() - 1;
    }
    NodeIndex add_message(std::uint32_t from, std::uint32_t to, std::uint64_t bytes, std::size_t line = 0,
                          std::uint32_t file = 0) {
        return add(Node{.kind = NodeKind::message, .rank = from, .peer = to, .bytes = bytes}, line, file);
    }
    NodeIndex add_compute(std::uint32_t rank, std::uint64_t cycles, std::size_t line = 0, std::uint32_t file = 0) {
        return add(Node{.kind = NodeKind::compute, .rank = rank, .peer = rank, .cycles = cycles}, line, file);
    }
    /// The node as added so far, to set its delay, cycle, class or tag.
    [[nodiscard]] Node& node(NodeIndex i) { return nodes_.at(i); }
    [[nodiscard]] NodeIndex size() const { return nodes_.size(); }

    /// `successor` waits for `predecessor`'s completion `when` (read from `line`; 0: the successor's line).
    void depend(NodeIndex successor, NodeIndex predecessor, Completion when = Completion::delivered,
                std::size_t line = 0) {
        edges_.push_back({predecessor, successor, when, line});
    }

    /// The graph over `ranks` ranks, checked; the builder is left empty.
    [[nodiscard]] ExplicitGraph build(std::uint32_t ranks) {
        ExplicitGraph g;
        g.ranks_ = ranks;
        const NodeIndex n = nodes_.size();
        for (NodeIndex i = 0; i < n; ++i) check_node(i, ranks);
        g.first_.assign(n + 1, 0);
        g.predecessors_.assign(n, 0);
        for (const Edge& e : edges_) {
            const std::string at = edge_where(e);
            fabric::detail::require(e.from < n, at, "a dependency names node ", e.from, ", past the ", n,
                                    " the workload has");
            fabric::detail::require(e.to < n, at, "a dependency is given for node ", e.to, ", past the ", n,
                                    " the workload has");
            fabric::detail::require(e.from != e.to, at, "a node cannot wait for itself");
            fabric::detail::require(g.predecessors_[e.to] < ~std::uint32_t{0}, at, "a node waits for more than ",
                                    ~std::uint32_t{0}, " others");
            ++g.first_[e.from + 1];
            ++g.predecessors_[e.to];
        }
        for (NodeIndex i = 0; i < n; ++i) g.first_[i + 1] += g.first_[i];
        g.successors_.resize(edges_.size());
        g.completions_.resize(edges_.size());
        std::vector<std::uint64_t> fill(g.first_.begin(), g.first_.end() - 1);
        for (const Edge& e : edges_) {
            // A compute node completes once: its edges wait for "done", said as delivered.
            const Completion c = nodes_[e.from].is_message() ? e.when : Completion::delivered;
            g.successors_[fill[e.from]] = e.to;
            g.completions_[fill[e.from]++] = c;
        }
        for (NodeIndex i = 0; i < n; ++i)
            if (g.predecessors_[i] == 0) g.roots_.push_back(i);
        g.nodes_ = std::move(nodes_);
        g.lines_ = std::move(lines_);
        if (sources_.size() > 1) g.files_ = std::move(files_);  // else every node's is the first
        g.sources_ = std::move(sources_);
        refuse_cycles(g);
        nodes_.clear();
        lines_.clear();
        files_.clear();
        edges_.clear();
        sources_.assign(1, g.sources_[0]);
        return g;
    }

private:
    struct Edge {
        NodeIndex from, to;
        Completion when;
        std::size_t line;
    };

    /// An edge's line is in its successor's file.
    [[nodiscard]] std::string edge_where(const Edge& e) const {
        const bool known = e.to < nodes_.size();
        if (e.line != 0) return sources_[known ? files_[e.to] : 0] + ":" + std::to_string(e.line) + ": ";
        if (known) return ExplicitGraph::locate(sources_, files_, lines_, e.to);
        return sources_[0] + ": ";
    }

    void check_node(NodeIndex i, std::uint32_t ranks) const {
        const Node& x = nodes_[i];
        const std::string at = ExplicitGraph::locate(sources_, files_, lines_, i);
        fabric::detail::require(ranks >= 1, sources_[0], ": a workload needs at least one rank");
        fabric::detail::require(x.rank < ranks, at, "rank ", x.rank, " is past the ", ranks,
                                " ranks (0 to ", ranks - 1, ")");
        if (x.is_message())
            fabric::detail::require(x.peer < ranks, at, "rank ", x.peer, " is past the ", ranks, " ranks (0 to ",
                                    ranks - 1, ")");
        else
            fabric::detail::require(x.peer == x.rank, at, "a compute node runs on one rank; it names ", x.rank,
                                    " and ", x.peer);
    }

    /// Kahn's order over the whole graph: a node never reached lies on a cycle or
    /// behind one; the refusal names one cycle, from the first such node on.
    static void refuse_cycles(const ExplicitGraph& g) {
        const NodeIndex n = g.size();
        std::vector<std::uint32_t> left(g.predecessors_);
        std::vector<NodeIndex> order(g.roots_);
        for (std::size_t k = 0; k < order.size(); ++k)
            g.for_each_successor(order[k], [&](NodeIndex s, Completion) {
                if (--left[s] == 0) order.push_back(s);
            });
        if (order.size() == n) return;
        // Walk back through unfinished predecessors from an unfinished node until a node repeats.
        std::vector<NodeIndex> first_pred(n, n);
        for (NodeIndex i = 0; i < n; ++i)
            if (left[i] == 0)
                continue;
            else
                g.for_each_successor(i, [&](NodeIndex s, Completion) {
                    if (left[s] != 0 && first_pred[s] == n) first_pred[s] = i;
                });
        NodeIndex start = 0;
        while (left[start] == 0) ++start;
        std::vector<std::uint8_t> seen(n, 0);
        NodeIndex at = start;
        while (!seen[at]) {
            seen[at] = 1;
            at = first_pred[at];
        }
        // Each node by the file and line it was read from, or by its index where it was built in code.
        const auto name = [&](NodeIndex x) {
            const std::string p = g.place(x);
            return p.empty() ? "node " + std::to_string(x) : p;
        };
        std::string cycle = name(at);
        std::size_t shown = 0;
        for (NodeIndex x = first_pred[at]; x != at && shown < 8; x = first_pred[x], ++shown)
            cycle += " <- " + name(x);
        cycle += shown == 8 ? " <- ..." : " <- " + name(at);
        fabric::detail::throw_config_error({fabric::detail::message_part(g.where(at)),
                                            fabric::detail::message_part("the workload's dependencies form a cycle "
                                                                         "(each waiting for the next): "),
                                            fabric::detail::message_part(cycle)});
    }

    std::vector<std::string> sources_;  // the files nodes are read from (file()); the first names the graph
    std::vector<Node> nodes_;
    std::vector<std::size_t> lines_;
    std::vector<std::uint32_t> files_;
    std::vector<Edge> edges_;
};

/// Any workload graph as a table (a generated collective, to splice into a workload read from a file).
template <WorkloadGraph G>
[[nodiscard]] ExplicitGraph to_explicit(const G& g, std::string source = "workload") {
    GraphBuilder b(std::move(source));
    for (NodeIndex i = 0; i < g.size(); ++i) b.add(g.node(i));
    for (NodeIndex i = 0; i < g.size(); ++i)
        g.for_each_successor(i, [&](NodeIndex s, Completion c) { b.depend(s, i, c); });
    return b.build(g.ranks());
}

}  // namespace fabric::workload
