// expect: fabric: FatTree<MaxK> takes arity 2 to 32
// A 1-ary tree is a chain of single switches, and 2 x 33 port slots a switch is past
// what the kernel's per-router arrays are sized for.
#include <fabric/topology/fat_tree.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using F = fabric::FatTree<1>;
#else
using F = fabric::FatTree<2>;
#endif
static_assert(sizeof(F) > 0);
}  // namespace
