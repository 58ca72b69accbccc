// What the flow-level kernel returns (sim/link_load.hpp): every channel's load and,
// per link class, the maximum load, the busiest channel, the channels, the total
// and the throughput the maximum allows. Both of the kernel's ways to the loads,
// pair by pair and by symmetry (sim/link_load_symmetric.hpp), end here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/units.hpp>
#include <fabric/topology/views.hpp>

namespace fabric {

/// Loads of one link class.
struct ClassLoad {
    std::string_view link_name;
    GBps bandwidth{};
    double max_load = 0;       // units per channel, each task injecting one unit
    ChannelId busiest{};       // a channel carrying max_load (the lowest index); none for node links
    std::size_t channels = 0;  // channels of this class that exist
    double total_load = 0;     // summed over the class
    /// GB/s per node that the class allows: tasks_per_node * bandwidth / max_load.
    double throughput = std::numeric_limits<double>::infinity();
    friend constexpr bool operator==(const ClassLoad&, const ClassLoad&) = default;
};

/// The result of the kernel: every channel's load, and the per-class summary.
class LinkLoads {
public:
    constexpr LinkLoads(std::size_t ports_per_node, std::vector<double> loads, std::vector<ClassLoad> classes,
              double tasks_per_node = 1)
        : ports_(ports_per_node), loads_(std::move(loads)), classes_(std::move(classes)), tasks_(tasks_per_node) {
        // Ties (equal within rounding) go to the class listed last: on PERCS, D
        // before LR before LL, as the mapping paper's tables name them.
        for (std::size_t c = 1; c < classes_.size(); ++c)
            if (classes_[c].throughput <= classes_[bottleneck_].throughput * (1 + 1e-12)) bottleneck_ = c;
    }

    [[nodiscard]] constexpr double load(NodeId node, PortId port) const { return loads_[node.value * ports_ + port.value]; }
    [[nodiscard]] constexpr double load(ChannelId channel) const { return loads_[channel.value]; }
    /// Loads indexed by channel slot, node * ports_per_node + port (0 where there is no link).
    [[nodiscard]] constexpr std::span<const double> per_channel() const { return loads_; }
    [[nodiscard]] constexpr std::size_t ports_per_node() const { return ports_; }

    /// These loads with one more class, listed last, whose channels are not the
    /// topology's: a node's injection and ejection links (InjectionLimitedTopology),
    /// one channel each way a node, loaded with what the node's tasks send to other
    /// nodes and receive from them. Its throughput counts in the bottleneck.
    [[nodiscard]] constexpr LinkLoads with_node_class(ClassLoad cls) && {
        if (cls.max_load > 0) cls.throughput = tasks_ * cls.bandwidth.count / cls.max_load;
        classes_.push_back(cls);
        return LinkLoads(ports_, std::move(loads_), std::move(classes_), tasks_);
    }

    [[nodiscard]] constexpr const std::vector<ClassLoad>& classes() const { return classes_; }
    [[nodiscard]] constexpr const ClassLoad& link_class(std::size_t c) const { return classes_[c]; }
    /// The class whose throughput is smallest (the last such, on a tie).
    [[nodiscard]] constexpr std::size_t bottleneck() const { return bottleneck_; }
    /// GB/s per node: the smallest class throughput.
    [[nodiscard]] constexpr double throughput() const { return classes_[bottleneck_].throughput; }
    /// GB/s per task (per terminal, on a concentrated topology): throughput() / tasks_per_node().
    [[nodiscard]] constexpr double throughput_per_task() const { return throughput() / tasks_; }
    [[nodiscard]] constexpr double tasks_per_node() const { return tasks_; }
    [[nodiscard]] constexpr double max_load() const {
        double m = 0;
        for (const auto& c : classes_) m = c.max_load > m ? c.max_load : m;
        return m;
    }

private:
    std::size_t ports_;
    std::vector<double> loads_;
    std::vector<ClassLoad> classes_;
    std::size_t bottleneck_ = 0;
    double tasks_ = 1;
};

namespace detail {

/// One ClassLoad per link class of T, named, with its bandwidth, nothing counted yet.
template <Topology T>
constexpr std::vector<ClassLoad> class_table(const T& topo) {
    std::vector<ClassLoad> classes(link_class_count_v<T>);
    for_each_link_class(topo, [&](std::size_t c, const auto& link) {
        classes[c].link_name = std::remove_cvref_t<decltype(link)>::name;
        classes[c].bandwidth = link.bandwidth();
    });
    return classes;
}

/// Takes channel `index`'s load into its class's maximum: the busiest is the lowest
/// index that carries the maximum (the first met when channels come in index order).
constexpr void take_busiest(ClassLoad& cls, std::size_t index, double load) {
    const ChannelId channel{static_cast<std::uint32_t>(index)};
    if (!cls.busiest.valid() || load > cls.max_load || (load == cls.max_load && channel < cls.busiest)) {
        cls.busiest = channel;
        cls.max_load = load;
    }
}

/// The result from the loads and the classes counted: each class's throughput.
template <Topology T>
constexpr LinkLoads finish_loads(std::vector<double> loads, std::vector<ClassLoad> classes, double tasks_per_node) {
    for (auto& cls : classes)
        if (cls.max_load > 0) cls.throughput = tasks_per_node * cls.bandwidth.count / cls.max_load;
    return LinkLoads(T::ports_per_node, std::move(loads), std::move(classes), tasks_per_node);
}

/// The summary of every channel's load, channel by channel in index order.
template <Topology T>
constexpr LinkLoads summarise_loads(const T& topo, std::vector<double> loads, double tasks_per_node) {
    std::vector<ClassLoad> classes = class_table(topo);
    views::for_each_channel(topo, [&](const Channel& c) {
        ClassLoad& cls = classes[c.link_class];
        ++cls.channels;
        cls.total_load += loads[c.index];
        take_busiest(cls, c.index, loads[c.index]);
    });
    return finish_loads<T>(std::move(loads), std::move(classes), tasks_per_node);
}

}  // namespace detail

}  // namespace fabric
