// expect: fabric: StaticExtents must list exactly Rank extents, one per dimension
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<4>>;
#else
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<4, 4>>;
#endif
static_assert(sizeof(T) > 0);
