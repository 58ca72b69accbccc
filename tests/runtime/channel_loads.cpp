// The flow kernel's per-channel loads as records: one per channel, the loads the
// kernel computed, written as CSV through the common serialiser.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/experiment/channel_loads.hpp>
#include <fabric/experiment/records.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace unit_channel_loads {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using Ring = KAryNCube<1, BasicLink<2>, DynamicExtents, Boundary::wrap>;

TEST_CASE("channel load records of a 4-ring under uniform traffic: k/8 = 0.5 on each of the 8 channels") {
    const Ring ring(std::vector<long long>{4});
    const Fabric<Ring, DorTieSplit<>> net{ring};
    const auto loads = link_load(net, UniformTraffic(4));
    const auto records = experiment::channel_load_records(ring, loads);
    REQUIRE(records.size() == 8);
    double total = 0;
    for (const auto& r : records) {
        CAPTURE(r.node);
        CAPTURE(r.port);
        CHECK(r.load == doctest::Approx(0.5));
        CHECK(r.link == "basic");
        CHECK(r.to == ring.neighbour(NodeId{r.node}, PortId{r.port}).value);
        CHECK(r.load == loads.load(NodeId{r.node}, PortId{r.port}));
        total += r.load;
    }
    // Conservation: each node sends 1/4 to each node at distance 0, 1, 2, 1: 4 x 1 unit-hop.
    CHECK(total == doctest::Approx(4.0));

    std::ostringstream out;
    experiment::write_csv(out, records);
    std::istringstream in(out.str());
    std::string header, first;
    std::getline(in, header);
    std::getline(in, first);
    CHECK(header == "node,port,to,link,load[units],bandwidth[GB/s]");
    CHECK(first.rfind("0,0,", 0) == 0);
    CHECK(first.find(",basic,0.5,") != std::string::npos);
}

TEST_CASE("channel load records refuse loads of another topology; CSV labels with commas are quoted") {
    const Ring ring4(std::vector<long long>{4});
    const Ring ring6(std::vector<long long>{6});
    const auto loads = link_load(Fabric<Ring, DorTieSplit<>>{ring6}, UniformTraffic(6));
    CHECK_THROWS_WITH_AS(experiment::channel_load_records(ring4, loads),
                         doctest::Contains("the loads were computed on another topology (12 channel slots; this one has 8)"),
                         config_error);
    std::vector<experiment::ChannelLoadRecord> odd(1);
    odd[0].link = "a,\"b\"";
    std::ostringstream out;
    experiment::write_csv(out, odd);
    CHECK(out.str().find("\n0,0,0,\"a,\"\"b\"\"\",0,0\n") != std::string::npos);
}

}  // namespace unit_channel_loads
