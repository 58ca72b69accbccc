// fabric under another simulator (docs/embedding.md): a run of the cycle kernel
// that the other simulator advances from its own event loop, through the message
// port (message_port.hpp), the same hook the dependency engine drives:
//   inject(at, message)     a message enters its source queue at cycle `at` (>= now())
//   run_until(cycle)        simulates the cycles now() .. cycle - 1
//   run_until_report(limit) simulates until a cycle reports a message sent or
//                           delivered, or until `limit`, or until nothing is in
//                           flight and nothing scheduled (never a hang)
//   reports() / take(f)     what was sent and delivered, each with its cycle and the
//                           handle it was injected with (read, or called back, and cleared)
// Cycles in which nothing can happen (the network empty, nothing scheduled before a
// later cycle) are skipped, not stepped, with the same result. The run measures
// every cycle, and a message is one packet unless max_packet_flits splits it (at
// most 65,535 flits a packet). The simulator's settings are the run's own until
// finish() (or the end of this object) gives them back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/message_port.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/run.hpp>
#include <fabric/sim/cycle/workloads.hpp>

namespace fabric::cycle {

template <class Core, CycleTransport Tx>
class Embedded {
public:
    static constexpr std::uint64_t never = MessagePort::never;

    Embedded(Core& core, const Partition& partition, Tx& tx)
        : core_(core), saved_(prepare(core, partition, tx)),
          run_(core, std::nullopt, Injection::of(nothing_, std::uint64_t{1} << 32), tx, Driver{}) {
        core.sources().port().open(core.cfg().seed);
        core.observer().flit_events = true;
    }
    Embedded(const Embedded&) = delete;
    Embedded& operator=(const Embedded&) = delete;
    ~Embedded() { restore(); }

    /// The next cycle the kernel will simulate.
    [[nodiscard]] std::uint64_t now() const { return run_.now(); }
    /// Message `m` (terminals, flits, class, a handle below 2^40) enters its source queue at cycle `at`.
    void inject(std::uint64_t at, const PortMessage& m) {
        const Shape& s = core_.shape();
        detail::require(at >= now(), "inject: cycle ", at, " has been simulated already (the kernel is at ", now(),
                        ")");
        detail::require(m.source < s.terminals && m.destination < s.terminals, "inject: terminals ", m.source,
                        " and ", m.destination, " must be below the network's ", s.terminals);
        detail::require(m.flits >= 1, "inject: a message has at least one flit");
        check_switching(core_, std::min(m.flits, core_.cfg().max_packet_flits));
        detail::require(m.traffic_class < core_.observer().classes.count(), "inject: traffic class ",
                        m.traffic_class, " is past the configuration's ", core_.observer().classes.count());
        core_.sources().port().schedule(at, m);
    }
    /// Simulates the cycles now() .. cycle - 1 (nothing when cycle <= now()).
    void run_until(std::uint64_t cycle) { run_.advance(cycle, false); }
    /// Simulates until a cycle reports a message sent or delivered, up to `limit`;
    /// returns at once when nothing is in flight and nothing is scheduled. Whether
    /// something was reported.
    bool run_until_report(std::uint64_t limit = never) {
        const std::uint64_t before = core_.sources().port().reported();
        run_.advance(limit, true);
        return core_.sources().port().reported() != before;
    }
    /// What was reported since the reports were last cleared; the caller may clear them.
    [[nodiscard]] std::vector<PortReport>& reports() { return core_.sources().port().reports(); }
    /// Calls f(report) for each report, in order, then clears them.
    template <class F>
    void take(F&& f) {
        auto& r = core_.sources().port().reports();
        for (const PortReport& x : r) f(x);
        r.clear();
    }
    /// Nothing in the network, nothing scheduled.
    [[nodiscard]] bool idle() const {
        auto& c = core_;
        return c.sources().port().scheduled() == 0 && c.sources().queues().packets() == 0 &&
               c.count_in_flight() == 0;
    }
    /// Whether the run has ended on its own (the watchdog found a deadlock, a memory limit, the drain limit).
    [[nodiscard]] bool over() const { return run_.over(); }

    /// The network's figures over the cycles simulated; the simulator's settings back.
    CycleResult finish() {
        CycleResult r = run_.finish();
        restore();
        return r;
    }

private:
    struct Saved {
        std::uint64_t warmup, measure;
        std::uint32_t max_packet_flits;
    };
    static Saved prepare(Core& core, const Partition& partition, Tx& tx) {
        CycleConfig& cfg = core.settings();
        detail::require(!cfg.sampling.enabled(), "an embedded run ends when its driver stops: set "
                        "sampling.sample_period to 0");
        detail::require(!cfg.request_reply.enabled(), "an embedded run's replies are its driver's messages: set "
                        "request_reply.reply_flits to 0");
        detail::require(tx.ranks() == 1, "an embedded run runs alone: a partitioned one is not supported");
        const Saved saved{cfg.warmup, cfg.measure, cfg.max_packet_flits};
        cfg.warmup = 0;
        cfg.measure = std::uint64_t{1} << 60;
        if (cfg.max_packet_flits == 0) cfg.max_packet_flits = 65535;
        place_routers(core, partition, tx);
        return saved;
    }
    void restore() {
        if (restored_) return;
        restored_ = true;
        CycleConfig& cfg = core_.settings();
        cfg.warmup = saved_.warmup;
        cfg.measure = saved_.measure;
        cfg.max_packet_flits = saved_.max_packet_flits;
        core_.sources().port().reset();
        core_.observer().flit_events = core_.observer().watch.on();
    }
    struct Nothing {
        void operator()(std::uint64_t, Random&) const {}
    };

    Core& core_;
    Saved saved_;
    Nothing nothing_;
    Run<Core, Tx, true> run_;
    bool restored_ = false;
};

}  // namespace fabric::cycle
