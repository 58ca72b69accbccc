// expect: fabric: the cycle kernel drives flow control through hooks the protocol lacks
// A protocol that names itself, validates and drives every link, but has no
// cycle-kernel hooks: a fabric, not a cycle simulator.
#include <string_view>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

struct Named {
    static constexpr std::string_view name = "named";
    template <class L>
    static constexpr bool drives = true;
    constexpr void validate() const {}
};

#ifdef FABRIC_MUST_NOT_COMPILE
using Flow = Named;
#else
using Flow = fabric::Credit;
#endif
using Net = fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>, Flow>;
static_assert(sizeof(fabric::CycleSimulator<Net>) > 0);
