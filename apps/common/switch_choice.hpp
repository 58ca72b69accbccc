// The switch allocator a tool's user names at run time (--allocator), as one
// SwitchAllocator type (fabric::ChosenSwitch): a tool then compiles one simulator per
// fabric, not one per fabric and allocator; the library's own users pick the
// allocator as a type.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <fabric/core/error.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle/chosen_switch.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace fabric_apps {

struct NamedSwitch : fabric::ChosenSwitch<NamedSwitch, fabric::SeparableSwitch, fabric::Islip<1>,
                                          fabric::SeparableOutputFirst, fabric::Wavefront> {
    static constexpr std::string_view name = "named at run time";
    /// The words naming the alternatives, in their order.
    static constexpr const char* words[] = {"separable", "islip", "output-first", "wavefront"};
    static_assert(std::size(words) == std::tuple_size_v<alternatives>);
    /// Those whose runs go to the stage-list kernel where it models them (the others' to
    /// the wake kernel, with the same results): each one listed compiles that kernel once
    /// more for a fabric of the tool (cycle_sim's compile at -O2: 224 s with none, 345 s
    /// with the separable allocator, 604 s with it and iSLIP on every fabric), so the
    /// default, and iSLIP (BookSim's allocator) on the fabric of BookSim's torus files
    /// (dim_order_torus: dimension order whose whole ring takes VC 1 when the leg wraps).
    template <class Fab>
    using staged_for = std::conditional_t<
        std::is_same_v<typename Fab::routing_type, fabric::DimensionOrder<fabric::TieRule::split,
                                                                          fabric::DatelineWholeRing>>,
        std::tuple<fabric::SeparableSwitch, fabric::Islip<1>>, std::tuple<fabric::SeparableSwitch>>;

    static void choose(const std::string& word) {
        for (std::size_t i = 0; i < std::size(words); ++i)
            if (word == words[i]) {
                chosen() = i;
                return;
            }
        throw fabric::config_error(fabric::detail::message("allocator: separable, islip, output-first or "
                                                           "wavefront; got '", word, "'"));
    }
};

static_assert(fabric::SwitchAllocator<NamedSwitch> && fabric::ChosenAtRunTime<NamedSwitch>);

}  // namespace fabric_apps
