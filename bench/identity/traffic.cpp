// Identity configurations of traffic: classes with priorities, request-reply with
// an outstanding limit, messages split into packets (reassembly and reordering
// tracked), on/off injection, the converging sampler, a trace with a watch trace,
// a watch trace under Bernoulli traffic, source queues bounded, the memory limit.
#include "fields.hpp"
#include "group.hpp"

namespace identity {
namespace {
using namespace fabric;
using T2 = Torus<2>;
using Net = Fabric<T2, DorTieSplit<>>;

CycleConfig window(std::uint64_t warmup, std::uint64_t measure) {
    CycleConfig c;
    c.warmup = warmup;
    c.measure = measure;
    c.node_statistics = true;
    return c;
}
}  // namespace

void traffic_group(const Wanted& wanted) {
    const Net t8{T2({8, 8})}, t4{T2({4, 4})};
    const Fabric<Torus<1>, DorTieSplit<>> ring{Torus<1>({16})};
    if (wanted("classes")) {
        CycleConfig c = window(300, 2000);
        c.class_priority = {1, 2};
        CycleSimulator sim(t8, c);
        const std::vector<OfferedLoad> loads{{0.12, PacketSizes::fixed(2)}, {0.15, PacketSizes::fixed(3)}};
        Printer out("classes");
        out.result(sim.run(UniformTraffic(64), loads));
    }
    if (wanted("classes_three_even")) {
        CycleConfig c = window(300, 2000);
        c.class_priority = {3, 3};
        CycleSimulator sim(t4, c);
        const std::vector<OfferedLoad> loads{{0.2, PacketSizes::fixed(2)}, {0.2, PacketSizes::fixed(1)}};
        Printer out("classes_three_even");
        out.result(sim.run(UniformTraffic(16), loads));
    }
    if (wanted("request_reply")) {
        CycleConfig c = window(300, 2000);
        c.request_reply = {2, 3};
        CycleSimulator sim(t8, c);
        Printer out("request_reply");
        out.result(sim.run(UniformTraffic(64), 0.2, PacketSizes::fixed(1)));
    }
    if (wanted("messages")) {
        CycleConfig c = window(300, 2000);
        c.max_packet_flits = 4;
        c.track_reorder = true;
        c.injection_queues = 2;
        CycleSimulator sim(t8, c);
        Printer out("messages");
        out.result(sim.run(UniformTraffic(64), 0.3, PacketSizes::bimodal(2, 11, 0.6)));
    }
    if (wanted("on_off")) {
        CycleConfig c = window(300, 3000);
        c.on_off = {0.05, 0.1};
        CycleSimulator sim(t8, c);
        Printer out("on_off");
        out.result(sim.run(UniformTraffic(64), 0.2, PacketSizes::fixed(2)));
    }
    if (wanted("sampler")) {
        CycleConfig c = window(0, 1);
        c.sampling.sample_period = 400;
        CycleSimulator sim(t8, c);
        Printer out("sampler");
        out.result(sim.run(UniformTraffic(64), 0.25, PacketSizes::fixed(1)));
    }
    if (wanted("sampler_unstable")) {
        CycleConfig c = window(0, 1);
        c.sampling.sample_period = 300;
        c.source_queue_packets = 16;
        CycleSimulator sim(t8, c);
        Printer out("sampler_unstable");
        out.result(sim.run(UniformTraffic(64), 0.8, PacketSizes::fixed(1)));
    }
    if (wanted("trace_watched")) {
        std::vector<TraceMessage> trace;
        for (std::uint32_t i = 0; i < 400; ++i) {
            const std::uint32_t src = (i * 7) % 36, dst = (i * 13 + 5) % 36;
            trace.push_back({i * 3 / 2, src, dst == src ? (dst + 1) % 36 : dst, 1 + i % 6, 0});
        }
        const Net t6{T2({6, 6})};
        WatchLog log;
        CycleConfig c = window(100, 400);
        c.watch = log.settings({0, 3, 17, 100, 101, 399});
        c.max_packet_flits = 4;
        CycleSimulator sim(t6, c);
        Printer out("trace_watched");
        out.result(sim.run_trace(trace));
        log.print(out);
    }
    if (wanted("watch_bernoulli")) {
        WatchLog log;
        CycleConfig c = window(200, 1000);
        c.watch = log.settings({5, 50, 51, 52, 300, 301, 1000});
        CycleSimulator sim(t4, c);
        Printer out("watch_bernoulli");
        out.result(sim.run(UniformTraffic(16), 0.35, PacketSizes::fixed(2)));
        log.print(out);
    }
    if (wanted("source_queue_bound")) {
        CycleConfig c = window(300, 2000);
        c.source_queue_packets = 4;
        CycleSimulator sim(t8, c);
        Printer out("source_queue_bound");
        out.result(sim.run(UniformTraffic(64), 0.7, PacketSizes::fixed(2)));
    }
    if (wanted("memory_limit")) {
        CycleConfig c = window(300, 5000);
        c.memory_limit_mb = 1;
        c.max_queued_per_node = 1000000;
        CycleSimulator sim(ring, c);
        Printer out("memory_limit");
        out.result(sim.run(UniformTraffic(16), 0.9, PacketSizes::fixed(1)));
    }
    if (wanted("ring_tornado_drain")) {
        CycleConfig c = window(100, 800);
        c.drain_limit = 50;
        CycleSimulator sim(ring, c);
        Printer out("ring_tornado_drain");
        out.result(sim.run(TornadoTraffic(Grid{16}), 0.45, PacketSizes::fixed(4)));
    }
}

}  // namespace identity
