// expect: fabric: the channel-dependency graph of this routing on this topology has a cycle
// A topology of our own with static sizes: without the dateline its ring can deadlock.
#include <fabric/composition.hpp>

#include "../../examples/own/chord_ring.hpp"

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<own::ChordRing<8, true>, own::ChordRouting<false>>;
#else
using Net = fabric::Fabric<own::ChordRing<8, true>, own::ChordRouting<true>>;
#endif
static_assert(sizeof(Net) > 0);
