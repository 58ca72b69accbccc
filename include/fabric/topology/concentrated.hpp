// Concentration: several terminals on every router of a topology. The routers, their
// links, distances and routing are the base topology's own; what changes is where
// traffic starts and ends. The cycle kernel gives each terminal its own injection
// port (with its source queues) and its own ejection port, so a router of p
// terminals can take in and deliver p flits a cycle; patterns, offered and accepted
// load and per-node statistics count terminals. Terminal t of router n is terminal
// n * p + t.
//
//     using Df = fabric::Concentrated<fabric::Dragonfly<>, 4>;  // up to 4 a router
//     Df df(fabric::Dragonfly<>(8, 4), 4);                     // p = 4: 1,056 terminals
//
// Every routing policy of the base topology routes the concentrated one (it derives
// from the base and keeps its traits, e.g. is_dragonfly), router to router.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>

namespace fabric {

/// Base: the router network; MaxTerminals: the most terminals a router of this type
/// serves (the kernel's ports are sized by it, so it is best exact).
template <Topology Base, std::size_t MaxTerminals>
class Concentrated : public Base {
    static_assert(MaxTerminals >= 1 && MaxTerminals <= 64, "fabric: Concentrated<Base, MaxTerminals> serves 1 to 64 "
                  "terminals a router; choose MaxTerminals in that range");
    static_assert(!ConcentratedTopology<Base>, "fabric: Concentrated<Base, MaxTerminals> of a topology that is "
                  "already concentrated; concentrate the router network once");

public:
    static constexpr std::size_t max_terminals_per_node = MaxTerminals;
    using router_network = Base;

    /// `terminals` (1 to MaxTerminals, by default MaxTerminals) on each router of `base`.
    explicit Concentrated(Base base, std::uint32_t terminals = MaxTerminals)
        : Base(std::move(base)), terminals_(terminals) {
        detail::require(terminals_ >= 1 && terminals_ <= MaxTerminals, "Concentrated<..., ", MaxTerminals,
                        "> serves 1 to ", MaxTerminals, " terminals a router; got ", terminals_,
                        terminals_ > MaxTerminals ? "; use a larger MaxTerminals" : "");
    }

    [[nodiscard]] constexpr std::uint32_t terminals_per_node() const { return terminals_; }
    [[nodiscard]] constexpr std::size_t terminal_count() const { return this->node_count() * terminals_; }
    /// The router terminal `t` is on, and which of its terminals it is.
    [[nodiscard]] constexpr NodeId terminal_router(std::uint32_t t) const { return NodeId{t / terminals_}; }
    [[nodiscard]] constexpr std::uint32_t terminal_slot(std::uint32_t t) const { return t % terminals_; }

    const Base& routers() const { return *this; }

private:
    std::uint32_t terminals_;
};

}  // namespace fabric
