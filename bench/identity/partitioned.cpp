// The identity harness's partitioned runs (bench/kernel_identity runs this under
// mpiexec with 2 ranks when MPI is installed): the cycle kernel's routers dealt
// over the ranks, rank 0 printing every field of the result. An 8x8 torus in
// slabs with node counters, a trace, and PERCS in whole supernodes with links
// failing and coming back.
#include "fields.hpp"

#include <fabric/dist/partitioned.hpp>
#include <fabric/dist/session.hpp>
#include <fabric/sim/presets/percs.hpp>

#include <algorithm>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace fabric;
    const dist::Session session(argc, argv, true);
    const std::vector<std::string> only(argv + 1, argv + argc);
    auto wanted = [&](const std::string& name) {
        return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
    };
    auto print = [&](const std::string& name, const CycleResult& r) {
        if (!session.root()) return;
        identity::Printer out(name);
        out.result(r);
    };
    using Net = Fabric<Torus<2>, DorTieSplit<>>;
    const Net net{Torus<2>({8, 8})};
    if (wanted("partitioned_torus")) {
        CycleConfig cfg;
        cfg.warmup = 200;
        cfg.measure = 1500;
        cfg.node_statistics = true;
        dist::PartitionedCycle<Net> split(net, cfg, MPI_COMM_WORLD, Slabs{});
        print("partitioned_torus", split.run(UniformTraffic(64), 0.3, PacketSizes::fixed(4)));
    }
    if (wanted("partitioned_trace")) {
        std::vector<TraceMessage> trace;
        for (std::uint32_t i = 0; i < 400; ++i) {
            const std::uint32_t src = (i * 7) % 64, dst = (i * 13 + 5) % 64;
            trace.push_back({i * 3 / 2, src, dst == src ? (dst + 1) % 64 : dst, 1 + i % 6, 0});
        }
        CycleConfig cfg;
        cfg.warmup = 100;
        cfg.measure = 500;
        dist::PartitionedCycle<Net> split(net, cfg, MPI_COMM_WORLD);
        print("partitioned_trace", split.run_trace(trace));
    }
    if (wanted("partitioned_percs_failures")) {
        const PercsTopology t(4, 8);
        const PercsFabric<PercsHubRouting<>> percs{t, PercsHubRouting<>(PercsModeMix{{1, 0, 1, 1}}), Credit{32, 1}};
        CycleConfig cfg = percs_cycle_config(t);
        cfg.warmup = 500;
        cfg.measure = 3000;
        dist::PartitionedCycle<std::remove_const_t<decltype(percs)>> split(percs, cfg, MPI_COMM_WORLD,
                                                                           Groups{PercsTopology::nodes_per_supernode});
        const NodeId a = PercsTopology::node(0, t.d_source_local(0, 1, 0));
        split.fail_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 900);
        split.fail_link(PercsTopology::node(2, 0), PercsTopology::l_port(0, 9), 1500);
        split.restore_link(a, t.d_port(0, t.d_source_local(0, 1, 0), 1), 2500);
        print("partitioned_percs_failures", split.run(UniformTraffic(t.node_count(), UniformTraffic::Self::excluded),
                                                      0.1, PacketSizes::fixed(percs_packet_flits)));
    }
    return 0;
}
