// expect: fabric: design review: the receive FIFO keeps the link above 75% efficiency
// The twin of a claim in examples/compile_time.cpp, made false: with a 512-word
// receive FIFO the APEnet+ link runs at E_T = 0.595 (EURETILE 2012, Table 8), so
// the review fails to compile and the compiler prints the claim. The twin built
// with the tests makes the true claim, for 1024 words (E_T = 0.784).
#include <fabric/sim/analytic/apenet_efficiency.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
constexpr std::uint32_t fifo_words = 512;
#else
constexpr std::uint32_t fifo_words = 1024;
#endif
static_assert(fabric::analytic::ApenetEfficiency::with_fifo(fifo_words).et() > 0.75,
              "fabric: design review: the receive FIFO keeps the link above 75% efficiency");
