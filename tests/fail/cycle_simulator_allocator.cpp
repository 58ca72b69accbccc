// expect: fabric: CycleSimulator<F, A> needs a switch allocator as A
// The second argument of CycleSimulator must be a switch allocator policy.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

namespace {
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>>;
#ifdef FABRIC_MUST_NOT_COMPILE
using Sim = fabric::CycleSimulator<Net, int>;
#else
using Sim = fabric::CycleSimulator<Net, fabric::Islip<2>>;
#endif
static_assert(sizeof(Sim) > 0);
}  // namespace
