// expect: fabric: this topology states translations\(\) but not port_at_representative
// A topology that states its translations must also say where each port goes
// (concepts/symmetry.hpp): a dragonfly that hides port_at_representative is
// refused by link_load with the sentence that says so. The twin keeps it.
#include <fabric/composition.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/dragonfly.hpp>

namespace {
struct HalfStated : fabric::Dragonfly<5> {
    using fabric::Dragonfly<5>::Dragonfly;
#ifdef FABRIC_MUST_NOT_COMPILE
    static fabric::PortId port_at_representative(fabric::NodeId, fabric::PortId) = delete;
#endif
};
[[maybe_unused]] double peak() {
    const fabric::Fabric<HalfStated, fabric::DragonflyMinimal> net{HalfStated(4, 2)};
    return fabric::link_load(net, fabric::UniformTraffic(36)).max_load();
}
}  // namespace
