// expect: fabric: CycleSimulator<F> needs a fabric type
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Sim = fabric::CycleSimulator<int>;
#else
using Sim = fabric::CycleSimulator<fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>>>;
#endif
static_assert(sizeof(Sim) > 0);
