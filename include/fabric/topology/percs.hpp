// The PERCS two-level direct network in the (n_s, n_d) model of Chakaravarthy et
// al., "Mapping Strategies for the PERCS Architecture", section II.
//
// A supernode is 32 hub nodes in 4 drawers of 8. Inside a drawer every pair of
// nodes is joined by an LL link, and (for ease of exposition, as the paper does)
// every node has an LL self-loop: 8 LL links per node. Nodes of different drawers
// of a supernode are joined by LR links: 24 per node. Between every pair of
// supernodes run n_d D links, wired by the bucket template: the nodes of a
// supernode form n_d buckets of W = 32 / n_d nodes (bucket j is nodes jW ..
// jW + W - 1), and in bucket j the D link towards supernode b leaves node
// jW + (b mod W); it lands in b on node jW + (a mod W). Every bucket also has a
// D self-loop (b = a), so each node has h = n_s n_d / 32 D links.
//
// Node ids are global: supernode * 32 + local node. Ports of a node:
//   0 .. 7    LL to the node of the same drawer at that position (own position: self-loop)
//   8 .. 31   LR to the 24 nodes of the other drawers, in increasing local order
//   32 .. 47  D, the m-th D link of the node (towards supernode (u mod W) + m W)
//
// Any other size (the interconnect paper, section VII: Blue Waters has "several
// hundred" supernodes, and "the Hubs in an SN can differ in their D-link
// connections by one") has no whole h, and the bucket template would give some
// hubs two real D links more than others (a hub's self-loop takes a port). There
// the links are dealt round each bucket with no self-loops (Wiring::circulant):
// in bucket j the link from a to b is the o-th, o = (b - a - 1) mod n_s, and
// leaves local node jW + (o mod W) on its (o div W)-th D port; it lands on node
// jW + (((a - b - 1) mod n_s) mod W) of b. A bucket's W hubs hold the n_s - 1
// links in turn, so hubs differ by at most one (ceil or floor of (n_s - 1) / W).
// The all-to-all model of section VII.A (32 d + 1 supernodes, one D link per
// pair, exactly d leaving and d landing on every hub) is that wiring with n_d = 1:
// PercsTopology::alltoall_model(d).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <boost/hana/tuple.hpp>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/link/percs.hpp>

namespace fabric {

class PercsTopology {
public:
    static constexpr std::uint32_t nodes_per_supernode = 32;
    static constexpr std::uint32_t drawers_per_supernode = 4;
    static constexpr std::uint32_t nodes_per_drawer = 8;
    static constexpr std::uint32_t tasks_per_node = 4;  // four POWER7 chips per hub (QCM)
    static constexpr std::uint32_t max_d_ports = 16;    // D ports of a Power 775 hub
    static constexpr std::uint32_t ll_ports = 8;
    static constexpr std::uint32_t lr_ports = 24;
    static constexpr std::size_t ports_per_node = ll_ports + lr_ports + max_d_ports;
    static constexpr std::uint32_t first_lr_port = ll_ports;
    static constexpr std::uint32_t first_d_port = ll_ports + lr_ports;

    enum link_class_index : std::size_t { LL = 0, LR = 1, D = 2 };
    enum class Wiring : std::uint8_t { bucket, circulant };
    using link_types = boost::hana::tuple<PercsLL, PercsLR, PercsD>;

    /// The (n_s, n_d) system. Rules: n_d divides 32, and no hub needs more than 16
    /// D ports. Where h = n_s n_d / 32 is whole, the mapping paper's bucket template
    /// (self-loops included, h D ports a hub); where it is not, the links dealt round
    /// each bucket without self-loops, hubs differing by at most one (dealt()).
    constexpr PercsTopology(std::uint32_t supernodes, std::uint32_t d_links, PercsLL ll = {}, PercsLR lr = {}, PercsD d = {})
        : PercsTopology(supernodes, d_links,
                        std::uint64_t{supernodes} * d_links % nodes_per_supernode == 0 ? Wiring::bucket
                                                                                         : Wiring::circulant,
                        ll, lr, d) {}

    /// The (n_s, n_d) system with its D links dealt round each bucket and no
    /// self-loops, whatever h (section VII's rule: a supernode's hubs differ in
    /// their D links by at most one).
    static constexpr PercsTopology dealt(std::uint32_t supernodes, std::uint32_t d_links, PercsLL ll = {},
                                         PercsLR lr = {}, PercsD d = {}) {
        return PercsTopology(supernodes, d_links, Wiring::circulant, ll, lr, d);
    }

    /// The system of the interconnect paper's all-to-all model: 32 d + 1
    /// supernodes, one D link between each pair, d D links on every hub, no self-loops.
    /// Its hubs have W links (with_w_links): the model's bound is stated against them.
    static PercsTopology alltoall_model(std::uint32_t d, PercsLL ll = PercsLL(GBps{24.0}), PercsLR lr = {},
                                        PercsD dl = {}) {
        detail::require(d >= 1 && d <= max_d_ports, "the all-to-all model needs 1 to 16 D links per hub; got ", d);
        return dealt(nodes_per_supernode * d + 1, 1, ll, lr, dl).with_w_links();
    }

    /// The same system with each node's injection and ejection limited by its W
    /// links (the interconnect paper's hub, section VII.A: 4 x 24 GiB/s = 96 GiB/s a
    /// node). Without them (the mapping paper's model, which counts only LL, LR and
    /// D), injection is not limited.
    [[nodiscard]] constexpr PercsTopology with_w_links(PercsW w = {}) const {
        PercsTopology t = *this;
        t.w_links_ = w;
        t.w_modelled_ = true;
        return t;
    }
    /// The W links of a node together, when modelled (concepts/topology.hpp).
    [[nodiscard]] constexpr NodeLinks node_links() const {
        return w_modelled_ ? NodeLinks{PercsW::name, w_links_.node_bandwidth()} : NodeLinks{PercsW::name, GBps{0.0}};
    }

    // --- sizes -------------------------------------------------------------------------
    [[nodiscard]] constexpr std::uint32_t supernodes() const { return ns_; }
    [[nodiscard]] constexpr std::uint32_t d_links_per_pair() const { return nd_; }
    /// Nodes per bucket, W = 32 / n_d.
    [[nodiscard]] constexpr std::uint32_t bucket_width() const { return w_; }
    /// D ports a hub may use: h = n_s n_d / 32 with the bucket template (self-loops
    /// included); dealt, ceil((n_s - 1) / W), the most any hub holds (d in the
    /// all-to-all model).
    [[nodiscard]] constexpr std::uint32_t d_ports_used() const { return d_ports_; }
    /// The D links local node u holds, self-loop included (any supernode: the
    /// wiring is the same template in each).
    [[nodiscard]] constexpr std::uint32_t d_links_of_local(std::uint32_t u) const {
        std::uint32_t count = 0;
        for (std::uint32_t m = 0; m < d_ports_; ++m) count += d_target(0, u, m) < ns_;
        return count;
    }
    [[nodiscard]] constexpr Wiring wiring() const { return wiring_; }
    /// Whether every bucket has a D self-loop (the bucket template does).
    [[nodiscard]] constexpr bool d_self_loops() const { return wiring_ == Wiring::bucket; }
    [[nodiscard]] constexpr std::size_t node_count() const { return static_cast<std::size_t>(ns_) * nodes_per_supernode; }
    [[nodiscard]] constexpr const link_types& links() const { return links_; }

    // --- node naming -------------------------------------------------------------------
    static constexpr std::uint32_t supernode_of(NodeId n) { return n.value / nodes_per_supernode; }
    static constexpr std::uint32_t local_of(NodeId n) { return n.value % nodes_per_supernode; }
    static constexpr std::uint32_t drawer_of_local(std::uint32_t u) { return u / nodes_per_drawer; }
    static constexpr NodeId node(std::uint32_t supernode, std::uint32_t local) {
        return NodeId{supernode * nodes_per_supernode + local};
    }
    [[nodiscard]] constexpr std::uint32_t bucket_of_local(std::uint32_t u) const { return u / w_; }

    // --- the D wiring -------------------------------------------------------------------
    /// Local node of supernode a whose j-th D link (bucket j) goes to supernode b.
    [[nodiscard]] constexpr std::uint32_t d_source_local(std::uint32_t a, std::uint32_t b, std::uint32_t j) const {
        if (wiring_ == Wiring::circulant) return j * w_ + offset(a, b) % w_;
        return j * w_ + b % w_;
    }
    /// Local node of supernode b where the j-th D link from supernode a lands.
    [[nodiscard]] constexpr std::uint32_t d_landing_local(std::uint32_t a, std::uint32_t b, std::uint32_t j) const {
        if (wiring_ == Wiring::circulant) return j * w_ + offset(b, a) % w_;
        return j * w_ + a % w_;
    }

    // --- ports ---------------------------------------------------------------------------
    /// Port of local node u towards local node v of the same supernode (LL or LR; u == v: LL self-loop).
    static constexpr PortId l_port(std::uint32_t u, std::uint32_t v) {
        const std::uint32_t du = drawer_of_local(u), dv = drawer_of_local(v);
        if (du == dv) return PortId{v % nodes_per_drawer};
        const std::uint32_t rank = dv < du ? dv : dv - 1;  // index of v's drawer among the other three
        return PortId{first_lr_port + rank * nodes_per_drawer + v % nodes_per_drawer};
    }
    /// Port of local node u of supernode a whose D link goes to supernode b (u must hold one).
    [[nodiscard]] constexpr PortId d_port(std::uint32_t a, std::uint32_t u, std::uint32_t b) const {
        if (wiring_ == Wiring::circulant) return PortId{first_d_port + offset(a, b) / w_};
        return PortId{first_d_port + (b - u % w_) / w_};
    }

    [[nodiscard]] constexpr NodeId neighbour(NodeId n, PortId p) const {
        check_node(n);
        detail::require(p.value < ports_per_node, "port ", p.value, " is out of range; valid: 0 to ",
                        ports_per_node - 1);
        const std::uint32_t a = supernode_of(n), u = local_of(n);
        if (p.value < first_lr_port) return node(a, drawer_of_local(u) * nodes_per_drawer + p.value);
        if (p.value < first_d_port) {
            const std::uint32_t k = p.value - first_lr_port;
            std::uint32_t dv = k / nodes_per_drawer;
            if (dv >= drawer_of_local(u)) ++dv;
            return node(a, dv * nodes_per_drawer + k % nodes_per_drawer);
        }
        const std::uint32_t b = d_target(a, u, p.value - first_d_port);
        if (b >= ns_) return no_node;
        return node(b, d_landing_local(a, b, bucket_of_local(u)));
    }

    /// The port of neighbour(n, p) whose link leads back to n (the link's other direction).
    [[nodiscard]] constexpr PortId reverse_port(NodeId n, PortId p) const {
        const std::uint32_t a = supernode_of(n), u = local_of(n);
        const NodeId w = neighbour(n, p);
        const std::uint32_t b = supernode_of(w), v = local_of(w);
        if (p.value < first_d_port) return l_port(v, u);
        return d_port(b, v, a);
    }

    [[nodiscard]] constexpr std::size_t link_class(NodeId, PortId p) const {
        return p.value < first_lr_port ? LL : p.value < first_d_port ? LR : D;
    }

    /// True when the two nodes are joined by one link (a node is not its own neighbour here).
    [[nodiscard]] constexpr bool adjacent(NodeId x, NodeId y) const {
        if (x == y) return false;
        const std::uint32_t a = supernode_of(x), b = supernode_of(y);
        if (a == b) return true;
        const std::uint32_t u = local_of(x), j = bucket_of_local(u);
        return u == d_source_local(a, b, j) && local_of(y) == d_landing_local(a, b, j);
    }

    /// Graph distance (0 to 3 hops).
    [[nodiscard]] constexpr std::size_t distance(NodeId x, NodeId y) const {
        check_node(x);
        check_node(y);
        if (x == y) return 0;
        if (adjacent(x, y)) return 1;
        for (std::uint32_t p = 0; p < ports_per_node; ++p) {
            const NodeId w = neighbour(x, PortId{p});
            if (w.valid() && w != x && adjacent(w, y)) return 2;
        }
        return 3;
    }

    /// 3 with two or more supernodes (a node of a that holds no D link to b reaches
    /// a node of b where no link from a lands in three hops); 2 when n_d = 32.
    [[nodiscard]] constexpr std::size_t diameter() const { return ns_ == 1 ? 1 : nd_ == nodes_per_supernode ? 2 : 3; }

    constexpr void check_node(NodeId n) const {
        detail::require(n.value < node_count(), "node id ", n.value, " is out of range; valid: 0 to ",
                        node_count() - 1);
    }

private:
    constexpr PercsTopology(std::uint32_t supernodes, std::uint32_t d_links, Wiring wiring, PercsLL ll, PercsLR lr, PercsD d)
        : ns_(supernodes), nd_(d_links), wiring_(wiring), links_(ll, lr, d) {
        detail::require(supernodes >= 1, "a PERCS system needs at least 1 supernode; got ", supernodes);
        detail::require(d_links >= 1 && nodes_per_supernode % d_links == 0,
                        "PERCS n_d must divide 32 (1, 2, 4, 8, 16 or 32); got ", d_links);
        w_ = nodes_per_supernode / d_links;
        // In 64 bits: n_s n_d of 32-bit values would wrap (and node numbers repeat).
        const std::uint64_t ports = wiring == Wiring::circulant ? (std::uint64_t{ns_} - 1 + w_ - 1) / w_
                                                                : std::uint64_t{ns_} * nd_ / nodes_per_supernode;
        detail::require(wiring == Wiring::circulant || std::uint64_t{ns_} * nd_ % nodes_per_supernode == 0,
                        "PERCS bucket template: h = n_s * n_d / 32 must be whole; got n_s = ", supernodes,
                        ", n_d = ", d_links);
        detail::require(ports <= max_d_ports, "PERCS hubs have at most 16 D ports; n_s = ", supernodes, ", n_d = ",
                        d_links, " needs ", ports, " (", wiring == Wiring::circulant ? "ceil((n_s - 1) n_d / 32)" :
                        "h = n_s n_d / 32", "): at most ", wiring == Wiring::circulant ? 16 * w_ + 1 : 16 * w_,
                        " supernodes with this n_d");
        d_ports_ = static_cast<std::uint32_t>(ports);
    }

    /// Circulant wiring: the rank of b among the other supernodes as seen from a.
    [[nodiscard]] constexpr std::uint32_t offset(std::uint32_t a, std::uint32_t b) const { return (b + ns_ - a - 1) % ns_; }

    /// Target supernode of the m-th D link of local node u of supernode a, or n_s if none.
    [[nodiscard]] constexpr std::uint32_t d_target(std::uint32_t a, std::uint32_t u, std::uint32_t m) const {
        if (wiring_ == Wiring::circulant) {
            const std::uint32_t o = m * w_ + u % w_;
            return o + 1 < ns_ ? (a + 1 + o) % ns_ : ns_;
        }
        const std::uint32_t b = u % w_ + m * w_;
        return b < ns_ ? b : ns_;
    }

    std::uint32_t ns_;
    std::uint32_t nd_;
    std::uint32_t w_ = 1;
    std::uint32_t d_ports_ = 0;
    Wiring wiring_;
    link_types links_;
    PercsW w_links_{};
    bool w_modelled_ = false;
};

namespace detail {
template <class T>
inline constexpr bool is_percs_v = std::is_same_v<router_network_t<T>, PercsTopology>;
}

}  // namespace fabric
