// Directed graphs as adjacency lists, and a search for one cycle: what the
// compile-time and run-time deadlock check (channel dependencies) and the cycle
// kernel's watchdog (waits between virtual channels) share.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabric::detail {

/// One cycle of the graph `adj` (vertex v's successors in adj[v]) as the vertices
/// c0, c1, ... on it, each followed by an edge to the next and the last by an edge
/// to c0; empty when the graph is acyclic. Iterative depth-first search: no
/// recursion depth limit, usable in constant expressions.
constexpr std::vector<std::uint32_t> find_cycle(const std::vector<std::vector<std::uint32_t>>& adj) {
    const std::size_t n = adj.size();
    std::vector<std::uint8_t> colour(n, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::uint32_t> parent(n, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // vertex, next edge
    for (std::uint32_t root = 0; root < n; ++root) {
        if (colour[root] != 0) continue;
        stack.push_back({root, 0});
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next < adj[v].size()) {
                const std::uint32_t w = adj[v][next++];
                if (colour[w] == 0) {
                    colour[w] = 1;
                    parent[w] = v;
                    stack.push_back({w, 0});
                } else if (colour[w] == 1) {
                    std::vector<std::uint32_t> cycle{w};
                    for (std::uint32_t u = v; u != w; u = parent[u]) cycle.push_back(u);
                    std::reverse(cycle.begin() + 1, cycle.end());
                    return cycle;
                }
            } else {
                colour[v] = 2;
                stack.pop_back();
            }
        }
    }
    return {};
}

}  // namespace fabric::detail
