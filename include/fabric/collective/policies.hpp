// Collectives as policy types (concepts/collective.hpp, CollectiveOn): an
// operation and an algorithm, checked against the catalogue and the topology at
// compile time.
//
//     fabric::Allreduce<fabric::Ring> ring;                        // any topology
//     fabric::Allreduce<fabric::DimensionWise<>> by_dimension;     // a torus, mesh or HyperX
//     fabric::Broadcast<fabric::Hierarchical<fabric::Binomial>> b; // a dragonfly or PERCS
//     const auto g = ring.graph(torus, {.bytes = 1 << 20});        // its workload graph
//
// An operation the algorithm does not do (Alltoall<Ring>) fails to compile, and so
// does graph() on a topology the algorithm does not fit (DimensionWise on a
// dragonfly), each with a fabric: message saying what would; CollectiveOn is false
// for both. The algorithms themselves, their costs and laws: collective/.
#pragma once

#include <cstddef>

#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/shapes.hpp>
#include <fabric/concepts/collective.hpp>
#include <fabric/concepts/topology.hpp>

namespace fabric {

namespace detail {
/// A flat algorithm: the ranks as one line, whatever the topology.
template <collective::Algorithm A>
struct FlatAlgorithm {
    static constexpr collective::Algorithm id = A;
    static constexpr collective::Algorithm inner = collective::Algorithm::ring;
    template <class T>
    static constexpr bool fits = Topology<T>;
    template <class T>
    static constexpr void check() {}
};
}  // namespace detail

struct Ring : detail::FlatAlgorithm<collective::Algorithm::ring> {};
struct RecursiveDoubling : detail::FlatAlgorithm<collective::Algorithm::recursive_doubling> {};
struct RecursiveHalving : detail::FlatAlgorithm<collective::Algorithm::recursive_halving> {};
struct Rabenseifner : detail::FlatAlgorithm<collective::Algorithm::rabenseifner> {};
struct DoubleBinaryTree : detail::FlatAlgorithm<collective::Algorithm::double_binary_tree> {};
struct Bruck : detail::FlatAlgorithm<collective::Algorithm::bruck> {};
struct Pairwise : detail::FlatAlgorithm<collective::Algorithm::pairwise> {};
/// The direct all-to-all (cycle_sim's `direct`): every rank sends its p - 1 blocks at once.
struct AllAtOnce : detail::FlatAlgorithm<collective::Algorithm::direct> {};
struct Binomial : detail::FlatAlgorithm<collective::Algorithm::binomial> {};
struct ScatterAllgather : detail::FlatAlgorithm<collective::Algorithm::scatter_allgather> {};
struct Chain : detail::FlatAlgorithm<collective::Algorithm::chain> {};
struct Dissemination : detail::FlatAlgorithm<collective::Algorithm::dissemination> {};

/// One algorithm along each dimension of a torus, mesh or HyperX in turn (`Inner`:
/// Ring, RecursiveDoubling, Rabenseifner; for a broadcast or reduce Binomial or
/// Chain; a barrier disseminates whatever it is).
template <class Inner = Ring>
struct DimensionWise {
    static constexpr collective::Algorithm id = collective::Algorithm::dimension_wise;
    static constexpr collective::Algorithm inner = Inner::id;
    template <class T>
    static constexpr bool fits = collective::has_dimensions_v<T>;
    template <class T>
    static constexpr void check() {
        static_assert(fits<T>, "fabric: DimensionWise<...> runs along the dimensions of a torus, mesh or HyperX; this "
                               "topology has none: use Hierarchical<...> on a dragonfly or PERCS, or a flat algorithm");
    }
};

/// The dimension-wise algorithm in every direction of every dimension at once, a
/// share of the data each, on ranks of 2d rails (every terminal of a router of a
/// torus or HyperX concentrated 2d to a router).
template <class Inner = Ring>
struct Multiported {
    static_assert(Inner::id == collective::Algorithm::ring, "fabric: Multiported<Inner> runs rings both ways round "
                                                            "each dimension; its inner algorithm is Ring");
    static constexpr collective::Algorithm id = collective::Algorithm::multiported;
    static constexpr collective::Algorithm inner = Inner::id;
    template <class T>
    static constexpr bool fits = collective::has_dimensions_v<T> && max_terminals_v<T> >= 2;
    template <class T>
    static constexpr void check() {
        static_assert(collective::has_dimensions_v<T>, "fabric: Multiported<...> runs along the dimensions of a "
                                                       "torus, mesh or HyperX; this topology has none");
        static_assert(max_terminals_v<T> >= 2, "fabric: Multiported<...> sends by every terminal of a router at "
                                               "once: concentrate the topology, 2 terminals for each dimension "
                                               "(Concentrated<Torus<2>, 4>)");
    }
};

/// Within each group of a dragonfly (its routers) or PERCS (a supernode's hubs),
/// then across the groups, then within again (`Inner` as DimensionWise takes it).
template <class Inner = Ring>
struct Hierarchical {
    static constexpr collective::Algorithm id = collective::Algorithm::hierarchical;
    static constexpr collective::Algorithm inner = Inner::id;
    template <class T>
    static constexpr bool fits = collective::has_groups_v<T>;
    template <class T>
    static constexpr void check() {
        static_assert(fits<T>, "fabric: Hierarchical<...> works within the groups of a dragonfly or the supernodes "
                               "of PERCS, then across them; this topology has neither: use DimensionWise<...> on a "
                               "torus, mesh or HyperX, or a flat algorithm");
    }
};

/// An operation by an algorithm (see the top of the file).
template <collective::Operation Op, class Algorithm>
struct Collective {
    static_assert(collective::supports(Op, Algorithm::id), "fabric: this collective algorithm does not do this "
                  "operation: allreduce takes Ring, RecursiveDoubling, Rabenseifner, DoubleBinaryTree or a composed "
                  "form; allgather Ring, RecursiveDoubling, Bruck; reduce-scatter Ring, RecursiveHalving; broadcast "
                  "and reduce Binomial, ScatterAllgather, Chain; alltoall Pairwise, Bruck, AllAtOnce; barrier "
                  "Dissemination (and each the composed forms DimensionWise, Multiported, Hierarchical where they "
                  "apply)");
    static constexpr collective::Operation operation = Op;
    static constexpr collective::Algorithm algorithm = Algorithm::id;
    template <class T>
    static constexpr bool fits = Algorithm::template fits<T>;

    /// The workload graph of one run for request `r` on `topo`.
    template <Topology T>
    [[nodiscard]] collective::CollectiveGraph graph(const T& topo, const CollectiveRequest& r) const {
        Algorithm::template check<T>();
        if constexpr (fits<T>) return collective::graph_on(topo, Op, Algorithm::id, r, Algorithm::inner);
        else return collective::graph_on(topo, Op, collective::Algorithm::ring, r);  // not reached: check() failed
    }
    /// Its alpha-beta cost for request `r` on `topo` (collective/alpha_beta.hpp).
    template <Topology T>
    [[nodiscard]] double cost(const T& topo, const CollectiveRequest& r, const collective::AlphaBeta& m) const {
        Algorithm::template check<T>();
        return collective::cost(Op, Algorithm::id, collective::shape_of(topo, r, Algorithm::id),
                                collective::Size{r.bytes, r.segments, r.reduce_per_byte, r.root}, m, Algorithm::inner);
    }
};

template <class A>
using Allreduce = Collective<collective::Operation::allreduce, A>;
template <class A>
using Allgather = Collective<collective::Operation::allgather, A>;
template <class A>
using ReduceScatter = Collective<collective::Operation::reduce_scatter, A>;
template <class A>
using Broadcast = Collective<collective::Operation::broadcast, A>;
template <class A>
using Reduce = Collective<collective::Operation::reduce, A>;
template <class A>
using Alltoall = Collective<collective::Operation::alltoall, A>;
template <class A = Dissemination>
using Barrier = Collective<collective::Operation::barrier, A>;

}  // namespace fabric
