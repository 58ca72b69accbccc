// BookSim's converging sampler as a component of the cycle kernel: it decides,
// one sample period at a time, when warm-up is over and when the measurement
// window may close, from the mean latency of the packets delivered and the
// flits accepted since its statistics were last cleared.
//
// The rule (BookSim2's TrafficManager::_SingleSim, written anew here):
//   - warm-up: the statistics are cleared before every other period (periods
//     0, 2, 4, ...); after each period the relative changes of the mean latency
//     and of the accepted rate against the previous period are compared with
//     warmup_threshold (or warm-up lasts warmup_periods periods when that is set);
//     when both are within it, measurement starts with cleared statistics;
//   - measurement: the statistics accumulate; a period whose changes are both
//     within stopping_threshold counts towards convergence, any other resets the
//     count; three in a row close the window;
//   - a mean latency above latency_threshold at any period ends the run as
//     unstable (saturated), and max_samples periods in all end it unconverged;
//   - not in BookSim, whose source queues are unbounded: a period in which a
//     source refused a message (its queues held CycleConfig::source_queue_packets)
//     is unstable too, since there the queues, and the latency, would grow.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/result.hpp>

namespace fabric {

namespace cycle {

class ConvergenceSampler {
public:
    /// warming, start_window (the window opens now), measuring: go on; converged
    /// or window_at_limit (max_samples while measuring): the window closes now;
    /// unstable (latency_threshold passed, or max_samples still warming): stop.
    enum class Step : std::uint8_t { warming, start_window, measuring, converged, window_at_limit, unstable };

    explicit ConvergenceSampler(const ConvergingSampling& s) : s_(s) {}

    /// Whether the statistics must be cleared before the next period.
    [[nodiscard]] bool clear_next() const { return clear_next_; }

    /// The statistics after one more period: `latency` the mean over the packets
    /// delivered since the last clear, `accepted` their flits a cycle a node;
    /// `refused`: whether a source refused a message in this period.
    Step observe(double latency, double accepted, bool refused = false) {
        ++periods_;
        const double dl = change(latency, prev_latency_), da = change(accepted, prev_accepted_);
        prev_latency_ = latency;
        prev_accepted_ = accepted;
        clear_next_ = false;
        if (refused || (s_.latency_threshold > 0 && latency > s_.latency_threshold)) return Step::unstable;
        Step step = Step::measuring;
        if (!measuring_) {
            const bool warm = s_.warmup_periods ? periods_ >= s_.warmup_periods
                                                : dl <= s_.warmup_threshold && da <= s_.warmup_threshold;
            if (warm) {
                measuring_ = true;
                clear_next_ = true;
                step = Step::start_window;
            } else {
                clear_next_ = periods_ % 2 == 0;
                step = Step::warming;
            }
        } else {
            converged_ = dl <= s_.stopping_threshold && da <= s_.stopping_threshold ? converged_ + 1 : 0;
            if (converged_ >= 3) return Step::converged;
        }
        if (periods_ >= s_.max_samples) return measuring_ && step != Step::start_window ? Step::window_at_limit
                                                                                        : Step::unstable;
        return step;
    }

    [[nodiscard]] std::uint32_t periods() const { return periods_; }

private:
    /// Relative change against the previous period; the first period (or a zero
    /// figure) counts as a full change, as in BookSim where it divides by zero.
    static double change(double now, double before) {
        if (now == 0) return before == 0 ? 0.0 : 1.0;
        return std::abs(now - before) / now;
    }

    ConvergingSampling s_;
    std::uint32_t periods_ = 0;
    std::uint32_t converged_ = 0;
    double prev_latency_ = 0;
    double prev_accepted_ = 0;
    bool measuring_ = false;
    bool clear_next_ = true;
};

/// The window of one run under a converging sampler: it keeps the cumulative
/// counts of the run's result at the sampler's last clear, and at the end of each
/// period opens or closes the window in the run's configuration (`cfg`, the
/// simulator's own copy, restored after the run).
class SampledWindow {
public:
    static constexpr std::uint64_t never = std::uint64_t{1} << 61;  // a window bound no run reaches

    /// Before a run: with sampling on, no window yet.
    void start(CycleConfig& cfg) {
        sampler_.reset();
        if (!cfg.sampling.enabled()) return;
        sampler_.emplace(cfg.sampling);
        base_ = {};
        refused_ = 0;
        cfg.warmup = never;
        cfg.measure = 1;
    }
    /// Whether cycle `end` closes a sample period of an open question (sampling on, window not closed).
    [[nodiscard]] bool due(const CycleConfig& cfg, std::uint64_t end) const {
        return sampler_ && end % cfg.sampling.sample_period == 0 && cfg.warmup + cfg.measure > end;
    }
    /// What a period's end looks at: the run's counts so far (summed over the
    /// ranks of a partitioned run).
    struct Seen {
        std::uint64_t packets_delivered, delivered_latency_sum, flits_ejected, flits_refused;
        [[nodiscard]] static Seen of(const CycleResult& res) {
            return {res.packets_delivered, res.delivered_latency_sum, res.flits_ejected, res.flits_refused};
        }
    };

    /// The end of a period at cycle `end` (`nodes` nodes), having seen `seen`:
    /// false when the run is unstable and stops.
    bool period_over(std::uint64_t end, std::uint32_t nodes, CycleConfig& cfg, const Seen& seen, CycleResult& res) {
        const double packets = static_cast<double>(seen.packets_delivered - base_.packets);
        const double latency =
            packets > 0 ? static_cast<double>(seen.delivered_latency_sum - base_.latency) / packets : 0;
        const double accepted = static_cast<double>(seen.flits_ejected - base_.flits) /
                                (static_cast<double>(end - base_.since) * nodes);
        using Step = ConvergenceSampler::Step;
        const Step step = sampler_->observe(latency, accepted, seen.flits_refused > refused_);
        refused_ = seen.flits_refused;
        res.sample_periods = sampler_->periods();
        if (sampler_->clear_next()) base_ = {seen.packets_delivered, seen.delivered_latency_sum, seen.flits_ejected, end};
        if (step == Step::unstable) return false;
        if (step == Step::start_window) cfg.warmup = end, cfg.measure = never;
        if (step == Step::converged || step == Step::window_at_limit) {
            cfg.measure = end - cfg.warmup;
            res.sampling_converged = step == Step::converged;
        }
        return true;
    }

private:
    std::optional<ConvergenceSampler> sampler_;
    struct {
        std::uint64_t packets = 0, latency = 0, flits = 0, since = 0;
    } base_;
    std::uint64_t refused_ = 0;  // the run's refused flits at the last period's end
};

}  // namespace cycle
}  // namespace fabric
