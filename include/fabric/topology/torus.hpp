// The k-ary n-cube: torus (with wraparound links) and mesh (without), of rank 1
// to 8, with a possibly different extent per dimension.
//
// Ports: port 2d leaves in the + direction of dimension d, port 2d + 1 in the -
// direction. A dimension of extent 1 has no links. On a torus dimension of extent
// 2 the + and the - port both reach the other node, over two distinct channels
// (the wraparound one and the inner one), as in Dally and Towles's counting.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <initializer_list>
#include <ranges>
#include <string_view>

#include <boost/hana/tuple.hpp>

#include <fabric/concepts/link.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/link/basic.hpp>
#include <fabric/topology/extents.hpp>

namespace fabric {

enum class Boundary : std::uint8_t { wrap, open };

namespace detail {
template <class E, std::size_t Rank>
constexpr bool static_rank_matches() {
    if constexpr (is_static_extents_v<E>) return E::rank == Rank;
    else return true;
}
template <class E>
constexpr bool static_extents_positive() {
    if constexpr (is_static_extents_v<E>) {
        for (const auto k : E::values)
            if (k == 0) return false;
    }
    return true;
}
}  // namespace detail

template <std::size_t Rank, LinkType Link = BasicLink<2>, class Extents = DynamicExtents,
          Boundary B = Boundary::wrap>
class KAryNCube {
    static_assert(Rank >= 1 && Rank <= 8, "fabric: a k-ary n-cube has rank 1 to 8; choose Rank in [1, 8]");
    static_assert(std::is_same_v<Extents, DynamicExtents> || detail::is_static_extents_v<Extents>,
                  "fabric: the extents of a k-ary n-cube are fabric::DynamicExtents or fabric::StaticExtents<k...>");
    static_assert(detail::static_rank_matches<Extents, Rank>(),
                  "fabric: StaticExtents must list exactly Rank extents, one per dimension");
    static_assert(detail::static_extents_positive<Extents>(),
                  "fabric: a static extent of zero is not a network; every extent must be at least 1");

public:
    static constexpr std::size_t rank = Rank;
    static constexpr std::size_t ports_per_node = 2 * Rank;
    static constexpr bool wraparound = B == Boundary::wrap;
    static constexpr bool static_extents = detail::is_static_extents_v<Extents>;
    /// Under a dimension-separable policy a dependency cycle lies within one ring
    /// (see routing/channel_dependency.hpp): the deadlock check runs ring by ring.
    static constexpr bool separable_rings = true;
    static constexpr std::string_view kind = wraparound ? "torus" : "mesh";

    using link_type = Link;
    using link_types = boost::hana::tuple<Link>;
    using extents_type = Extents;
    using coord_type = std::array<std::uint32_t, Rank>;

    /// A static-extent topology needs no arguments.
    constexpr KAryNCube() requires static_extents : KAryNCube(Link{}) {}

    constexpr explicit KAryNCube(Link link) requires static_extents : links_(link) {
        if constexpr (static_extents) init(Extents::values);
    }

    /// Run-time extents, one per dimension, each at least 1.
    constexpr KAryNCube(std::initializer_list<long long> extents, Link link = Link{}) requires(!static_extents)
        : links_(link) {
        init_checked(extents);
    }

    template <std::ranges::input_range R>
        requires std::integral<std::ranges::range_value_t<R>> && (!static_extents)
    constexpr explicit KAryNCube(const R& extents, Link link = Link{}) : links_(link) {
        init_checked(extents);
    }

    // --- sizes -----------------------------------------------------------------------
    [[nodiscard]] constexpr std::size_t node_count() const { return nodes_; }
    [[nodiscard]] constexpr std::uint32_t extent(std::size_t d) const {
        if constexpr (static_extents) return Extents::values[d];
        else return k_[d];
    }
    [[nodiscard]] constexpr const coord_type& extents() const { return k_; }
    [[nodiscard]] constexpr std::uint32_t stride(std::size_t d) const { return stride_[d]; }

    // --- links -----------------------------------------------------------------------
    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr const Link& link() const { return boost::hana::at_c<0>(links_); }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId) const { return 0; }

    // --- coordinates -----------------------------------------------------------------
    [[nodiscard]] constexpr coord_type coord(NodeId n) const {
        check_node(n);
        coord_type c{};
        std::uint32_t rest = n.value;
        for (std::size_t d = 0; d < Rank; ++d) {
            c[d] = rest % extent(d);
            rest /= extent(d);
        }
        return c;
    }

    [[nodiscard]] constexpr NodeId node(const coord_type& c) const {
        std::uint32_t id = 0;
        for (std::size_t d = 0; d < Rank; ++d) {
            detail::require(c[d] < extent(d), "coordinate ", c[d], " in dimension ", d, " is out of range; valid: 0 to ",
                            extent(d) - 1);
            id += c[d] * stride_[d];
        }
        return NodeId{id};
    }

    // --- ports -----------------------------------------------------------------------
    static constexpr PortId port(std::size_t dimension, int direction) {
        return PortId{static_cast<std::uint32_t>(2 * dimension + (direction < 0 ? 1 : 0))};
    }
    static constexpr std::size_t port_dimension(PortId p) { return p.value / 2; }
    static constexpr int port_direction(PortId p) { return (p.value & 1U) != 0U ? -1 : +1; }

    /// The node that `port` of `n` reaches, or no_node where there is no link.
    [[nodiscard]] constexpr NodeId neighbour(NodeId n, PortId p) const {
        check_node(n);
        detail::require(p.value < ports_per_node, "port ", p.value, " is out of range; valid: 0 to ",
                        ports_per_node - 1);
        const std::size_t d = port_dimension(p);
        const std::uint32_t k = extent(d);
        if (k == 1) return no_node;
        const std::uint32_t x = (n.value / stride_[d]) % k;
        if (port_direction(p) > 0) {
            if (x + 1 < k) return NodeId{n.value + stride_[d]};
            return wraparound ? NodeId{n.value - x * stride_[d]} : no_node;
        }
        if (x > 0) return NodeId{n.value - stride_[d]};
        return wraparound ? NodeId{n.value + (k - 1) * stride_[d]} : no_node;
    }

    /// The port of neighbour(n, p) whose channel leads back to n: the opposite
    /// direction of the same dimension. It names the input port a flit arrives on.
    static constexpr PortId reverse_port(NodeId, PortId p) { return PortId{p.value ^ 1U}; }

    /// True when the channel (n, p) crosses the wraparound edge of its ring.
    [[nodiscard]] constexpr bool is_wraparound(NodeId n, PortId p) const {
        if constexpr (!wraparound) return false;
        const std::size_t d = port_dimension(p);
        const std::uint32_t x = (n.value / stride_[d]) % extent(d);
        return port_direction(p) > 0 ? x + 1 == extent(d) : x == 0;
    }

    // --- symmetry (concepts/symmetry.hpp) ---------------------------------------------
    /// A torus looks the same from every node: every coordinate is translated,
    /// modulo its extent, and a translation keeps each port (the + port of dimension
    /// d stays that). A mesh's edges make its nodes unlike: it states no symmetry.
    static constexpr bool translation_keeps_ports = wraparound;
    [[nodiscard]] constexpr Translations translations() const requires wraparound {
        Translations group;
        for (std::size_t d = 0; d < Rank; ++d) group.then(extent(d), true);
        return group;
    }
    [[nodiscard]] static constexpr PortId port_at_representative(NodeId, PortId p) requires wraparound { return p; }

    // --- distances -------------------------------------------------------------------
    /// Minimal hops between two positions of a ring (torus) or line (mesh) of extent k.
    static constexpr std::uint32_t ring_distance(std::uint32_t a, std::uint32_t b, std::uint32_t k) {
        const std::uint32_t forward = b >= a ? b - a : b + k - a;
        if constexpr (wraparound) return std::min(forward, k - forward);
        else return a > b ? a - b : b - a;
    }

    [[nodiscard]] constexpr std::size_t distance(NodeId a, NodeId b) const {
        const coord_type ca = coord(a);
        const coord_type cb = coord(b);
        std::size_t hops = 0;
        for (std::size_t d = 0; d < Rank; ++d) hops += ring_distance(ca[d], cb[d], extent(d));
        return hops;
    }

    /// Torus: sum of floor(k/2); mesh: sum of (k - 1).
    [[nodiscard]] constexpr std::size_t diameter() const {
        std::size_t hops = 0;
        for (std::size_t d = 0; d < Rank; ++d) hops += wraparound ? extent(d) / 2 : extent(d) - 1;
        return hops;
    }

    /// Directed channels crossing the cut that halves the largest dimension (the
    /// first one if several tie): N / k channels per direction per cut, two cuts on a
    /// torus ring, one on a mesh line. For odd k the halves differ by one slab.
    [[nodiscard]] constexpr std::size_t bisection_channels() const {
        const std::size_t d = bisection_dimension();
        if (extent(d) < 2) return 0;
        return (nodes_ / extent(d)) * (wraparound ? 2 : 1) * 2;
    }

    /// The dimension the bisection cut halves.
    [[nodiscard]] constexpr std::size_t bisection_dimension() const {
        std::size_t best = 0;
        for (std::size_t d = 1; d < Rank; ++d)
            if (extent(d) > extent(best)) best = d;
        return best;
    }

    /// Number of directed channels that exist (slots with a link).
    [[nodiscard]] constexpr std::size_t channel_count() const {
        std::size_t channels = 0;
        for (std::size_t d = 0; d < Rank; ++d) {
            const std::size_t k = extent(d);
            if (k < 2) continue;
            const std::size_t per_ring = wraparound ? 2 * k : 2 * (k - 1);
            channels += per_ring * (nodes_ / k);
        }
        return channels;
    }

    /// The ring (or line) of dimension d alone, as a rank-1 topology.
    [[nodiscard]] constexpr KAryNCube<1, Link, DynamicExtents, B> ring(std::size_t d) const {
        return KAryNCube<1, Link, DynamicExtents, B>({static_cast<long long>(extent(d))}, link());
    }

    constexpr void check_node(NodeId n) const {
        if (n.value >= nodes_) [[unlikely]]  // the message built only when it is thrown
            detail::require(false, "node id ", n.value, " is out of range; valid: 0 to ", nodes_ - 1);
    }

private:
    template <class R>
    constexpr void init_checked(const R& extents) {
        const auto given = static_cast<std::size_t>(std::ranges::distance(extents));
        detail::require(given == Rank, "a rank-", Rank, " ", kind, " needs ", Rank, " extents; got ", given);
        coord_type k{};
        std::size_t d = 0;
        unsigned long long product = 1;
        for (const auto e : extents) {
            const auto v = static_cast<long long>(e);
            detail::require(v >= 1, "extent of dimension ", d, " must be at least 1; got ", v);
            detail::require(v <= (1LL << 30), "extent of dimension ", d, " is too large; got ", v);
            product *= static_cast<unsigned long long>(v);
            detail::require(product < (1ULL << 31), "a ", kind, " may have at most 2^31 - 1 nodes");
            k[d++] = static_cast<std::uint32_t>(v);
        }
        init(k);
    }

    constexpr void init(const coord_type& k) {
        k_ = k;
        std::uint32_t s = 1;
        for (std::size_t d = 0; d < Rank; ++d) {
            stride_[d] = s;
            s *= k_[d];
        }
        nodes_ = s;
    }

    coord_type k_{};
    coord_type stride_{};
    std::uint32_t nodes_ = 0;
    link_types links_{};
};

/// A k-ary n-cube with wraparound links: `Torus<6, QcdocScu>{{8, 4, 4, 2, 2, 2}}`.
template <std::size_t Rank, LinkType Link = BasicLink<2>, class Extents = DynamicExtents>
using Torus = KAryNCube<Rank, Link, Extents, Boundary::wrap>;

/// A k-ary n-cube without wraparound links.
template <std::size_t Rank, LinkType Link = BasicLink<2>, class Extents = DynamicExtents>
using Mesh = KAryNCube<Rank, Link, Extents, Boundary::open>;

namespace detail {
template <class T>
inline constexpr bool is_kary_ncube_v = [] {
    if constexpr (std::is_same_v<router_network_t<T>, T>) return false;
    else return is_kary_ncube_v<router_network_t<T>>;  // concentrated: its router network
}();
template <std::size_t R, class L, class E, Boundary B>
inline constexpr bool is_kary_ncube_v<KAryNCube<R, L, E, B>> = true;
}  // namespace detail

}  // namespace fabric
