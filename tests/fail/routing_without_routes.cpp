// expect: fabric: the second parameter of Fabric must be a routing policy for this topology
// A policy that says it fits the torus but cannot enumerate routes.
#include <cstddef>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

struct FitsOnly {
    template <class T>
    static constexpr bool fits = true;
    template <class T>
    static constexpr std::size_t vcs_required = 1;
};

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Mesh<2>, FitsOnly>;
#else
using Net = fabric::Fabric<fabric::Mesh<2>, fabric::DorTieSplit<>>;
#endif
static_assert(sizeof(Net) > 0);
