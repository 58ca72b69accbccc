// Chakra execution traces in their JSON form (workload/chakra_json.hpp): the
// jsonizer's objects and the proto's own field names, sends matched to recvs, run
// on the cycle kernel to the cycle worked by hand; every refusal names the file and
// line, and a collective is refused by node with the reason.
#include <doctest/doctest.h>

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
std::string chakra_refusal(const std::vector<std::string>& texts) {
    std::vector<std::string> names;
    for (std::size_t r = 0; r < texts.size(); ++r) names.push_back("w." + std::to_string(r) + ".json");
    try {
        (void)workload::parse_chakra_json(texts, names);
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

TEST_CASE("Chakra JSON: every refusal names the file and line") {
    CHECK(chakra_refusal({"{\"id\": 1, \"type\": \"COMM_COLL_NODE\"}"}) ==
          "fabric: w.0.json:1: node 1: a collective (COMM_COLL_NODE) is expanded by fabric's own collective "
          "algorithms, which are not in this build yet; give its sends and recvs instead");
    CHECK(chakra_refusal({"{\"id\": 1, \"type\": \"COMP_NODE\"}\n"
                          "{\"id\": 2, \"type\": \"COMP_NODE\", \"ctrlDeps\": [\"9\"]}"}) ==
          "fabric: w.0.json:2: a dependency names node 9, which this trace does not have");
    CHECK(chakra_refusal({"{\"id\": 1, \"type\": \"COMM_SEND_NODE\", \"attr\": [{\"name\": \"comm_dst\", "
                          "\"int32Val\": 3}, {\"name\": \"comm_size\", \"int64Val\": \"8\"}]}"}) ==
          "fabric: w.0.json:1: node 1: rank 3 is past the 1 ranks of the workload (one trace a rank)");
    CHECK(chakra_refusal({"{\"id\": 1,\n \"type\": }"}).find("w.0.json:2: not JSON") != std::string::npos);
}

}  // namespace unit_chakra_json
