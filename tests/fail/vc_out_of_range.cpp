// expect: fabric: a route of this routing policy uses a virtual channel that its link does not have
// Chords have one virtual channel; a policy that sends chord hops on VC 1 is refused.
#include <fabric/composition.hpp>

#include "../../examples/own/chord_ring.hpp"

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<own::ChordRing<8, true>, own::ChordRouting<true, 1>>;
#else
using Net = fabric::Fabric<own::ChordRing<8, true>, own::ChordRouting<true, 0>>;
#endif
static_assert(sizeof(Net) > 0);
