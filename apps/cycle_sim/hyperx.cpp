// cycle_sim on a HyperX (all-to-all in each dimension) under dimension-order
// routing, one VC (a second, with --vcs 2, serves a second injection queue), or
// minimal adaptive routing (a VC a hop: 4). Two port-slot sizes, so that a small
// HyperX's routers do not scan empty ports; with p > 1 terminals a router (--p),
// the 16-slot routers concentrated up to 4 (topology/concentrated.hpp).
#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t Ports, std::size_t Vcs, class Routing = HyperXDimensionOrder>
int with_hyperx(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using Routers = HyperX<4, Ports, BasicLink<Vcs>>;
    const Credit flow = credit_flow(s);  // the fabrics are checked for deadlock in simulate_on
    if constexpr (Ports == 16) {
        if (s.p > 1) {
            using T = Concentrated<Routers, 4>;
            const Fabric<T, Routing> net(T(Routers(s.dims), s.p), allow_deadlock, {}, flow);
            return simulate_on(net, s, pattern, out);
        }
    }
    const Fabric<Routers, Routing> net(Routers(s.dims), allow_deadlock, {}, flow);
    return simulate_on(net, s, pattern, out);
}

template <std::size_t Ports>
int with_hyperx_vcs(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    if (s.routing == "adaptive") return with_hyperx<Ports, 4, HyperXAdaptive>(s, pattern, out);
    return s.vcs == 1 ? with_hyperx<Ports, 1>(s, pattern, out) : with_hyperx<Ports, 2>(s, pattern, out);
}

}  // namespace

int simulate_hyperx(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    detail::require(s.routing == "dor" || s.routing == "adaptive", "routing: a HyperX routes dor (dimension order, "
                    "one hop a dimension) or adaptive (minimal, each hop the differing dimension with the shortest "
                    "queue; a VC a hop); got '", s.routing, "'");
    detail::require(!s.dims.empty() && s.dims.size() <= 4, "dims: a HyperX of 1 to 4 dimensions; got ", s.dims.size());
    long long ports = 0;
    for (const long long k : s.dims) ports += k - 1;
    detail::require(ports <= 64, "dims: a HyperX router here has at most 64 ports, the sum of S_d - 1; got ", ports);
    detail::require(s.p == 1 || ports <= 16, "p: more than one terminal a router is built for HyperX routers of at "
                    "most 16 ports (the sum of S_d - 1); got ", ports);
    return ports <= 16 ? with_hyperx_vcs<16>(s, pattern, out) : with_hyperx_vcs<64>(s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
