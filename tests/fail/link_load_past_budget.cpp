// expect: fabric: this link_load is too large for constant
// A flow-kernel run in constant evaluation past fabric::constant_evaluation_budget:
// uniform traffic on a 12 x 12 mesh walks every pair (a mesh states no symmetry,
// so no representative source stands for the others) and makes 164,736
// channel-load additions, past the budget of either compiler, so the evaluation
// stops with the library's message before the compiler's own operation limit.
// The twin, a 5 x 5 mesh (2,000 additions), compiles.
#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
constexpr long long k = 12;
#else
constexpr long long k = 5;
#endif
using T = fabric::Mesh<2, fabric::BasicLink<2>, fabric::StaticExtents<k, k>>;
constexpr double peak() {
    const fabric::Fabric<T, fabric::DorTieSplit<>> net{};
    return fabric::link_load(net, fabric::UniformTraffic(k * k)).max_load();
}
static_assert(peak() > 0);
