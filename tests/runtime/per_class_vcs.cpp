// Link classes with different virtual-channel counts: the deadlock check counts
// each link by its own class, reports a hop on a VC its link lacks, and names the
// cycle it finds, on a topology the library does not ship (examples/own).
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/link_load.hpp>

#include "../../examples/own/chord_ring.hpp"

#include <string>
#include <vector>

namespace unit_per_class_vcs {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using own::ChordRing;
using own::ChordRouting;

TEST_CASE("2 VCs on ring links and 1 on chords, as the routing asks: acyclic, and accepted") {
    const ChordRing<8> t;
    const auto report = channel_dependencies(t, ChordRouting<true>{});
    CHECK(report.acyclic);
    CHECK_FALSE(report.vc_out_of_range);
    CHECK_NOTHROW(Fabric<ChordRing<8>, ChordRouting<true>>{t});
    // Sized by the smallest count (1), VC 1 of a ring link is out of range: reported,
    // never folded onto the next channel's VC 0.
    const auto narrow = channel_dependencies(t, ChordRouting<true>{}, 1);
    CHECK(narrow.vc_out_of_range);
    CHECK(narrow.bad_hop.vc == 1);
    CHECK(narrow.bad_hop.port == PortId{0});
    CHECK(channel_dependencies(t, ChordRouting<true>{}, 2).acyclic);
}

TEST_CASE("without the dateline the ring's 8 clockwise channels form the cycle, and the message names it") {
    const ChordRing<8> t;
    const auto report = channel_dependencies(t, ChordRouting<false>{});
    REQUIRE_FALSE(report.acyclic);
    CHECK(report.cycle.size() == 8);
    for (const auto& c : report.cycle) {
        CHECK(c.port == PortId{0});
        CHECK(c.vc == 0);
    }
    CHECK_THROWS_WITH_AS((Fabric<ChordRing<8>, ChordRouting<false>>{t}),
                         doctest::Contains("has the cycle (node "), config_error);
    CHECK_NOTHROW(Fabric<ChordRing<8>, ChordRouting<false>>{t, allow_deadlock});
}

TEST_CASE("a chord route on VC 1, where chords have 1 VC: refused with the hop named") {
    const ChordRing<8> t;
    const auto report = channel_dependencies(t, ChordRouting<true, 1>{});
    CHECK(report.vc_out_of_range);
    CHECK(report.bad_hop.port == PortId{2});
    CHECK(report.bad_hop_vcs == 1);
    CHECK_THROWS_WITH_AS((Fabric<ChordRing<8>, ChordRouting<true, 1>>{t}),
                         doctest::Contains("uses a virtual channel its link does not have"), config_error);
}

TEST_CASE("the own topology runs through the flow kernel: loads worked by hand") {
    // Uniform traffic, 1/8 of a node's unit to every node (itself included). A
    // clockwise channel carries the routes of cw distance r != 4 from the r
    // sources behind it: 1 + 2 + 3 + 5 + 6 + 7 = 24 of them, 24/8 = 3 units; a
    // chord carries 1/8; anticlockwise channels nothing.
    const Fabric<ChordRing<8>, ChordRouting<true>> net{ChordRing<8>{}};
    const auto loads = link_load(net, UniformTraffic(8));
    CHECK(loads.link_class(ChordRing<8>::ring_class).max_load == doctest::Approx(3.0));
    CHECK(loads.link_class(ChordRing<8>::chord_class).max_load == doctest::Approx(0.125));
}

TEST_CASE("the own topology runs through the cycle kernel: zero-load latencies and conservation") {
    const Fabric<ChordRing<8>, ChordRouting<true>> net{ChordRing<8>{}};
    CycleConfig cfg;
    cfg.warmup = 0;
    cfg.measure = 1;
    // Pipeline P = 4, links of 1 cycle, 1-flit packets: (h + 1) P + h cycles.
    for (const auto& [dst, hops] : std::vector<std::pair<std::uint32_t, std::uint64_t>>{{3, 3}, {4, 1}, {7, 7}}) {
        CAPTURE(dst);
        CycleSimulator<decltype(net)> sim(net, cfg);
        const std::vector<TraceMessage> one{{0, 0, dst, 1}};
        const auto r = sim.run_trace(one);
        REQUIRE(r.packets_delivered == 1);
        CHECK(r.latency.max == (hops + 1) * 4 + hops);
    }
    CycleConfig load;
    load.warmup = 500;
    load.measure = 5000;
    CycleSimulator<decltype(net)> sim(net, load);
    const auto r = sim.run(UniformTraffic(8), 0.1, PacketSizes::fixed(4));
    CHECK_FALSE(r.deadlock);
    CHECK(r.drained);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
    // Mean route: (1 + 2 + 3 + 1 + 5 + 6 + 7) / 8 = 3.125 hops (a self-pair has none).
    CHECK(r.hops_mean == doctest::Approx(3.125).epsilon(0.05));
}

}  // namespace unit_per_class_vcs
