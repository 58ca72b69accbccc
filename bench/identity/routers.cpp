// Identity configurations on tori: the default router at low and high load, each
// switch allocator (separable, iSLIP with 1 and 2 iterations, separable output
// first, wavefront, speedups), speculation, zero-cycle pipeline stages, output
// queues, virtual cut-through, wait_for_tail_credit, head turnaround and terminal
// channels, several injection queues, and the BookSim preset.
#include "fields.hpp"
#include "group.hpp"

#include <fabric/sim/presets/booksim.hpp>

namespace identity {
namespace {
using namespace fabric;
using T2 = Torus<2>;
using Net = Fabric<T2, DorTieSplit<>>;

CycleConfig window(std::uint64_t warmup, std::uint64_t measure) {
    CycleConfig c;
    c.warmup = warmup;
    c.measure = measure;
    return c;
}

template <class A = SeparableSwitch, class Fab>
void run(const Wanted& wanted, const std::string& name, const Fab& net, const CycleConfig& cfg, double rate,
         PacketSizes sizes) {
    if (!wanted(name)) return;
    CycleSimulator<Fab, A> sim(net, cfg);
    Printer out(name);
    out.result(sim.run(UniformTraffic(static_cast<std::size_t>(net.topology().node_count())), rate, sizes));
}
}  // namespace

void routers_group(const Wanted& wanted) {
    const Net t8{T2({8, 8})};
    {
        CycleConfig c = window(500, 3000);
        c.node_statistics = true;
        run(wanted, "torus8_default", t8, c, 0.1, PacketSizes::fixed(1));
        run(wanted, "torus8_saturated", t8, c, 0.6, PacketSizes::fixed(4));
        run(wanted, "torus8_bimodal", t8, c, 0.25, PacketSizes::bimodal(1, 6, 0.7));
    }
    {
        const Fabric<Torus<3>, DorTieSplit<>> t6{Torus<3>({6, 6, 6})};
        run(wanted, "torus6x6x6", t6, window(200, 1000), 0.15, PacketSizes::fixed(1));
        const Fabric<Mesh<2>, DorTiePositive<NoDateline>> mesh{Mesh<2>({6, 5})};
        run(wanted, "mesh6x5", mesh, window(300, 2000), 0.2, PacketSizes::fixed(3));
        const Fabric<Torus<2>, DorTieSplit<DatelineWholeRing>> whole{T2({5, 8})};
        run(wanted, "torus5x8_whole_ring", whole, window(300, 2000), 0.3, PacketSizes::fixed(2));
    }
    const CycleConfig c = window(300, 2000);
    run<Islip<1>>(wanted, "islip1", t8, c, 0.35, PacketSizes::fixed(4));
    run<Islip<2>>(wanted, "islip2", t8, c, 0.35, PacketSizes::fixed(4));
    run<SeparableOutputFirst>(wanted, "separable_output_first", t8, c, 0.35, PacketSizes::fixed(4));
    run<Wavefront>(wanted, "wavefront", t8, c, 0.35, PacketSizes::fixed(4));
    {
        CycleConfig q = c;
        q.injection_queues = 2;
        run<Speedup<SeparableSwitch, 2, 1>>(wanted, "speedup_in2", t8, q, 0.45, PacketSizes::fixed(4));
        q.output_buffer_flits = 8;
        run<Speedup<Islip<1>, 2, 2>>(wanted, "speedup_2x2_output_queues", t8, q, 0.5, PacketSizes::fixed(4));
    }
    {
        CycleConfig s = c;
        s.speculative = true;
        run(wanted, "speculative", t8, s, 0.3, PacketSizes::fixed(4));
        run<Islip<1>>(wanted, "speculative_islip", t8, s, 0.3, PacketSizes::fixed(2));
        CycleConfig z = c;
        z.pipeline = {0, 0, 1, 1};
        run(wanted, "pipeline_0011", t8, z, 0.3, PacketSizes::fixed(3));
        z.pipeline = {2, 1, 0, 2};
        z.speculative = true;
        run(wanted, "pipeline_2102_speculative", t8, z, 0.2, PacketSizes::fixed(2));
    }
    {
        CycleConfig o = c;
        o.output_buffer_flits = 4;
        run(wanted, "output_queues", t8, o, 0.4, PacketSizes::fixed(4));
        CycleConfig v = c;
        v.switching = Switching::virtual_cut_through;
        run(wanted, "virtual_cut_through", t8, v, 0.35, PacketSizes::fixed(5));
        CycleConfig w = c;
        w.wait_for_tail_credit = true;
        run(wanted, "wait_for_tail_credit", t8, w, 0.35, PacketSizes::fixed(3));
        CycleConfig h = c;
        h.head_turnaround = 1;
        h.injection_latency = 2;
        h.ejection_latency = 1;
        h.injection_queues = 2;
        run(wanted, "terminal_channels", t8, h, 0.25, PacketSizes::fixed(2));
    }
    if (wanted("booksim_preset")) {
        const auto net = BookSimIq::torus<2>({8, 8});
        CycleConfig b = BookSimIq::config();
        b.warmup = 300;
        b.measure = 3000;
        BookSimIq::Simulator<std::remove_const_t<decltype(net)>> sim(net, b);
        Printer out("booksim_preset");
        out.result(sim.run(UniformTraffic(64), 0.15, PacketSizes::fixed(1)));
    }
}

}  // namespace identity
