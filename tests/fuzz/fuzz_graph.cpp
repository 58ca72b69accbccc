// libFuzzer target for the graph readers (topology/graph_file.hpp): any bytes are
// an edge list or a BookSim anynet file (the first word decides, as read_graph_file
// does), then a Graph of up to 64 routers, and its shortest routes layered on up to 4
// virtual channels (routing/graph_shortest_path.hpp). Laws whatever the bytes: a
// refusal is a config_error naming the file (and the line, where there is one) and
// nothing else; a graph read has every count within what a Graph holds; routes that
// are layered leave the channel dependencies acyclic, every layer's dependencies
// those of its routes.
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/topology/graph.hpp>
#include <fabric/topology/graph_file.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_graph: law broken: %s\n", what);
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabric;
    if (size == 0) return 0;
    const std::size_t layers = 1 + data[0] % 4;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    GraphDescription d;
    try {
        d = parse_graph(text, "fuzz.graph");
    } catch (const config_error& e) {
        law(std::string(e.what()).rfind("fabric: fuzz.graph", 0) == 0, "a refusal names the file");
        return 0;
    }
    law(d.nodes <= max_graph_nodes && d.terminals_per_node <= 64 && d.terminal_nodes <= max_graph_nodes,
        "the counts read are within a Graph's bounds");
    for (const GraphLink& l : d.links)
        law(l.node < max_graph_nodes && l.neighbour < max_graph_nodes && l.port < 255 && l.neighbour_port < 255,
            "every link read is within a Graph's bounds");
    if (d.nodes > 64) return 0;  // (a larger graph is the same code, slower)
    using G = Graph<16, 4, BasicLink<4>>;
    try {
        const G g(d);
        const GraphShortestPath routing(g, layers);
        law(routing.layers_used() <= layers, "the routes take at most the layers given");
        law(channel_dependencies(g, routing).acyclic, "layered routes cannot deadlock");
    } catch (const config_error& e) {
        law(std::string(e.what()).rfind("fabric: ", 0) == 0, "a refusal starts fabric:");
    }
    return 0;
}
