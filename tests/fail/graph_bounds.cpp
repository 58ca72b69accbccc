// expect: fabric: Graph<Ports, MaxTerminals, Link, Classes> takes 1 to 255 port slots a node
// A graph of no port slots has no links to read; the twin has one.
#include <fabric/topology/graph.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using G = fabric::Graph<0>;
#else
using G = fabric::Graph<1>;
#endif
static_assert(sizeof(G) > 0);
}  // namespace
