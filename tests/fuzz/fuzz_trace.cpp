// libFuzzer target for the trace reader (sim/trace_file.hpp): any bytes are a CSV
// message trace (the first byte a flit size for a trace in bytes), read, checked
// against a 4x4 torus of 2 traffic classes, and, when it is small, replayed on it.
// Laws whatever the bytes: a refusal is a config_error naming the file and line, and
// nothing else; a message read has 1 to 65,535 flits and rows in order of cycle; a
// replay on a dateline torus delivers every message (it drains until they are in),
// each with a latency of at least its flits.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/topology/torus.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {
void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_trace: law broken: %s\n", what);
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabric;
    if (size == 0) return 0;
    const std::uint32_t flit_bytes = data[0] % 64;  // 0: a trace in bytes is refused
    std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
    Trace t;
    try {
        t = parse_trace(in, "fuzz.csv", flit_bytes);
        t.check(16, 2);
    } catch (const config_error& e) {
        law(std::string(e.what()).rfind("fabric: fuzz.csv", 0) == 0, "a refusal names the file");
        return 0;
    }
    std::uint64_t flits = 0;
    for (std::size_t i = 0; i < t.messages.size(); ++i) {
        const TraceMessage& m = t.messages[i];
        law(m.flits >= 1 && m.flits <= 65535, "a message has 1 to 65,535 flits");
        law(i == 0 || t.messages[i - 1].cycle <= m.cycle, "rows come in order of cycle");
        flits += m.flits;
    }
    if (t.messages.empty() || flits > 4096 || t.messages.back().cycle > 20000) return 0;
    using T = Torus<2, BasicLink<2>>;
    const Fabric<T, DorTieSplit<>> net(T({4, 4}));
    CycleConfig base;
    base.class_priority = {0, 1};
    base.watchdog = 2000;
    MessageLatencies each(t);
    CycleSimulator sim(net, each.watching(trace_settings(base, t, 8)));
    const CycleResult r = sim.run_trace(t.messages);
    law(!r.deadlock, "a dateline torus does not deadlock");
    law(r.messages_delivered == t.messages.size() && r.messages_lost == 0, "every message is delivered");
    for (std::size_t i = 0; i < t.messages.size(); ++i)
        law(each.latencies()[i] != MessageLatencies::lost && each.latencies()[i] >= t.messages[i].flits,
            "a message's latency is at least its flits");
    return 0;
}
