// Identity configurations of the papers' machines and of link behaviour: PERCS
// (hub routing mixes, direct routing, W links limiting the terminals, output
// queues, two HFIs, 2 KB packets), APEnet+ (framed links with periodic Credits,
// words in the side band, a sick link from CRC errors), QCDOC's acknowledgement
// window, links failing and coming back (a torus and PERCS), and link timing
// (latency, credit delay, credits over the link, a slowed link, cycle time).
#include "fields.hpp"
#include "group.hpp"

#include <fabric/sim/presets/percs.hpp>

namespace identity {
namespace {
using namespace fabric;

CycleConfig window(std::uint64_t warmup, std::uint64_t measure) {
    CycleConfig c;
    c.warmup = warmup;
    c.measure = measure;
    return c;
}
}  // namespace

void systems_group(const Wanted& wanted) {
    if (wanted("percs_hub_mix")) {
        const PercsTopology t(4, 8);
        const PercsFabric<PercsHubRouting<>> net{t, PercsHubRouting<>(PercsModeMix{{1, 1, 1, 1}}), Credit{32, 1}};
        CycleConfig c = percs_cycle_config(t);
        c.warmup = 500;
        c.measure = 2500;
        c.node_statistics = true;
        CycleSimulator sim(net, c);
        Printer out("percs_hub_mix");
        out.result(sim.run(UniformTraffic(t.node_count(), UniformTraffic::Self::excluded), 0.05,
                           PacketSizes::fixed(percs_packet_flits)));
    }
    if (wanted("percs_direct_w_links")) {
        const PercsTopology t = PercsTopology(8, 4).with_w_links();
        const PercsFabric<Direct> net{t, Direct{}, Credit{32, 1}};
        CycleConfig c = percs_cycle_config(t);
        c.warmup = 500;
        c.measure = 2500;
        c.track_reorder = true;
        CycleSimulator sim(net, c);
        Printer out("percs_direct_w_links");
        out.result(sim.run(UniformTraffic(t.node_count(), UniformTraffic::Self::excluded), 0.08,
                           PacketSizes::bimodal(percs_packet_flits / 4, 3 * percs_packet_flits, 0.5)));
    }
    if (wanted("percs_failures")) {
        const PercsTopology t(4, 8);
        const PercsFabric<PercsHubRouting<>> net{t, PercsHubRouting<>(PercsModeMix{{1, 0, 1, 1}}), Credit{32, 1}};
        CycleConfig c = percs_cycle_config(t);
        c.warmup = 500;
        c.measure = 3000;
        c.node_statistics = true;
        CycleSimulator sim(net, c);
        const NodeId a = PercsTopology::node(0, t.d_source_local(0, 1, 0));
        sim.fail_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 900);
        const NodeId b = PercsTopology::node(1, t.d_source_local(1, 3, 0));
        sim.fail_link(b, t.d_port(1, t.d_source_local(1, 3, 0), 3), 1200);
        sim.fail_link(PercsTopology::node(2, 0), PercsTopology::l_port(0, 9), 1500);
        sim.restore_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 2500);
        Printer out("percs_failures");
        out.result(sim.run(UniformTraffic(t.node_count(), UniformTraffic::Self::excluded), 0.1,
                           PacketSizes::fixed(percs_packet_flits)));
    }
    if (wanted("torus_failures")) {
        const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({6, 6})};
        CycleConfig c = window(300, 3000);
        CycleSimulator sim(net, c);
        sim.fail_link(NodeId{1}, PortId{0}, 700);
        sim.fail_link(NodeId{8}, PortId{2}, 900);
        sim.fail_link(NodeId{20}, PortId{1}, 1400);
        sim.restore_link(NodeId{1}, PortId{0}, 2000);
        Printer out("torus_failures");
        out.result(sim.run(UniformTraffic(36), 0.3, PacketSizes::fixed(4)));
    }
    if (wanted("apenet_side_band_and_sick_link")) {
        const ApenetFabric net{ApenetTorus({4, 2, 2})};
        CycleConfig c = window(1000, 6000);
        CycleSimulator sim(net, c);
        sim.post_side_band(NodeId{5}, 0x1234, 3001);
        sim.post_side_band(NodeId{5}, 0x5678, 3001);
        sim.post_side_band(NodeId{10}, 0x9abc, 4500);
        sim.link_errors(NodeId{1}, PortId{0}, 0.01, CrcRule{1e-4, CrcRatio::per_byte, 1e4});
        Printer out("apenet_side_band_and_sick_link");
        out.result(sim.run(TornadoTraffic(Grid{4, 2, 2}), 0.3, PacketSizes::fixed(8)));
        std::ostringstream s;
        for (const auto& w : sim.side_band_heard())
            s << w.word << ',' << w.from << ',' << w.to << ',' << w.port << ',' << w.posted << ',' << w.arrived << ' ';
        out.line("side_band_heard", s.str());
    }
    if (wanted("apenet_failures")) {
        const ApenetFabric net{ApenetTorus({4, 2, 2})};
        CycleSimulator sim(net, window(1000, 8000));
        sim.fail_link(NodeId{1}, PortId{0}, 3000);
        sim.fail_link(NodeId{6}, PortId{0}, 5000);
        Printer out("apenet_failures");
        out.result(sim.run(TornadoTraffic(Grid{4, 2, 2}), 0.3, PacketSizes::fixed(8)));
    }
    if (wanted("qcdoc_ack_window")) {
        const QcdocTorus topo({2, 2, 2, 2, 2, 2});
        const QcdocFabric net{topo, NearestNeighbour{}, qcdoc_ack_window(topo.link(), 2)};
        CycleConfig c = window(1000, 6000);
        c.cycle_ns = 2.0;
        c.flit_bytes = 8;
        std::vector<double> m(topo.node_count() * topo.node_count(), 0.0);
        for (std::uint32_t v = 0; v < topo.node_count(); ++v) {
            auto x = topo.coord(NodeId{v});
            x[0] = (x[0] + 1) % 2;
            m[v * topo.node_count() + topo.node(x).value] = 1.0;
        }
        CycleSimulator sim(net, c);
        Printer out("qcdoc_ack_window");
        out.result(sim.run(TrafficMatrix(topo.node_count(), m), 1.0 / 72 * 1.2, PacketSizes::fixed(1)));
    }
    if (wanted("link_timing")) {
        Credit credit;
        credit.credit_delay = 3;
        const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({6, 6}), {}, credit};
        CycleConfig c = window(300, 2000);
        c.link_latency = 3;
        c.feedback_over_link = true;
        CycleSimulator sim(net, c);
        sim.slow_link(NodeId{3}, PortId{1}, 2.5);
        Printer out("link_timing");
        out.result(sim.run(UniformTraffic(36), 0.3, PacketSizes::fixed(3)));
    }
    if (wanted("cycle_ns")) {
        using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;
        const Fabric<Df, DragonflyMinimal> net{Df(4, 2)};
        CycleConfig c = window(300, 2000);
        c.cycle_ns = 0.4;
        c.flit_bytes = 8;
        CycleSimulator sim(net, c);
        Printer out("cycle_ns");
        out.result(sim.run(UniformTraffic(36), 0.1, PacketSizes::fixed(2)));
    }
}

}  // namespace identity
