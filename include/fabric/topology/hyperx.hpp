// HyperX (Ahn, Binkert, Davis, McLaren and Schreiber, SC09), the flattened
// butterfly's generalisation: routers on an L-dimensional grid of extents S_0 ..
// S_{L-1}, every router linked directly to every other router that differs from
// it in one coordinate (all-to-all within each dimension), one link each. A node
// of this topology is a router with one terminal (node id = sum of x_d times the
// product of the extents below d, dimension 0 fastest).
//
// Ports: dimension d has S_d - 1 ports from base(d) = sum of S_e - 1 for e < d;
// port base(d) + k leads to coordinate k of dimension d when k < x_d, else to k +
// 1 (the router's own coordinate is skipped). Ports past the last dimension's
// answer no_node. distance = the number of differing coordinates; diameter = the
// number of dimensions of extent above 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/hana/tuple.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/link/basic.hpp>

namespace fabric {

/// MaxRank: the most dimensions; Ports: port slots per router, at least the sum
/// of S_d - 1 (per-channel state is sized by it, so it is best exact).
template <std::size_t MaxRank, std::size_t Ports, class Link = BasicLink<1>>
class HyperX {
    static_assert(MaxRank >= 1 && MaxRank <= 8, "fabric: HyperX<MaxRank, Ports> takes 1 to 8 dimensions; set MaxRank to the number of extents you pass, at most 8");
    static_assert(Ports >= 1, "fabric: HyperX<MaxRank, Ports> needs at least one port slot a router; set Ports to the sum of S_d - 1 over the dimensions");

public:
    using link_types = boost::hana::tuple<Link>;
    static constexpr std::size_t ports_per_node = Ports;
    static constexpr std::size_t max_rank = MaxRank;
    static constexpr bool is_hyperx = true;

    /// The extents S_0 .. S_{L-1}, each at least 1, L at most MaxRank.
    constexpr explicit HyperX(const std::vector<long long>& extents, Link link = {}) : links_(link) {
        detail::require(!extents.empty() && extents.size() <= MaxRank, "HyperX<", MaxRank, ", ", Ports, "> takes 1 to ",
                        MaxRank, " extents; got ", extents.size());
        std::size_t nodes = 1, ports = 0;
        for (std::size_t d = 0; d < extents.size(); ++d) {
            detail::require(extents[d] >= 1 && extents[d] <= (1LL << 16), "a HyperX extent is 1 to 65536; got ",
                            extents[d], " in dimension ", d);
            const auto s = static_cast<std::uint32_t>(extents[d]);
            extent_[d] = s;
            stride_[d] = static_cast<std::uint32_t>(nodes);
            base_[d] = static_cast<std::uint32_t>(ports);
            nodes *= s;
            ports += s - 1;
            detail::require(nodes <= (std::size_t{1} << 30), "a HyperX of at most 2^30 routers; the extents make more");
        }
        detail::require(ports <= Ports, "HyperX<", MaxRank, ", ", Ports, "> has ", Ports, " port slots, fewer than the ",
                        ports, " the extents need (the sum of S_d - 1); use HyperX<", MaxRank, ", ", ports, ">");
        rank_ = static_cast<std::uint32_t>(extents.size());
        nodes_ = nodes;
        ports_used_ = static_cast<std::uint32_t>(ports);
    }

    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr std::size_t node_count() const { return nodes_; }
    [[nodiscard]] constexpr std::uint32_t rank() const { return rank_; }
    [[nodiscard]] constexpr std::uint32_t extent(std::size_t d) const { return extent_[d]; }
    [[nodiscard]] constexpr std::uint32_t coordinate(NodeId n, std::size_t d) const {
        return n.value / stride_[d] % extent_[d];
    }
    /// The dimension port p belongs to (p below the ports in use).
    [[nodiscard]] constexpr std::uint32_t dimension_of(PortId p) const {
        std::uint32_t d = 0;
        while (d + 1 < rank_ && p.value >= base_[d + 1]) ++d;
        return d;
    }
    /// The port of `n` leading to coordinate `c` of dimension d (c != its own).
    [[nodiscard]] constexpr PortId port_to(NodeId n, std::size_t d, std::uint32_t c) const {
        return PortId{base_[d] + (c < coordinate(n, d) ? c : c - 1)};
    }
    /// The router `n` with coordinate d set to c.
    [[nodiscard]] constexpr NodeId with_coordinate(NodeId n, std::size_t d, std::uint32_t c) const {
        return NodeId{n.value - coordinate(n, d) * stride_[d] + c * stride_[d]};
    }

    [[nodiscard]] constexpr NodeId neighbour(NodeId n, PortId p) const {
        if (p.value >= ports_used_ || n.value >= nodes_) return no_node;
        const std::uint32_t d = dimension_of(p), k = p.value - base_[d], own = coordinate(n, d);
        return with_coordinate(n, d, k < own ? k : k + 1);
    }
    [[nodiscard]] constexpr PortId reverse_port(NodeId n, PortId p) const {
        const std::uint32_t d = dimension_of(p);
        return port_to(neighbour(n, p), d, coordinate(n, d));
    }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId) const { return 0; }

    /// Every coordinate is translated, modulo its extent (each dimension is a
    /// complete graph, so any cyclic shift of it keeps its links). The translation
    /// taking n to router 0 maps the port to coordinate c of dimension d to the
    /// port of router 0 to c - x_d.
    [[nodiscard]] constexpr Translations translations() const {
        Translations group;
        for (std::uint32_t d = 0; d < rank_; ++d) group.then(extent_[d], true);
        return group;
    }
    [[nodiscard]] constexpr PortId port_at_representative(NodeId n, PortId p) const {
        if (p.value >= ports_used_) return p;
        const std::uint32_t d = dimension_of(p), k = p.value - base_[d], own = coordinate(n, d);
        const std::uint32_t to = k < own ? k : k + 1;
        return PortId{base_[d] + (to + extent_[d] - own) % extent_[d] - 1};
    }

    [[nodiscard]] constexpr std::size_t distance(NodeId a, NodeId b) const {
        std::size_t differ = 0;
        for (std::uint32_t d = 0; d < rank_; ++d) differ += coordinate(a, d) != coordinate(b, d);
        return differ;
    }
    [[nodiscard]] constexpr std::size_t diameter() const {
        std::size_t dims = 0;
        for (std::uint32_t d = 0; d < rank_; ++d) dims += extent_[d] > 1;
        return dims;
    }

private:
    std::array<std::uint32_t, MaxRank> extent_{}, stride_{}, base_{};
    std::uint32_t rank_ = 0, ports_used_ = 0;
    std::size_t nodes_ = 0;
    link_types links_;
};

namespace detail {
template <class T>
inline constexpr bool is_hyperx_v = requires { requires T::is_hyperx; };
}  // namespace detail

}  // namespace fabric
