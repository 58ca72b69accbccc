// expect: fabric: this traffic pattern claims invariance \(invariant_under\) but gives no for_each_flow_from
// A pattern that claims invariance must give one source's flows, which is all
// the symmetric path reads of it: a hot spot claiming it without them is refused
// by link_load. The twin makes no claim.
#include <fabric/composition.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

namespace {
struct Claims : fabric::HotSpotTraffic {
    using fabric::HotSpotTraffic::HotSpotTraffic;
#ifdef FABRIC_MUST_NOT_COMPILE
    [[nodiscard]] bool invariant_under(const fabric::Translations&) const { return true; }
#endif
};
[[maybe_unused]] double peak() {
    const fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>> net{fabric::Torus<2>{4, 4}};
    return fabric::link_load(net, Claims(16, {0}, 0.5)).max_load();
}
}  // namespace
