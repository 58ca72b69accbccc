// The laws every loaded cycle-kernel run below saturation obeys, checked in one
// place: every measured packet delivered, none to the wrong terminal or out of
// order within itself, and flits conserved (injected = ejected + in flight). And
// the run in which an under-provisioned routing is to be seen deadlocking. And
// two runs that must be one: every count and figure equal.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <vector>

#include <fabric/sim/cycle.hpp>
#include <fabric/sim/cycle/chosen_switch.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

inline void check_delivered_and_conserved(const fabric::CycleResult& r) {
    CHECK(r.drained);
    CHECK(r.measured_delivered == r.measured_packets);
    CHECK(r.misdelivered == 0);
    CHECK(r.out_of_order == 0);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
}

/// Long enough for the watchdog to look several times: 200 cycles of warm-up,
/// 5,000 measured, a flit waiting 2,000 cycles sends it looking.
inline fabric::CycleConfig deadlock_watch_config() {
    fabric::CycleConfig cfg;
    cfg.warmup = 200;
    cfg.measure = 5000;
    cfg.watchdog = 2000;
    return cfg;
}

/// The watchdog found a deadlock, and its report says so in the library's words.
inline void check_deadlock_reported(const fabric::CycleResult& r) {
    REQUIRE(r.deadlock);
    CHECK(r.deadlock->describe().starts_with("fabric: deadlock at cycle"));
}

/// Two runs that must be the same run (the same configuration on both kernels, an
/// allocator picked at run time against itself): every count and figure equal.
inline void check_same_run(const fabric::CycleResult& a, const fabric::CycleResult& b) {
    std::vector<std::uint64_t> counts;
    fabric::cycle::for_each_count(static_cast<const fabric::CycleCounts&>(a),
                                  [&](const char*, std::uint64_t c) { counts.push_back(c); });
    std::size_t i = 0;
    fabric::cycle::for_each_count(static_cast<const fabric::CycleCounts&>(b), [&](const char* name, std::uint64_t c) {
        INFO(name);
        CHECK(c == counts[i++]);
    });
    CHECK(a.flit_moves > 0);
    CHECK(a.accepted == b.accepted);
    CHECK(a.latency.histogram == b.latency.histogram);
    CHECK(a.cycles == b.cycles);
    CHECK(a.window_start == b.window_start);
    CHECK(a.window_cycles == b.window_cycles);
    CHECK(a.channel_utilisation == b.channel_utilisation);
}

/// The separable allocator, run by the wake kernel only (a ChosenSwitch whose
/// stage-list kernel is compiled for none): the reference a stage-list run is held to.
struct WakeSeparable : fabric::ChosenSwitch<WakeSeparable, fabric::SeparableSwitch> {
    static constexpr std::string_view name = "separable, on the wake kernel";
    using staged = std::tuple<>;
};

/// A run of `pattern` at `rate` on the stage-list kernel, held to the same run on
/// the wake kernel (every count and figure equal); the first run's result.
template <class Net, class Pattern>
fabric::CycleResult run_on_both_kernels(const Net& net, const fabric::CycleConfig& cfg, const Pattern& pattern,
                                        double rate, fabric::PacketSizes sizes) {
    fabric::CycleSimulator<Net> staged(net, cfg);
    fabric::CycleSimulator<Net, WakeSeparable> wake(net, cfg);
    CHECK(staged.staged());
    CHECK_FALSE(wake.staged());
    const fabric::CycleResult a = staged.run(pattern, rate, sizes);
    check_same_run(a, wake.run(pattern, rate, sizes));
    return a;
}
