// The hypercube: the binary n-cube, 2^n nodes, node i linked to i XOR 2^d in
// every dimension d < n by one bidirectional link. It is the k-ary n-cube with
// k = 2 (a Mesh<n> of extents 2 has the same links, through twice the port
// slots), named and given its own type because it is a machine of its own
// (the Cosmic Cube, the nCUBE, the Connection Machine) and its routing, e-cube,
// is the textbook case of a deadlock-free routing with one virtual channel.
//
// Ports: port d leads across dimension d (port d of the far end leads back), so
// a node has n ports; MaxDims port slots are kept per node, the ones from n on
// answer no_node. node_count = 2^n, distance = the Hamming distance of the
// ids, diameter = n.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include <boost/hana/tuple.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/translations.hpp>
#include <fabric/link/basic.hpp>

namespace fabric {

/// MaxDims: the port slots per node, the largest n this type takes (per-channel
/// state is sized by it, so it is best exact: Hypercube<6> is the 64-node cube).
template <std::size_t MaxDims, class Link = BasicLink<1>>
class Hypercube {
    static_assert(MaxDims >= 1 && MaxDims <= 30, "fabric: Hypercube<MaxDims> takes 1 to 30 dimensions (2^30 nodes); "
                                                  "choose MaxDims in that range");

public:
    using link_types = boost::hana::tuple<Link>;
    static constexpr std::size_t ports_per_node = MaxDims;

    /// The n-cube, n from 1 to MaxDims (by default MaxDims).
    explicit constexpr Hypercube(std::uint32_t n = MaxDims, Link link = {}) : n_(n), links_(link) {
        detail::require(n_ >= 1 && n_ <= MaxDims, "Hypercube<", MaxDims, "> takes 1 to ", MaxDims,
                        " dimensions; got n = ", n_, (n_ > MaxDims ? "; use a larger MaxDims" : ""));
    }

    [[nodiscard]] constexpr const link_types& links() const { return links_; }
    [[nodiscard]] constexpr std::uint32_t dimensions() const { return n_; }
    [[nodiscard]] constexpr std::size_t node_count() const { return std::size_t{1} << n_; }

    [[nodiscard]] constexpr NodeId neighbour(NodeId node, PortId port) const {
        if (port.value >= n_ || node.value >= node_count()) return no_node;
        return NodeId{node.value ^ (std::uint32_t{1} << port.value)};
    }
    [[nodiscard]] constexpr PortId reverse_port(NodeId, PortId port) const { return port; }
    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId) const { return 0; }

    /// Every bit is translated (adding 1 modulo 2 is XOR): the cube is the same
    /// from every node, and XOR with any mask keeps each port.
    static constexpr bool translation_keeps_ports = true;
    [[nodiscard]] constexpr Translations translations() const {
        Translations group;
        for (std::uint32_t d = 0; d < n_; ++d) group.then(2, true);
        return group;
    }
    [[nodiscard]] static constexpr PortId port_at_representative(NodeId, PortId p) { return p; }

    [[nodiscard]] constexpr std::size_t distance(NodeId a, NodeId b) const {
        return static_cast<std::size_t>(std::popcount(a.value ^ b.value));
    }
    [[nodiscard]] constexpr std::size_t diameter() const { return n_; }

    static constexpr bool is_hypercube = true;

private:
    std::uint32_t n_;
    link_types links_;
};

namespace detail {
template <class T>
inline constexpr bool is_hypercube_v = requires { requires T::is_hypercube; };
}  // namespace detail

}  // namespace fabric
