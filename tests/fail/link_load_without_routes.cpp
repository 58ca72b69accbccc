// expect: fabric: link_load needs a routing policy for the fabric's topology
// A fabric-like type of one's own whose routing slot holds no routing policy.
#include <fabric/flow/credit.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Routing = int;
#else
using Routing = fabric::DorTieSplit<>;
#endif

struct OwnFabric {
    using topology_type = fabric::Torus<2>;
    using routing_type = Routing;
    using flow_type = fabric::Credit;
    [[nodiscard]] const topology_type& topology() const { return t; }
    [[nodiscard]] const routing_type& routing() const { return r; }
    [[nodiscard]] const flow_type& flow() const { return f; }
    topology_type t{{4, 4}};
    routing_type r{};
    flow_type f{};
};

inline auto loads() { return fabric::link_load(OwnFabric{}, fabric::UniformTraffic(16)); }
