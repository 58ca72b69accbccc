// libFuzzer target for the C++ API (clang -fsanitize=fuzzer,address,undefined):
// random bytes become a k-ary n-cube fabric (rank, extents, boundary, VCs, buffer,
// tie rule), a cycle-kernel configuration (pipeline, link latency, switching,
// packet sizes, load, pattern, a failing link, memory limit, terminal channels,
// head turnaround, on/off injection) and a short run. A
// run must hold the laws whatever the bytes: a configuration the library refuses
// throws config_error (nothing else); flits are conserved; a dateline torus or a
// mesh never deadlocks; the flow kernel's loads are finite and not negative.
// Every crash this target has found is a regression test (tests/fuzz/regressions/,
// run by the CTest fuzz.api.regressions).
#include <fabric/fabric.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

namespace {

/// Reads the input a byte at a time; past its end, zeros.
struct Bytes {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t at = 0;
    std::uint32_t next(std::uint32_t below) { return below ? (at < size ? data[at++] : 0U) % below : 0U; }
    bool flag() { return next(2) == 1; }
};

void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_api: law broken: %s\n", what);
    std::abort();
}

template <class Net>
void run(const Net& net, const std::vector<long long>& grid, bool may_deadlock, Bytes& in) {
    using namespace fabric;
    CycleConfig cfg;
    cfg.pipeline = {in.next(3), in.next(3), in.next(3), in.next(3)};
    cfg.link_latency = 1 + in.next(4);
    cfg.switching = in.flag() ? Switching::virtual_cut_through : Switching::wormhole;
    cfg.warmup = in.next(200);
    cfg.measure = 1 + in.next(400);
    cfg.drain_limit = 2000;
    cfg.watchdog = 200 + in.next(800);
    cfg.output_buffer_flits = in.next(3) * 4;
    cfg.memory_limit_mb = 1 + in.next(64);
    cfg.source_queue_packets = in.next(6);  // 0: unbounded
    cfg.seed = in.next(256);
    cfg.injection_latency = in.next(3);
    cfg.ejection_latency = in.next(3);
    cfg.head_turnaround = in.next(2);
    if (in.flag()) cfg.on_off = {(1 + in.next(100)) / 100.0, in.next(101) / 100.0};
    cfg.wait_for_tail_credit = in.flag() && in.flag();  // refused with output queues: a right answer too
    cfg.speculative = in.flag();
    cfg.node_statistics = in.flag();
    if (in.flag()) cfg.request_reply = {1 + in.next(8), in.next(3)};
    std::uint64_t watched_events = 0;
    if (in.flag()) cfg.watch = {{in.next(64)}, [&](const FlitEvent&) { ++watched_events; }};
    if (in.flag()) {
        cfg.sampling.sample_period = 1 + in.next(200);
        cfg.sampling.max_samples = 1 + in.next(10);
        cfg.sampling.latency_threshold = in.next(300);
    }
    const bool classes = in.flag();  // two traffic classes (refused with one VC: a right answer too)
    if (classes) cfg.class_priority = {in.next(3), in.next(3)};
    const auto nodes = static_cast<std::uint32_t>(net.topology().node_count());
    static const char* patterns[] = {"uniform", "neighbour", "halo", "bitcomp", "tornado", "randperm", "transpose",
                                     "row_column_alltoall", "bitrev", "shuffle", "hotspot", "hotspot:0.5"};
    const std::uint32_t flits = 1 + in.next(12);
    const PacketSizes sizes = in.flag() ? PacketSizes::fixed(flits) : PacketSizes::bimodal(1, flits, 0.5);
    const double rate = sizes.mean() * in.next(101) / 100.0;
    try {
        const auto pattern = NamedPattern::make(patterns[in.next(static_cast<std::uint32_t>(std::size(patterns)))], grid, cfg.seed);
        CycleSimulator<Net> sim(net, cfg);
        if (in.flag() && nodes > 1) sim.fail_link(NodeId{in.next(nodes)}, PortId{in.next(2)}, in.next(300));
        const std::vector<OfferedLoad> halves{{rate / 2, sizes}, {rate / 2, sizes}};
        const CycleResult r = classes ? sim.run(pattern, halves) : sim.run(pattern, rate, sizes);
        law(r.flits_injected == r.flits_ejected + r.flits_in_flight + r.flits_dropped, "flits are conserved");
        law(std::isfinite(r.accepted) && std::isfinite(r.offered) && r.accepted >= 0, "loads are finite");
        law(r.window_start + r.window_cycles <= r.cycles, "the window lies within the run");
        law(r.flits_refused_in_window <= r.flits_refused && (cfg.source_queue_packets || r.flits_refused == 0) &&
                r.refused <= r.offered,
            "only bounded source queues refuse, and what they refuse is part of the offered load");
        std::uint64_t accepted = 0;
        for (const NodeCounters& c : r.nodes) accepted += c.flits_accepted;
        law(r.nodes.empty() == !cfg.node_statistics && accepted == (r.nodes.empty() ? 0 : r.flits_ejected_in_window),
            "the nodes' accepted flits add up to the run's");
        law(cfg.watch.enabled() || watched_events == 0, "no watch, no trace");
        std::uint64_t class_flits = 0;
        for (const ClassResult& c : r.classes) class_flits += c.flits_ejected_in_window;
        law(r.classes.size() == (classes ? 2 : 0) && (!classes || class_flits == r.flits_ejected_in_window),
            "the classes' accepted flits add up to the run's");
        law(r.replies_delivered <= r.packets_delivered - r.replies_delivered, "a reply answers a delivered request");
        law(!r.deadlock || may_deadlock, "the dateline (or a mesh) never deadlocks");
        const LinkLoads loads = link_load(net, pattern);
        for (const double l : loads.per_channel()) law(std::isfinite(l) && l >= 0, "flow loads finite, >= 0");
    } catch (const config_error&) {
        // refused with a fabric: message: a right answer
    }
}

template <std::size_t Rank, fabric::Boundary B, std::size_t Vcs, fabric::TieRule Tie>
void with_shape(Bytes& in) {
    using namespace fabric;
    using T = KAryNCube<Rank, BasicLink<Vcs>, DynamicExtents, B>;
    using Net = Fabric<T, DimensionOrder<Tie, std::conditional_t<Vcs == 1, NoDateline, Dateline>>>;
    std::vector<long long> extents(Rank);
    for (auto& k : extents) k = 1 + in.next(Rank == 1 ? 40 : 9);
    Credit flow;
    flow.buffer_flits_per_vc = in.next(17);  // 0 must be refused
    flow.credit_delay = 1 + in.next(3);
    try {
        const T topo(extents);
        const Net net = Vcs == 1 ? Net(topo, allow_deadlock, {}, flow) : Net(topo, {}, flow);
        run(net, extents, Vcs == 1 && B == fabric::Boundary::wrap, in);
    } catch (const config_error&) {
    }
}

template <std::size_t Rank>
void with_rank(Bytes& in) {
    using fabric::Boundary;
    using fabric::TieRule;
    switch (in.next(5)) {
        case 0: return with_shape<Rank, Boundary::wrap, 2, TieRule::split>(in);
        case 1: return with_shape<Rank, Boundary::wrap, 2, TieRule::positive>(in);
        case 2: return with_shape<Rank, Boundary::wrap, 1, TieRule::split>(in);
        case 3: return with_shape<Rank, Boundary::open, 1, TieRule::split>(in);
        default: return with_shape<Rank, Boundary::open, 2, TieRule::positive>(in);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in{data, size};
    switch (in.next(3)) {
        case 0: with_rank<1>(in); break;
        case 1: with_rank<2>(in); break;
        default: with_rank<3>(in); break;
    }
    return 0;
}
