// Identity configurations of the other topology families: the dragonfly under
// minimal, Valiant, UGAL-L and UGAL-G routing (concentrated, with per-class link
// latencies), HyperX adaptive, the fat tree adaptive, a graph read from an anynet
// file, a concentrated torus, and a torus that deadlocks.
#include "fields.hpp"
#include "group.hpp"

namespace identity {
namespace {
using namespace fabric;

CycleConfig window(std::uint64_t warmup, std::uint64_t measure) {
    CycleConfig c;
    c.warmup = warmup;
    c.measure = measure;
    return c;
}

template <class Fab, class Pattern>
void run(const Wanted& wanted, const std::string& name, const Fab& net, const CycleConfig& cfg, const Pattern& pattern,
         double rate, PacketSizes sizes) {
    if (!wanted(name)) return;
    CycleSimulator<Fab> sim(net, cfg);
    Printer out(name);
    out.result(sim.run(pattern, rate, sizes));
}

using Df = Dragonfly<5, BasicLink<3>, BasicLink<2>>;  // a = 4, h = 2: 9 groups of 4 routers
using Df2 = Concentrated<Df, 2>;
}  // namespace

void families_group(const Wanted& wanted) {
    {
        const Df2 t(Df(4, 2), 2);
        const std::size_t terminals = 72;
        const UniformTraffic uniform(terminals);
        const GroupShiftTraffic worst(8, 9);
        CycleConfig c = window(300, 2000);
        run(wanted, "dragonfly_min", Fabric<Df2, DragonflyMinimal>{t}, c, uniform, 0.3, PacketSizes::fixed(4));
        run(wanted, "dragonfly_valiant", Fabric<Df2, DragonflyValiant>{t}, c, worst, 0.25, PacketSizes::fixed(4));
        run(wanted, "dragonfly_ugal_l", Fabric<Df2, DragonflyUgalL>{t}, c, worst, 0.3, PacketSizes::fixed(4));
        run(wanted, "dragonfly_ugal_g", Fabric<Df2, DragonflyUgalG>{t}, c, worst, 0.3, PacketSizes::fixed(4));
        run(wanted, "dragonfly_ugal_l_uniform1", Fabric<Df2, DragonflyUgalL>{t}, c, uniform, 0.2, PacketSizes::fixed(1));
        CycleConfig lat = c;
        lat.class_latency = {2, 6};
        run(wanted, "dragonfly_class_latency", Fabric<Df2, DragonflyUgalL>{t}, lat, uniform, 0.3, PacketSizes::fixed(2));
    }
    {
        using Hx = HyperX<3, 9, BasicLink<3>>;
        run(wanted, "hyperx_adaptive", Fabric<Hx, HyperXAdaptive>{Hx({4, 3, 5})}, window(300, 2000), UniformTraffic(60),
            0.4, PacketSizes::fixed(4));
        using Ft = FatTree<4>;
        run(wanted, "fat_tree_adaptive", Fabric<Ft, FatTreeAdaptiveUp>{Ft(4, 3)}, window(300, 2000), UniformTraffic(64),
            0.4, PacketSizes::fixed(2));
        run(wanted, "fat_tree_oblivious", Fabric<Ft, FatTreeNca>{Ft(4, 3)}, window(300, 2000), UniformTraffic(64), 0.3,
            PacketSizes::fixed(1));
    }
    if (wanted("graph_anynet")) {
        using Irregular = Graph<3, 2, BasicLink<1>>;
        const Irregular g(read_graph_file("tests/data/irregular.anynet"));
        const Fabric<Irregular, GraphShortestPath> net(g, GraphShortestPath(g));
        run(wanted, "graph_anynet", net, window(300, 2000), UniformTraffic(10), 0.15, PacketSizes::fixed(3));
    }
    {
        using C = Concentrated<Torus<2>, 3>;
        CycleConfig c = window(300, 2000);
        c.node_statistics = true;
        run(wanted, "concentrated_torus", Fabric<C, DorTieSplit<>>{C(Torus<2>({4, 4}), 3)}, c, UniformTraffic(48), 0.2,
            PacketSizes::fixed(2));
    }
    {
        using OneVc = Torus<2, BasicLink<1>>;
        const Fabric<OneVc, DorTieSplit<NoDateline>> locked{OneVc({8, 8}), allow_deadlock};
        CycleConfig c = window(300, 1000);
        c.watchdog = 1000;
        run(wanted, "deadlock", locked, c, UniformTraffic(64), 0.8, PacketSizes::fixed(8));
    }
}

}  // namespace identity
