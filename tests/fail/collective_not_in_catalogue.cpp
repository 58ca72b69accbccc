// expect: fabric: this collective algorithm does not do this operation
// An all-to-all by a ring, which the catalogue does not have; its twin by pairwise exchange.
#include <fabric/collective/policies.hpp>

namespace {
#ifdef FABRIC_MUST_NOT_COMPILE
[[maybe_unused]] fabric::Alltoall<fabric::Ring> a;
#else
[[maybe_unused]] fabric::Alltoall<fabric::Pairwise> a;
#endif
}  // namespace
