// The flow kernel's per-channel loads as records (experiment/records.hpp): one
// per channel that exists, with its ends and link class, for CSV or JSON and the
// heat maps of tools/plot.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fabric/concepts/topology.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/topology/views.hpp>

namespace fabric::experiment {

/// One channel's load: from node `node` through its port `port` to node `to`.
struct ChannelLoadRecord {
    std::uint32_t node = 0;
    std::uint32_t port = 0;
    std::uint32_t to = 0;
    std::string_view link;  // the link class's name (LL, LR, D on PERCS)
    double load = 0;        // units carried, each task injecting one unit
    double bandwidth = 0;   // GB/s of the link class
};

template <class F>
void for_each_field(const ChannelLoadRecord& r, F&& f) {
    f(std::string("node"), std::string_view{}, static_cast<std::uint64_t>(r.node));
    f(std::string("port"), std::string_view{}, static_cast<std::uint64_t>(r.port));
    f(std::string("to"), std::string_view{}, static_cast<std::uint64_t>(r.to));
    f(std::string("link"), std::string_view{}, r.link);
    f(std::string("load"), std::string_view("units"), r.load);
    f(std::string("bandwidth"), std::string_view("GB/s"), r.bandwidth);
}

/// Every channel of `topo` with its load from `loads` (which the flow kernel
/// computed on a fabric over this topology), in channel order.
template <Topology T>
std::vector<ChannelLoadRecord> channel_load_records(const T& topo, const LinkLoads& loads) {
    detail::require(loads.ports_per_node() == T::ports_per_node && loads.per_channel().size() == channel_slots(topo),
                    "channel_load_records: the loads were computed on another topology (", loads.per_channel().size(),
                    " channel slots; this one has ", channel_slots(topo), ")");
    std::vector<ChannelLoadRecord> out;
    for (const Channel& c : views::channels(topo)) {
        const ClassLoad& cls = loads.link_class(c.link_class);
        const double load = loads.load(ChannelId{static_cast<std::uint32_t>(c.index)});
        out.push_back({c.node.value, c.port.value, c.to.value, cls.link_name, load, cls.bandwidth.count});
    }
    return out;
}

}  // namespace fabric::experiment
