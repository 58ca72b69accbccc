// expect: fabric: a static extent of zero is not a network
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<4, 0>>;
#else
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::StaticExtents<4, 1>>;
#endif
static_assert(sizeof(T) > 0);
