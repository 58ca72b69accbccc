// SwitchAllocator: the policy that matches a router's input ports to its output
// ports each cycle in the cycle kernel (chosen as CycleSimulator's second
// template argument; fabric::SeparableSwitch by default). A::stage holds the
// policy's pointers for every router and, during one router's step, the requests
// gathered; its sizes are run-time numbers, so one stage type serves every router
// shape:
//   reset(routers, ports, vcs)  all pointers to their start, before a run
//   begin(router)           forget the requests; the next ones are this router's
//   request(in, vc, out)    input VC (in, vc) has a flit for output port `out`
//                           that may cross the switch this cycle (at most once
//                           per input VC and step)
//   any()                   whether a request was made since begin
//   allocate(grant)         calls grant(in, vc, out) for each pair matched: at
//                           most one per input port and one per output port (up
//                           to the speedups with Speedup<A, In, Out>), in
//                           increasing output port order, and moves its pointers
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fabric {

namespace detail {
struct grant_sink {
    constexpr void operator()(std::uint32_t, std::uint32_t, std::uint32_t) const {}
};
}  // namespace detail

template <class A>
concept SwitchAllocator = requires {
    { A::name } -> std::convertible_to<std::string_view>;
} && requires(typename A::stage& s, const typename A::stage& cs, std::size_t routers, std::uint32_t i,
              detail::grant_sink grant) {
    s.reset(routers, i, i);
    s.begin(i);
    s.request(i, i, i);
    { cs.any() } -> std::convertible_to<bool>;
    s.allocate(grant);
};

/// A switch allocator that is one of `A::alternatives` (a std::tuple of allocator
/// types), the one at index `A::chosen()`, picked at run time (a tool's option):
/// its stage forwards every call to that allocator's, so a run with it decides
/// what a run with that allocator decides (and the cycle kernel may run it as that one;
/// `A::staged`, if A has it, a std::tuple of the alternatives it may do so for, or
/// `A::staged_for` such a tuple per fabric type).
template <class A>
concept ChosenAtRunTime = SwitchAllocator<A> && requires {
    typename A::alternatives;
    { A::chosen() } -> std::convertible_to<std::size_t>;
};

}  // namespace fabric
