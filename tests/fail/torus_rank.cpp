// expect: fabric: a k-ary n-cube has rank 1 to 8
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using T = fabric::Torus<9>;
#else
using T = fabric::Torus<8>;
#endif
static_assert(sizeof(T) > 0);
