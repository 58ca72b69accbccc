// A directed graph kept acyclic as its edges arrive one at a time: an edge that
// would close a cycle is refused, and the cycle it would close is returned. What
// the virtual-channel layering of shortest-path routing on an arbitrary graph
// needs (routing/graph_shortest_path.hpp): each layer holds routes whose channel
// dependencies must stay acyclic, and a route goes to the first layer that takes
// all of its dependencies.
//
// The vertices keep a topological order, mended on each insertion that breaks it
// (Pearce and Kelly, "A dynamic topological sort algorithm for directed acyclic
// graphs", JEA 2006): an edge x -> y with x already before y costs nothing; else
// only the vertices whose positions lie between y's and x's are searched, forward
// from y (reaching x means a cycle) and backward from x, and those two sets swap
// places in the order. Searching the whole graph for every edge, as a plain cycle
// test would, is what makes the layering of a few thousand routes too slow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabric::detail {

class IncrementalDag {
public:
    explicit IncrementalDag(std::size_t vertices)
        : out_(vertices), in_(vertices), order_(vertices), seen_(vertices, 0), parent_(vertices, 0) {
        for (std::size_t v = 0; v < vertices; ++v) order_[v] = static_cast<std::uint32_t>(v);
    }

    [[nodiscard]] std::size_t vertices() const { return out_.size(); }
    [[nodiscard]] bool has_edge(std::uint32_t u, std::uint32_t v) const {
        return std::find(out_[u].begin(), out_[u].end(), v) != out_[u].end();
    }
    /// The vertices u has an edge to, in the order the edges were added.
    [[nodiscard]] const std::vector<std::uint32_t>& successors(std::uint32_t u) const { return out_[u]; }

    /// Adds u -> v and returns an empty list, or, when the edge would close a
    /// cycle, adds nothing and returns that cycle: v, ..., u, each vertex with an
    /// edge to the next and u with the new edge back to v. An edge already present
    /// is not added twice.
    std::vector<std::uint32_t> add(std::uint32_t u, std::uint32_t v) {
        if (u == v) return {u};
        if (has_edge(u, v)) return {};
        if (order_[u] > order_[v]) {
            std::vector<std::uint32_t> cycle = reorder(u, v);
            if (!cycle.empty()) return cycle;
        }
        out_[u].push_back(v);
        in_[v].push_back(u);
        return {};
    }

    /// Takes u -> v out again (the order stays a topological order of what is left).
    void remove(std::uint32_t u, std::uint32_t v) {
        std::erase(out_[u], v);
        std::erase(in_[v], u);
    }

private:
    /// For an edge u -> v with v before u: the cycle it would close, or (none)
    /// the order mended so that u comes before v.
    std::vector<std::uint32_t> reorder(std::uint32_t u, std::uint32_t v) {
        const std::uint32_t low = order_[v], high = order_[u];
        // Forward from v among positions up to u's: what must move after u.
        std::vector<std::uint32_t> ahead;
        if (search(v, out_, [&](std::uint32_t w) { return order_[w] <= high; }, ahead, u))
            return path_to(u, v);
        // Backward from u among positions from v's on: what must stay before v's set.
        std::vector<std::uint32_t> behind;
        search(u, in_, [&](std::uint32_t w) { return order_[w] >= low; }, behind, none);
        auto by_position = [&](std::uint32_t a, std::uint32_t b) { return order_[a] < order_[b]; };
        std::sort(ahead.begin(), ahead.end(), by_position);
        std::sort(behind.begin(), behind.end(), by_position);
        std::vector<std::uint32_t> positions;
        positions.reserve(ahead.size() + behind.size());
        for (const std::uint32_t w : behind) positions.push_back(order_[w]);
        for (const std::uint32_t w : ahead) positions.push_back(order_[w]);
        std::sort(positions.begin(), positions.end());
        std::size_t i = 0;
        for (const std::uint32_t w : behind) order_[w] = positions[i++];
        for (const std::uint32_t w : ahead) order_[w] = positions[i++];
        return {};
    }

    /// Depth-first from `root` along `edges` through vertices that `inside`
    /// admits, collecting them in `found`; true when it reaches `target`. Each
    /// vertex reached records the vertex it was reached from (parent_), so that a
    /// cycle can be read back.
    template <class Inside>
    bool search(std::uint32_t root, const std::vector<std::vector<std::uint32_t>>& edges, Inside inside,
                std::vector<std::uint32_t>& found, std::uint32_t target) {
        ++epoch_;
        std::vector<std::uint32_t> stack{root};
        seen_[root] = epoch_;
        found.push_back(root);
        while (!stack.empty()) {
            const std::uint32_t w = stack.back();
            stack.pop_back();
            for (const std::uint32_t x : edges[w]) {
                if (seen_[x] == epoch_ || !inside(x)) continue;
                seen_[x] = epoch_;
                parent_[x] = w;
                if (x == target) return true;
                found.push_back(x);
                stack.push_back(x);
            }
        }
        return false;
    }

    /// v, ..., u along the parents the last forward search recorded.
    [[nodiscard]] std::vector<std::uint32_t> path_to(std::uint32_t u, std::uint32_t v) const {
        std::vector<std::uint32_t> path{u};
        for (std::uint32_t w = u; w != v; w = parent_[w]) path.push_back(parent_[w]);
        std::reverse(path.begin(), path.end());
        return path;
    }

    static constexpr std::uint32_t none = ~std::uint32_t{0};
    std::vector<std::vector<std::uint32_t>> out_, in_;
    std::vector<std::uint32_t> order_;   // each vertex's position in the topological order
    std::vector<std::uint32_t> seen_;    // the search that last reached each vertex
    std::vector<std::uint32_t> parent_;  // the vertex each was reached from in that search
    std::uint32_t epoch_ = 0;
};

}  // namespace fabric::detail
