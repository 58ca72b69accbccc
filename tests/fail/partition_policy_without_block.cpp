// expect: fabric: a partition policy names each router's rank: give it block\(node, nodes, ranks\) const
// A policy that names a rank per router by another name is not one; with block() it is.
#include <fabric/sim/cycle/partition.hpp>

#include <cstdint>

#ifdef FABRIC_MUST_NOT_COMPILE
struct Halves {
    [[nodiscard]] static std::uint32_t rank_of(std::uint32_t node, std::uint32_t nodes, std::uint32_t) {
        return node < nodes / 2 ? 0 : 1;
    }
};
#else
struct Halves {
    [[nodiscard]] static std::uint32_t block(std::uint32_t node, std::uint32_t nodes, std::uint32_t) {
        return node < nodes / 2 ? 0 : 1;
    }
};
#endif

inline void split_in_halves(fabric::cycle::Partition& p) { p.assign(Halves{}, 16, 0, 2); }
