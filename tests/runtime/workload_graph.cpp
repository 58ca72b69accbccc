// Workload graphs built node by node (workload/graph.hpp): successors and
// predecessor counts as given, roots in order, a compute node's edges read as
// "done", and every broken rule refused with the line it came from.
#include <doctest/doctest.h>

#include <fabric/workload/graph.hpp>

#include <string>
#include <utility>
#include <vector>

namespace unit_workload_graph {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric::workload;

namespace {

std::vector<std::pair<NodeIndex, Completion>> successors(const ExplicitGraph& g, NodeIndex i) {
    std::vector<std::pair<NodeIndex, Completion>> out;
    g.for_each_successor(i, [&](NodeIndex s, Completion c) { out.emplace_back(s, c); });
    return out;
}

std::string refusal(GraphBuilder b, std::uint32_t ranks) {
    try {
        (void)b.build(ranks);
    } catch (const fabric::config_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a fan-in and a chain keep their edges, counts and roots") {
    GraphBuilder b("ring.csv");
    const NodeIndex a = b.add_message(0, 1, 64, 2);
    const NodeIndex c = b.add_message(2, 1, 64, 3);
    const NodeIndex work = b.add_compute(1, 100, 4);
    const NodeIndex reply = b.add_message(1, 0, 8, 5);
    b.depend(work, a);
    b.depend(work, c);
    b.depend(reply, work, Completion::sent);  // said of a compute node: read as done
    b.node(reply).delay = 7;
    const ExplicitGraph g = b.build(3);
    CHECK(g.size() == 4);
    CHECK(g.edges() == 3);
    CHECK(g.predecessors(a) == 0);
    CHECK(g.predecessors(work) == 2);
    CHECK(g.predecessors(reply) == 1);
    CHECK(g.node(reply).delay == 7);
    CHECK(g.node(work).kind == NodeKind::compute);
    CHECK(successors(g, a) == std::vector<std::pair<NodeIndex, Completion>>{{work, Completion::delivered}});
    CHECK(successors(g, work) == std::vector<std::pair<NodeIndex, Completion>>{{reply, Completion::delivered}});
    std::vector<NodeIndex> roots;
    g.for_each_root([&](NodeIndex r) { roots.push_back(r); });
    CHECK(roots == std::vector<NodeIndex>{a, c});
    CHECK(g.where(work) == "ring.csv:4: ");
}

TEST_CASE("a message's edge keeps the completion it waits for") {
    GraphBuilder b;
    const NodeIndex first = b.add_message(0, 1, 1);
    const NodeIndex second = b.add_message(0, 2, 1);
    b.depend(second, first, Completion::sent);
    const ExplicitGraph g = b.build(3);
    CHECK(successors(g, first) == std::vector<std::pair<NodeIndex, Completion>>{{second, Completion::sent}});
    CHECK(g.where(second) == "workload: node 1: ");
}

TEST_CASE("nodes read from several files: each named by its own file and line") {
    GraphBuilder b("r.0.json");
    const std::uint32_t second = b.file("r.1.json");
    CHECK(second == 1);
    CHECK(b.file("r.1.json") == second);  // a file named again keeps its index
    CHECK(b.file("r.0.json") == 0);
    const NodeIndex m = b.add_message(0, 1, 8, 4);
    const NodeIndex c = b.add_compute(1, 5, 7, second);
    const NodeIndex code = b.add_compute(1, 5);  // built in code: no line
    b.depend(c, m);
    const ExplicitGraph g = b.build(2);
    CHECK(g.where(m) == "r.0.json:4: ");
    CHECK(g.where(c) == "r.1.json:7: ");
    CHECK(g.place(c) == "r.1.json:7");
    CHECK(g.place(code).empty());
    CHECK(g.where(code) == "r.0.json: node 2: ");
    GraphBuilder unnamed("w.csv");
    CHECK_THROWS_AS(unnamed.add_compute(0, 1, 1, 3), fabric::config_error);  // file 3 was never named
}

TEST_CASE("broken graphs are refused with their file and line") {
    {
        GraphBuilder b("w.csv");
        b.add_message(0, 5, 1, 9);
        CHECK(refusal(std::move(b), 4) == "fabric: w.csv:9: rank 5 is past the 4 ranks (0 to 3)");
    }
    {
        GraphBuilder b("w.csv");
        const NodeIndex x = b.add_message(0, 1, 1, 3);
        b.depend(x, x, Completion::delivered, 3);
        CHECK(refusal(std::move(b), 2) == "fabric: w.csv:3: a node cannot wait for itself");
    }
    {
        GraphBuilder b("w.csv");
        const NodeIndex x = b.add_message(0, 1, 1, 3);
        b.depend(x, 12, Completion::delivered, 4);
        CHECK(refusal(std::move(b), 2) == "fabric: w.csv:4: a dependency names node 12, past the 1 the workload has");
    }
    {
        GraphBuilder b("w.csv");
        const NodeIndex root = b.add_message(0, 1, 1, 2);
        const NodeIndex x = b.add_message(1, 0, 1, 3);
        const NodeIndex y = b.add_compute(0, 5, 4);
        b.depend(x, root);
        b.depend(x, y);
        b.depend(y, x);
        const std::string why = refusal(std::move(b), 2);
        CHECK(why.find("fabric: w.csv:") == 0);
        CHECK(why.find("form a cycle") != std::string::npos);
        // Each node of the cycle by the line it was read from.
        CHECK((why.find("w.csv:3 <- w.csv:4 <- w.csv:3") != std::string::npos ||
               why.find("w.csv:4 <- w.csv:3 <- w.csv:4") != std::string::npos));
    }
}

}  // namespace unit_workload_graph
