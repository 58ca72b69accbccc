// expect: fabric: the extents of a k-ary n-cube are fabric::DynamicExtents or fabric::StaticExtents
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using T = fabric::Torus<2, fabric::BasicLink<2>, int>;
#else
using T = fabric::Torus<2, fabric::BasicLink<2>, fabric::DynamicExtents>;
#endif
static_assert(sizeof(T) > 0);
