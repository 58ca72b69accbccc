// FlowControl: the protocol that decides when a flit (or word) may cross a link.
//
// A protocol is a small value with its parameters, validated once. It declares
// which link types it can drive (F::drives<L>), so that a fabric pairing a
// protocol with a link it cannot drive fails to compile. The cycle-level kernel
// asks the protocol, per link, whether the sender may send, and tells it what was
// sent and what the receiver freed; see sim/ for that interface.
#pragma once

#include <concepts>
#include <string_view>

#include <fabric/concepts/link.hpp>

namespace fabric {

template <class F>
concept FlowControl = std::copyable<F> && requires(const F& flow) {
    { F::name } -> std::convertible_to<std::string_view>;
    flow.validate();
};

template <class F, class L>
concept FlowControlFor = FlowControl<F> && LinkType<L> && F::template drives<L>;

}  // namespace fabric
