// expect: fabric: a run of a list is called as job\(std::size_t index\) and gives a result that can cross MPI ranks
// A result holding a pointer to heap data it owns cannot cross ranks as bytes; one of numbers can.
#include <fabric/dist/list.hpp>

#include <memory>

#ifdef FABRIC_MUST_NOT_COMPILE
struct Result {
    std::unique_ptr<int> owned;
};
#else
struct Result {
    int value = 0;
};
#endif

inline auto results = [] { return fabric::dist::serial_list(3, [](std::size_t) { return Result{}; }); };
