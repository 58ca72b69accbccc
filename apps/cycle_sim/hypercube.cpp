// cycle_sim on the binary n-cube under e-cube routing (one VC suffices; a second
// VC per link, with --vcs 2, serves a second injection queue). Two port-slot
// sizes, so that a small cube's routers do not scan twenty empty ports.
#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t MaxDims, std::size_t Vcs>
int with_cube(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using T = Hypercube<MaxDims, BasicLink<Vcs>>;
    const Fabric<T, ECube> net(T(s.n), allow_deadlock, {}, credit_flow(s));  // checked in simulate_on
    return simulate_on(net, s, pattern, out);
}

template <std::size_t MaxDims>
int with_cube_vcs(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    return s.vcs == 1 ? with_cube<MaxDims, 1>(s, pattern, out) : with_cube<MaxDims, 2>(s, pattern, out);
}

}  // namespace

int simulate_hypercube(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    detail::require(s.routing == "ecube" || s.routing == "dor", "routing: a hypercube routes by e-cube (ecube, or dor: "
                    "the same, lowest dimension first); got '", s.routing, "'");
    detail::require(s.n >= 1 && s.n <= 16, "n: a hypercube of 1 to 16 dimensions; got ", s.n);
    return s.n <= 8 ? with_cube_vcs<8>(s, pattern, out) : with_cube_vcs<16>(s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
