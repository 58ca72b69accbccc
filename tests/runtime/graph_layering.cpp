// The layering of shortest-path routes on a graph (routing/graph_shortest_path.hpp)
// without walking every route hop by hop: the same layer for every pair, and the same
// refusal, as the walk of every route that it replaces (written out here as the
// reference, as it was), on rings, tori, random graphs and graphs that need more
// layers than they have; and the deadlock check reads the layers' own dependencies
// (for_each_turn), which are exactly those a walk of every route finds.
#include <doctest/doctest.h>

#include <fabric/core/incremental_dag.hpp>
#include <fabric/core/random.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/topology/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace unit_graph_layering {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

/// The layering as it was: every pair's route built hop by hop and offered to the layers in turn.
/// Its layer table, or the refusal it throws.
template <class T>
std::pair<std::vector<std::uint8_t>, std::string> walked_layers(const T& t, std::size_t layers) {
    const std::size_t n = t.node_count();
    std::vector<std::uint8_t> table(n * n, 0);
    std::vector<detail::IncrementalDag> dags;
    std::vector<std::uint32_t> route;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> added;
    for (std::uint32_t s = 0; s < n; ++s)
        for (std::uint32_t d = 0; d < n; ++d) {
            route.clear();
            for (NodeId at{s}; at.value != d;) {
                const PortId p = GraphShortestPath::next_port(t, at, NodeId{d});
                route.push_back(static_cast<std::uint32_t>(channel_index<T>(at, p)));
                at = t.neighbour(at, p);
            }
            if (route.size() < 2) continue;
            for (std::size_t l = 0;; ++l) {
                if (l == dags.size()) dags.emplace_back(channel_slots(t));
                added.clear();
                std::vector<std::uint32_t> cycle;
                for (std::size_t i = 0; i + 1 < route.size() && cycle.empty(); ++i) {
                    if (dags[l].has_edge(route[i], route[i + 1])) continue;
                    cycle = dags[l].add(route[i], route[i + 1]);
                    if (cycle.empty()) added.emplace_back(route[i], route[i + 1]);
                }
                if (cycle.empty()) {
                    table[s * n + d] = static_cast<std::uint8_t>(l);
                    break;
                }
                for (const auto& [u, v] : added) dags[l].remove(u, v);
                if (l + 1 == layers) {  // the refusal GraphShortestPath writes
                    DependencyReport r;
                    for (const std::uint32_t c : cycle)
                        r.cycle.push_back(VirtualChannel{NodeId{static_cast<std::uint32_t>(c / T::ports_per_node)},
                                                         PortId{static_cast<std::uint32_t>(c % T::ports_per_node)},
                                                         static_cast<std::uint8_t>(l)});
                    return {{}, "the route from node " + std::to_string(s) + " to node " + std::to_string(d) +
                                    " would close the cycle " + r.describe_cycle() + " in every one of them"};
                }
            }
        }
    return {table, ""};
}

/// A graph of n nodes: a ring, plus `chords` links between random pairs of free ports.
GraphDescription random_graph(std::uint32_t n, std::uint32_t chords, std::uint64_t seed, std::uint32_t ports) {
    GraphDescription d;
    d.nodes = n;
    std::vector<std::uint32_t> used(n, 2);
    for (std::uint32_t v = 0; v < n; ++v) d.links.push_back(GraphLink{v, 0, (v + 1) % n, 1, 0, 0});
    Random rng(seed);
    for (std::uint32_t k = 0; k < chords; ++k) {
        const auto a = static_cast<std::uint32_t>(rng.below(n)), b = static_cast<std::uint32_t>(rng.below(n));
        if (a == b || (a + 1) % n == b || (b + 1) % n == a || used[a] >= ports || used[b] >= ports) continue;
        bool twice = false;
        for (const GraphLink& l : d.links) twice = twice || (l.node == a && l.neighbour == b) || (l.node == b && l.neighbour == a);
        if (twice) continue;
        d.links.push_back(GraphLink{a, used[a]++, b, used[b]++, 0, 0});
    }
    return d;
}

/// The cycle in a refusal, as the reference writes it, from the policy's message.
std::string refused(const auto& t, std::size_t layers) {
    try {
        (void)GraphShortestPath(t, layers);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

/// A policy with the graph's routes and no for_each_turn: the deadlock check walks every route.
struct WalkEveryRoute {
    const GraphShortestPath* policy;
    template <class T>
    static constexpr bool fits = GraphShortestPath::fits<T>;
    template <class T>
    static constexpr std::size_t vcs_required = 1;
    template <class T>
    static std::size_t max_hops(const T& t) {
        return t.diameter();
    }
    template <class T>
    std::size_t select_route(const T& t, NodeId s, NodeId d, std::uint64_t seed, Hop* out) const {
        return policy->select_route(t, s, d, seed, out);
    }
    template <class T, class F>
    void for_each_route(const T& t, NodeId s, NodeId d, F&& f) const {
        policy->for_each_route(t, s, d, f);
    }
};

template <class G>
void same_as_walked(const G& g, std::size_t layers) {
    const auto [table, refusal] = walked_layers(g, layers);
    if (!refusal.empty()) {
        const std::string m = refused(g, layers);
        CAPTURE(m);
        CAPTURE(refusal);
        CHECK(m.find(refusal) != std::string::npos);  // the same pair refused, naming the same cycle
        return;
    }
    const GraphShortestPath policy(g, layers);
    const auto n = static_cast<std::uint32_t>(g.node_count());
    std::size_t differ = 0;
    for (std::uint32_t s = 0; s < n; ++s)
        for (std::uint32_t d = 0; d < n; ++d) differ += policy.layer(NodeId{s}, NodeId{d}) != table[s * n + d];
    CHECK(differ == 0);
    // The dependencies the layers name are those a walk of every route finds, and they are acyclic.
    const DependencyReport named = channel_dependencies(g, policy);
    const DependencyReport walked = detail::full_dependency_check(g, WalkEveryRoute{&policy}, detail::ClassVcs<G>{});
    CHECK(named.acyclic);
    CHECK(walked.acyclic);
    CHECK(named.dependencies == walked.dependencies);
    CHECK(named.channels <= walked.channels);  // a channel only single-hop routes use is named by no turn
}

}  // namespace

TEST_CASE("rings: the layers of every pair as the walk of every route gives them, and its refusal") {
    using Ring = Graph<2, 1, BasicLink<4>>;
    for (const std::uint32_t n : {3U, 4U, 5U, 8U, 13U, 32U, 61U}) {
        CAPTURE(n);
        const Ring ring(random_graph(n, 0, 1, 2));
        for (const std::size_t layers : {1U, 2U, 3U, 4U}) {
            CAPTURE(layers);
            same_as_walked(ring, layers);
        }
    }
}

TEST_CASE("random graphs of up to 8 ports a node: the same layers as the walk, and the same refusals") {
    using G = Graph<8, 1, BasicLink<4>>;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const auto n = static_cast<std::uint32_t>(6 + seed * 7);
        CAPTURE(seed);
        const G g(random_graph(n, n, seed, 8));
        for (const std::size_t layers : {1U, 2U, 4U}) {
            CAPTURE(layers);
            same_as_walked(g, layers);
        }
    }
}

TEST_CASE("a ring of 2,000 routers, layered on two VCs, and its dependencies acyclic") {
    // Walking every route of a ring of N is N^3 / 4 hops (7.3 s at 1,000 routers, 61 s at 2,000); the layering
    // adds only the dependencies a layer lacks. (Its cost is checked by the estimates' test, tests/hostile/.)
    using Ring = Graph<2, 1, BasicLink<2>>;
    const Ring ring(random_graph(2000, 0, 1, 2));
    const GraphShortestPath policy(ring, 2);
    CHECK(policy.layers_used() == 2);
    CHECK(channel_dependencies(ring, policy).acyclic);
}

}  // namespace unit_graph_layering
