// The dependency engine: a workload graph (concepts/workload.hpp) driven through
// the cycle kernel's message port (message_port.hpp), one call a cycle at its
// injection phase, none per flit.
//
// The rules, exact to the cycle:
//   - a root is ready at its own cycle (not_before); any other node `delay` cycles
//     after the last of its predecessors completes, and never before not_before;
//   - a compute node takes its rank's CPU from max(ready, CPU free) for its cycles
//     (with the endpoints' slowdown and jitter) and completes at the end;
//   - a message starts at max(ready, its rank's CPU free, its rail free), takes the
//     CPU and the rail for the endpoints' send charges (workload/endpoints.hpp) and
//     enters its source queue the send overhead after it starts; above the eager
//     limit it goes by rendezvous: a one-flit request to send, a one-flit clear to
//     send from the destination when the request is delivered, and the data when
//     that is (the handshake takes no CPU);
//   - a message completes `sent` at the cycle its data's last flit left the source
//     queue, and `delivered` when its last flit is ejected and the receiver's CPU
//     has taken it in (from max(delivery, CPU free, rail free), the receive charges);
//   - a successor waits for the completion its edge names (a compute node's edges
//     all mean "done").
// Events of one cycle are handled in the order of (cycle, node, kind), whoever
// reported them, so that a rank's CPU and rails go to its nodes in one order in
// every run. The kernel learns of a message sent or delivered during the routers'
// step, after that cycle's injection phase: a successor whose ready cycle is at or
// before the cycle that reported its predecessor (a send's completion with no
// delay; a delivery at the cycle of its last flit's grant) keeps that ready cycle
// but enters its source queue at the next cycle's injection phase. Memory follows
// the frontier: a count is kept only for a node with a completed predecessor that
// is not yet ready, and a record only for a message in the network.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/calendar.hpp>
#include <fabric/sim/cycle/message_port.hpp>
#include <fabric/sim/cycle/node_table.hpp>
#include <fabric/workload/endpoints.hpp>
#include <fabric/workload/placement.hpp>

namespace fabric::cycle {

/// When a node's steps happened (never: not reached).
struct NodeTimes {
    static constexpr std::uint64_t never = ~std::uint64_t{0};
    std::uint64_t ready = never;      // its dependencies met, its own cycle reached
    std::uint64_t injected = never;   // a message: its data entered the source queue; a compute: it started
    std::uint64_t sent = never;       // a message: its last flit left the source queue
    std::uint64_t delivered = never;  // a message: its last flit ejected; a compute: it ended
    std::uint64_t received = never;   // a message: delivered plus the receive overhead (its `delivered` completion)
    friend bool operator==(const NodeTimes&, const NodeTimes&) = default;
};

/// A rank that cannot finish, and what it waits for.
struct WorkloadWait {
    std::uint32_t rank = 0;
    workload::NodeIndex node = 0;
    std::string what;
};

template <workload::WorkloadGraph G>
class DependencyEngine {
public:
    using NodeIndex = workload::NodeIndex;
    using Node = workload::Node;
    using Completion = workload::Completion;
    static constexpr std::uint64_t never = NodeTimes::never;

    /// The engine for `graph` on `placement` (checked), each message of `bytes`
    /// taking max(1, bytes / flit_bytes rounded up) flits, compute jitter drawn
    /// from `seed`; with `record`, every node's times kept (memory of the graph).
    DependencyEngine(const G& graph, const workload::Endpoints& endpoints, const workload::RankPlacement& placement,
                     std::uint32_t flit_bytes, std::uint32_t classes, std::uint64_t seed, bool record,
                     MessagePort& port)
        : g_(graph), ep_(endpoints), place_(placement), flit_bytes_(flit_bytes), classes_(classes), seed_(seed),
          port_(port) {
        const std::uint32_t ranks = g_.ranks();
        cpu_.assign(ranks, 0);
        finish_.assign(ranks, 0);
        tx_.resize(ranks);
        rx_.resize(ranks);
        for (std::uint32_t r = 0; r < ranks; ++r) {
            tx_[r].assign(place_.rails_of(r), 0);
            rx_[r].assign(place_.rails_of(r), 0);
        }
        if (record) times_.assign(static_cast<std::size_t>(g_.size()), NodeTimes{});
        total_ = g_.size();
        detail::require(total_ < (NodeIndex{1} << 61), "a workload has at most 2^61 nodes (an event keeps a node's index in 61 bits); this one has ", total_);
        left_.assign(ranks, 0);  // per rank, its nodes not yet completed (a message is its source's)
        for (NodeIndex i = 0; i < total_; ++i) {
            const std::uint32_t r = g_.node(i).rank;
            if (r < ranks) ++left_[r];
        }
    }

    /// The roots enter the calendar (each ready at its own cycle).
    void start() {
        g_.for_each_root([&](NodeIndex i) {
            const Node& n = g_.node(i);
            check(i, n);
            push(n.not_before, i, ready);
        });
    }

    /// The injection phase of cycle `now`: what the kernel reported, then every
    /// event due by `now`, in order.
    void step(std::uint64_t now) {
        auto& reports = port_.reports();
        for (const PortReport& r : reports) {
            const NodeIndex i = r.handle >> 2;
            const auto phase = static_cast<std::uint32_t>(r.handle & 3);
            if (r.event == PortEvent::sent) {
                if (phase == data) push(r.cycle, i, sent_data);
            } else {
                push(r.cycle, i, phase == data ? arrived : phase == request ? request_arrived : clear_arrived);
            }
        }
        reports.clear();
        while (!calendar_.empty() && calendar_.top().cycle <= now) {
            const Calendar::Event e = calendar_.top();
            calendar_.pop();
            handle(Event{e.cycle, e.key}, now);
        }
    }

    /// The first cycle from `from` at which the engine has something to do, or never.
    [[nodiscard]] std::uint64_t next(std::uint64_t from) const {
        if (!port_.reports().empty()) return from;
        if (calendar_.empty()) return never;
        return std::max(from, calendar_.top().cycle);
    }
    /// Whether every node has completed.
    [[nodiscard]] bool finished() const { return completed_ == total_; }

    [[nodiscard]] std::uint64_t completed() const { return completed_; }
    /// Each rank's last completion (a compute's end, a send, a receive), 0 for a rank with none.
    [[nodiscard]] const std::vector<std::uint64_t>& rank_finish() const { return finish_; }
    [[nodiscard]] std::uint64_t finish_cycle() const {
        return finish_.empty() ? 0 : *std::max_element(finish_.begin(), finish_.end());
    }
    [[nodiscard]] std::vector<NodeTimes>& times() { return times_; }
    /// The most nodes waiting at once on some of their predecessors (the frontier's peak).
    [[nodiscard]] std::size_t frontier_peak() const { return frontier_peak_; }

    /// Which ranks wait for what, when the run ended unfinished: each message in
    /// the network (injected, never delivered: `lost` names those a failed link
    /// cut), each node waiting on some of its predecessors, and the ranks with
    /// nothing left to run, waiting on nodes never reached.
    [[nodiscard]] std::vector<WorkloadWait> waiting() const {
        std::vector<WorkloadWait> out;
        std::vector<std::uint8_t> seen(g_.ranks(), 0);
        std::vector<std::pair<NodeIndex, const Flight*>> flying;
        flights_.for_each([&](NodeIndex i, const Flight& f) { flying.emplace_back(i, &f); });
        std::sort(flying.begin(), flying.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [i, f] : flying) {
            const Node& n = g_.node(i);
            const std::string at = read_at(i);
            std::string what = "message " + std::to_string(i) + " (rank " + std::to_string(n.rank) + " to rank " +
                               std::to_string(n.peer) + ", " + std::to_string(n.bytes) + " bytes" +
                               (at.empty() ? "" : "; " + at) + ") ";
            if (!f->received_done && f->delivered != never)
                what += "was delivered at cycle " + std::to_string(f->delivered) + " and awaits its receive overhead";
            else if (f->phase != data)
                what += "waits for its rendezvous handshake (" + std::string(f->phase == request ? "request" : "clear") +
                        " to send)" + (port_.lost().count(handle_of(i, f->phase)) ? ", lost at a failed link" : "");
            else if (port_.lost().count(handle_of(i, data)))
                what += "was lost at a failed link and never comes";
            else
                what += "entered the network at cycle " + std::to_string(f->injected) + " and was never delivered";
            out.push_back({n.peer, i, what});
            seen[n.peer] = seen[n.rank] = 1;
        }
        std::vector<std::pair<NodeIndex, Waiting>> waits;
        frontier_.for_each([&](NodeIndex i, const Waiting& w) { waits.emplace_back(i, w); });
        std::sort(waits.begin(), waits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [i, w] : waits) {
            const Node& n = g_.node(i);
            const std::string at = read_at(i);
            out.push_back({n.rank, i, std::string(n.is_message() ? "message " : "compute ") + std::to_string(i) +
                                          (at.empty() ? "" : " (" + at + ")") + " waits for " +
                                          std::to_string(w.left) + " of its " +
                                          std::to_string(g_.predecessors(i)) + " predecessors"});
            seen[n.rank] = 1;
        }
        for (std::uint32_t r = 0; r < g_.ranks(); ++r)
            if (!seen[r] && !rank_done(r))
                out.push_back({r, 0, "rank " + std::to_string(r) + " has nothing left it can run: its next nodes "
                                     "wait for nodes of other ranks that never ran"});
        return out;
    }

private:
    /// Where node i was read from ("file:line"), where the graph says (ExplicitGraph::place); else "".
    [[nodiscard]] std::string read_at(NodeIndex i) const {
        if constexpr (requires { g_.place(i); }) return g_.place(i);
        else return {};
    }
    enum Kind : std::uint8_t { compute_done, sent_data, arrived, received, request_arrived, clear_arrived, ready };
    enum Phase : std::uint32_t { data = 0, request = 1, clear = 2 };
    struct Event {  // ordered by (cycle, node, kind): the node and kind in one word, node << 3 | kind
        std::uint64_t cycle, key;
        [[nodiscard]] NodeIndex node() const { return key >> 3; }
        [[nodiscard]] Kind kind() const { return static_cast<Kind>(key & 7); }
    };
    struct Waiting {
        std::uint32_t left = 0;   // predecessors still to complete
        std::uint64_t ready = 0;  // the latest completion so far plus the delay
    };
    struct Flight {  // a message between its readiness and its completion at both ends
        std::uint64_t injected = never, delivered = never;
        Phase phase = data;
        bool sent_done = false, received_done = false;
    };

    static std::uint64_t handle_of(NodeIndex i, std::uint32_t phase) { return i << 2 | phase; }
    void push(std::uint64_t cycle, NodeIndex i, Kind k) { calendar_.push(cycle, i << 3 | k); }

    /// Refuses a node whose ranks, rail or class do not fit (the refusal built only then: this runs once a node).
    void check(NodeIndex i, const Node& n) const {
        const std::uint32_t rail = n.rail;
        const bool ranks_fit = n.rank < g_.ranks() && n.peer < g_.ranks();
        if (ranks_fit && rail < place_.rails_of(n.rank) && (!n.is_message() || rail < place_.rails_of(n.peer)) &&
            n.traffic_class < classes_) [[likely]]
            return;
        const std::string where = "workload node " + std::to_string(i) + ": ";
        detail::require(ranks_fit, where, "rank ", std::max(n.rank, n.peer), " is past the workload's ", g_.ranks(),
                        " ranks");
        detail::require(rail < place_.rails_of(n.rank) && (!n.is_message() || rail < place_.rails_of(n.peer)), where,
                        "rail ", rail, " is past the ", place_.rails_of(n.rank), " terminals rank ", n.rank,
                        " is placed on");
        detail::require(n.traffic_class < classes_, where, "traffic class ", n.traffic_class, " is past the ",
                        classes_, " classes of the configuration");
    }

    [[nodiscard]] std::uint32_t flits(std::uint64_t bytes) const {
        const std::uint64_t f = workload::flits_of(bytes, flit_bytes_);
        detail::require(f <= 0xffffffffULL, "a workload message of ", bytes, " bytes takes more than 2^32 flits of ",
                        flit_bytes_, " bytes");
        return static_cast<std::uint32_t>(f);
    }
    void inject(std::uint64_t at, NodeIndex i, const Node& n, Phase phase, std::uint32_t from, std::uint32_t to) {
        const std::uint32_t src = place_.terminal(from, n.rail), dst = place_.terminal(to, n.rail);
        port_.schedule(at, handle_of(i, phase),
                       PortMessage{handle_of(i, phase), src, dst, phase == data ? flits(n.bytes) : 1, n.traffic_class});
    }
    NodeTimes* times(NodeIndex i) { return times_.empty() ? nullptr : &times_[i]; }

    void handle(const Event& e, std::uint64_t now) {
        const NodeIndex i = e.node();
        const Node& n = g_.node(i);  // a reference where the graph keeps its nodes (a copy is 64 bytes)
        switch (e.kind()) {
        case ready: return became_ready(i, n, e.cycle, now);
        case compute_done:
            finish_[n.rank] = std::max(finish_[n.rank], e.cycle);
            if (NodeTimes* t = times(i)) t->delivered = e.cycle;
            count_completed(n);
            return complete(i, n, Completion::delivered, e.cycle);
        case sent_data: {
            Flight& f = flights_[i];
            f.sent_done = true;
            finish_[n.rank] = std::max(finish_[n.rank], e.cycle);
            if (NodeTimes* t = times(i)) t->sent = e.cycle;
            complete(i, n, Completion::sent, e.cycle);
            return settle(i, n, f);
        }
        case arrived: {  // the receiver's CPU and rail take it in, in turn
            Flight& f = flights_[i];
            f.delivered = e.cycle;
            if (NodeTimes* t = times(i)) t->delivered = e.cycle;
            std::uint64_t& rail = rx_[n.peer][n.rail];
            const std::uint64_t start = std::max({e.cycle, cpu_[n.peer], rail});
            rail = start + ep_.gap_cycles(n.bytes);
            const std::uint64_t done = start + ep_.receive_cycles(n.bytes);
            cpu_[n.peer] = done;
            if (done == e.cycle) return received_at(i, n, f, done);
            return push(done, i, received);
        }
        case received: return received_at(i, n, flights_[i], e.cycle);
        case request_arrived:  // the destination answers a request to send at once
            flights_[i].phase = clear;
            return inject(std::max(e.cycle, now), i, n, clear, n.peer, n.rank);
        case clear_arrived:  // the data goes as soon as the source hears it may
            flights_[i].phase = data;
            flights_[i].injected = std::max(e.cycle, now);
            if (NodeTimes* t = times(i)) t->injected = flights_[i].injected;
            return inject(std::max(e.cycle, now), i, n, data, n.rank, n.peer);
        }
    }

    void received_at(NodeIndex i, const Node& n, Flight& f, std::uint64_t at) {
        f.received_done = true;
        finish_[n.peer] = std::max(finish_[n.peer], at);
        if (NodeTimes* t = times(i)) t->received = at;
        complete(i, n, Completion::delivered, at);
        settle(i, n, f);
    }
    void settle(NodeIndex i, const Node& n, const Flight& f) {
        if (!f.sent_done || !f.received_done) return;
        count_completed(n);
        flights_.erase(i);
    }

    /// Node i is ready at `at` (handled at `now`, which `at` may precede): it takes its rank's CPU and rail.
    void became_ready(NodeIndex i, const Node& n, std::uint64_t at, std::uint64_t now) {
        if (NodeTimes* t = times(i)) t->ready = at;
        const std::uint64_t start = std::max(at, cpu_[n.rank]);
        if (!n.is_message()) {
            const std::uint64_t end = start + ep_.compute_cycles(i, n.rank, n.cycles, seed_);
            cpu_[n.rank] = end;
            if (NodeTimes* t = times(i)) t->injected = start;
            return push(end, i, compute_done);
        }
        std::uint64_t& rail = tx_[n.rank][n.rail];
        const std::uint64_t send = std::max(start, rail);  // the CPU and the rail both free
        cpu_[n.rank] = send + ep_.send_cycles(n.bytes);
        rail = send + ep_.gap_cycles(n.bytes);
        const std::uint64_t at_nic = std::max(send + ep_.send_overhead, now);
        Flight& f = flights_[i];
        f.injected = at_nic;
        if (ep_.rendezvous(n.bytes)) {
            f.phase = request;
            return inject(at_nic, i, n, request, n.rank, n.peer);
        }
        if (NodeTimes* t = times(i)) t->injected = at_nic;
        inject(at_nic, i, n, data, n.rank, n.peer);
    }

    /// Node i completed (`how`) at `at`: its successors waiting for that hear of it.
    void complete(NodeIndex i, const Node& n, Completion how, std::uint64_t at) {
        g_.for_each_successor(i, [&](NodeIndex s, Completion waits) {
            if (n.is_message() && waits != how) return;
            const Node& sn = g_.node(s);
            if (g_.predecessors(s) == 1) {  // ready now: counted in the frontier's peak, never held in it
                check(s, sn);
                frontier_peak_ = std::max(frontier_peak_, frontier_.size() + 1);
                return push(std::max(at + sn.delay, sn.not_before), s, ready);
            }
            auto [record, added] = frontier_.try_emplace(s);
            Waiting& w = *record;
            if (added) {
                check(s, sn);
                w.left = g_.predecessors(s);
                frontier_peak_ = std::max(frontier_peak_, frontier_.size());
            }
            w.ready = std::max(w.ready, at + sn.delay);
            if (--w.left != 0) return;
            const std::uint64_t r = std::max(w.ready, sn.not_before);
            frontier_.erase(s);
            push(r, s, ready);
        });
    }

    [[nodiscard]] bool rank_done(std::uint32_t r) const { return left_[r] == 0; }
    void count_completed(const Node& n) {
        ++completed_;
        --left_[n.rank];
    }

    const G& g_;
    const workload::Endpoints& ep_;
    const workload::RankPlacement& place_;
    std::uint32_t flit_bytes_, classes_;
    std::uint64_t seed_;
    MessagePort& port_;
    Calendar calendar_;  // events by (cycle, node, kind)
    NodeTable<Waiting> frontier_;  // (node_table.hpp: no allocation a node once grown to the frontier's peak)
    NodeTable<Flight> flights_;
    std::vector<std::uint64_t> cpu_, finish_, left_;
    std::vector<std::vector<std::uint64_t>> tx_, rx_;  // per rank and rail: when it may next send, receive
    std::vector<NodeTimes> times_;
    std::uint64_t completed_ = 0, total_ = 0;
    std::size_t frontier_peak_ = 0;
};

}  // namespace fabric::cycle
