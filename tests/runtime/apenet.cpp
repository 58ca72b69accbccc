// APEnet+ link protocol details, the LO|FA|MO registers (bit layouts of Tables 3,
// 4 and 6), the fault-awareness paths of Table 1, and fault reactivity.
#include <doctest/doctest.h>

#include <fabric/fault/lofamo.hpp>
#include <fabric/fault/lofamo_credits.hpp>
#include <fabric/fault/lofamo_cycle.hpp>
#include <fabric/fault/lofamo_link_health.hpp>
#include <fabric/fault/lofamo_registers.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/systems/apenet.hpp>

#include <vector>

namespace unit_apenet {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric::lofamo;

TEST_CASE("DNP Watchdog Register: every field at the bits of Table 3, and round trips") {
    CHECK(DnpWatchdogRegister{.valid = true}.encode() == 1U << 0);
    for (std::size_t d = 0; d < directions; ++d) {
        DnpWatchdogRegister r;
        r.neighbour_failing[d] = true;  // Z-, Z+, Y-, Y+, X-, X+ at bits 1..6
        CHECK(r.encode() == 1U << (1 + d));
        DnpWatchdogRegister l;
        l.link[d] = Status::broken;     // links at 16-15 (Z-) .. 26-25 (X+), 10 = broken
        CHECK(l.encode() == 2U << (15 + 2 * d));
    }
    CHECK(DnpWatchdogRegister{.core = Status::sick}.encode() == 1U << 7);
    CHECK(DnpWatchdogRegister{.current = lofamo::sensor_alarm}.encode() == 2U << 9);
    CHECK(DnpWatchdogRegister{.voltage = lofamo::sensor_warning}.encode() == 1U << 11);
    CHECK(DnpWatchdogRegister{.temperature = lofamo::sensor_alarm}.encode() == 2U << 13);
    CHECK(DnpWatchdogRegister{.lifama_busy = true}.encode() == 1U << 31);
    // Round trips through every value of every field.
    for (std::uint32_t code = 0; code < 3; ++code)
        for (std::size_t d = 0; d < directions; ++d) {
            DnpWatchdogRegister r;
            r.valid = code % 2 == 0;
            r.core = r.current = r.voltage = r.temperature = static_cast<Status>(code);
            r.link[d] = static_cast<Status>(2 - code);
            r.neighbour_failing[d] = code == 1;
            r.lifama_busy = code == 2;
            CHECK(DnpWatchdogRegister::decode(r.encode()) == r);
        }
    CHECK_THROWS_WITH_AS(DnpWatchdogRegister::decode(3U << 7), doctest::Contains("holds 11"), config_error);
}

TEST_CASE("Host Watchdog Register: the bits of Table 4, and round trips") {
    CHECK(HostWatchdogRegister{.valid = true}.encode() == 1U);
    CHECK(HostWatchdogRegister{.service_net = Status::broken}.encode() == 2U << 1);
    CHECK(HostWatchdogRegister{.memory = Status::sick}.encode() == 1U << 3);
    CHECK(HostWatchdogRegister{.peripheral = Status::broken}.encode() == 2U << 5);
    CHECK(HostWatchdogRegister{.send_ldm = true}.encode() == 1U << 31);
    for (std::uint32_t a = 0; a < 3; ++a)
        for (std::uint32_t b = 0; b < 3; ++b) {
            const HostWatchdogRegister r{a == 1, static_cast<Status>(a), static_cast<Status>(b),
                                         static_cast<Status>((a + b) % 3), b == 2};
            CHECK(HostWatchdogRegister::decode(r.encode()) == r);
        }
}

TEST_CASE("LiFaMa Diagnostic Message: the bits of Table 6, and round trips") {
    CHECK(LifamaMessage{.service_net = Status::broken}.encode() == 2U << 0);
    CHECK(LifamaMessage{.memory = Status::sick}.encode() == 1U << 2);
    CHECK(LifamaMessage{.peripheral = Status::sick}.encode() == 1U << 4);
    CHECK(LifamaMessage{.core = Status::broken}.encode() == 2U << 6);
    CHECK(LifamaMessage{.current = Status::sick}.encode() == 1U << 8);
    CHECK(LifamaMessage{.voltage = Status::sick}.encode() == 1U << 10);
    CHECK(LifamaMessage{.temperature = Status::broken}.encode() == 2U << 12);
    for (std::size_t d = 0; d < directions; ++d) {
        LifamaMessage m;
        m.link[d] = Status::sick;  // 15-14 Z- .. 25-24 X+
        CHECK(m.encode() == 1U << (14 + 2 * d));
        m.valid = true;
        CHECK(LifamaMessage::decode(m.encode()) == m);
        CHECK(m.reports_fault());
    }
    CHECK(LifamaMessage{.valid = true}.encode() == 1U << 31);
    CHECK_FALSE(LifamaMessage{.valid = true}.reports_fault());
}

TEST_CASE("the mutual watchdog requires T_write < T_read on both sides") {
    Timing t;
    t.dnp_write = t.dnp_read;
    CHECK_THROWS_WITH_AS(System({4, 2, 2}, t), doctest::Contains("T_write < T_read on the DNP side"), config_error);
    Timing h;
    h.host_write = 2 * h.host_read;
    CHECK_THROWS_WITH_AS(System({4, 2, 2}, h), doctest::Contains("T_write < T_read on the host side"), config_error);
}

namespace {
Awareness single(Fault f, std::size_t node = 5, double at = 2.3e6, Direction d = Direction::x_plus) {
    System s({4, 2, 2});
    s.inject(f, node, at, d);
    const auto a = s.run(40e6);
    REQUIRE(a.size() == 1);
    CHECK(a[0].fault == f);
    CHECK(a[0].node == node);
    CHECK(a[0].stage_times.size() == a[0].path.size());
    for (std::size_t i = 1; i < a[0].stage_times.size(); ++i) CHECK(a[0].stage_times[i] >= a[0].stage_times[i - 1]);
    CHECK(a[0].aware_at == a[0].stage_times.back());
    return a[0];
}
}  // namespace

TEST_CASE("Table 1, DNP-side faults: the DFM detects, the DWR stores, host and service network carry") {
    // Node 5's timers (phase 5 ms): the DFM writes its DWR at 5 ms + k 500 ms, the
    // HFM reads it at 755 ms + k 1000 ms. A fault at 2.3 s is in the DWR at 2.505 s,
    // read at 2.755 s, and at the master 100 us later: 455.1 ms after the fault.
    const std::vector<std::string> path_tail{"DFM -> DNP Watchdog Register", "HFM reads the DNP Watchdog Register",
                                             "service network -> Fault Supervisor"};
    for (const auto& [fault, first] : std::vector<std::pair<Fault, std::string>>{
             {Fault::link_sick, "link CRC self-test -> DFM"},
             {Fault::temperature, "sensor -> DFM"},
             {Fault::voltage, "sensor -> DFM"},
             {Fault::current, "sensor -> DFM"},
             {Fault::dnp_core_sick, "core self-test -> DFM"}}) {
        const auto a = single(fault);
        CHECK(a.detector == Detector::dfm);
        CHECK(a.path.front() == first);
        CHECK(std::vector<std::string>(a.path.begin() + 1, a.path.end()) == path_tail);
        CHECK(a.delay() == doctest::Approx(455.1e3));
    }
    // Link broken: the Credit timeout (10 us) on both sides, then the same path.
    const auto broken = single(Fault::link_broken);
    CHECK(broken.detector == Detector::dfm);
    CHECK(broken.path.front() == "Credit timeout -> DFM");
    CHECK(broken.delay() <= 455.1e3 + 1);
}

TEST_CASE("Table 1, DNP breakdown: the host sees the DWR not rewritten and reports over the service network") {
    // The DWR was last written at 2.005 s and invalidated by the HFM at 2.755 s; the
    // next read, at 3.755 s, finds it still invalid.
    const auto a = single(Fault::dnp_breakdown);
    CHECK(a.detector == Detector::hfm);
    CHECK(a.path == std::vector<std::string>{"HFM finds the DNP Watchdog Register not rewritten",
                                             "service network -> Fault Supervisor"});
    CHECK(a.aware_at == doctest::Approx(3.755e6 + 100));
}

TEST_CASE("Table 1, host breakdown: the DFM sees the HWR not rewritten; LiFaMa to the neighbours; their hosts report") {
    const auto a = single(Fault::host_breakdown);
    CHECK(a.detector == Detector::dfm);
    CHECK(a.path == std::vector<std::string>{"DFM finds the Host Watchdog Register not rewritten",
                                             "LiFaMa message in a Credit -> neighbour DFM",
                                             "DFM -> DNP Watchdog Register", "HFM reads the DNP Watchdog Register",
                                             "service network -> Fault Supervisor"});
    // Detection within two DFM read periods; the neighbours' DWR write and HFM read
    // within one period each.
    const Timing t;
    CHECK(a.stage_times[0] - a.injected_at <= 2 * t.dnp_read);
    CHECK(a.stage_times[1] - a.stage_times[0] == doctest::Approx(t.lifama));
    CHECK(a.stage_times[2] - a.stage_times[1] <= t.dnp_write);
    CHECK(a.stage_times[3] - a.stage_times[2] <= t.host_read);
}

TEST_CASE("Table 1, host faults and service-network loss travel over the 3-D network to the neighbours") {
    for (const Fault f : {Fault::host_memory, Fault::host_peripheral, Fault::service_net_loss}) {
        const auto a = single(f);
        CHECK(a.detector == Detector::hfm);
        CHECK(a.path[1] == "HFM -> Host Watchdog Register");
        CHECK(a.path[2] == "DFM reads the Host Watchdog Register");
        CHECK(a.path[3] == "LiFaMa message in a Credit -> neighbour DFM");
        CHECK(a.path.back() == "service network -> Fault Supervisor");
    }
    // The service network is declared broken after two unanswered pings, 3 s apart.
    const auto snet = single(Fault::service_net_loss);
    CHECK(snet.path[0] == "HFM: two pings to the master unanswered");
    CHECK(snet.stage_times[0] - snet.injected_at >= 2 * Timing{}.ping_period - Timing{}.ping_period);
}

TEST_CASE("Table 1, host and DNP both dead: the neighbours' links report it, and the supervisor infers the node died") {
    System s({4, 2, 2});
    s.inject(Fault::host_and_dnp, 5, 2.3e6);
    const auto a = s.run(40e6);
    REQUIRE(a.size() == 1);
    CHECK(a[0].detector == Detector::neighbour_dfms);
    CHECK(a[0].path.front() == "neighbour's Credit timeout -> neighbour DFM");
    CHECK(s.inferred_dead() == std::vector<std::size_t>{5});
    CHECK(s.neighbours(5).size() == 4);  // 4x2x2: two along x, one along y, one along z
}

TEST_CASE("fault reactivity: a broken link is routed around; every packet is delivered or reported") {
    const ApenetFabric net{ApenetTorus({4, 2, 2})};
    for (const double rate : {0.05, 0.3}) {
        CycleConfig cfg;
        cfg.warmup = 2000;
        cfg.measure = 20000;
        CycleSimulator sim(net, cfg);
        // Tornado traffic keeps the +x links busy; two of them fail under load.
        sim.fail_link(NodeId{1}, PortId{0}, 5000);
        sim.fail_link(NodeId{6}, PortId{0}, 12000);
        const auto r = sim.run(TornadoTraffic(Grid{4, 2, 2}), rate, PacketSizes::fixed(8));
        CAPTURE(rate);
        CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
        // Every measured packet is delivered or among the packets reported lost.
        CHECK(r.measured_delivered <= r.measured_packets);
        CHECK(r.measured_delivered + r.packets_lost >= r.measured_packets);
        CHECK(r.out_of_order == 0);
        CHECK(r.misdelivered == 0);
        CHECK_FALSE(r.deadlock);
        CHECK(r.packets_unroutable == 0);  // the other way round each 4-ring is intact
        CHECK(r.packets_delivered > 0);
    }
    // Cut both ways round a ring: packets that need it are reported unroutable.
    CycleConfig cfg;
    cfg.warmup = 100;
    cfg.measure = 4000;
    CycleSimulator sim(net, cfg);
    sim.fail_link(NodeId{0}, PortId{0}, 0);  // 0 -> 1 along x
    sim.fail_link(NodeId{0}, PortId{1}, 0);  // 0 -> 3 along x
    const auto r = sim.run(UniformTraffic(16), 0.05, PacketSizes::fixed(4));
    CHECK(r.packets_unroutable > 0);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped);
    CHECK_THROWS_WITH_AS(sim.fail_link(NodeId{99}, PortId{0}, 5), doctest::Contains("has no link"), config_error);
}

TEST_CASE("LiFaMa in the Credits of a loaded run: each neighbour hears when the frames allow, as when idle") {
    const ApenetFabric net{ApenetTorus({4, 2, 2})};
    const ApenetCredit link = net.flow();  // C = 35, L_R = 35, L_L = 20
    CycleConfig cfg;
    cfg.warmup = 1000;
    cfg.measure = 5000;
    // Node 5's DFM finds its temperature past the alarm at cycle 3001 and posts
    // that, then, at once, that its voltage is too: two messages, one a Credit.
    lofamo::LifamaMessage hot;
    hot.temperature = lofamo::sensor_alarm;
    hot.valid = true;
    lofamo::LifamaMessage worse = hot;
    worse.voltage = lofamo::sensor_alarm;
    const std::uint64_t posted = 3001;
    auto run = [&](double rate, bool post) {
        CycleSimulator sim(net, cfg);
        if (post) {
            lofamo::post_lifama(sim, NodeId{5}, hot, posted);
            lofamo::post_lifama(sim, NodeId{5}, worse, posted);
        }
        const auto r = sim.run(UniformTraffic(16), rate, PacketSizes::fixed(8));
        return std::pair{r, sim.side_band_heard()};
    };
    const auto [loaded, heard] = run(0.3, true);
    const auto [idle, heard_idle] = run(0.001, true);
    const auto plain = run(0.3, false).first;
    // Over each of node 5's six links (two along each of y and z, to one
    // neighbour each, as the rings have 2 nodes), the first message in the first
    // Credit after cycle 3001, the second in the next, L_R + L_L on.
    REQUIRE(heard.size() == 12);
    for (const auto& w : heard) {
        CHECK(w.from == 5);
        CHECK(w.posted == posted);
        const std::uint64_t k = w.word == worse.encode() ? 1 : 0;
        CHECK(w.arrived == lofamo::lifama_arrival(link, posted, k));
        CHECK(w.arrived - posted <= lofamo::lifama_worst_case_cycles(link) + k * cycle::Framing<ApenetCredit>::frame(link));
    }
    CHECK(heard == heard_idle);  // the Credit slots are the link's whatever its data
    // Each neighbour's Remote Fault Descriptor holds the later message, under the
    // direction of the link it came over: node 6 (x + 1) heard it from X-, node 4 from X+.
    const auto d = lofamo::descriptors_heard(16, heard);
    CHECK(d[6].message(lofamo::Direction::x_minus).voltage == lofamo::sensor_alarm);
    CHECK(d[4].message(lofamo::Direction::x_plus).voltage == lofamo::sensor_alarm);
    CHECK_FALSE(d[6].heard(lofamo::Direction::x_plus));
    CHECK_FALSE(d[0].heard(lofamo::Direction::x_plus));
    // The messages take no data slot: the run's figures are the run without them.
    CHECK(loaded.packets_delivered == plain.packets_delivered);
    CHECK(loaded.latency.mean == plain.latency.mean);
    CHECK(idle.packets_delivered > 0);
}

TEST_CASE("a sick link under load: its CRC errors make it sick, routes go round it, and nothing is lost") {
    const ApenetFabric net{ApenetTorus({4, 2, 2})};
    CycleConfig cfg;
    cfg.warmup = 2000;
    cfg.measure = 20000;
    // Tornado on 4 x 2 x 2: node 1 sends to node 2 over the +x link 1 -> 2, 0.3 flits a cycle.
    const std::size_t channel = 1 * ApenetTorus::ports_per_node + 0;
    // The link's receiver judges after 10^4 bytes (625 flits of 16 bytes, about
    // 2,100 cycles) at a threshold of 10^-4 CRC errors a byte; words in error at
    // 10^-2 make 7.7% of 8-flit packets bad, 6.0e-4 a byte.
    const CrcRule rule{1e-4, CrcRatio::per_byte, 1e4};
    auto run = [&](double ber) {
        CycleSimulator sim(net, cfg);
        if (ber >= 0) sim.link_errors(NodeId{1}, PortId{0}, lofamo::flit_error_rate(ber, cfg.flit_bytes), rule);
        return sim.run(TornadoTraffic(Grid{4, 2, 2}), 0.3, PacketSizes::fixed(8));
    };
    const auto clean = run(-1);
    const auto sick = run(1e-2);
    const auto table16 = run(7.04e-10);  // Table 16's worst channel (Z+ at 8.5 Gbps)
    CHECK(clean.links_sick == 0);
    CHECK(sick.links_sick == 1);
    CHECK(table16.links_sick == 0);
    // Turned sick, the link still carries what was routed over it: nothing lost.
    CHECK(sick.packets_lost == 0);
    CHECK(sick.flits_dropped == 0);
    CHECK(sick.measured_delivered == sick.measured_packets);
    CHECK(sick.flits_injected == sick.flits_ejected + sick.flits_in_flight);
    CHECK_FALSE(sick.deadlock);
    CHECK(sick.out_of_order == 0);
    // Routed round from about cycle 2,100 on: in the window (cycles 2,000 to
    // 22,000) the link carries a sliver of what it carries when healthy, and node
    // 1's packets take the three hops the other way round the ring (the other 15
    // nodes' take one: 1 + 2 / 16 hops a packet).
    CAPTURE(clean.channel_utilisation[channel]);
    CAPTURE(sick.channel_utilisation[channel]);
    CHECK(clean.channel_utilisation[channel] == doctest::Approx(0.3).epsilon(0.05));
    CHECK(sick.channel_utilisation[channel] < 0.02);
    CHECK(clean.hops_mean == doctest::Approx(1.0));
    CHECK(sick.hops_mean == doctest::Approx(1.0 + 2.0 / 16).epsilon(0.01));
    // At Table 16's rates no packet fails its CRC in such a run: the run is the clean one.
    CHECK(table16.packets_delivered == clean.packets_delivered);
    CHECK(table16.latency.mean == clean.latency.mean);
    CHECK(table16.channel_utilisation == clean.channel_utilisation);
}

}  // namespace unit_apenet
