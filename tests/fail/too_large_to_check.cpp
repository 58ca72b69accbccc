// expect: fabric: this topology is too large for the compile-time deadlock check
// 32 nodes with static sizes: 32 x 32 pairs x 32 hops is past the budget, so the
// fabric says to use run-time sizes instead of overflowing the compiler; with
// run-time sizes it compiles and checks at construction.
#include <fabric/composition.hpp>

#include "../../examples/own/chord_ring.hpp"

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<own::ChordRing<32, true>, own::ChordRouting<true>>;
#else
using Net = fabric::Fabric<own::ChordRing<32, false>, own::ChordRouting<true>>;
#endif
static_assert(sizeof(Net) > 0);
