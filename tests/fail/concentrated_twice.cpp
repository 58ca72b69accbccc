// expect: fabric: Concentrated<Base, MaxTerminals> of a topology that is already concentrated
// A fat tree already serves k terminals on each leaf; concentrating it again would
// number terminals two ways.
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/torus.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using C = fabric::Concentrated<fabric::FatTree<4>, 2>;
#else
using C = fabric::Concentrated<fabric::Torus<2>, 2>;
#endif
static_assert(sizeof(C) > 0);
}  // namespace
