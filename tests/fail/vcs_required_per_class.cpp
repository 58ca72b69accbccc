// expect: fabric: vcs_required must give one count per link class of the topology
// A torus has one link class; a policy listing VC needs for two classes is refused.
#include <array>
#include <cstddef>

#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
constexpr std::size_t classes = 2;
#else
constexpr std::size_t classes = 1;
#endif

struct PerClassDor : fabric::DorTieSplit<> {
    template <class T>
    static constexpr std::array<std::size_t, classes> vcs_required = [] {
        std::array<std::size_t, classes> need{};
        need.fill(2);
        return need;
    }();
};

using Net = fabric::Fabric<fabric::Torus<2>, PerClassDor>;
static_assert(sizeof(Net) > 0);
