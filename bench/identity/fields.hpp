// The identity harness's printer (bench/kernel_identity): every field of a
// CycleResult as text, doubles in hexadecimal so that "equal" means equal to the
// last bit; long vectors (latency histograms, per-channel utilisation, per-node
// and per-class counters) as their length, sum and a hash of their text, so that
// two kernels' outputs compare with diff. Only public API that the reference
// kernel (7d600f2) already had, so that one source builds against both.
#pragma once

#include <fabric/fabric.hpp>
#include <fabric/sim/cycle.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace identity {

/// FNV-1a over a string: a hash that is the same on every machine.
inline std::uint64_t hash_of(const std::string& s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

class Printer {
public:
    explicit Printer(std::string config) : config_(std::move(config)) {}

    void line(const std::string& field, const std::string& value) {
        std::printf("%s.%s = %s\n", config_.c_str(), field.c_str(), value.c_str());
    }
    template <class T>
    void value(const std::string& field, const T& v) {
        std::ostringstream s;
        s << std::hexfloat << v;
        line(field, s.str());
    }
    /// A long list as its length, sum and hash (and the text itself when short).
    template <class T>
    void list(const std::string& field, const std::vector<T>& v) {
        std::ostringstream s;
        s << std::hexfloat;
        long double sum = 0;
        for (const T& x : v) {
            s << x << ' ';
            sum += static_cast<long double>(x);
        }
        std::ostringstream out;
        out << std::hexfloat << "n " << v.size() << " sum " << static_cast<double>(sum) << " hash " << hash_of(s.str());
        if (v.size() <= 16) out << " [" << s.str() << "]";
        line(field, out.str());
    }
    template <class Summary = fabric::LatencySummary>  // a template: a reference's summary may have no `beyond`
    void latency(const std::string& field, const Summary& l) {
        std::ostringstream s;
        s << std::hexfloat << l.mean << " p50 " << l.p50 << " p99 " << l.p99 << " max " << l.max;
        line(field, s.str());
        list(field + ".histogram", l.histogram);
        if constexpr (requires { l.beyond; })
            if (!l.beyond.empty()) {  // none in the runs compared so far: printed only when there are some
                std::vector<std::uint64_t> flat;
                for (const auto& [cycles, n] : l.beyond) flat.insert(flat.end(), {cycles, n});
                list(field + ".beyond", flat);
            }
    }

    void result(const fabric::CycleResult& r) {
        using namespace fabric;
        cycle::for_each_count(static_cast<const CycleCounts&>(r), [&](const char* name, std::uint64_t c) { value(name, c); });
        cycle::for_each_count(static_cast<const CycleMaxima&>(r), [&](const char* name, std::uint64_t c) { value(name, c); });
        value("offered", r.offered);
        value("accepted", r.accepted);
        value("refused", r.refused);
        latency("latency", r.latency);
        latency("network_latency", r.network_latency);
        latency("message_latency", r.message_latency);
        latency("transaction_latency", r.transaction_latency);
        value("hops_mean", r.hops_mean);
        value("cycles", r.cycles);
        value("window_start", r.window_start);
        value("window_cycles", r.window_cycles);
        value("sample_periods", r.sample_periods);
        value("sampling_converged", r.sampling_converged);
        value("saturated", r.saturated);
        value("drained", r.drained);
        value("source_limit_reached", r.source_limit_reached);
        value("ports_per_node", r.ports_per_node);
        value("terminals_per_node", r.terminals_per_node);
        value("terminals", r.terminals);
        list("channel_utilisation", r.channel_utilisation);
        std::vector<std::uint64_t> nodes;
        for (const NodeCounters& n : r.nodes)
            cycle::for_each_count(n, [&](const char*, std::uint64_t c) { nodes.push_back(c); });
        list("nodes", nodes);
        value("classes", r.classes.size());
        for (std::size_t c = 0; c < r.classes.size(); ++c) {
            const ClassResult& k = r.classes[c];
            const std::string p = "class" + std::to_string(c) + ".";
            value(p + "offered", k.offered);
            value(p + "accepted", k.accepted);
            value(p + "refused", k.refused);
            latency(p + "latency", k.latency);
            value(p + "measured_packets", k.measured_packets);
            value(p + "measured_delivered", k.measured_delivered);
            value(p + "flits_created_in_window", k.flits_created_in_window);
            value(p + "flits_ejected_in_window", k.flits_ejected_in_window);
            value(p + "flits_refused_in_window", k.flits_refused_in_window);
        }
        if (r.deadlock) {
            line("deadlock", r.deadlock->describe());
        } else {
            line("deadlock", "none");
        }
    }

private:
    std::string config_;
};

/// A watch trace, kept as events come. Printed as the set of events (each flit's
/// own events come in the order of their cycles; the interleaving of different
/// flits' events within a cycle is not part of the contract, config.hpp).
struct WatchLog {
    std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t, int, std::uint32_t, std::uint32_t, std::uint32_t>>
        events;  // packet, flit, cycle, kind, node, port, vc
    fabric::WatchSettings settings(std::vector<std::uint64_t> packets) {
        fabric::WatchSettings w;
        w.packets = std::move(packets);
        w.sink = [this](const fabric::FlitEvent& e) {
            events.emplace_back(e.packet, e.flit, e.cycle, static_cast<int>(e.kind), e.node, e.port, e.vc);
        };
        return w;
    }
    void print(Printer& out) {
        // Each flit's events in the order its cycles and kinds go: checked, then the set printed sorted.
        bool per_flit_ordered = true;
        for (std::size_t i = 0; i < events.size(); ++i)
            for (std::size_t j = i + 1; j < events.size(); ++j)
                if (std::get<0>(events[i]) == std::get<0>(events[j]) && std::get<1>(events[i]) == std::get<1>(events[j]) &&
                    std::get<2>(events[j]) < std::get<2>(events[i]))
                    per_flit_ordered = false;
        auto sorted = events;
        std::sort(sorted.begin(), sorted.end());
        std::ostringstream s;
        for (const auto& [p, f, c, k, n, port, vc] : sorted) s << p << ',' << f << ',' << c << ',' << k << ',' << n << ',' << port << ',' << vc << ' ';
        out.value("watch.events", events.size());
        out.value("watch.per_flit_ordered", per_flit_ordered);
        out.value("watch.hash", hash_of(s.str()));
    }
};

}  // namespace identity
