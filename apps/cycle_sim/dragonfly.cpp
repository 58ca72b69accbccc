// cycle_sim on a dragonfly (Kim et al.; topology/dragonfly.hpp) under minimal
// routing (2 VCs on local links, 1 on global ones), Valiant's or UGAL-L / UGAL-G
// (3 and 2). Two port-slot sizes, so that a small dragonfly's routers do not scan
// empty ports; with p > 1 terminals a router (--p), the 16-slot routers concentrated
// up to 4 (topology/concentrated.hpp).
#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t Ports, class Routing, std::size_t LocalVcs, std::size_t GlobalVcs, std::size_t Terminals = 1>
int with_ports(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using Routers = Dragonfly<Ports, BasicLink<LocalVcs>, BasicLink<GlobalVcs>>;
    const Credit flow = credit_flow(s);  // the fabrics are checked for deadlock in simulate_on
    if constexpr (Terminals == 1) {
        const Fabric<Routers, Routing> net(Routers(s.a, s.h, s.g), allow_deadlock, {}, flow);
        return simulate_on(net, s, pattern, out, Groups{s.a});  // partitioned: whole groups of a routers
    } else {
        using T = Concentrated<Routers, Terminals>;
        const Fabric<T, Routing> net(T(Routers(s.a, s.h, s.g), s.p), allow_deadlock, {}, flow);
        return simulate_on(net, s, pattern, out, Groups{s.a});
    }
}

template <class Routing, std::size_t LocalVcs, std::size_t GlobalVcs>
int with_dragonfly_routing(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    if (s.p > 1) {
        detail::require(s.a - 1 + s.h <= 16, "p: more than one terminal a router is built for routers of at most 16 "
                        "ports (a - 1 + h <= 16); got a = ", s.a, ", h = ", s.h);
        return with_ports<16, Routing, LocalVcs, GlobalVcs, 4>(s, pattern, out);
    }
    return s.a - 1 + s.h <= 16 ? with_ports<16, Routing, LocalVcs, GlobalVcs>(s, pattern, out)
                               : with_ports<64, Routing, LocalVcs, GlobalVcs>(s, pattern, out);
}

}  // namespace

int simulate_dragonfly(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    detail::require(s.routing == "min" || s.routing == "val" || s.routing == "ugal-l" || s.routing == "ugal-g",
                    "routing: a dragonfly routes min (minimal: local, global, local), val (Valiant: minimal to a random "
                    "group, then minimal on), ugal-l or ugal-g (UGAL with local or global queues); got '", s.routing, "'");
    detail::require(s.a >= 1 && s.a <= 32 && s.h >= 1 && s.h <= 32, "a, h: 1 to 32 routers per group and global "
                    "ports per router; got a = ", s.a, ", h = ", s.h);
    detail::require(s.vcs == 2, "vcs: a dragonfly has the VCs its routing needs (min: 2 local, 1 global; the others 3 "
                    "and 2); leave out --vcs; got ", s.vcs);
    if (s.routing == "min") return with_dragonfly_routing<DragonflyMinimal, 2, 1>(s, pattern, out);
    if (s.routing == "val") return with_dragonfly_routing<DragonflyValiant, 3, 2>(s, pattern, out);
    if (s.routing == "ugal-l") return with_dragonfly_routing<DragonflyUgalL, 3, 2>(s, pattern, out);
    return with_dragonfly_routing<DragonflyUgalG, 3, 2>(s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
