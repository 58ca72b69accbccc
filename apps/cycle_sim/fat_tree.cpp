// cycle_sim on the k-ary n-tree (topology/fat_tree.hpp; k terminals a leaf switch)
// under nearest-common-ancestor routing, oblivious (nca) or adaptive on the way up
// (adaptive), one VC (or four under nca, for --vc-choice any). Two port-slot sizes, so that a 4-ary tree's switches do not
// scan the empty ports of an 8-ary one.
#include "run.hpp"

namespace fabric_apps::cycle_sim {
namespace {

template <std::size_t MaxK, class Routing, class Link = BasicLink<1>>
int with_tree(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    using T = FatTree<MaxK, Link>;
    const Fabric<T, Routing> net(T(s.k, s.n), allow_deadlock, {}, credit_flow(s));  // checked in simulate_on
    return simulate_on(net, s, pattern, out);
}

template <class Routing>
int with_tree_routing(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    return s.k <= 4 ? with_tree<4, Routing>(s, pattern, out) : with_tree<8, Routing>(s, pattern, out);
}

}  // namespace

int simulate_fat_tree(const RunSettings& s, const NamedPattern& pattern, Outputs& out) {
    detail::require(s.routing == "nca" || s.routing == "adaptive", "routing: a fat tree routes nca (to the nearest "
                    "common ancestor by random up ports, then down) or adaptive (each up port the least occupied); "
                    "got '", s.routing, "'");
    detail::require(s.k >= 2 && s.k <= 8 && s.n >= 1 && s.n <= 8, "k, n: a k-ary n-tree of arity 2 to 8 and 1 to 8 "
                    "levels; got k = ", s.k, ", n = ", s.n);
    std::uint64_t terminals = 1;
    for (std::uint32_t l = 0; l < s.n; ++l) terminals *= s.k;
    detail::require(terminals <= 65536, "k, n: at most 65,536 terminals (k^n); k = ", s.k, ", n = ", s.n, " make ",
                    terminals);
    // --vcs 2 is the option's default: the one VC nca needs. 4: BookSim's fat trees of 4 VCs, taken any a hop.
    detail::require(s.vcs == 2 || (s.vcs == 4 && s.routing == "nca" && s.k <= 4), "vcs: a fat tree routes up, then "
                    "down, deadlock free on one VC; leave out --vcs, or give 4 (k up to 4, nca) for four VCs a link "
                    "(with --vc-choice any, BookSim's num_vcs = 4); got ", s.vcs);
    if (s.vcs == 4) return with_tree<4, FatTreeNca, BasicLink<4>>(s, pattern, out);
    return s.routing == "nca" ? with_tree_routing<FatTreeNca>(s, pattern, out)
                              : with_tree_routing<FatTreeAdaptiveUp>(s, pattern, out);
}

}  // namespace fabric_apps::cycle_sim
