// Collectives written out (collective/write.hpp) and read back by the dependency
// engine's readers (workload/goal.hpp, sim/trace_file.hpp) run as the generated
// graph runs. GOAL says every dependency the graph has (sends, receives,
// reductions as calc, each wait as requires), and where no rank has two nodes
// ready for its CPU or rail at once its run is the same to the cycle, every rank's
// finish included. Where one has (reductions and sends interleaved, Bruck's
// rounds), the engine serves them in node order, which the reader numbers
// otherwise than the generator: the runs differ (recursive doubling with
// reductions 624 against 595 cycles, Bruck's allgather 118 against 121, a
// pipelined reduce chain 1,944 against 3,864), both finish and move the same
// flits. The CSV trace has no compute and leaves out a message's wait
// for its own rank's earlier send (its source queue keeps the order): where a
// receive is what each send waits for last (a ring allreduce), the run is the
// same; where back-to-back sends are (a pipelined chain), it is earlier, by the
// cycle a piece the engine takes to ready a successor of a send (runs.cpp).
#include <doctest/doctest.h>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/write.hpp>
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/topology/torus.hpp>
#include <fabric/workload/goal.hpp>

#include <cstdint>
#include <sstream>
#include <string>

namespace unit_readback {

using namespace fabric;
using collective::Algorithm;
using collective::Operation;
using R = Torus<1>;
using Net = Fabric<R, DorTieSplit<>>;

template <class G>
WorkloadResult run(const Net& net, const G& g) {
    CycleSimulator<Net> sim(net);
    WorkloadResult r = sim.run_workload(g, {});
    REQUIRE(r.finished);
    return r;
}

workload::ExplicitGraph via_goal(const collective::CollectiveGraph& g) {
    std::ostringstream out;
    collective::write_goal(out, g);
    return workload::parse_goal(out.str(), "written.goal");
}

workload::ExplicitGraph via_csv(const collective::CollectiveGraph& g, std::uint32_t ranks) {
    std::ostringstream out;
    collective::write_csv(out, g, {});
    std::istringstream in(out.str());
    return parse_trace(in, "written.csv", 16).graph(ranks, 16);
}

TEST_CASE("a collective written as GOAL and read back runs to the cycle as its graph where no rank has two nodes "
          "ready at once") {
    const std::uint32_t p = 8;
    const Net net{R({p})};
    struct Case {
        Operation op;
        Algorithm a;
        std::uint32_t pieces;
        double gamma;
        bool same;  // no rank with two nodes ready for its CPU or rail at once
    };
    for (const Case& c : {Case{Operation::allreduce, Algorithm::ring, 1, 0.5, true},
                          Case{Operation::broadcast, Algorithm::chain, 4, 0, true},
                          Case{Operation::alltoall, Algorithm::pairwise, 1, 0, true},
                          Case{Operation::barrier, Algorithm::dissemination, 1, 0, true},
                          Case{Operation::allreduce, Algorithm::recursive_doubling, 1, 0.25, false},
                          Case{Operation::allgather, Algorithm::bruck, 1, 0, false},
                          Case{Operation::reduce, Algorithm::chain, 4, 0.25, false}}) {
        CAPTURE(std::string(name(c.op)));
        CAPTURE(std::string(name(c.a)));
        const auto g = collective::build(c.op, c.a, collective::Shape::line(p),
                                         collective::Size{c.op == Operation::barrier ? 0 : p * 4 * 16 * c.pieces,
                                                          c.pieces, c.gamma});
        const WorkloadResult direct = run(net, g);
        const WorkloadResult read = run(net, via_goal(g));
        CHECK(read.network.flits_ejected == direct.network.flits_ejected);
        CHECK(read.completed == direct.completed);
        if (c.same) {
            CHECK(read.finish_cycle == direct.finish_cycle);
            CHECK(read.ranks == direct.ranks);
        } else {
            MESSAGE(name(c.op), " by ", name(c.a), ": generated ", direct.finish_cycle, " cycles, read back from GOAL ",
                    read.finish_cycle);
        }
    }
}

TEST_CASE("a collective written as a CSV trace runs as its graph where a receive is each send's last wait, earlier "
          "where back-to-back sends are") {
    const std::uint32_t p = 8;
    const Net net{R({p})};
    const auto ring = collective::build(Operation::allreduce, Algorithm::ring, collective::Shape::line(p),
                                        collective::Size{p * 4 * 16});
    CHECK(run(net, via_csv(ring, p)).finish_cycle == run(net, ring).finish_cycle);
    const auto bruck = collective::build(Operation::allgather, Algorithm::bruck, collective::Shape::line(p),
                                         collective::Size{p * 4 * 16});
    CHECK(run(net, via_csv(bruck, p)).finish_cycle == run(net, bruck).finish_cycle);
    // A chain broadcast of 4 pieces: the root's 3 sends after the first wait for the one before to have left; the
    // CSV leaves that wait to the queue, which sends them back to back.
    const auto chain = collective::build(Operation::broadcast, Algorithm::chain, collective::Shape::line(p),
                                         collective::Size{4 * 4 * 16, 4});
    const std::uint64_t generated = run(net, chain).finish_cycle, csv = run(net, via_csv(chain, p)).finish_cycle;
    CHECK(csv < generated);
    MESSAGE("chain broadcast of 4 pieces: generated graph ", generated, " cycles, its CSV ", csv);
}

}  // namespace unit_readback
