// What the flow kernel may do in one constant evaluation, and the message it stops
// with past that, before the compiler's own limit stops it with a message that
// says nothing of the model (docs/compile_time.md).
#pragma once

#include <cstddef>
#include <type_traits>

namespace fabric {

/// What the flow kernel may do in one constant evaluation, in channel-load additions
/// of the pair walk (a hop of a route, with its fraction), counted as it runs; the
/// symmetric path counts its own additions, a quarter for each flow it reads and a
/// third for each channel slot it fills (FlowBudget). Measured (docs/compile_time.md)
/// under the compilers' default limits, walking every pair: GCC 12 (2^25
/// operations) finishes uniform traffic on a 10 x 10 torus under dimension order
/// (60,000 additions) and halo traffic on an 8-supernode PERCS system under direct
/// routing (28,576), and stops on an 11 x 11 torus (79,860); Clang 14 (2^20 steps)
/// finishes a 7 x 7 torus (8,232) and a 2-supernode PERCS halo (9,472), and stops
/// within an 8 x 8 torus (20,480). By symmetry a torus under uniform traffic is one
/// source's flows and one ring's legs a dimension, and mostly the loads of its
/// channels, which the result holds: a 16 x 16 x 16 torus counts 9,432 (4,096 flows,
/// 216 additions, 24,576 slots) and takes 724,000 of Clang's steps and 5.9 M of
/// GCC's operations; 17 x 17 x 17 (11,270) is past Clang's budget. A constant
/// evaluation past the budget stops with a "fabric:" message that says to use
/// run-time sizes, before the compiler's own limit. Who raises the compiler's limit
/// (-fconstexpr-ops-limit, -fconstexpr-steps) may raise this one with
/// FABRIC_CONSTANT_EVALUATION_BUDGET.
#if defined(FABRIC_CONSTANT_EVALUATION_BUDGET)
inline constexpr std::size_t constant_evaluation_budget = FABRIC_CONSTANT_EVALUATION_BUDGET;
#elif defined(__clang__)
inline constexpr std::size_t constant_evaluation_budget = 10000;
#else
inline constexpr std::size_t constant_evaluation_budget = 30000;
#endif

namespace detail {
/// Not constexpr on purpose: reached only in a constant evaluation past the
/// budget, where the compiler reports this call and the message beside it.
inline void past_the_constant_evaluation_budget(const char*) {}

/// The kernel's work so far in a constant evaluation, in channel-load additions of
/// the pair walk (at run time nothing is counted: the test compiles away). Lighter
/// work is counted as a share of one: spend(n, per) is n / per additions (the
/// symmetric path's flows read, a quarter each, and channel slots filled, a third:
/// measured, a flow read costs GCC 270 operations and Clang 18 steps, a slot 195
/// and 26, against about 1,100 and 100 for an addition of the budget's share).
class FlowBudget {
public:
    constexpr void spend(std::size_t work = 1, std::size_t per = 1) {
        if (std::is_constant_evaluated() && (twelfths_ += work * (12 / per)) > 12 * constant_evaluation_budget)
            detail::past_the_constant_evaluation_budget("fabric: this link_load is too large for constant "
                                                        "evaluation (past fabric::constant_evaluation_budget "
                                                        "channel-load additions, about the compiler's constexpr "
                                                        "limit); give the topology run-time sizes and call "
                                                        "link_load at run time");
    }

private:
    std::size_t twelfths_ = 0;
};
}  // namespace detail

}  // namespace fabric
