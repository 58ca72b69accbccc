// The topology families cycle_sim runs, each in source files of its own (its
// simulators are the bulk of the tool's build): the options name one.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fabric/mapping/named_pattern.hpp>
#include <fabric/topology/graph.hpp>

#include "../common/output.hpp"
#include "../cycle_sim_settings.hpp"

namespace fabric_apps::cycle_sim {

/// What the run writes: the results (--output) and the files of one run, each
/// opened before the network is built (run.cpp).
struct Outputs {
    OutputFile& result;
    OutputFile channels, nodes, watch;
};
Outputs open_outputs(const RunSettings& s, OutputFile& result);

/// A k-ary n-cube (torus or mesh) of this rank under dimension-order routing (cube.hpp).
template <std::size_t Rank>
int simulate_cube(const RunSettings& s, const fabric::NamedPattern& pattern, Outputs& out);

/// The binary n-cube of --n dimensions under e-cube routing (hypercube.cpp).
int simulate_hypercube(const RunSettings& s, const fabric::NamedPattern& pattern, Outputs& out);

/// A HyperX of extents --dims under dimension-order routing (hyperx.cpp).
int simulate_hyperx(const RunSettings& s, const fabric::NamedPattern& pattern, Outputs& out);

/// A k-ary n-tree (--k, --n) under nearest-common-ancestor routing (fat_tree.cpp).
int simulate_fat_tree(const RunSettings& s, const fabric::NamedPattern& pattern, Outputs& out);

/// A dragonfly (--a, --h, --g, --p) under minimal, Valiant or UGAL routing (dragonfly.cpp).
int simulate_dragonfly(const RunSettings& s, const fabric::NamedPattern& pattern, Outputs& out);

/// The network of --graph FILE, read (graph.cpp).
fabric::GraphDescription read_graph(const RunSettings& s);
/// The terminals of a graph read.
std::uint64_t graph_terminals(const fabric::GraphDescription& d);
/// That network under shortest-path routing, its VCs layered (graph.cpp).
int simulate_graph(const fabric::GraphDescription& d, const RunSettings& s, const fabric::NamedPattern& pattern,
                   Outputs& out);

}  // namespace fabric_apps::cycle_sim
