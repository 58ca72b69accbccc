// expect: fabric: the cycle kernel needs a CycleTopology: give the topology reverse_port
// An own topology that leaves out reverse_port forms a fabric (the flow kernel
// needs no more), but the cycle kernel refuses it with one sentence.
#include <fabric/composition.hpp>
#include <fabric/sim/cycle.hpp>

#include "../../examples/own/chord_ring.hpp"

struct NoReverse : own::ChordRing<8> {
#ifdef FABRIC_MUST_NOT_COMPILE
    void reverse_port() const = delete;  // hides the one it inherits
#endif
};

using Net = fabric::Fabric<NoReverse, own::ChordRouting<true>>;
static_assert(sizeof(fabric::CycleSimulator<Net>) > 0);
