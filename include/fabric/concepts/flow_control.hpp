// FlowControl: the protocol that decides when a flit (or word) may cross a link.
//
// A protocol is a small value with its parameters, validated once. It declares
// which link types it can drive (F::drives<L>), so that a fabric pairing a
// protocol with a link it cannot drive fails to compile. The cycle-level kernel
// asks the protocol, per link, whether the sender may send, and tells it what was
// sent and what the receiver freed; see sim/ for that interface.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

#include <fabric/concepts/link.hpp>

namespace fabric {

template <class F>
concept FlowControl = std::copyable<F> && requires(const F& flow) {
    { F::name } -> std::convertible_to<std::string_view>;
    flow.validate();
};

namespace detail {
struct feedback_sink {
    constexpr void operator()(std::uint64_t) const {}
};
}  // namespace detail

/// The hooks through which the cycle kernel drives a protocol, per (channel,
/// virtual channel): state at the sending end (sender_vc) and at the receiving end
/// (receiver_vc), and feedback values that reach the sender feedback_delay()
/// cycles after the receiver emits them (flow/credit.hpp documents each hook;
/// flow/traits.hpp lists the optional ones and their defaults).
template <class F>
concept CycleFlowControl = FlowControl<F> && requires(const F& flow, typename F::sender_vc& s,
                                                      typename F::receiver_vc& r, detail::feedback_sink emit) {
    { flow.buffer_flits() } -> std::convertible_to<std::uint32_t>;
    { flow.feedback_delay() } -> std::convertible_to<std::uint64_t>;
    flow.init(s);
    { flow.can_send(s, true, std::uint32_t{1}, false) } -> std::convertible_to<bool>;
    flow.on_send(s);
    flow.on_arrive(r, emit);
    flow.on_free(r, emit);
    flow.on_feedback(s, std::uint64_t{1});
};

/// A protocol that can say when a receiver's buffer holds nothing its sender sent
/// (every credit back): what CycleConfig::wait_for_tail_credit needs.
template <class F>
concept DrainReportingFlow = CycleFlowControl<F> && requires(const F& flow, const typename F::sender_vc& s) {
    { flow.drained(s) } -> std::convertible_to<bool>;
};

/// A protocol that can say how many flits its sender believes wait in the
/// receiver's buffer (for Credit: the credits out): what adaptive routing reads.
template <class F>
concept OccupancyReportingFlow = CycleFlowControl<F> && requires(const F& flow, const typename F::sender_vc& s) {
    { flow.occupied(s) } -> std::convertible_to<std::uint32_t>;
};

template <class F, class L>
concept FlowControlFor = FlowControl<F> && LinkType<L> && F::template drives<L>;

}  // namespace fabric
