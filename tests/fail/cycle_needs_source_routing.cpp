// expect: fabric: the cycle kernel routes packets at the source
// A policy whose routes cannot be selected one at a time (no select_route for
// the cycle kernel) forms a fabric, but not a cycle simulator.
#include <cstddef>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

struct NoSelect : fabric::DorTieSplit<> {
#ifdef FABRIC_MUST_NOT_COMPILE
    void select_route() const = delete;  // hides the inherited one
#endif
};

using Net = fabric::Fabric<fabric::Torus<2>, NoSelect>;
static_assert(sizeof(fabric::CycleSimulator<Net>) > 0);
