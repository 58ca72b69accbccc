// expect: fabric: this routing policy does not fit this topology
// Dimension-order routing on a topology that is not a k-ary n-cube.
#include <fabric/composition.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

namespace {
// A hand-written two-node topology: a Topology, but not a k-ary n-cube.
struct Pair {
    static constexpr std::size_t ports_per_node = 1;
    using link_types = boost::hana::tuple<fabric::BasicLink<2>>;
    link_types links_{};
    [[nodiscard]] const link_types& links() const { return links_; }
    [[nodiscard]] std::size_t node_count() const { return 2; }
    [[nodiscard]] fabric::NodeId neighbour(fabric::NodeId n, fabric::PortId) const { return fabric::NodeId{1 - n.value}; }
    [[nodiscard]] std::size_t link_class(fabric::NodeId, fabric::PortId) const { return 0; }
    [[nodiscard]] std::size_t distance(fabric::NodeId a, fabric::NodeId b) const { return a == b ? 0 : 1; }
    [[nodiscard]] std::size_t diameter() const { return 1; }
};
static_assert(fabric::Topology<Pair>);

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<Pair, fabric::DorTieSplit<>>;
#else
using Net = fabric::Fabric<fabric::Torus<1>, fabric::DorTieSplit<>>;
#endif
[[maybe_unused]] Net* net = nullptr;
static_assert(sizeof(Net) > 0);
}  // namespace
