// Built-in topologies written as graphs (write_edge_list, read back as fabric::Graph)
// under shortest-path routing: the virtual channels (layers) its routes need, and
// what reading the graph, placing the routes in layers and the deadlock check of a
// Fabric cost (docs/graph_topology.md quotes these rows).
#include <chrono>
#include <cstdio>
#include <sstream>

#include <fabric/composition.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/graph_file.hpp>
#include <fabric/topology/torus.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

template <class T>
void row(const char* name, const T& topo) {
    std::stringstream file;
    fabric::write_edge_list(file, topo);
    const auto t0 = clock_type::now();
    using G = fabric::Graph<T::ports_per_node, 1, fabric::BasicLink<8>, fabric::link_class_count_v<T>>;
    const G graph(fabric::parse_edge_list(file, name));
    const double read = since(t0);
    const auto t1 = clock_type::now();
    const fabric::GraphShortestPath routing(graph);
    const double layering = since(t1);
    const auto t2 = clock_type::now();
    const fabric::Fabric<G, fabric::GraphShortestPath> net(graph, routing);
    const double check = since(t2);
    std::printf("| %s | %zu | %zu | %zu | %.3f s | %.3f s | %.3f s |\n", name, graph.node_count(), graph.diameter(),
                routing.layers_used(), read, layering, check);
}

}  // namespace

int main() {
    std::printf("| graph | nodes | diameter | layers (VCs) | read | layering | dependency check |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    using fabric::BasicLink;
    row("16 x 16 torus", fabric::Torus<2, BasicLink<2>>({16, 16}));
    row("8 x 8 x 8 torus", fabric::Torus<3, BasicLink<2>>({8, 8, 8}));
    row("dragonfly a = 8, h = 4", fabric::Dragonfly<16>(8, 4));
    row("32 x 32 torus", fabric::Torus<2, BasicLink<2>>({32, 32}));
    return 0;
}
