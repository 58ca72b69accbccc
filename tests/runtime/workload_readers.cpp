// The workload readers: LogGOPSim's GOAL (workload/goal.hpp), read as LogGOPSim
// writes it and run on the cycle kernel against LogGOPSim's own figure; sends
// matched to recvs by source, tag and order; requires and irequires; and every
// refusal naming its file and line.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/workload/goal.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace unit_workload_readers {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using workload::Completion;
using workload::NodeIndex;

namespace {

std::string goal_refusal(const std::string& text) {
    try {
        (void)workload::parse_goal(text, "s.goal");
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

/// Sixteen terminals on one router (router 0 of a concentrated ring of two): every
/// pair zero links apart, (0 + 1) P + S - 1 = 4 cycles for a flit, plus the injection latency.
using Star = Concentrated<Torus<1>, 16>;

}  // namespace

TEST_CASE("LogGOPSim's dissemination_16.goal ends every rank at 22,000 with o = 1500, g = 1000, L = 2500") {
    // LogGOPSim's README: "each host end time is printed (22000ns for our example with
    // default parameters)", L = 2500, o = 1500, g = 1000. Four rounds of a send's o,
    // the one-byte latency and the receive's o: 4 (1500 + 2500 + 1500) = 22,000.
    const auto g = workload::read_goal(std::string(FABRIC_TEST_DATA) + "/loggopsim/dissemination_16.goal");
    CHECK(g.ranks() == 16);
    CHECK(g.size() == 64);  // 4 sends a rank, each matched to a recv: one message node each
    const Fabric<Star, DorTieSplit<>> fab{Star(Torus<1>({2}), 16)};
    CycleConfig cfg;
    cfg.injection_latency = 2500 - 4;  // the one-byte latency: 2,496 + P (4) cycles
    CycleSimulator<decltype(fab)> sim(fab, cfg);
    WorkloadOptions opt;
    opt.endpoints = workload::Endpoints::loggp(1500, 1000);
    opt.record_nodes = true;
    const WorkloadResult r = sim.run_workload(g, opt);
    REQUIRE(r.finished);
    for (std::uint32_t rank = 0; rank < 16; ++rank) {
        CAPTURE(rank);
        CHECK(r.ranks[rank] == 22000);
    }
    CHECK(r.finish_cycle == 22000);
    CHECK(r.network.latency.max == 2500);  // every message at zero load
    CHECK(r.network.latency.mean == 2500);
}

TEST_CASE("GOAL: sends match recvs by source, tag and order; a recv that requires something waits for both") {
    const auto g = workload::parse_goal(R"(num_ranks 2
/* two messages of tag 5 and one of tag 7, posted in another order */
rank 0 {
a: send 8b to 1 tag 5
b: send 16b to 1 tag 7
c: send 24b to 1 tag 5   // the second of tag 5
w: calc 100
c requires w
}
rank 1 {
x: recv 24b from 0 tag 7
y: recv 8 b from 0 tag 5
z: recv 32b from 0 tag 5
t: calc 7
z requires t
}
)",
                                        "m.goal");
    REQUIRE(g.size() == 6);  // 3 messages, 2 calcs, and z's 0-cycle node
    CHECK(g.node(0).bytes == 8);
    CHECK(g.node(0).tag == 5);
    CHECK(g.node(1).bytes == 16);
    CHECK(g.node(1).tag == 7);
    CHECK(g.node(2).bytes == 24);
    CHECK(g.where(2) == "m.goal:6: ");
    CHECK(g.predecessors(2) == 1);  // c requires w
    const NodeIndex zero = 5;
    CHECK(g.node(zero).kind == workload::NodeKind::compute);
    CHECK(g.node(zero).rank == 1);
    CHECK(g.node(zero).cycles == 0);
    CHECK(g.predecessors(zero) == 2);  // its message, and t
    std::vector<NodeIndex> after_c;
    g.for_each_successor(2, [&](NodeIndex s, Completion c) {
        after_c.push_back(s);
        CHECK(c == Completion::delivered);
    });
    CHECK(after_c == std::vector<NodeIndex>{zero});
}

TEST_CASE("GOAL: irequires waits for what the other op waits for, requires for its end") {
    // b irequires a: b starts when a may (after w), not when a has ended.
    const auto g = workload::parse_goal(R"(num_ranks 2
rank 0 {
w: calc 50
a: send 8b to 1
a requires w
b: calc 10
b irequires a
}
rank 1 {
r: recv 8b from 0
}
)",
                                        "i.goal");
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({4})};
    CycleSimulator<decltype(fab)> sim(fab);
    WorkloadOptions opt;
    opt.record_nodes = true;
    const WorkloadResult r = sim.run_workload(g, opt);
    REQUIRE(r.finished);
    // Nodes: w 0, a 1, b 2. w ends at 50; a and b are ready at 50; one CPU: a (the
    // lower node) takes no CPU time (o = 0), b runs 50 .. 60.
    CHECK(r.nodes[0].delivered == 50);
    CHECK(r.nodes[1].ready == 50);
    CHECK(r.nodes[2].ready == 50);
    CHECK(r.nodes[2].delivered == 60);
    CHECK(r.nodes[1].delivered == 50 + (2 * 4 + 1));  // one hop, one flit
}

TEST_CASE("GOAL: every refusal names the file and line") {
    CHECK(goal_refusal("rank 0 {\n}\n") == "fabric: s.goal:1: a rank before num_ranks; a schedule starts 'num_ranks N'");
    CHECK(goal_refusal("num_ranks 2\nrank 2 {\n}\n") == "fabric: s.goal:2: a rank must be below 2; got 2");
    CHECK(goal_refusal("num_ranks 2\nrank 0 {\nl1: send 1b to 1\n}\nrank 1 {\n}\n") ==
          "fabric: s.goal:3: this send (rank 0 to rank 1, tag 0, the 1th of its kind) has no matching recv in rank 1");
    CHECK(goal_refusal("num_ranks 2\nrank 0 {\n}\nrank 1 {\nl1: recv 1b from 0 tag 3\n}\n") ==
          "fabric: s.goal:5: this recv (rank 1 from rank 0, tag 3) has no matching send in rank 0");
    CHECK(goal_refusal("num_ranks 2\nrank 1 {\nl1: recv 1b from -1\n}\n").find("s.goal:3: a recv from any source") !=
          std::string::npos);
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5 cpu 1\n}\n") ==
          "fabric: s.goal:3: fabric models one CPU a rank: cpu must be 0; got 1");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5\nl1 requires l2\n}\n") ==
          "fabric: s.goal:4: label 'l2' is not defined in rank 0 (a dependency names labels defined above it)");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5\nl1 requires l1\n}\n") ==
          "fabric: s.goal:4: 'l1' cannot wait for itself");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5\nl2: calc 6\nl1 requires l2\nl2 requires l1\n}\n")
              .find("s.goal:3: the workload's dependencies form a cycle") != std::string::npos);
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5\n") == "fabric: s.goal: rank 0's block is not closed ('}')");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\n/* open\n}\n") == "fabric: s.goal:3: a '/*' comment is not closed");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: send 1 to 0\n}\n") == "fabric: s.goal:3: a size is in bytes: '1b'");
    CHECK(goal_refusal("num_ranks 1\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n") ==
          "fabric: s.goal:4: label 'l1' is defined twice in rank 0");
}

namespace {
Trace csv(const std::string& text) {
    std::istringstream in(text);
    return parse_trace(in, "t.csv", 16);
}
std::string csv_refusal(const std::string& text, std::uint32_t terminals = 8) {
    try {
        (void)csv(text).graph(terminals, 16);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("a CSV trace with id, after and delay columns waits as Netrace's rule says") {
    // Ring of 8, messages of one flit (16 bytes): 0 -> 1 (one hop, 2 * 4 + 1 = 9
    // cycles), then 1 -> 3 four cycles after it (two hops, 14 cycles: 13 .. 27), then
    // 3 -> 0 after both but not before its cycle 100 (three hops, 19 cycles).
    const Trace t = csv("cycle,source,destination,bytes,id,after,delay\n"
                        "100,3,0,16,30,10;20,0\n"  // rows in any order
                        "0,0,1,16,10,,0\n"
                        "0,1,3,16,20,10,4\n");
    CHECK(t.dependent);
    const auto g = t.graph(8, 16);
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({8})};
    CycleSimulator<decltype(fab)> sim(fab);
    WorkloadOptions opt;
    opt.record_nodes = true;
    const WorkloadResult r = sim.run_workload(g, opt);
    REQUIRE(r.finished);
    CHECK(r.nodes[1].delivered == 9);
    CHECK(r.nodes[2].ready == 13);
    CHECK(r.nodes[2].delivered == 27);
    CHECK(r.nodes[0].ready == 100);
    CHECK(r.finish_cycle == 119);
}

TEST_CASE("a CSV trace without 'after' stays an open-loop trace; a dependent one refuses by line") {
    CHECK_FALSE(csv("cycle,source,destination,flits\n0,0,1,1\n").dependent);
    CHECK(csv_refusal("cycle,source,destination,flits\n0,0,1,1\n") ==
          "fabric: t.csv: the trace has no 'after' column: it is an open-loop trace (run_trace)");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,1,1,5,\n0,1,2,1,5,\n") ==
          "fabric: t.csv:3: id 5 is given to line 2 already");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,1,1,5,7\n") ==
          "fabric: t.csv:2: 'after' names id 7, which no row has");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,1,1,5,5\n") ==
          "fabric: t.csv:2: a node cannot wait for itself");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,1,1,5,6\n0,1,2,1,6,5\n")
              .find("t.csv:2: the workload's dependencies form a cycle") != std::string::npos);
    CHECK(csv_refusal("cycle,source,destination,flits,after\n0,0,1,1,\n") ==
          "fabric: t.csv:1: a trace whose rows wait for one another has both 'id' and 'after' columns");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,9,1,5,\n") ==
          "fabric: t.csv:2: terminal 9 is past the network's 8 terminals (0 to 7)");
    CHECK(csv_refusal("cycle,source,destination,flits,id,after\n0,0,1,1,5,x\n") ==
          "fabric: t.csv:2: an id in 'after' must be a whole number; got 'x'");
}

}  // namespace unit_workload_readers
