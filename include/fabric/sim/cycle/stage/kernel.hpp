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
#include <vector>

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
#include <fabric/sim/cycle/run_figures.hpp>
#include <fabric/sim/cycle/sampler.hpp>
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
    struct Route;
    using Model = StageModel<S, A, Route>;
    using Pk = StagePacket<S>;

    /// Whether the fabric type and allocator are of the kind this kernel models:
    /// credits of one per freed slot on unframed links, the separable allocator,
    /// routes written at the source from the pair alone.
    static constexpr bool kind = stage_switch_v<A> && flow_traits<F>::returns_unit_credits &&
                                 !flow_traits<F>::framed && flow_traits<F>::protocol_flits == 0 &&
                                 (!AdaptiveRouting<R, T> || (SourceAdaptive<R, T> && !HopAdaptive<R, T> &&
                                                             reads_source_router_only<R>())) &&
                                 S::NP <= 64;

    /// Whether this kernel models a run of `cfg` over `links`, with no link set to
    /// fail, err or carry side-band words (`plain`), routes of up to `max_hops`.
    [[nodiscard]] static bool serves(const CycleConfig& cfg, const Links& links, const F& flow, bool plain,
                                     std::uint32_t max_hops) {
        if constexpr (!kind) {
            return false;
        } else {
            // A credit of one cycle counts at once; a longer one (oblivious routes: an adaptive
            // one reads the credits in flight) goes through a list per cycle of up to 64.
            const std::uint32_t credit = flow.feedback_delay();
            return plain && (credit == 1 || (credit > 1 && credit <= 64 && !Route::adaptive)) &&
                   !cfg.feedback_over_link &&
                   cfg.switching == Switching::wormhole && cfg.output_buffer_flits == 0 && !cfg.speculative &&
                   !cfg.wait_for_tail_credit && cfg.class_priority.empty() && !cfg.request_reply.enabled() &&
                   cfg.vc_choice == VcChoice::route &&
                   cfg.max_packet_flits == 0 && !cfg.on_off.enabled() &&
                   !cfg.watch.enabled() && !cfg.track_reorder && cfg.pipeline.vc_allocation >= 1 &&
                   links.max_serialisation() == 1 && links.terminal_serialisation() == 0 &&
                   max_hops + 1 < Pk::capacity;
        }
    }

    /// A Bernoulli run of `loads` (one class) with destinations from `sampler`.
    template <class Sampler>
    static CycleResult run(const Fab& fab, const CycleConfig& given, const Shape& shape, const Links& links,
                           std::uint64_t source_cap, const Sampler& sampler, std::span<const OfferedLoad> loads) {
        CycleConfig cfg = given;  // the run's own: a converging sampler moves its window
        SampledWindow sampled;
        sampled.start(cfg);
        Observer obs;
        obs.classes.configure(cfg.class_priority);
        obs.reset(cfg, shape.terminals);
        const PipelineDelays& pd = cfg.pipeline;
        const StageTiming time{pd.routing, pd.vc_allocation, std::uint64_t{pd.switch_allocation} + pd.switch_traversal,
                               cfg.head_turnaround, cfg.injection_latency, cfg.ejection_latency};
        StageNetwork<S, A> net;
        net.reset(shape, links, fab.flow().buffer_flits(), cfg.injection_queues, time.exit,
                  std::max(time.head_turnaround, time.injection) + time.routing + time.vc_allocation + 1,
                  std::max(time.head_turnaround, time.injection) + time.routing + time.vc_allocation + 1,
                  Route::adaptive, fab.flow().feedback_delay());
        Model m{{&net, Route{&fab}, time, &obs, &cfg, cfg.node_statistics, time.exit + time.ejection}};
        const typename Model::View v = net.view();
        typename StageNetwork<S, A>::Live& live = *v.live;
        // Flits put on links and ejected in the window, counted as differences of running
        // counts taken where the window's first and last moves end (a move at `now` puts
        // its flit on the link at now + exit and ejects it at now + exit + ejection).
        WindowCount on_links(cfg, time.exit), ejected(cfg, time.exit + time.ejection);
        Watchdog watchdog;
        watchdog.reset(cfg.watchdog);
        Random rng(cfg.seed);
        CycleResult& res = obs.res;
        std::uint64_t window_end = 0, stop = 0;
        const auto bounds = [&] {
            window_end = cfg.warmup + cfg.measure;
            const std::uint64_t drain =
                cfg.drain_limit ? cfg.drain_limit : std::max<std::uint64_t>(3 * window_end, 20000);
            stop = std::max<std::uint64_t>(window_end, 1) + drain;
        };
        bounds();
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
                    if (!cfg.source_queue_packets || v.held[n] < cfg.source_queue_packets)
                        return m.create(v, n, dst, size, now, rng);
                    res.flits_refused += size;  // refused: the terminal's source queues are full
                    if (!cfg.in_window(now)) return;
                    res.flits_refused_in_window += size;
                    if (!res.nodes.empty()) {
                        res.nodes[n].flits_offered += size;
                        res.nodes[n].flits_refused += size;
                    }
                });
            // A phase whose list is empty does nothing (a quiet network's cycles cost the calls alone).
            if (v.credit_delay > 1 && v.credits.size(now)) StageNetwork<S, A>::return_credits(v, now);
            if (v.arrivals.size(now)) m.arrive(v, now);
            if (v.va.size(now)) m.allocate_vcs(v, now);
            if (v.sa.size(now)) {
                m.collect_bids(v, now);
                if (live.n_bidding) m.grant_bids(v, now);
            }
            on_links.after(now, [&] { return net.sent(); });
            ejected.after(now, [&] { return res.flits_ejected; });
            const bool watchdog_looks = watchdog.due();
            if (cfg.on_progress && (now & 0x3fff) == 0) {
                const auto t = std::chrono::steady_clock::now();
                if (std::chrono::duration<double>(t - last_report).count() >= cfg.progress_seconds) {
                    last_report = t;
                    cfg.on_progress(CycleProgress{now, stop, res.measured_packets, res.measured_delivered});
                }
            }
            if (sampled.due(cfg, now + 1)) [[unlikely]] {  // a sample period ends: the window may open or close
                if (!sampled.period_over(now + 1, shape.terminals, cfg, SampledWindow::Seen::of(res), res)) {
                    res.drained = false;  // unstable: reported saturated, not drained
                    break;
                }
                if (cfg.warmup == now + 1) {
                    on_links.open(net.sent());
                    ejected.open(res.flits_ejected);
                } else if (cfg.warmup + cfg.measure == now + 1) {
                    on_links.close(net.sent());
                    ejected.close(res.flits_ejected);
                }
                bounds();
            }
            const bool measured_in = res.measured_packets == res.measured_delivered;
            if (now + 1 >= window_end && measured_in) break;
            if (now + 1 >= stop || (now >= window_end && live.queued > queue_bound)) {
                res.drained = measured_in;
                break;
            }
            if (live.queued >= source_cap) {  // the memory limit: stop rather than grow
                res.source_limit_reached = true;
                res.drained = false;
                break;
            }
            if (watchdog_looks) [[unlikely]] {
                const std::uint64_t buffered = net.buffered();
                if (auto report = buffered > 0 ? find_stage_deadlock<S>(v, net.routers(), links, watchdog, now, buffered)
                                               : std::nullopt) {
                    res.deadlock = std::move(report);
                    res.drained = false;
                    break;
                }
            }
        }
        res.flits_in_flight = net.in_flight() + net.buffered();
        res.flits_ejected_in_window = ejected.in_window(res.flits_ejected);
        // Every move puts its flit on a link (counted in its output VC) or out to its
        // terminal (counted as ejected): the moves are their sum, not counted a move.
        const std::vector<std::uint64_t> sent = net.sent();
        res.flit_moves = res.flits_ejected;
        for (const std::uint64_t c : sent) res.flit_moves += c;
        return finish(cfg, shape, obs, on_links.in_window(sent), now + 1);
    }

    /// The routing policy's route into a packet's steps; an adaptive one reads the
    /// source router's queues (`net`: occupancy(node, port)).
    struct Route {
        const Fab* fab;
        static constexpr bool adaptive = AdaptiveRouting<R, T>;
        template <class Out, class Net>
        [[gnu::always_inline]] std::size_t operator()(std::uint32_t src, std::uint32_t dst, std::uint64_t choice,
                                                      Out* out, const Net& net) const {
            if constexpr (adaptive) {
                Hop hops[Pk::capacity];
                const std::size_t len =
                    fab->routing().select_route(fab->topology(), NodeId{src}, NodeId{dst}, choice, hops, net);
                for (std::size_t i = 0; i < len; ++i) out[i] = hops[i];
                return len;
            } else if constexpr (requires { fab->routing().select_route(fab->topology(), NodeId{}, NodeId{}, choice, out); }) {
                return fab->routing().select_route(fab->topology(), NodeId{src}, NodeId{dst}, choice, out);
            } else {
                Hop hops[Pk::capacity];
                const std::size_t len = fab->routing().select_route(fab->topology(), NodeId{src}, NodeId{dst}, choice, hops);
                for (std::size_t i = 0; i < len; ++i) out[i] = hops[i];
                return len;
            }
        }
    };

private:
    /// A running count (or a list of them) and how much of it fell in the measurement
    /// window, for events `delay` cycles after the moves that count them: the count
    /// where the moves before the window end and where the window's last moves end.
    /// A window a converging sampler chooses (warmup SampledWindow::never at the start)
    /// holds the moves between the ends of the periods that open and close it, as the
    /// wake kernel counts them (it asks whether an event is in the window when its move
    /// is made): open() and close() take the count there.
    class WindowCount {
    public:
        WindowCount(const MethodSettings& cfg, std::uint64_t delay)
            : first_(cfg.warmup > delay ? cfg.warmup - delay : 0),
              last_(cfg.warmup + cfg.measure > delay ? cfg.warmup + cfg.measure - delay : 0),
              // none counted until the window's first moves (a run stopped before them counts
              // none), or ever when every such event comes after the window
              none_(first_ > 0 || cfg.warmup + cfg.measure <= delay) {}
        template <class C>
        void open(const C& count) {
            set(before_, count);
            none_ = false;
        }
        template <class C>
        void close(const C& count) {
            set(at_end_, count);
            ended_ = true;
        }
        /// At the end of cycle `now`: what `count()` is then, if that is a bound of the window.
        template <class C>
        void after(std::uint64_t now, C&& count) {
            if (now + 1 == first_) [[unlikely]]
                set(before_, count()), none_ = false;
            if (now + 1 == last_) [[unlikely]]
                set(at_end_, count()), ended_ = true;
        }
        /// What of `count` (its value at the run's end) fell in the window.
        [[nodiscard]] std::uint64_t in_window(std::uint64_t count) const {
            if (none_) return 0;
            return (ended_ ? at_end_[0] : count) - (before_.empty() ? 0 : before_[0]);
        }
        [[nodiscard]] std::vector<std::uint64_t> in_window(const std::vector<std::uint64_t>& count) const {
            std::vector<std::uint64_t> d = ended_ ? at_end_ : count;
            if (none_) d.assign(count.size(), 0);
            for (std::size_t i = 0; i < before_.size() && !none_; ++i) d[i] -= before_[i];
            return d;
        }

    private:
        static void set(std::vector<std::uint64_t>& to, std::uint64_t count) { to.assign(1, count); }
        static void set(std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& count) { to = count; }
        std::uint64_t first_, last_;
        bool none_;
        std::vector<std::uint64_t> before_, at_end_;
        bool ended_ = false;
    };

    /// The figures derived once the run stops after `cycles` cycles (run_figures.hpp).
    static CycleResult finish(const CycleConfig& cfg, const Shape& shape, Observer& obs,
                              const std::vector<std::uint64_t>& sent, std::uint64_t cycles) {
        return derive_figures(cfg, shape, obs, sent, cycles);
    }
};

}  // namespace fabric::cycle
