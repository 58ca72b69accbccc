// libFuzzer target for the workload readers (clang -fsanitize=fuzzer,address,undefined):
// the first byte picks a reader (LogGOPSim's GOAL, workload/goal.hpp; the CSV trace
// with id, after and delay columns, sim/trace_file.hpp; a rank's Chakra trace in
// JSON, workload/chakra_json.hpp), the rest is the file's text. A reader must refuse what it cannot read with config_error and nothing else,
// and a graph it accepts must be a graph: every rank below the rank count, every
// edge between nodes that exist, no cycle (the engine would wait forever), and,
// when it is small, it runs on a 4-node ring to its end: every node completes.
#include <fabric/fabric.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/workload/chakra_json.hpp>
#include <fabric/workload/goal.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_readers: law broken: %s\n", what);
    std::abort();
}

void check_and_run(const fabric::workload::ExplicitGraph& g) {
    using namespace fabric;
    using workload::NodeIndex;
    std::uint64_t edges = 0, largest = 0;
    for (NodeIndex i = 0; i < g.size(); ++i) {
        const workload::Node n = g.node(i);
        law(n.rank < g.ranks() && n.peer < g.ranks(), "a node's ranks are below the rank count");
        g.for_each_successor(i, [&](NodeIndex s, workload::Completion) {
            law(s < g.size() && s != i, "an edge joins two nodes that exist");
            ++edges;
        });
        if (n.is_message()) largest = std::max(largest, n.bytes);
        else largest = std::max(largest, n.cycles / 64);
    }
    law(edges == g.edges(), "the edges counted are the graph's");
    if (g.ranks() > 4 || g.size() > 64 || largest > 4096) return;
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> net{Ring({4})};
    CycleSimulator<decltype(net)> sim(net);
    const WorkloadResult r = sim.run_workload(g);
    law(r.finished, "an acyclic workload on a dateline ring finishes");
    law(r.completed == g.size(), "every node completes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        if (data[0] % 3 == 0) {
            check_and_run(fabric::workload::parse_goal(text, "fuzz.goal"));
        } else if (data[0] % 3 == 2) {
            fabric::workload::ChakraOptions options;
            options.expand = fabric::collective::expander();  // a collective of the one rank's
            check_and_run(fabric::workload::parse_chakra_json({text}, {"fuzz.0.json"}, options));
        } else {
            std::istringstream in(text);
            const fabric::Trace t = fabric::parse_trace(in, "fuzz.csv", 16);
            if (t.dependent) check_and_run(t.graph(4, 16));
        }
    } catch (const fabric::config_error&) {
    }
    return 0;
}
