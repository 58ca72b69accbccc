// Chakra execution traces in their JSON form (workload/chakra_json.hpp): the
// jsonizer's objects and the proto's own field names, sends matched to recvs, run
// on the cycle kernel to the cycle worked by hand; a collective (COMM_COLL_NODE)
// expanded by fabric's algorithms and timed as the same algorithm run alone; every
// refusal names the file and line.
#include <doctest/doctest.h>

#include <fabric/collective/expander.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/chakra_json.hpp>
#include <string>
#include <vector>
namespace unit_chakra_json {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {
std::vector<std::string> names_of(std::size_t ranks) {
    std::vector<std::string> names;
    for (std::size_t r = 0; r < ranks; ++r) names.push_back("w." + std::to_string(r) + ".json");
    return names;
}

std::string chakra_refusal(const std::vector<std::string>& texts, const workload::ChakraOptions& options = {}) {
    try {
        (void)workload::parse_chakra_json(texts, names_of(texts.size()), options);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("Chakra JSON: two ranks' traces, a compute, a send matched to its recv, a compute after it") {
    const std::string r0 = R"({"version": "0.0.4", "attr": [{"name": "schema", "stringVal": "1.0.2-chakra.0.0.4"}]}
{"id": "1", "name": "compute", "type": "COMP_NODE", "durationMicros": "2"}
{"id": "2", "name": "send", "type": "COMM_SEND_NODE", "ctrlDeps": ["1"],
 "attr": [{"name": "comm_type", "int64Val": "0"}, {"name": "comm_dst", "int32Val": 1},
          {"name": "comm_size", "int64Val": "64"}, {"name": "comm_tag", "int32Val": 7}]}
)";
    const std::string r1 = R"([{"version": "0.0.4"},
{"id": 5, "type": 6, "attr": [{"name": "comm_src", "int32_val": 0}, {"name": "comm_size", "int64_val": 64},
                             {"name": "comm_tag", "int32_val": 7}]},
{"id": 6, "type": "COMP_NODE", "duration_micros": 1, "data_deps": [5]}])";
    const auto g = workload::parse_chakra_json({r0, r1}, {"w.0.json", "w.1.json"});
    CHECK(g.ranks() == 2);
    CHECK(g.size() == 3);
    using Ring = Torus<1>;
    const Fabric<Ring, DorTieSplit<>> fab{Ring({4})};
    CycleSimulator<decltype(fab)> sim(fab);
    const WorkloadResult r = sim.run_workload(g);
    REQUIRE(r.finished);
    // compute 2 us = 2000 cycles; the message of 4 flits one hop: 2 * 4 + 1 + 3 = 12; then 1000 cycles.
    CHECK(r.finish_cycle == 2000 + 12 + 1000);
}

/// A COMM_COLL_NODE of comm_type `type` and `bytes`, with `extra` attributes, after node `after` (0: none).
std::string coll(int id, int type, std::uint64_t bytes, int after = 0, const std::string& extra = "") {
    return "{\"id\": " + std::to_string(id) + ", \"type\": \"COMM_COLL_NODE\"" +
           (after != 0 ? ", \"dataDeps\": [" + std::to_string(after) + "]" : std::string()) +
           ", \"attr\": [{\"name\": \"comm_type\", \"int64Val\": \"" + std::to_string(type) +
           "\"}, {\"name\": \"comm_size\", \"int64Val\": \"" + std::to_string(bytes) + "\"}" + extra + "]}\n";
}
std::string comp(int id, int micros, int after = 0) {
    return "{\"id\": " + std::to_string(id) + ", \"type\": \"COMP_NODE\", \"durationMicros\": " +
           std::to_string(micros) + (after != 0 ? ", \"ctrlDeps\": [" + std::to_string(after) + "]" : std::string()) + "}\n";
}

using Ring = Torus<1>;

/// The cycle `g` finishes on a ring of `terminals` (rank r on terminal r), every rank's finish too. Where
/// two ranks are k/2 apart the tie is split by a random draw a packet, so a graph must not meet one to be
/// timed exactly as another with the same messages in another order.
template <class G>
WorkloadResult run_on_ring(const G& g, std::uint32_t terminals) {
    const Fabric<Ring, DorTieSplit<>> fab{Ring({terminals})};
    CycleSimulator<decltype(fab)> sim(fab);
    return sim.run_workload(g);
}

TEST_CASE("Chakra JSON: a collective expanded by fabric's algorithm takes the time the algorithm takes alone") {
    // Four ranks (on a ring of 8, so that no two are tied) compute 1 us, allreduce 4 KiB, compute 1 us. The
    // network is idle when the allreduce starts, at cycle 1,000 on every rank, so it ends when a ring
    // allreduce of 4 KiB run alone would, 1,000 later.
    std::vector<std::string> texts;
    for (int r = 0; r < 4; ++r) texts.push_back(comp(1, 1) + coll(2, 0, 4096, 1) + comp(3, 1, 2));
    workload::ChakraOptions options;
    options.expand = collective::expander();
    const auto g = workload::parse_chakra_json(texts, names_of(4), options);
    const auto alone = collective::build(collective::Operation::allreduce, collective::Algorithm::ring,
                                         collective::Shape::line(4), {.bytes = 4096});
    // 2(p - 1) rounds of p messages each, and on each rank the computes, the entry and the exit.
    CHECK(g.size() == alone.size() + 4 * 4);
    const WorkloadResult collective_alone = run_on_ring(alone, 8);
    const WorkloadResult r = run_on_ring(g, 8);
    REQUIRE(collective_alone.finished);
    REQUIRE(r.finished);
    CHECK(r.finish_cycle == 1000 + collective_alone.finish_cycle + 1000);
    for (std::uint32_t k = 0; k < 4; ++k) CHECK(r.ranks[k] == 1000 + collective_alone.ranks[k] + 1000);

    // The same under recursive doubling, chosen by name, and every rank's finish moves with it.
    collective::WorkloadAlgorithms chosen;
    chosen.choose("allreduce=recursive-doubling");
    options.expand = collective::expander(chosen);
    const auto doubling = collective::build(collective::Operation::allreduce, collective::Algorithm::recursive_doubling,
                                            collective::Shape::line(4), {.bytes = 4096});
    const WorkloadResult d = run_on_ring(workload::parse_chakra_json(texts, names_of(4), options), 8);
    REQUIRE(d.finished);
    CHECK(d.finish_cycle == 1000 + run_on_ring(doubling, 8).finish_cycle + 1000);
    CHECK(d.finish_cycle != r.finish_cycle);
}

TEST_CASE("Chakra JSON: process groups are collectives of their own ranks, matched in order") {
    // Ranks 0 and 1 allreduce in group "a", ranks 2 and 3 in "b", at once, on links of their own of the
    // ring of 4: each pair ends as a 2-rank allreduce alone does; then all four do a barrier (no group).
    const std::string a = ", {\"name\": \"pg_name\", \"stringVal\": \"a\"}";
    const std::string b = ", {\"name\": \"pg_name\", \"stringVal\": \"b\"}";
    std::vector<std::string> texts;
    for (int r = 0; r < 4; ++r) texts.push_back(coll(1, 0, 1024, 0, r < 2 ? a : b));
    workload::ChakraOptions options;
    options.expand = collective::expander();
    const WorkloadResult r = run_on_ring(workload::parse_chakra_json(texts, names_of(4), options), 4);
    const auto pair = collective::build(collective::Operation::allreduce, collective::Algorithm::ring,
                                        collective::Shape::line(2), {.bytes = 1024});
    const WorkloadResult alone = run_on_ring(pair, 4);
    REQUIRE(r.finished);
    CHECK(r.ranks[0] == alone.ranks[0]);
    CHECK(r.ranks[1] == alone.ranks[1]);
    CHECK(r.ranks[2] == alone.ranks[0]);  // the same distance, the same direction, the same time
    CHECK(r.ranks[3] == alone.ranks[1]);
    // A group of one rank: its barrier sends nothing, and the pair's barrier is the pair's.
    const std::string c = ", {\"name\": \"pg_name\", \"stringVal\": \"c\"}";
    std::vector<std::string> alone_and_pair{coll(1, 9, 0) + coll(2, 9, 0, 1, c), coll(1, 9, 0)};
    const auto g = workload::parse_chakra_json(alone_and_pair, names_of(2), options);
    CHECK(g.size() == 2 + 3 * 2);  // a 2-rank dissemination barrier's 2 messages; 3 entries and 3 exits
}

TEST_CASE("Chakra JSON: a broadcast from the root it names") {
    std::vector<std::string> texts;
    for (int r = 0; r < 4; ++r) texts.push_back(coll(1, 5, 256, 0, ", {\"name\": \"root\", \"int32Val\": 2}"));
    workload::ChakraOptions options;
    options.expand = collective::expander();
    const auto g = workload::parse_chakra_json(texts, names_of(4), options);
    // A binomial broadcast: three messages, each rank but the root receiving one, the root's sending first.
    std::vector<int> received(4, 0);
    std::uint32_t first_sender = 4;
    for (workload::NodeIndex i = 0; i < g.size(); ++i)
        if (g.node(i).is_message()) {
            ++received[g.node(i).peer];
            if (first_sender == 4) first_sender = g.node(i).rank;
        }
    CHECK(received == std::vector<int>{1, 1, 0, 1});
    CHECK(first_sender == 2);
    REQUIRE(run_on_ring(g, 4).finished);
}

TEST_CASE("Chakra JSON: a cycle of dependencies across two ranks' files names each node's own file and line") {
    // Each rank receives from the other before it sends: each send waits for the other's.
    auto rank = [](int peer) {
        const std::string attrs = "{\"name\": \"comm_size\", \"int64Val\": \"64\"}, {\"name\": \"comm_tag\", "
                                  "\"int32Val\": 0}]}\n";
        return "{\"id\": 1, \"type\": \"COMM_RECV_NODE\", \"attr\": [{\"name\": \"comm_src\", \"int32Val\": " +
               std::to_string(peer) + "}, " + attrs +
               "{\"id\": 2, \"type\": \"COMM_SEND_NODE\", \"ctrlDeps\": [1], \"attr\": [{\"name\": \"comm_dst\", "
               "\"int32Val\": " + std::to_string(peer) + "}, " + attrs;
    };
    const std::string why = chakra_refusal({rank(1), rank(0)});
    CHECK((why == "fabric: w.0.json:2: the workload's dependencies form a cycle (each waiting for the next): "
                  "w.0.json:2 <- w.1.json:2 <- w.0.json:2" ||
           why == "fabric: w.1.json:2: the workload's dependencies form a cycle (each waiting for the next): "
                  "w.1.json:2 <- w.0.json:2 <- w.1.json:2"));
}

TEST_CASE("Chakra JSON: every refusal names the file and line") {
    CHECK(chakra_refusal({coll(1, 0, 64)}) ==
          "fabric: w.0.json:1: a collective (allreduce) needs algorithms to expand it, and none were given to this "
          "reader");
    workload::ChakraOptions options;
    options.expand = collective::expander();
    CHECK(chakra_refusal({coll(1, 3, 64)}, options) ==
          "fabric: w.0.json:1: node 1: comm_type 3 is not a collective fabric runs (0 ALL_REDUCE, 1 REDUCE, "
          "2 ALL_GATHER, 5 BROADCAST, 6 ALL_TO_ALL, 7 REDUCE_SCATTER, 8 REDUCE_SCATTER_BLOCK, 9 BARRIER)");
    CHECK(chakra_refusal({coll(1, 0, 64), comp(1, 1) + coll(2, 0, 128, 1)}, options) ==
          "fabric: w.1.json:2: this collective (allreduce of 128 bytes, root none) is rank 1's part in one "
          "whose rank 0 gives allreduce of 64 bytes, root none (w.0.json:1): its participants must agree");
    CHECK(chakra_refusal({coll(1, 0, 64) + coll(2, 0, 64, 1), coll(1, 0, 64)}, options) ==
          "fabric: w.1.json: rank 1 takes part in 1 collectives of process group '', rank 0 (w.0.json) in 2: every "
          "rank of a group takes part in each of its collectives, in one order");
    CHECK(chakra_refusal({coll(1, 5, 64, 0, ", {\"name\": \"root\", \"int32Val\": 1}"), comp(1, 1)}, options) ==
          "fabric: w.0.json:1: the root of this broadcast, rank 1, does not take part in it");
    CHECK(chakra_refusal({coll(1, 0, 64, 0, ", {\"name\": \"involved_dim\", \"boolList\": {\"values\": [true, "
                               "false]}}")}, options) ==
          "fabric: w.0.json:1: node 1: involved_dim leaves out a dimension of ASTRA-sim's hierarchical network; "
          "fabric runs a collective over every rank of its process group (pg_name)");
    // One value an attribute, one entry a name (protobuf's oneof): a second is refused, not taken over the first.
    CHECK(chakra_refusal({coll(1, 0, 64, 0, ", {\"name\": \"comm_type\", \"int64Val\": \"6\"}")}, options) ==
          "fabric: w.0.json:1: node 1: the attribute comm_type is given twice");
    CHECK(chakra_refusal({coll(1, 0, 64, 0, ", {\"name\": \"pg_name\"}")}, options) ==
          "fabric: w.0.json:1: node 1: the attribute pg_name has no value");
    CHECK(chakra_refusal({coll(1, 5, 64, 0, ", {\"name\": \"root\", \"int32Val\": 0, \"int64Val\": \"0\"}")},
                         options) == "fabric: w.0.json:1: node 1: the attribute root has two values (int32Val, int64Val)");
    collective::WorkloadAlgorithms chosen;
    CHECK_THROWS_WITH_AS(chosen.choose("allreduce=dimension-wise"),
                         "fabric: dimension-wise lays the ranks out as a grid; a workload's collective runs over a "
                         "list of ranks (its process group): choose a flat algorithm for allreduce", config_error);
    CHECK_THROWS_WITH_AS(chosen.choose("broadcast=ring"),
                         "fabric: broadcast has no algorithm 'ring'; a workload's broadcast runs by binomial, "
                         "scatter-allgather, chain", config_error);
    CHECK_THROWS_WITH_AS(chosen.choose("allreduce"), "fabric: 'allreduce' in 'allreduce' is not OPERATION=ALGORITHM",
                         config_error);
    CHECK_THROWS_WITH_AS(chosen.choose("allreduce=ring,"), "fabric: '' in 'allreduce=ring,' is not OPERATION=ALGORITHM",
                         config_error);
    CHECK_THROWS_WITH_AS(chosen.choose("allreduce=ring,allreduce=rabenseifner"),
                         "fabric: allreduce is given twice in 'allreduce=ring,allreduce=rabenseifner'", config_error);
    CHECK_THROWS_WITH_AS(chosen.choose("gather=ring"), "fabric: 'gather' is no collective operation; there are "
                         "allreduce, allgather, reduce-scatter, broadcast, reduce, alltoall, barrier", config_error);
    CHECK(chakra_refusal({"{\"id\": 1, \"type\": \"COMP_NODE\"}\n"
                          "{\"id\": 2, \"type\": \"COMP_NODE\", \"ctrlDeps\": [\"9\"]}"}) ==
          "fabric: w.0.json:2: a dependency names node 9, which this trace does not have");
    CHECK(chakra_refusal({"{\"id\": 1, \"type\": \"COMM_SEND_NODE\", \"attr\": [{\"name\": \"comm_dst\", "
                          "\"int32Val\": 3}, {\"name\": \"comm_size\", \"int64Val\": \"8\"}]}"}) ==
          "fabric: w.0.json:1: node 1: rank 3 is past the 1 ranks of the workload (one trace a rank)");
    CHECK(chakra_refusal({"{\"id\": 1,\n \"type\": }"}).find("w.0.json:2: not JSON") != std::string::npos);
}

}  // namespace unit_chakra_json
