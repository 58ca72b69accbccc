// Message traces read from CSV files, for the cycle kernel's run_trace
// (docs/traces.md describes the format):
//
//   # comments start with '#'
//   cycle,source,destination,bytes,class
//   0,0,5,256,0
//
// A header names the columns, in any order: cycle, source and destination
// (terminals), and the size as either flits or bytes (bytes become flits of a
// given size, rounded up; a message of 0 bytes still takes one flit), with an
// optional class (CycleConfig::class_priority's classes, default 0). Rows come in
// order of cycle. Every refusal is a config_error naming the file and line.
//
// A trace whose messages wait for one another (Netrace's rule) has an `after`
// column: the `id`s (a column of whole numbers) of the rows whose delivery it
// waits for, separated by ';' (empty: none), and optionally `delay`, the cycles
// from the last of them to its creation; its cycle is then the earliest it may be
// created. Such a trace is a workload graph (Trace::graph), run by the dependency
// engine (CycleSimulator::run_workload), and its rows may come in any order. A file
// without `after` is an open-loop trace, replayed as before.
//
// Replaying: trace_settings() makes every message measured and splits each into
// packets of at most max_packet_flits (the kernel's own mechanism), so that
// CycleResult::message_latency is the trace's per-message latency (creation to its
// last tail); MessageLatencies gives each message's own latency as well.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <sstream>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/input_file.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/workload.hpp>
#include <fabric/workload/graph.hpp>

namespace fabric {

/// A trace as read: its messages, and the line each came from.
struct Trace {
    std::string source;  // the file, for messages
    std::vector<TraceMessage> messages;
    std::vector<std::size_t> lines;  // lines[i]: the line of messages[i]
    // With an `after` column: per message its id, its delay, and the ids it waits for
    // (after_ids[after_first[i] .. after_first[i + 1]]).
    bool dependent = false;
    std::vector<std::uint64_t> ids, delays, after_ids;
    std::vector<std::size_t> after_first;

    /// "file:line: " for message i.
    [[nodiscard]] std::string where(std::size_t i) const {
        return source + ":" + std::to_string(i < lines.size() ? lines[i] : 0) + ": ";
    }
    /// Refuses, naming the line, a message that names a terminal past `terminals` or
    /// a class past `classes` (checked before a run, which could only name its index).
    void check(std::size_t terminals, std::uint32_t classes = 1) const {
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const TraceMessage& m = messages[i];
            detail::require(m.source < terminals && m.destination < terminals, where(i), "terminal ",
                            std::max(m.source, m.destination), " is past the network's ", terminals, " terminals (0 to ",
                            terminals - 1, ")");
            detail::require(m.traffic_class < classes, where(i), "traffic class ", m.traffic_class, " is past the ",
                            classes, " the configuration has (CycleConfig::class_priority)");
        }
    }
    /// A dependent trace as a workload graph over `terminals` ranks (rank t on
    /// terminal t): each row a message of its flits times `flit_bytes` bytes (so
    /// that flits of that size give back its flits), created no earlier than its
    /// cycle and `delay` cycles after the delivery of the last row it names.
    [[nodiscard]] workload::ExplicitGraph graph(std::uint32_t terminals, std::uint32_t flit_bytes) const {
        detail::require(dependent, source, ": the trace has no 'after' column: it is an open-loop trace (run_trace)");
        check(terminals, ~std::uint32_t{0});
        std::unordered_map<std::uint64_t, std::size_t> row;
        row.reserve(ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const auto [it, added] = row.emplace(ids[i], i);
            detail::require(added, where(i), "id ", ids[i], " is given to line ", lines[it->second], " already");
        }
        workload::GraphBuilder b(source);
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const TraceMessage& m = messages[i];
            const workload::NodeIndex n = b.add_message(m.source, m.destination,
                                                        std::uint64_t{m.flits} * flit_bytes, lines[i]);
            b.node(n).not_before = m.cycle;
            b.node(n).delay = delays[i];
            b.node(n).traffic_class = m.traffic_class;
        }
        for (std::size_t i = 0; i < messages.size(); ++i)
            for (std::size_t e = after_first[i]; e < after_first[i + 1]; ++e) {
                const auto it = row.find(after_ids[e]);
                detail::require(it != row.end(), where(i), "'after' names id ", after_ids[e], ", which no row has");
                b.depend(i, it->second, workload::Completion::delivered, lines[i]);
            }
        return b.build(terminals);
    }

    /// The largest message, in flits.
    [[nodiscard]] std::uint32_t largest() const {
        std::uint32_t most = 1;
        for (const TraceMessage& m : messages) most = std::max(most, m.flits);
        return most;
    }
};

namespace detail {

/// A CSV field without its surrounding blanks.
inline std::string_view trimmed(std::string_view s) {
    const std::size_t first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

inline std::vector<std::string_view> csv_fields(std::string_view line) {
    std::vector<std::string_view> out;
    for (std::size_t at = 0;;) {
        const std::size_t comma = line.find(',', at);
        out.push_back(trimmed(line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at)));
        if (comma == std::string_view::npos) return out;
        at = comma + 1;
    }
}

inline std::uint64_t trace_number(std::string_view field, const std::string& at, std::string_view column) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    require(!field.empty() && ec == std::errc{} && end == field.data() + field.size(), at, column,
            " must be a whole number; got '", shown(field), "'");
    return v;
}

}  // namespace detail

/// The trace in CSV text `in`; `source` names it in messages; `flit_bytes` converts a
/// bytes column (and must then be positive).
inline Trace parse_trace(std::istream& in, const std::string& source, std::uint32_t flit_bytes = 0) {
    Trace t;
    t.source = source;
    enum Column : std::uint8_t { cycle, src, dst, size, klass, id, after, delay, columns };
    constexpr std::size_t absent = std::numeric_limits<std::size_t>::max();
    std::size_t where[columns] = {absent, absent, absent, absent, absent, absent, absent, absent};
    bool bytes = false, header = false;
    std::size_t fields = 0;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const std::string_view text = detail::trimmed(line);
        if (text.empty() || text.front() == '#') continue;
        const std::string at = source + ":" + std::to_string(n) + ": ";
        const auto f = detail::csv_fields(text);
        if (!header) {
            for (std::size_t i = 0; i < f.size(); ++i) {
                Column c = columns;
                if (f[i] == "cycle") c = cycle;
                else if (f[i] == "source") c = src;
                else if (f[i] == "destination") c = dst;
                else if (f[i] == "flits" || f[i] == "bytes") c = size;
                else if (f[i] == "class") c = klass;
                else if (f[i] == "id") c = id;
                else if (f[i] == "after") c = after;
                else if (f[i] == "delay") c = delay;
                detail::require(c != columns, at, "unknown column '", detail::shown(f[i]), "'; a trace has cycle, source, "
                                "destination, flits or bytes, and optionally class, id, after and delay");
                detail::require(where[c] == absent, at, "column '", f[i], "' is given twice",
                                c == size ? " (a trace gives flits or bytes, not both)" : "");
                where[c] = i;
                bytes = bytes || f[i] == "bytes";
            }
            for (const Column c : {cycle, src, dst, size})
                detail::require(where[c] != absent, at, "the header lacks ",
                                c == cycle ? "cycle" : c == src ? "source" : c == dst ? "destination" : "flits or bytes",
                                "; it names the columns, e.g. 'cycle,source,destination,flits,class'");
            detail::require(!bytes || flit_bytes > 0, at, "a trace in bytes needs the flit size to convert them (in "
                            "bytes, at least 1)");
            detail::require((where[after] == absent) == (where[id] == absent), at, "a trace whose rows wait for one "
                            "another has both 'id' and 'after' columns");
            detail::require(where[delay] == absent || where[after] != absent, at, "'delay' counts from the rows a "
                            "row waits for: give 'id' and 'after' columns too");
            t.dependent = where[after] != absent;
            if (t.dependent) t.after_first.push_back(0);
            fields = f.size();
            header = true;
            continue;
        }
        detail::require(f.size() == fields, at, "a row has ", fields, " fields, as the header; got ", f.size());
        TraceMessage m;
        m.cycle = detail::trace_number(f[where[cycle]], at, "cycle");
        const std::uint64_t s = detail::trace_number(f[where[src]], at, "source");
        const std::uint64_t d = detail::trace_number(f[where[dst]], at, "destination");
        std::uint64_t amount = detail::trace_number(f[where[size]], at, bytes ? "bytes" : "flits");
        const std::uint64_t k = where[klass] == absent ? 0 : detail::trace_number(f[where[klass]], at, "class");
        detail::require(s <= 0xFFFFFFFFu && d <= 0xFFFFFFFFu && k <= 0xFFFFFFFFu, at, "source, destination and "
                        "class are below 2^32");
        detail::require(bytes || amount >= 1, at, "a message of 0 flits; a message has at least 1");
        if (bytes) amount = workload::flits_of(amount, flit_bytes);
        detail::require(amount <= 65535, at, "a message of ", amount, " flits; the cycle kernel takes at most 65535 "
                        "(split it into several messages)");
        detail::require(m.cycle < (std::uint64_t{1} << 59), at, "cycle ", m.cycle, " is past the kernel's 2^59");
        if (t.dependent) {
            t.ids.push_back(detail::trace_number(f[where[id]], at, "id"));
            t.delays.push_back(where[delay] == absent ? 0 : detail::trace_number(f[where[delay]], at, "delay"));
            detail::require(t.delays.back() < (std::uint64_t{1} << 59), at, "delay ", t.delays.back(),
                            " is past the kernel's 2^59");
            const std::string_view list = f[where[after]];
            for (std::size_t from = 0; from < list.size();) {
                const std::size_t semi = std::min(list.find(';', from), list.size());
                t.after_ids.push_back(detail::trace_number(detail::trimmed(list.substr(from, semi - from)), at,
                                                           "an id in 'after'"));
                from = semi + 1;
                detail::require(semi == list.size() || from < list.size(), at, "'after' ends with ';'");
            }
            t.after_first.push_back(t.after_ids.size());
        }
        detail::require(t.dependent || t.messages.empty() || t.messages.back().cycle <= m.cycle, at, "cycle ", m.cycle,
                        " comes after cycle ", t.messages.empty() ? 0 : t.messages.back().cycle,
                        " (line ", t.lines.empty() ? 0 : t.lines.back(), "); rows come in order of cycle");
        m.source = static_cast<std::uint32_t>(s);
        m.destination = static_cast<std::uint32_t>(d);
        m.flits = static_cast<std::uint32_t>(amount);
        m.traffic_class = static_cast<std::uint32_t>(k);
        t.messages.push_back(m);
        t.lines.push_back(n);
    }
    detail::require(header, source, ": no header; a trace starts 'cycle,source,destination,flits' (or bytes), "
                    "optionally ',class'");
    return t;
}

/// The trace in CSV file `path` (see parse_trace): a regular file of at most `limit`
/// bytes (core/input_file.hpp; `raise` says how to raise the limit).
inline Trace read_trace(const std::string& path, std::uint32_t flit_bytes = 0, std::uint64_t limit = default_input_limit,
                        std::string_view raise = "give read_trace a larger limit") {
    std::istringstream in(read_input_file(path, "trace file", limit, raise));
    return parse_trace(in, detail::shown(path), flit_bytes);
}

/// `base` set up to replay `trace`: the window from cycle 0 through its last
/// message, so that every message is measured, and messages split into packets
/// of at most `max_packet_flits` (0: none split, each one packet), so that
/// CycleResult::message_latency is the latency of the trace's messages.
inline CycleConfig trace_settings(CycleConfig base, const Trace& trace, std::uint32_t max_packet_flits = 0) {
    base.warmup = 0;
    base.measure = (trace.messages.empty() ? 0 : trace.messages.back().cycle) + 1;
    base.max_packet_flits = max_packet_flits ? max_packet_flits : trace.largest();
    base.sampling.sample_period = 0;
    return base;
}

/// Each message's own latency in a replay of a trace, from its cycle to the
/// ejection of its last tail, through the kernel's watch trace: watching(config)
/// marks every packet the replay will create (packets are numbered in the order
/// they are created: message by message, part by part) and the recorder counts
/// their tails as they leave. It must outlive the simulator built with that
/// config, and serves one run at a time (a new run starts it afresh). The watch
/// looks up its live packets on every event of every flit, so a replay watched
/// takes longer, the more so the more packets are in flight (docs/traces.md).
class MessageLatencies {
public:
    /// What latencies() holds for a message never delivered (lost at a failed link).
    static constexpr std::uint64_t lost = std::numeric_limits<std::uint64_t>::max();

    explicit MessageLatencies(const Trace& trace) : trace_(&trace) {}
    // The simulator's watch sink points here: the recorder stays where it was made.
    MessageLatencies(const MessageLatencies&) = delete;
    MessageLatencies& operator=(const MessageLatencies&) = delete;

    /// `cfg` (trace_settings' answer for this trace) with every packet watched.
    CycleConfig watching(CycleConfig cfg) {
        detail::require(!cfg.request_reply.enabled(), "MessageLatencies: replies are packets of their own, numbered "
                        "among the trace's; replay without request_reply");
        const std::uint32_t most = cfg.max_packet_flits ? cfg.max_packet_flits : trace_->largest();
        const auto& messages = trace_->messages;
        first_.assign(messages.size() + 1, 0);
        for (std::size_t i = 0; i < messages.size(); ++i) first_[i + 1] = first_[i] + (messages[i].flits + most - 1) / most;
        most_ = most;
        latency_.assign(messages.size(), lost);
        latest_.assign(messages.size(), 0);
        parts_done_.assign(messages.size(), 0);
        cfg.watch.packets.resize(first_.back());
        for (std::uint64_t p = 0; p < first_.back(); ++p) cfg.watch.packets[p] = p;
        cfg.watch.sink = [this](const FlitEvent& e) { seen(e); };
        return cfg;
    }

    /// Per message, in trace order: its latency in cycles, or `lost`.
    [[nodiscard]] const std::vector<std::uint64_t>& latencies() const { return latency_; }

private:
    void seen(const FlitEvent& e) {
        if (e.kind == FlitEventKind::created && e.packet == 0 && e.flit == 0) {  // a new run
            std::fill(latency_.begin(), latency_.end(), lost);
            std::fill(latest_.begin(), latest_.end(), 0);
            std::fill(parts_done_.begin(), parts_done_.end(), 0);
        }
        if (e.kind != FlitEventKind::ejected) return;
        const auto i = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), e.packet) - first_.begin() - 1);
        const TraceMessage& m = trace_->messages[i];
        const std::uint64_t part = e.packet - first_[i];
        const std::uint64_t flits = std::min<std::uint64_t>(most_, m.flits - part * most_);
        if (e.flit + 1 != flits) return;  // not its tail
        // Ejections are told as they are decided, not in cycle order: the message ends with its latest tail.
        latest_[i] = std::max(latest_[i], e.cycle);
        if (++parts_done_[i] == first_[i + 1] - first_[i]) latency_[i] = latest_[i] - m.cycle;
    }

    const Trace* trace_;
    std::vector<std::uint64_t> first_;       // first_[i]: the number of message i's first packet
    std::uint64_t most_ = 1;
    std::vector<std::uint64_t> latency_;
    std::vector<std::uint64_t> latest_;      // the latest tail of each message so far
    std::vector<std::uint32_t> parts_done_;  // parts of each message whose tail has left
};

}  // namespace fabric
