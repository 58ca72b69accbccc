// What a cycle-kernel run counts, in one place: the result's counters (the parts
// count into it as they run: flits moved, injected, ejected, packets delivered,
// lost), the latency histograms, the per-class counters and the watch trace of
// chosen packets. The parts report to it; it derives nothing until the run ends.
#pragma once

#include <cstdint>

#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/watch.hpp>
#include <fabric/sim/statistics.hpp>

namespace fabric::cycle {

struct Observer {
    CycleResult res;
    LatencyHistogram latency, network, message, transaction;
    ClassTable classes;  // from CycleConfig::class_priority
    Watch watch;         // with CycleConfig::watch
    // Whether a flit's switching is looked at, once a flit (router_traversal.hpp):
    // the watch is on, or a driver wants each message's sending (message_port.hpp).
    bool flit_events = false;

    void reset(const InstrumentSettings& cfg, std::uint32_t terminals) {
        res = CycleResult{};
        latency = network = message = transaction = {};
        classes.reset();
        if (cfg.node_statistics) res.nodes.assign(terminals, NodeCounters{});
        watch.reset(cfg.watch);
        flit_events = watch.on();
    }
};

}  // namespace fabric::cycle
