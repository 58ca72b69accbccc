// Which kernel runs a Bernoulli run: the stage-list kernel (kernel.hpp) where it
// models the run's configuration, the wake kernel (core.hpp) otherwise. The
// checks a run passes before it starts are the same either way and come first,
// so a refused run is refused with the same words by both. An allocator a tool's
// user names at run time (ChosenAtRunTime) runs on the stage-list kernel as the
// allocator it names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/stage/kernel.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/workloads.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::cycle {

namespace stage_detail {
/// The allocator whose stage-list kernel runs `A` (an iSLIP under another name,
/// SeparableOutputFirst, runs as the Islip of as many iterations: one instantiation for both).
template <class A>
using stage_allocator_t = std::conditional_t<(islip_of<A> > 0), Islip<islip_of<A>>, A>;
/// The allocator the I-th alternative of a ChosenAtRunTime A runs as.
template <class A, std::size_t I>
using alternative_t = stage_allocator_t<std::tuple_element_t<I, typename A::alternatives>>;
}  // namespace stage_detail

template <class T, class Tuple>
inline constexpr bool listed_in = false;
template <class T, class... U>
inline constexpr bool listed_in<T, std::tuple<U...>> = (std::is_same_v<T, U> || ...);

/// The alternatives of a ChosenAtRunTime A that the stage-list kernel is compiled for
/// on fabric Fab: A::staged_for<Fab> where A names them per fabric, else A::staged
/// where it names them once (each costs a stage-list kernel per fabric), else all.
template <class A, class Fab>
struct staged_alternatives {
    using type = typename A::alternatives;
};
template <class A, class Fab>
    requires requires { typename A::staged; }
struct staged_alternatives<A, Fab> {
    using type = typename A::staged;
};
template <class A, class Fab>
    requires requires { typename A::template staged_for<Fab>; }
struct staged_alternatives<A, Fab> {
    using type = typename A::template staged_for<Fab>;
};

/// What f's call operator returns, instantiated for the allocator A runs as: A itself, or for an
/// allocator chosen at run time the one chosen (as stage_allocator_t names it), if it
/// is one the kernel is compiled for on Fab; else a value-initialised result (false, nothing).
template <class A, class Fab, class F>
auto as_chosen(F&& f) {
    if constexpr (ChosenAtRunTime<A>) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            decltype(f.template operator()<stage_detail::alternative_t<A, 0>>()) r{};
            auto one = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
                using Alt = std::tuple_element_t<J, typename A::alternatives>;
                if constexpr (listed_in<Alt, typename staged_alternatives<A, Fab>::type>)
                    if (A::chosen() == J) r = f.template operator()<stage_detail::alternative_t<A, J>>();
            };
            (one(std::integral_constant<std::size_t, I>{}), ...);
            return r;
        }(std::make_index_sequence<std::tuple_size_v<typename A::alternatives>>{});
    } else {
        return f.template operator()<A>();
    }
}

/// Whether the stage-list kernel runs a Bernoulli run of one class on `fab` with
/// allocator A (whose wake kernel's core is `core`); the simulator asks it before a
/// run, and a tool to estimate what the run costs.
template <class Fab, class A, class Core>
bool stage_serves(const Fab& fab, const Core& core) {
    return as_chosen<A, Fab>([&]<class B>() {
        if constexpr (!StageKernel<Fab, B>::kind) {
            return false;
        } else {
            const bool plain =
                !core.failures().active() && !core.link_errors().any() && !core.channels().side_band().any();
            const auto max_hops = static_cast<std::uint32_t>(Fab::routing_type::max_hops(fab.topology()));
            return StageKernel<Fab, B>::serves(core.cfg(), core.channels().links(), fab.flow(), plain, max_hops);
        }
    });
}

/// The stage-list kernel's run of `loads` on `fab` (whose wake kernel's core is
/// `core`, holding the settings, links and schedules the simulator was given), or
/// nothing when it does not model this run.
template <class Fab, class A, class Core, TrafficPattern Pattern>
std::optional<CycleResult> run_loads_staged(const Fab& fab, Core& core, const Pattern& pattern,
                                            std::span<const OfferedLoad> loads) {
    if (loads.size() != 1 || !stage_serves<Fab, A>(fab, core)) return std::nullopt;
    return as_chosen<A, Fab>([&]<class B>() -> std::optional<CycleResult> {
        if constexpr (!StageKernel<Fab, B>::kind) {
            return std::nullopt;
        } else {
            using K = StageKernel<Fab, B>;
            const CycleConfig& cfg = core.cfg();
            const Links& links = core.channels().links();
            const auto max_hops = static_cast<std::uint32_t>(Fab::routing_type::max_hops(fab.topology()));
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
    });
}

}  // namespace fabric::cycle
