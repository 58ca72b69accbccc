// cycle_sim on a dragonfly of routers (Kim et al.; topology/dragonfly.hpp, one
// terminal per router) under minimal routing: two VCs on local links, one on
// global links. Two port-slot sizes, so that a small dragonfly's routers do not
// scan empty ports.
#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t Ports>
int with_ports(const RunSettings& s, const NamedPattern& pattern) {
    using T = Dragonfly<Ports, BasicLink<2>, BasicLink<1>>;
    Credit flow;
    flow.buffer_flits_per_vc = s.vc_buf;
    flow.credit_delay = s.credit_delay;
    const Fabric<T, DragonflyMinimal> net(T(s.a, s.h, s.g), {}, flow);
    return simulate_on(net, s, pattern);
}

}  // namespace

int simulate_dragonfly(const RunSettings& s, const NamedPattern& pattern) {
    detail::require(s.routing == "min", "routing: a dragonfly routes min (minimal: local, global, local); got '",
                    s.routing, "'");
    detail::require(s.vcs == 2, "vcs: a dragonfly under minimal routing takes 2 VCs (local hops before and after the "
                    "global one); got ", s.vcs);
    detail::require(s.a >= 1 && s.a <= 32 && s.h >= 1 && s.h <= 32, "a, h: 1 to 32 routers per group and global "
                    "ports per router; got a = ", s.a, ", h = ", s.h);
    return s.a - 1 + s.h <= 16 ? with_ports<16>(s, pattern) : with_ports<64>(s, pattern);
}

}  // namespace fabric_apps::cycle_sim
