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

}  // namespace fabric
