// Collectives written out as GOAL schedules and CSV traces (collective/write.hpp),
// small cases worked by hand. Reading them back and running them to the same
// result is runs.cpp's.
#include <doctest/doctest.h>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/write.hpp>

#include <sstream>
#include <string>

namespace unit_write {

using namespace fabric::collective;

std::string goal(const CollectiveGraph& g) {
    std::ostringstream out;
    write_goal(out, g);
    return out.str();
}
std::string csv(const CollectiveGraph& g, const std::vector<std::vector<std::uint32_t>>& terminals = {}) {
    std::ostringstream out;
    write_csv(out, g, terminals);
    return out.str();
}

TEST_CASE("GOAL: a send and its recv for each message, a calc for each reduction, requires where a rank waits") {
    // A binomial broadcast of 64 bytes from rank 0 to rank 1: one message.
    CHECK(goal(build(Operation::broadcast, Algorithm::binomial, Shape::line(2), Size{64})) ==
          "num_ranks 2\nrank 0 {\ns0: send 64b to 1 tag 0\n}\nrank 1 {\nr0: recv 64b from 0 tag 0\n}\n");
    // A ring allreduce over 2 ranks of 64 bytes, reductions of 1 cycle a byte. Nodes: round 0, messages 0 -> 1
    // and 1 -> 0 (nodes 0, 1) and their reductions (2, 3); round 1 (the allgather), messages (4, 5). Rank 0's
    // round-1 send waits for its round-0 send to leave and for its reduction of what it received.
    CHECK(goal(build(Operation::allreduce, Algorithm::ring, Shape::line(2), Size{64, 1, 1.0})) ==
          "num_ranks 2\n"
          "rank 0 {\ns0: send 32b to 1 tag 0\nr1: recv 32b from 1 tag 0\nc3: calc 32\ns4: send 32b to 1 tag 0\n"
          "r5: recv 32b from 1 tag 0\nc3 requires r1\ns4 requires s0\ns4 requires c3\n}\n"
          "rank 1 {\nr0: recv 32b from 0 tag 0\ns1: send 32b to 0 tag 0\nc2: calc 32\nr4: recv 32b from 0 tag 0\n"
          "s5: send 32b to 0 tag 0\nc2 requires r0\ns5 requires s1\ns5 requires c2\n}\n");
    // A multi-ported lane's messages name their rail.
    const std::string multi = goal(build(Operation::allgather, Algorithm::multiported, Shape{{2, 2}, {}, 4}, Size{64}));
    CHECK(multi.find(" nic 3\n") != std::string::npos);
}

TEST_CASE("CSV: messages between terminals, each after the deliveries it waits for") {
    // Ring allgather over 3 ranks, 3 blocks of 16 bytes: round 0 (nodes 0-2) waits for nothing; round 1's
    // message from rank r (node 3 + r) waits for what r received in round 0, node (r - 1) mod 3. Its wait for its
    // own round-0 send to leave is its terminal's queue's order, and not written.
    CHECK(csv(build(Operation::allgather, Algorithm::ring, Shape::line(3), Size{48})) ==
          "id,cycle,source,destination,bytes,class,after,delay\n"
          "0,0,0,1,16,0,,0\n1,0,1,2,16,0,,0\n2,0,2,0,16,0,,0\n"
          "3,0,0,1,16,0,2,0\n4,0,1,2,16,0,0,0\n5,0,2,0,16,0,1,0\n");
    // Rails become terminals: rank r's rail k is the terminal the placement gives.
    const std::string railed = csv(build(Operation::allgather, Algorithm::multiported, Shape{{2}, {}, 2}, Size{64}),
                                   {{10, 11}, {20, 21}});
    CHECK(railed.find(",10,20,") != std::string::npos);
    CHECK(railed.find(",21,11,") != std::string::npos);
    // A reduction has no row: refused, naming GOAL.
    CHECK_THROWS_WITH_AS(csv(build(Operation::allreduce, Algorithm::ring, Shape::line(2), Size{64, 1, 1.0})),
                         "fabric: CSV: node 2 is a compute node, which a CSV trace has no row for; write GOAL (its "
                         "calc), or run the collective without a reduction cost",
                         fabric::config_error);
}

}  // namespace unit_write
