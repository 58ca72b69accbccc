// Route selection on the PERCS hub, per packet (Arimilli et al., section VI):
//  - direct: one of the n_d shortest L-D-L routes;
//  - software: the sender names the intermediate supernode (L-D-L-D-L through it);
//  - round robin: the hub cycles, for each source, through all routes of the
//    pair, direct and indirect;
//  - random: the hub picks one of the indirect routes at random.
// Each packet gets its mode from a mix: the first bits of the packet's random
// choice pick a mode in the proportions given, the rest pick the route. Inside a
// supernode, routes are striped as in PercsDirect.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <fabric/routing/percs.hpp>

namespace fabric {

enum class PercsMode : std::uint8_t { direct = 0, software = 1, round_robin = 2, random_indirect = 3 };

struct PercsModeMix {
    std::array<double, 4> weight{1, 0, 0, 0};  // direct, software, round robin, random indirect
    static PercsModeMix only(PercsMode m) {
        PercsModeMix mix{{0, 0, 0, 0}};
        mix.weight[static_cast<std::size_t>(m)] = 1;
        return mix;
    }
};

template <class Chooser = NextSupernode>
class PercsHubRouting : public detail::percs_routing_base<IntraRoute::striped, ZeroHop::skip> {
    using base = detail::percs_routing_base<IntraRoute::striped, ZeroHop::skip>;

public:
    template <class T>
    static constexpr auto vcs_required = detail::percs_vcs<T>(3, 2);

    explicit PercsHubRouting(PercsModeMix mix = {}, Chooser chooser = {}) : mix_(mix) {
        via_.choose = chooser;
        double total = 0;
        for (const double w : mix_.weight) {
            detail::require(w >= 0, "route-mode weights must not be negative");
            total += w;
        }
        detail::require(total > 0, "at least one route mode needs a positive weight");
        for (auto& w : mix_.weight) w /= total;
    }

    /// The mode a packet with random `choice` uses.
    [[nodiscard]] PercsMode mode_of(std::uint64_t choice) const {
        const double u = static_cast<double>(choice >> 40) / static_cast<double>(std::uint64_t{1} << 24);
        double acc = 0;
        for (std::size_t m = 0; m < 4; ++m) {
            acc += mix_.weight[m];
            if (u < acc) return static_cast<PercsMode>(m);
        }
        return PercsMode::random_indirect;
    }

    /// Every route with its fraction of the pair's traffic under the mix (round
    /// robin spreads evenly over all routes in the long run).
    template <class F>
    void for_each_route(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        const double wd = mix_.weight[0], ws = mix_.weight[1], wr = mix_.weight[2], wi = mix_.weight[3];
        if (PercsTopology::supernode_of(src) == PercsTopology::supernode_of(dst)) {
            direct_.for_each_route(t, src, dst, f);
            return;
        }
        const double routes = static_cast<double>(t.d_links_per_pair()) * (1.0 + t.supernodes());
        const double direct_share = wd + wr * t.d_links_per_pair() / routes;
        const double indirect_share = wi + wr * (t.d_links_per_pair() * static_cast<double>(t.supernodes())) / routes;
        if (direct_share > 0)
            direct_.for_each_route(t, src, dst, [&](std::span<const Hop> h, double w) { f(h, w * direct_share); });
        if (indirect_share > 0)
            indirect_.for_each_route(t, src, dst, [&](std::span<const Hop> h, double w) { f(h, w * indirect_share); });
        if (ws > 0) via_.for_each_route(t, src, dst, [&](std::span<const Hop> h, double w) { f(h, w * ws); });
    }
    template <class F>
    void for_each_hop(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        hops_of_routes(*this, t, src, dst, f);
    }

    std::size_t select_route(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        return select(t, src, dst, choice, out, {});
    }
    std::size_t select_route(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out,
                             std::span<const std::uint8_t> broken) const {
        return select(t, src, dst, choice, out, broken);
    }

private:
    std::size_t select(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out,
                       std::span<const std::uint8_t> broken) const {
        auto pick = [&](const auto& policy, std::uint64_t c) {
            return broken.empty() ? policy.select_route(t, src, dst, c, out)
                                  : policy.select_route(t, src, dst, c, out, broken);
        };
        if (PercsTopology::supernode_of(src) == PercsTopology::supernode_of(dst)) return pick(direct_, choice);
        switch (mode_of(choice)) {
            case PercsMode::direct: return pick(direct_, choice);
            case PercsMode::software: return pick(via_, choice);
            case PercsMode::random_indirect: return pick(indirect_, choice);
            case PercsMode::round_robin: {
                // Per source, the next of the pair's n_d direct and n_s n_d indirect routes.
                if (counters_->size() < t.node_count()) counters_->assign(t.node_count(), 0);
                const std::uint64_t k = (*counters_)[src.value]++;
                const std::uint64_t direct_routes = t.d_links_per_pair();
                const std::uint64_t all = direct_routes * (1 + t.supernodes());
                const std::uint64_t r = k % all;
                return r < direct_routes ? pick(direct_, r) : pick(indirect_, r - direct_routes);
            }
        }
        return 0;
    }

    PercsModeMix mix_;
    Direct direct_{};
    Indirect indirect_{};
    PercsIndirectVia<Chooser> via_;
    // Round-robin state: the one thing a routing decision changes. Shared so that
    // copies of the policy (the fabric holds one) keep a single sequence.
    std::shared_ptr<std::vector<std::uint64_t>> counters_ = std::make_shared<std::vector<std::uint64_t>>();
};

/// A routing policy with its virtual channels capped: a hop keeps its class and
/// gets min(its VC, cap - 1). For showing what fewer VCs do to the dependency graph.
template <class Policy, std::size_t LVcs, std::size_t DVcs>
struct PercsVcCap : Policy {
    static constexpr bool vc_levels_increase = false;  // no longer by construction: check it
    template <class T>
    static constexpr auto vcs_required = detail::percs_vcs<T>(LVcs, DVcs);

    static Hop cap(const PercsTopology& t, Hop h) {
        const std::size_t limit = t.link_class(h.node, h.port) == PercsTopology::D ? DVcs : LVcs;
        if (h.vc >= limit) h.vc = static_cast<std::uint8_t>(limit - 1);
        return h;
    }
    template <class F>
    void for_each_route(const PercsTopology& t, NodeId src, NodeId dst, F&& f) const {
        Policy::for_each_route(t, src, dst, [&](std::span<const Hop> hops, double w) {
            std::array<Hop, 8> capped{};
            for (std::size_t i = 0; i < hops.size(); ++i) capped[i] = cap(t, hops[i]);
            f(std::span<const Hop>(capped.data(), hops.size()), w);
        });
    }
    std::size_t select_route(const PercsTopology& t, NodeId src, NodeId dst, std::uint64_t choice, Hop* out) const {
        const std::size_t n = Policy::select_route(t, src, dst, choice, out);
        for (std::size_t i = 0; i < n; ++i) out[i] = cap(t, out[i]);
        return n;
    }
    /// The policy's turns with their VCs capped, where it names them.
    template <class F>
        requires requires(const Policy& p, const PercsTopology& t) { p.for_each_turn(t, [](const Hop&, const Hop&) {}); }
    void for_each_turn(const PercsTopology& t, F&& f) const {
        Policy::for_each_turn(t, [&](const Hop& from, const Hop& to) { f(cap(t, from), cap(t, to)); });
    }
};

}  // namespace fabric
