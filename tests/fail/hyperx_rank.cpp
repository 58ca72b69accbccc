// expect: fabric: HyperX<MaxRank, Ports> takes 1 to 8 dimensions
// Coordinates are kept in a fixed array of eight; a ninth dimension has no slot.
#include <fabric/topology/hyperx.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
using H = fabric::HyperX<9, 16>;
#else
using H = fabric::HyperX<8, 16>;
#endif
static_assert(sizeof(H) > 0);
}  // namespace
