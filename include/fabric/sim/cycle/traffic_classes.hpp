// Traffic classes with priorities (BookSim's classes and class_priority): the
// classes of a run, the priority level of each (0 the highest), and what is
// counted per class. A class has its own injection VCs at every node; in VC and
// switch allocation a request of a higher level always wins over one of a lower
// level, round robin among requests of one level.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/statistics.hpp>
#include <fabric/sim/workload.hpp>

namespace fabric {

/// The load one traffic class offers in CycleSimulator::run(pattern, loads):
/// Bernoulli (or on/off) injection at `rate` flits/cycle/node, sizes from `sizes`.
struct OfferedLoad {
    double rate = 0;
    PacketSizes sizes = PacketSizes::fixed(1);
};

namespace cycle {

/// The classes of a run and their counters. With no priorities configured there
/// is one class at level 0 and nothing is counted per class.
class ClassTable {
public:
    /// `priority[c]` is class c's priority, higher first (empty: one class).
    void configure(std::span<const std::uint32_t> priority) {
        detail::require(priority.size() <= max_traffic_classes, "class_priority: at most ", max_traffic_classes,
                        " traffic classes; got ", priority.size());
        counted_ = !priority.empty();
        level_.assign(std::max<std::size_t>(priority.size(), 1), 0);
        std::vector<std::uint32_t> distinct(priority.begin(), priority.end());
        std::sort(distinct.begin(), distinct.end(), [](std::uint32_t a, std::uint32_t b) { return a > b; });
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        levels_ = static_cast<std::uint32_t>(std::max<std::size_t>(distinct.size(), 1));
        for (std::size_t c = 0; c < priority.size(); ++c)
            level_[c] = static_cast<std::uint8_t>(std::find(distinct.begin(), distinct.end(), priority[c]) -
                                                  distinct.begin());
    }
    [[nodiscard]] std::uint32_t count() const { return static_cast<std::uint32_t>(level_.size()); }
    /// Distinct priorities: 1 when allocation need not look at them.
    [[nodiscard]] std::uint32_t levels() const { return levels_; }
    [[nodiscard]] std::uint8_t level(std::uint32_t klass) const { return level_[klass]; }

    void reset() {
        results_.assign(counted_ ? level_.size() : 0, ClassResult{});
        hist_.assign(counted_ ? level_.size() : 0, LatencyHistogram{});
    }
    void created(std::uint32_t klass, std::uint32_t flits, bool in_window, bool measured) {
        if (!counted_) return;
        if (in_window) results_[klass].flits_created_in_window += flits;
        if (measured) ++results_[klass].measured_packets;
    }
    void refused(std::uint32_t klass, std::uint32_t flits) {
        if (counted_) results_[klass].flits_refused_in_window += flits;
    }
    void ejected(std::uint32_t klass, bool in_window) {
        if (counted_ && in_window) ++results_[klass].flits_ejected_in_window;
    }
    void delivered(std::uint32_t klass, std::uint64_t latency) {
        if (!counted_) return;
        ++results_[klass].measured_delivered;
        hist_[klass].add(latency);
    }
    /// Calls f(count) for each per-class count, and h(histogram) for each per-class
    /// latency histogram (the sums over the ranks of a partitioned run).
    template <class F, class H>
    void for_each_counted(F&& f, H&& h) {
        for (ClassResult& r : results_) {
            f(r.measured_packets);
            f(r.measured_delivered);
            f(r.flits_created_in_window);
            f(r.flits_ejected_in_window);
            f(r.flits_refused_in_window);
        }
        for (LatencyHistogram& x : hist_) h(x);
    }

    /// The per-class figures over a window of `node_cycles` node-cycles.
    [[nodiscard]] std::vector<ClassResult> finish(double node_cycles) {
        for (std::size_t c = 0; c < results_.size(); ++c) {
            ClassResult& r = results_[c];
            r.offered = static_cast<double>(r.flits_created_in_window + r.flits_refused_in_window) / node_cycles;
            r.refused = static_cast<double>(r.flits_refused_in_window) / node_cycles;
            r.accepted = static_cast<double>(r.flits_ejected_in_window) / node_cycles;
            r.latency = LatencySummary::of(hist_[c]);
        }
        return std::move(results_);
    }

private:
    std::vector<std::uint8_t> level_ = std::vector<std::uint8_t>(1, 0);  // per class
    std::uint32_t levels_ = 1;
    bool counted_ = false;
    std::vector<ClassResult> results_;
    std::vector<LatencyHistogram> hist_;
};

}  // namespace cycle
}  // namespace fabric
