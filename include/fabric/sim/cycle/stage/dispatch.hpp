// Which kernel runs a Bernoulli run: the stage-list kernel (kernel.hpp) where it
// models the run's configuration, the wake kernel (core.hpp) otherwise. The
// checks a run passes before it starts are the same either way and come first,
// so a refused run is refused with the same words by both.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/stage/kernel.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/workloads.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::cycle {

/// The stage-list kernel's run of `loads` on `fab` (whose wake kernel's core is
/// `core`, holding the settings, links and schedules the simulator was given), or
/// nothing when it does not model this run.
template <class Fab, class A, class Core, TrafficPattern Pattern>
std::optional<CycleResult> run_loads_staged(const Fab& fab, Core& core, const Pattern& pattern,
                                            std::span<const OfferedLoad> loads) {
    using K = StageKernel<Fab, A>;
    if constexpr (!K::kind) {
        return std::nullopt;
    } else {
        const CycleConfig& cfg = core.cfg();
        const Links& links = core.channels().links();
        const bool plain = !core.failures().active() && !core.link_errors().any() && !core.channels().side_band().any();
        const auto max_hops = static_cast<std::uint32_t>(Fab::routing_type::max_hops(fab.topology()));
        if (!K::serves(cfg, links, fab.flow(), plain, max_hops) || loads.size() != 1) return std::nullopt;
        // The checks of run_loads, in its order, for the one class this kernel serves.
        const Shape& shape = core.shape();
        detail::require(pattern.task_count() == shape.terminals, "the cycle kernel runs one task per terminal: the "
                        "pattern has ", pattern.task_count(), " tasks, the topology ", shape.terminals, " terminals (",
                        shape.routers, " routers of ", shape.per_node, ")");
        const OfferedLoad& load = loads[0];
        load.sizes.validate();
        detail::require(load.rate >= 0 && load.rate <= load.sizes.mean(), "offered load must be in [0, mean "
                        "packet size = ", load.sizes.mean(), "] flits/cycle/terminal; got ", load.rate);
        check_switching(core, load.sizes.max());
        detail::require(max_hops <= max_route_hops, "the routing policy's routes take up to ", max_hops,
                        " hops; the cycle kernel counts hops in 16 bits, at most ", max_route_hops);
        const std::uint64_t cap = check_memory(core.memory_need(), cfg.memory_limit_mb);
        const DestinationSampler<Pattern> sampler(pattern);
        return K::run(fab, cfg, shape, links, cap, sampler, loads);
    }
}

}  // namespace fabric::cycle
