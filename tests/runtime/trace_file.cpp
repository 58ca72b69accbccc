// Message traces read from CSV files (sim/trace_file.hpp): a small trace replayed
// and worked by hand, messages split into packets by the kernel's max_packet_flits,
// each message's own latency, and malformed lines refused with file and line.
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/topology/torus.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace unit_trace_file {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

const std::string data = FABRIC_TEST_DATA;

using Ring = Torus<1, BasicLink<2>>;

Trace from_text(const std::string& text, std::uint32_t flit_bytes = 0) {
    std::istringstream in(text);
    return parse_trace(in, "bad.csv", flit_bytes);
}

}  // namespace

TEST_CASE("a small trace read and replayed: sizes, classes and each message's latency by hand") {
    const Trace t = read_trace(data + "/small_trace.csv", 16);
    REQUIRE(t.messages.size() == 3);
    // 64 bytes of 16-byte flits are 4 flits; 16 bytes 1; a message of 0 bytes still takes its one flit.
    CHECK(t.messages[0].flits == 4);
    CHECK(t.messages[1].flits == 1);
    CHECK(t.messages[2].flits == 1);
    CHECK(t.messages[2].traffic_class == 1);
    CHECK(t.messages[2].cycle == 200);
    CHECK(t.lines == std::vector<std::size_t>{3, 4, 5});
    CHECK_NOTHROW(t.check(8, 2));

    // An 8-node ring under dimension order (ties the + way), the default router: a head waits
    // routing + VC allocation + switch allocation + traversal = 4 cycles a router and 1 on each
    // link; a packet of S flits over h hops takes (h + 1) 4 + h + S - 1 cycles alone. 3 -> 4 is
    // 1 hop: 9. 5 -> 1 is the tie, 4 hops the + way: 24. 0 -> 2, 2 hops, 4 flits: 17 as one packet.
    // Split into packets of 2, the second packet's head is at the front of its injection VC
    // when the first's tail leaves (cycle 3, a cycle after the head's switch grant at 2) and is
    // granted the switch routing + VC allocation later, at 5: 3 cycles behind, so the message ends
    // at 15 + 3 = 18. In packets of 1 the heads leave 2 cycles apart: the fourth ends at 14 + 6 = 20.
    const Fabric<Ring, DorTiePositive<Dateline>> net(Ring({8}));
    CycleConfig base;
    base.class_priority = {0, 0};  // two classes of equal priority, each with its injection VC
    for (const auto& split : {std::pair{0U, 17U}, std::pair{2U, 18U}, std::pair{1U, 20U}}) {
        const std::uint32_t most = split.first;  // not a structured binding: Clang 14 cannot capture one
        const std::uint64_t first = split.second;
        MessageLatencies each(t);
        CycleSimulator sim(net, each.watching(trace_settings(base, t, most)));
        const CycleResult r = sim.run_trace(t.messages);
        CAPTURE(most);
        CHECK(each.latencies() == std::vector<std::uint64_t>{first, 9, 24});
        // The kernel's own message latency agrees: every message is measured.
        CHECK(r.measured_messages == 3);
        CHECK(r.measured_messages_delivered == 3);
        CHECK(r.message_latency.max == 24);
        CHECK(r.message_latency.mean == doctest::Approx(static_cast<double>(first + 9 + 24) / 3.0));
        CHECK(r.packets_delivered == (most == 0 ? 3 : most == 2 ? 4 : 6));
    }
    // Without the two classes the trace's class 1 is refused, by its line.
    const std::string no_class = "fabric: " + data + "/small_trace.csv:5: traffic class 1 is past the 1";
    CHECK_THROWS_WITH_AS(t.check(8, 1), doctest::Contains(no_class.c_str()), config_error);
    const std::string no_terminal = "fabric: " + data + "/small_trace.csv:4: terminal 4 is past the network's 4";
    CHECK_THROWS_WITH_AS(t.check(4, 2), doctest::Contains(no_terminal.c_str()), config_error);
}

TEST_CASE("a trace in flits with its columns in another order, and a message lost to a failed link") {
    const Trace t = from_text("# flits this time\nsource,destination,flits,cycle\n0,1,2,0\n0,1,2,0\n");
    REQUIRE(t.messages.size() == 2);
    CHECK(t.messages[1].flits == 2);
    CHECK(t.messages[1].destination == 1);
    using Line = Mesh<1, BasicLink<1>>;
    const Fabric<Line, DorTiePositive<NoDateline>> net(Line({8}));
    MessageLatencies each(t);
    CycleSimulator sim(net, each.watching(trace_settings({}, t)));
    // 0 -> 1 alone takes 2 x 4 + 1 + 1 = 10; the second, behind it in the queue, 3 cycles more.
    CHECK(sim.run_trace(t.messages).messages_delivered == 2);
    CHECK(each.latencies() == std::vector<std::uint64_t>{10, 13});
    CycleSimulator broken(net, each.watching(trace_settings({}, t)));
    broken.fail_link(NodeId{0}, PortId{0}, 0);  // on a line, the only way: both are lost, and said to be
    const CycleResult r = broken.run_trace(t.messages);
    CHECK(r.messages_lost == 2);
    CHECK(each.latencies() == std::vector<std::uint64_t>{MessageLatencies::lost, MessageLatencies::lost});
}

TEST_CASE("malformed traces are refused with file and line") {
    auto refused = [](const std::string& text, const std::string& expected, std::uint32_t flit_bytes = 0) {
        CHECK_THROWS_WITH_AS(from_text(text, flit_bytes), doctest::Contains(expected.c_str()), config_error);
    };
    CHECK_THROWS_WITH_AS(read_trace(data + "/no_such.csv"), doctest::Contains("cannot open trace file"), config_error);
    refused("", "fabric: bad.csv: no header");
    refused("cycle,source,destination,size\n", "fabric: bad.csv:1: unknown column 'size'");
    refused("cycle,source,destination\n", "fabric: bad.csv:1: the header lacks flits or bytes");
    refused("cycle,source,destination,flits,bytes\n", "fabric: bad.csv:1: column 'bytes' is given twice (a trace "
            "gives flits or bytes, not both)");
    refused("cycle,source,destination,bytes\n0,0,1,64\n", "fabric: bad.csv:1: a trace in bytes needs the flit size");
    refused("cycle,source,destination,flits\n0,0,1,4\n0,0,x,4\n", "fabric: bad.csv:3: destination must be a whole "
            "number; got 'x'");
    refused("cycle,source,destination,flits\n0,0,1\n", "fabric: bad.csv:2: a row has 4 fields, as the header; got 3");
    refused("cycle,source,destination,flits\n#\n9,0,1,4\n\n5,1,0,4\n", "fabric: bad.csv:5: cycle 5 comes after cycle "
            "9 (line 3); rows come in order of cycle");
    refused("cycle,source,destination,flits\n0,0,1,0\n", "fabric: bad.csv:2: a message of 0 flits");
    refused("cycle,source,destination,bytes\n0,0,1,2000000\n", "fabric: bad.csv:2: a message of 125000 flits; the "
            "cycle kernel takes at most 65535", 16);
    refused("cycle,source,destination,flits\n-1,0,1,4\n", "fabric: bad.csv:2: cycle must be a whole number; got '-1'");
    // 2^64 - 1 bytes of 16 are 2^60 flits (rounded up): refused, not wrapped round to one flit by
    // (bytes + 15) / 16; the largest count that fits, 65535 flits of 16 bytes, is 1,048,560 bytes.
    refused("cycle,source,destination,bytes\n0,0,1,18446744073709551615\n", "fabric: bad.csv:2: a message of "
            "1152921504606846976 flits; the cycle kernel takes at most 65535", 16);
    CHECK(from_text("cycle,source,destination,bytes\n0,0,1,1048560\n0,1,0,1048545\n", 16).messages[1].flits == 65535);
    refused("cycle,source,destination,bytes\n0,0,1,1048561\n", "fabric: bad.csv:2: a message of 65536 flits", 16);
    // A value of a megabyte is not echoed whole.
    const std::string junk(1 << 20, '7');
    try {
        from_text("cycle,source,destination,flits\n0,0," + junk + "x,4\n");
        FAIL("a junk destination was read");
    } catch (const config_error& e) {
        CHECK(std::string(e.what()).size() < 400);
        CHECK(std::string(e.what()).find("more characters") != std::string::npos);
    }
}

TEST_CASE("a trace file is read with a bound: a regular file within the limit, anything else refused by name") {
    CHECK_THROWS_WITH_AS(read_trace(data), doctest::Contains("is a directory, not a file to read"), config_error);
    CHECK_THROWS_WITH_AS(read_trace("/dev/zero"), doctest::Contains("'/dev/zero' is a character device"), config_error);
    // small_trace.csv has 166 bytes: read whole at that limit, refused one byte below it.
    CHECK(read_trace(data + "/small_trace.csv", 16, 166).messages.size() == 3);
    CHECK_THROWS_WITH_AS(read_trace(data + "/small_trace.csv", 16, 165, "raise it so"),
                         doctest::Contains("has 166 bytes, past the limit of 165 bytes for one input file; raise it so"),
                         config_error);
}

}  // namespace unit_trace_file
