// expect: fabric: BasicLink needs between 1 and 16 virtual channels
#include <fabric/link/basic.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using L = fabric::BasicLink<17>;
#else
using L = fabric::BasicLink<16>;
#endif
static_assert(L::virtual_channels > 0);
