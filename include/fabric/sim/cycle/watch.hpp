// The watch trace of the cycle kernel (CycleConfig::watch, BookSim's
// watch_packets): packets are numbered in the order they are created, and each
// event of a flit of a listed packet goes to the settings' sink. The kernel
// looks here only when the trace is on, and then only for packets marked watched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <fabric/sim/cycle/config.hpp>

namespace fabric::cycle {

class Watch {
public:
    void reset(const WatchSettings& settings) {
        settings_ = &settings;
        on_ = settings.enabled();
        ids_ = settings.packets;
        std::sort(ids_.begin(), ids_.end());
        serial_ = 0;
        live_.clear();
    }
    [[nodiscard]] bool on() const { return on_; }

    /// A packet was created in pool slot `slot`; whether it is one to watch.
    bool created(std::uint32_t slot) {
        const std::uint64_t serial = serial_++;
        if (!std::binary_search(ids_.begin(), ids_.end(), serial)) return false;
        live_.emplace_back(slot, serial);
        return true;
    }

    /// An event of flit `flit` of the watched packet in `slot`.
    [[gnu::noinline]] void event(std::uint32_t slot, FlitEventKind kind, std::uint64_t cycle, std::uint32_t flit,
                                 std::uint32_t node, std::uint32_t port, std::uint32_t vc) const {
        for (const auto& [s, serial] : live_)
            if (s == slot) return settings_->sink(FlitEvent{cycle, serial, flit, node, port, vc, kind});
    }

    /// The packet in `slot` has left the run (delivered, or lost): its slot may be reused.
    [[gnu::noinline]] void released(std::uint32_t slot) {
        std::erase_if(live_, [&](const auto& entry) { return entry.first == slot; });
    }

private:
    const WatchSettings* settings_ = nullptr;
    bool on_ = false;
    std::vector<std::uint64_t> ids_;  // sorted
    std::uint64_t serial_ = 0;        // the number of the next packet created
    std::vector<std::pair<std::uint32_t, std::uint64_t>> live_;  // watched packets in the run: slot, number
};

}  // namespace fabric::cycle
