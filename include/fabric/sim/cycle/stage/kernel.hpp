// A fabric type's stage-list kernel (model.hpp, for the fabric's topology
// constants) and its run: the phases of a cycle in the wake kernel's order
// (run.hpp), with what ends a run looked at in the same way, so that every figure
// is that kernel's. It serves the runs whose configuration it models (serves());
// the simulator gives the others to the wake kernel.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/fabric.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/core/random.hpp>
#include <fabric/flow/traits.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/stage/deadlock.hpp>
#include <fabric/sim/cycle/stage/model.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/watchdog.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric::cycle {

template <class Fab, class A>
class StageKernel {
public:
    using T = typename Fab::topology_type;
    using R = typename Fab::routing_type;
    using F = typename Fab::flow_type;
    using S = StaticShape<T>;
    using Model = StageModel<S>;
    using Pk = typename Model::Pk;

    /// Whether the fabric type and allocator are of the kind this kernel models:
    /// credits of one per freed slot on unframed links, the separable allocator,
    /// routes written at the source from the pair alone.
    static constexpr bool kind = std::is_same_v<A, SeparableSwitch> && flow_traits<F>::returns_unit_credits &&
                                 !flow_traits<F>::framed && flow_traits<F>::protocol_flits == 0 &&
                                 !AdaptiveRouting<R, T> && S::NP <= 64;

    /// Whether this kernel models a run of `cfg` over `links`, with no link set to
    /// fail, err or carry side-band words (`plain`), routes of up to `max_hops`.
    [[nodiscard]] static bool serves(const CycleConfig& cfg, const Links& links, const F& flow, bool plain,
                                     std::uint32_t max_hops) {
        if constexpr (!kind) {
            return false;
        } else {
            return plain && flow.feedback_delay() == 1 && !cfg.feedback_over_link &&
                   cfg.switching == Switching::wormhole && cfg.output_buffer_flits == 0 && !cfg.speculative &&
                   !cfg.wait_for_tail_credit && cfg.class_priority.empty() && !cfg.request_reply.enabled() &&
                   cfg.max_packet_flits == 0 && !cfg.on_off.enabled() && !cfg.sampling.enabled() &&
                   !cfg.watch.enabled() && !cfg.track_reorder && cfg.pipeline.vc_allocation >= 1 &&
                   links.max_serialisation() == 1 && links.terminal_serialisation() == 0 &&
                   max_hops + 1 < Pk::capacity;
        }
    }

    /// A Bernoulli run of `loads` (one class) with destinations from `sampler`.
    template <class Sampler>
    static CycleResult run(const Fab& fab, const CycleConfig& cfg, const Shape& shape, const Links& links,
                           std::uint64_t source_cap, const Sampler& sampler, std::span<const OfferedLoad> loads) {
        Model m;
        Observer obs;
        obs.classes.configure(cfg.class_priority);
        obs.reset(cfg, shape.terminals);
        m.obs = &obs;
        m.window = &cfg;
        m.node_statistics = cfg.node_statistics;
        const PipelineDelays& pd = cfg.pipeline;
        m.time = {pd.routing, pd.vc_allocation, std::uint64_t{pd.switch_allocation} + pd.switch_traversal,
                  cfg.head_turnaround, cfg.injection_latency, cfg.ejection_latency};
        m.net.reset(shape, links, fab.flow().buffer_flits(), cfg.injection_queues, m.time.exit,
                    std::max(m.time.head_turnaround, m.time.injection) + m.time.routing + 1, m.time.vc_allocation + 1);
        Route route{&fab};
        Watchdog watchdog;
        watchdog.reset(cfg.watchdog);
        Random rng(cfg.seed);
        CycleResult& res = obs.res;
        const std::uint64_t window_end = cfg.warmup + cfg.measure;
        const std::uint64_t drain = cfg.drain_limit ? cfg.drain_limit : std::max<std::uint64_t>(3 * window_end, 20000);
        const std::uint64_t stop = std::max<std::uint64_t>(window_end, 1) + drain;
        const std::uint64_t queue_bound = cfg.max_queued_per_node * shape.terminals;
        BernoulliArrivals arrivals(shape.terminals, loads[0].rate / loads[0].sizes.mean());
        const PacketSizes sizes = loads[0].sizes;
        auto last_report = std::chrono::steady_clock::now();
        std::uint64_t now = 0;
        for (;; ++now) {
            arrivals.step(
                now, rng, [&](std::uint32_t n) { return sampler.sends(n); },
                [&](std::uint32_t n) {
                    const auto dst = static_cast<std::uint32_t>(sampler(n, rng));
                    const std::uint32_t size = sizes.draw(rng);
                    if (!cfg.source_queue_packets || held(m, n) < cfg.source_queue_packets)
                        return m.create(n, dst, size, now, rng, route);
                    res.flits_refused += size;  // refused: the terminal's source queues are full
                    if (!cfg.in_window(now)) return;
                    res.flits_refused_in_window += size;
                    if (!res.nodes.empty()) {
                        res.nodes[n].flits_offered += size;
                        res.nodes[n].flits_refused += size;
                    }
                });
            m.arrive(now);
            m.allocate_vcs(now);
            m.collect_bids(now);
            m.grant_bids(now, [&](std::uint32_t r, std::uint32_t l) { m.move(r, l, now, route); });
            const bool watchdog_looks = watchdog.due();
            if (cfg.on_progress && (now & 0x3fff) == 0) {
                const auto t = std::chrono::steady_clock::now();
                if (std::chrono::duration<double>(t - last_report).count() >= cfg.progress_seconds) {
                    last_report = t;
                    cfg.on_progress(CycleProgress{now, stop, res.measured_packets, res.measured_delivered});
                }
            }
            const bool measured_in = res.measured_packets == res.measured_delivered;
            if (now + 1 >= window_end && measured_in) break;
            if (now + 1 >= stop || (now >= window_end && m.net.queued > queue_bound)) {
                res.drained = measured_in;
                break;
            }
            if (m.net.queued >= source_cap) {  // the memory limit: stop rather than grow
                res.source_limit_reached = true;
                res.drained = false;
                break;
            }
            if (watchdog_looks && m.net.buffered > 0) {
                if (auto report = find_stage_deadlock(m.net, links, watchdog, now, m.net.buffered)) {
                    res.deadlock = std::move(report);
                    res.drained = false;
                    break;
                }
            }
        }
        res.flits_in_flight = m.net.in_flight + m.net.buffered;
        return finish(cfg, shape, obs, m.net.sent, now + 1);
    }

private:
    /// The routing policy's route into a packet's steps.
    struct Route {
        const Fab* fab;
        template <class Out>
        [[gnu::always_inline]] std::size_t operator()(std::uint32_t src, std::uint32_t dst, std::uint64_t choice,
                                                      Out* out) const {
            if constexpr (requires { fab->routing().select_route(fab->topology(), NodeId{}, NodeId{}, choice, out); }) {
                return fab->routing().select_route(fab->topology(), NodeId{src}, NodeId{dst}, choice, out);
            } else {
                Hop hops[Pk::capacity];
                const std::size_t len = fab->routing().select_route(fab->topology(), NodeId{src}, NodeId{dst}, choice, hops);
                for (std::size_t i = 0; i < len; ++i) out[i] = hops[i];
                return len;
            }
        }
    };

    /// Packets waiting in the source queues of terminal t.
    static std::uint32_t held(const Model& m, std::uint32_t t) {
        std::uint32_t n = 0;
        for (std::uint32_t q = 0; q < m.net.queues; ++q)
            n += static_cast<std::uint32_t>(m.net.source[std::size_t{t} * m.net.queues + q].size());
        return n;
    }

    /// The figures derived once the run stops after `cycles` cycles (as run.hpp's finish_run).
    static CycleResult finish(const CycleConfig& cfg, const Shape& shape, Observer& obs,
                              const std::vector<std::uint64_t>& sent, std::uint64_t cycles) {
        CycleResult& res = obs.res;
        res.cycles = cycles;
        res.window_start = std::min(cfg.warmup, cycles);
        res.window_cycles = std::min(cfg.measure, cycles - res.window_start);
        const auto window = static_cast<double>(
            std::max<std::uint64_t>(1, std::min(cfg.measure, cycles > cfg.warmup ? cycles - cfg.warmup : 0)));
        const double window_node_cycles = window * shape.terminals;
        res.offered = static_cast<double>(res.flits_created_in_window + res.flits_refused_in_window) / window_node_cycles;
        res.refused = static_cast<double>(res.flits_refused_in_window) / window_node_cycles;
        res.accepted = static_cast<double>(res.flits_ejected_in_window) / window_node_cycles;
        res.saturated = !res.drained || res.accepted < 0.95 * res.offered;
        res.latency = LatencySummary::of(obs.latency);
        res.network_latency = LatencySummary::of(obs.network);
        res.hops_mean = res.measured_delivered
                            ? static_cast<double>(res.measured_hops) / static_cast<double>(res.measured_delivered)
                            : 0.0;
        res.message_latency = LatencySummary::of(obs.message);
        res.transaction_latency = LatencySummary::of(obs.transaction);
        res.ports_per_node = shape.ports;
        res.terminals_per_node = shape.per_node;
        res.terminals = shape.terminals;
        res.classes = obs.classes.finish(window_node_cycles);
        res.channel_utilisation.resize(sent.size());
        for (std::size_t c = 0; c < sent.size(); ++c) res.channel_utilisation[c] = static_cast<double>(sent[c]) / window;
        return std::move(res);
    }
};

}  // namespace fabric::cycle
