// Per-class virtual channels at compile time: the deadlock check of a topology
// with static sizes counts each link by its class's VCs.
#include <fabric/composition.hpp>

#include "../../examples/own/chord_ring.hpp"

namespace {
using Static8 = own::ChordRing<8, true>;
static_assert(fabric::channel_dependencies(Static8{}, own::ChordRouting<true>{}).acyclic);
static_assert(!fabric::channel_dependencies(Static8{}, own::ChordRouting<false>{}).acyclic);
static_assert(fabric::channel_dependencies(Static8{}, own::ChordRouting<true, 1>{}).vc_out_of_range);
static_assert(fabric::channel_dependencies(Static8{}, own::ChordRouting<true>{}, 1).vc_out_of_range);
// Formed at compile time: the check runs as the type is formed, and passes.
static_assert(sizeof(fabric::Fabric<Static8, own::ChordRouting<true>>) > 0);
}  // namespace
