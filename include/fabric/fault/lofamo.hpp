// LO|FA|MO, the local fault monitor of the EURETILE platform (2012 report, vol.
// II, section 2), as an event-driven model on a 3-D torus of nodes.
//
// Every node has a host running a Host Fault Manager (HFM) and a DNP with a DNP
// Fault Manager (DFM). The mutual watchdog: the DFM writes (and validates) the
// DNP Watchdog Register every T_write and reads (and invalidates) the Host
// Watchdog Register every T_read; the HFM does the converse. T_write < T_read, so
// a reader finds the register valid unless its writer stopped. The paths by
// which each fault reaches the master's Fault Supervisor: fault/lofamo_faults.hpp.
// The service network: each HFM pings the master every ping period and declares
// the service network broken after two unanswered pings (the report's
// SNET_MON_PING_TMOUT, retried once).
//
// A neighbour's DFM files each LiFaMa message it hears in its Remote Fault
// Descriptor Register for that direction (Table 5). A link sick by its bit errors
// (inject_bit_errors) is found by the CRC count of fault/lofamo_link_health.hpp.
// Times are in microseconds. The timers of node v run with phase
// v * phase_step (mod the period), so that nodes do not tick in lockstep.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/fault/event_queue.hpp>
#include <fabric/fault/lofamo_descriptors.hpp>
#include <fabric/fault/lofamo_faults.hpp>
#include <fabric/fault/lofamo_link_health.hpp>
#include <fabric/fault/lofamo_registers.hpp>
#include <fabric/fault/lofamo_torus.hpp>

namespace fabric::lofamo {

class System {
public:
    /// A 3-D torus of `extents` nodes; node `master` runs the Fault Supervisor.
    System(std::array<std::uint32_t, 3> extents, Timing timing = {}, std::size_t master = 0)
        : ext_(extents), t_(timing), master_(master) {
        t_.validate();
        n_ = static_cast<std::size_t>(ext_[0]) * ext_[1] * ext_[2];
        fabric::detail::require(n_ >= 2, "LO|FA|MO needs at least two nodes");
        fabric::detail::require(master < n_, "the master node ", master, " is out of range; valid: 0 to ", n_ - 1);
        nodes_.resize(n_);
    }

    /// Injects `fault` at node `node` (and direction `dir` for link faults) at time `at`.
    void inject(Fault fault, std::size_t node, double at, Direction dir = Direction::x_plus) {
        fabric::detail::require(node < n_, "node ", node, " is out of range; valid: 0 to ", n_ - 1);
        fabric::detail::require(node != master_ || fault == Fault::link_sick || fault == Fault::link_broken ||
                                    fault == Fault::temperature || fault == Fault::voltage || fault == Fault::current ||
                                    fault == Fault::dnp_core_sick,
                                "a fault that silences the master's host cannot reach its own Fault Supervisor; "
                                "inject it on another node");
        faults_.push_back({fault, node, dir, at});
    }

    /// From `at` on, the link of `node` towards `dir` delivers words with error rate
    /// `ber` (Table 16's measure) to `node` while carrying `bytes_per_us` in packets
    /// of `payload_bytes`: a link_sick fault when its CRC errors a byte pass
    /// Timing::crc_threshold (time_to_sick_us); none when they never do. Returns
    /// when it turns sick (infinity: never).
    double inject_bit_errors(std::size_t node, Direction dir, double ber, double bytes_per_us, double at,
                             std::uint32_t payload_bytes = 4096) {
        const double after = time_to_sick_us(ber, bytes_per_us, t_.crc_threshold, payload_bytes);
        if (std::isfinite(after)) inject(Fault::link_sick, node, at + after, dir);
        return at + after;
    }

    /// Node v's Remote Fault Descriptor Registers: the last LiFaMa message from each direction.
    [[nodiscard]] const RemoteFaultDescriptor& remote_faults(std::size_t v) const {
        fabric::detail::require(v < n_, "node ", v, " is out of range; valid: 0 to ", n_ - 1);
        return nodes_[v].rfd;
    }

    /// Runs until `until` (us) and returns how the supervisor learnt of each fault.
    std::vector<Awareness> run(double until) {
        schedule_timers(until);
        for (const auto& f : faults_) events_.push(f.at, [this, f] { apply(f); });
        events_.run(until, now_);
        std::vector<Awareness> out;
        for (const auto& [key, a] : aware_) out.push_back(a);
        std::sort(out.begin(), out.end(), [](const Awareness& a, const Awareness& b) { return a.aware_at < b.aware_at; });
        return out;
    }

    /// Nodes the supervisor has concluded are dead: every neighbour reports its link to them broken.
    [[nodiscard]] std::vector<std::size_t> inferred_dead() const {
        std::vector<std::size_t> dead;
        for (std::size_t v = 0; v < n_; ++v) {
            const auto ns = neighbours(v);
            bool all = !ns.empty();
            for (const auto& [w, dir] : ns) all = all && broken_reported_.count({w, v}) > 0;
            if (all) dead.push_back(v);
        }
        return dead;
    }

    [[nodiscard]] std::size_t node_count() const { return n_; }

    /// Neighbours of v with the direction from v to each (fault/lofamo_torus.hpp).
    [[nodiscard]] std::vector<std::pair<std::size_t, Direction>> neighbours(std::size_t v) const {
        return torus_neighbours(ext_, v);
    }

private:
    struct Injected {
        Fault fault;
        std::size_t node;
        Direction dir;
        double at;
    };
    // The facts behind a diagnostic, with the path it has taken so far.
    struct Trail {
        Fault fault;
        std::size_t subject;
        Detector detector;
        std::vector<std::string> path;
        std::vector<double> times;
        double injected;
        /// The report passes one more stage at time `at`.
        void stage(const char* what, double at) {
            path.emplace_back(what);
            times.push_back(at);
        }
    };
    struct Node {
        bool host_alive = true, dnp_alive = true, snet_ok = true, snet_declared_broken = false;
        std::uint32_t dwr = 0, hwr = 0;  // the registers, encoded, as in the DNP
        DnpWatchdogRegister dnp_status{};       // what the DFM writes next
        RemoteFaultDescriptor rfd{};            // the last LiFaMa message from each neighbour (Table 5)
        HostWatchdogRegister host_status{};     // what the HFM writes next
        std::vector<Trail> dfm_pending;         // facts the DFM will put in its next DWR write
        std::vector<Trail> dwr_trails;          // facts in the DWR now, for the HFM to read
        std::vector<Trail> hfm_pending;         // facts the HFM will put in its next HWR write
        std::vector<Trail> hwr_trails;
        bool dnp_reported_dead = false, host_reported_dead = false;
        int unanswered_pings = 0;
    };
    [[nodiscard]] double phase(std::size_t v, double period) const {
        return std::fmod(static_cast<double>(v) * t_.phase_step, period);
    }

    /// Each node's five timers. A timer queues only its next firing (memory stays
    /// fixed however long the run); its tie order, (node, timer), puts it before
    /// every other event of the same time, as if all firings had been queued first.
    void schedule_timers(double until) {
        for (std::size_t v = 0; v < n_; ++v) {
            events_.periodic(phase(v, t_.dnp_write), t_.dnp_write, until, 5 * v, [this, v] { dnp_write(v); });
            events_.periodic(phase(v, t_.dnp_read) + t_.dnp_read / 2, t_.dnp_read, until, 5 * v + 1,
                             [this, v] { dnp_read(v); });
            events_.periodic(phase(v, t_.host_write) + t_.host_write / 4, t_.host_write, until, 5 * v + 2,
                             [this, v] { host_write(v); });
            events_.periodic(phase(v, t_.host_read) + 3 * t_.host_read / 4, t_.host_read, until, 5 * v + 3,
                             [this, v] { host_read(v); });
            if (v != master_)
                events_.periodic(phase(v, t_.ping_period), t_.ping_period, until, 5 * v + 4, [this, v] { ping(v); });
        }
    }

    static Trail trail(Fault f, std::size_t subject, Detector d, std::string first, double at, double injected) {
        return Trail{f, subject, d, {std::move(first)}, {at}, injected};
    }

    void apply(const Injected& f) {
        Node& node = nodes_[f.node];
        const auto dir = static_cast<std::size_t>(f.dir);
        switch (f.fault) {
            case Fault::link_sick:
                // The receiving link logic counts CRC errors; the DFM sees the ratio
                // over threshold when it next gathers the link status.
                node.dnp_status.link[dir] = Status::sick;
                node.dfm_pending.push_back(
                    trail(f.fault, f.node, Detector::dfm, "link CRC self-test -> DFM", now_, f.at));
                break;
            case Fault::link_broken: {
                // No Credit arrives on either side; each DFM times out.
                const auto [other, back] = across(f.node, f.fault, f.dir);
                for (const auto& [v, d] : {std::pair{f.node, dir}, std::pair{other, back}}) {
                    // Named copies: a lambda may not capture structured bindings before C++20's
                    // P1091 reached every compiler (Clang 14 refuses).
                    events_.push(now_ + t_.credit_timeout, [this, v = v, d = d, f] {
                        if (!nodes_[v].dnp_alive) return;
                        nodes_[v].dnp_status.link[d] = Status::broken;
                        nodes_[v].dfm_pending.push_back(trail(f.fault, f.node, Detector::dfm,
                                                              "Credit timeout -> DFM", now_, f.at));
                    });
                }
                break;
            }
            case Fault::temperature:
            case Fault::voltage:
            case Fault::current:
                (f.fault == Fault::temperature ? node.dnp_status.temperature
                 : f.fault == Fault::voltage   ? node.dnp_status.voltage
                                               : node.dnp_status.current) = sensor_alarm;
                node.dfm_pending.push_back(trail(f.fault, f.node, Detector::dfm, "sensor -> DFM", now_, f.at));
                break;
            case Fault::dnp_core_sick:
                node.dnp_status.core = Status::sick;
                node.dfm_pending.push_back(trail(f.fault, f.node, Detector::dfm, "core self-test -> DFM", now_, f.at));
                break;
            case Fault::dnp_breakdown:
                node.dnp_alive = false;
                break;
            case Fault::host_breakdown:
                node.host_alive = false;
                break;
            case Fault::host_memory:
            case Fault::host_peripheral:
                (f.fault == Fault::host_memory ? node.host_status.memory : node.host_status.peripheral) = Status::sick;
                node.hfm_pending.push_back(trail(f.fault, f.node, Detector::hfm, "host self-check -> HFM", now_, f.at));
                break;
            case Fault::host_and_dnp:
                node.host_alive = false;
                node.dnp_alive = false;
                // Its links fall silent: every neighbour's DFM times out on its link to it.
                for (const auto& [w, d] : neighbours(f.node)) {
                    const auto back = static_cast<std::size_t>(opposite(d));
                    events_.push(now_ + t_.credit_timeout, [this, w = w, back, f] {
                        if (!nodes_[w].dnp_alive) return;
                        nodes_[w].dnp_status.link[back] = Status::broken;
                        nodes_[w].dfm_pending.push_back(trail(f.fault, f.node, Detector::neighbour_dfms,
                                                              "neighbour's Credit timeout -> neighbour DFM", now_, f.at));
                    });
                }
                break;
            case Fault::service_net_loss:
                node.snet_ok = false;
                break;
        }
    }

    static Direction opposite(Direction d) {
        return static_cast<Direction>(static_cast<std::uint8_t>(d) ^ 1U);
    }
    std::pair<std::size_t, std::size_t> across(std::size_t v, Fault, Direction d) const {
        for (const auto& [w, dir] : neighbours(v))
            if (dir == d) return {w, static_cast<std::size_t>(opposite(d))};
        throw config_error(fabric::detail::message("node ", v, " has no link in that direction"));
    }

    /// Every trail waiting in `from` passes the stage `what` now and moves to `to`.
    void pass_on(std::vector<Trail>& from, std::vector<Trail>& to, const char* what) {
        for (auto& tr : from) {
            tr.stage(what, now_);
            to.push_back(std::move(tr));
        }
        from.clear();
    }

    void dnp_write(std::size_t v) {
        Node& node = nodes_[v];
        if (!node.dnp_alive) return;
        DnpWatchdogRegister r = node.dnp_status;
        r.valid = true;
        node.dwr = r.encode();
        pass_on(node.dfm_pending, node.dwr_trails, "DFM -> DNP Watchdog Register");
    }

    void dnp_read(std::size_t v) {
        Node& node = nodes_[v];
        if (!node.dnp_alive) return;
        const auto hwr = HostWatchdogRegister::decode(node.hwr);
        std::vector<Trail> to_tell;
        if (!hwr.valid && !node.host_reported_dead && saw_host_once_[v]) {
            node.host_reported_dead = true;
            to_tell.push_back(trail(Fault::host_breakdown, v, Detector::dfm,
                                    "DFM finds the Host Watchdog Register not rewritten", now_, injected_at(v, Fault::host_breakdown)));
        }
        if (hwr.valid) saw_host_once_[v] = true;
        pass_on(node.hwr_trails, to_tell, "DFM reads the Host Watchdog Register");
        // The host's troubles travel to the neighbours in the Credits (LiFaMa): the
        // host's fields as the HWR last told them, the DNP's own health.
        LifamaMessage ldm{.service_net = hwr.service_net, .memory = hwr.memory, .peripheral = hwr.peripheral};
        ldm.core = node.dnp_status.core, ldm.current = node.dnp_status.current;
        ldm.voltage = node.dnp_status.voltage, ldm.temperature = node.dnp_status.temperature;
        ldm.link = node.dnp_status.link;
        ldm.valid = true;
        for (auto& tr : to_tell) {
            for (const auto& [w, d] : neighbours(v)) {
                const auto back = static_cast<std::size_t>(opposite(d));
                Trail copy = tr;
                events_.push(now_ + t_.lifama, [this, w = w, back, copy, word = ldm.encode()]() mutable {
                    Node& nb = nodes_[w];
                    if (!nb.dnp_alive) return;
                    nb.rfd.file(static_cast<Direction>(back), word);
                    nb.dnp_status.neighbour_failing[back] = true;
                    copy.stage("LiFaMa message in a Credit -> neighbour DFM", now_);
                    nb.dfm_pending.push_back(std::move(copy));
                });
            }
        }
        node.hwr = hwr.encode() & ~1U;  // read and invalidate
    }

    void host_write(std::size_t v) {
        Node& node = nodes_[v];
        if (!node.host_alive) return;
        HostWatchdogRegister r = node.host_status;
        r.valid = true;
        r.send_ldm = !node.hfm_pending.empty();
        node.hwr = r.encode();
        pass_on(node.hfm_pending, node.hwr_trails, "HFM -> Host Watchdog Register");
    }

    void host_read(std::size_t v) {
        Node& node = nodes_[v];
        if (!node.host_alive) return;
        const auto dwr = DnpWatchdogRegister::decode(node.dwr);
        if (!dwr.valid && !node.dnp_reported_dead && saw_dnp_once_[v]) {
            node.dnp_reported_dead = true;
            tell_master(v, trail(Fault::dnp_breakdown, v, Detector::hfm,
                                 "HFM finds the DNP Watchdog Register not rewritten", now_,
                                 injected_at(v, Fault::dnp_breakdown)));
        }
        if (dwr.valid) saw_dnp_once_[v] = true;
        for (auto& tr : node.dwr_trails) {
            tr.stage("HFM reads the DNP Watchdog Register", now_);
            if (tr.fault == Fault::link_broken || tr.fault == Fault::host_and_dnp) {
                // The reporter's link towards the subject is broken.
                broken_reported_.insert({v, tr.subject});
                if (tr.fault == Fault::link_broken) broken_reported_.insert({tr.subject, v});
            }
            tell_master(v, std::move(tr));
        }
        node.dwr_trails.clear();
        node.dwr = dwr.encode() & ~1U;  // read and invalidate
    }

    void ping(std::size_t v) {
        Node& node = nodes_[v];
        if (!node.host_alive || node.snet_declared_broken) return;
        if (node.snet_ok && nodes_[master_].snet_ok) {
            node.unanswered_pings = 0;
            return;
        }
        // No pong within the timeout: wait one more period and retry; then declare it broken.
        if (++node.unanswered_pings == 2) {
            node.snet_declared_broken = true;
            node.host_status.service_net = Status::broken;
            const double detected = now_ + t_.ping_period;  // the second timeout expires
            events_.push(detected, [this, v] {
                nodes_[v].hfm_pending.push_back(trail(Fault::service_net_loss, v, Detector::hfm,
                                                      "HFM: two pings to the master unanswered", now_,
                                                      injected_at(v, Fault::service_net_loss)));
            });
        }
    }

    void tell_master(std::size_t from, Trail tr) {
        if (!nodes_[from].snet_ok || !nodes_[master_].snet_ok || !nodes_[from].host_alive) return;
        events_.push(now_ + t_.service_net, [this, tr = std::move(tr)]() mutable {
            tr.stage("service network -> Fault Supervisor", now_);
            const auto key = std::pair{static_cast<int>(tr.fault), tr.subject};
            if (aware_.count(key)) return;  // the first report decides
            Awareness a;
            a.fault = tr.fault;
            a.node = tr.subject;
            a.detector = tr.detector;
            a.path = tr.path;
            a.stage_times = tr.times;
            a.injected_at = tr.injected;
            a.aware_at = now_;
            aware_[key] = std::move(a);
        });
    }

    [[nodiscard]] double injected_at(std::size_t v, Fault f) const {
        for (const auto& x : faults_)
            if (x.node == v && (x.fault == f || (x.fault == Fault::host_and_dnp &&
                                                 (f == Fault::host_breakdown || f == Fault::dnp_breakdown))))
                return x.at;
        return now_;
    }

    std::array<std::uint32_t, 3> ext_;
    Timing t_;
    std::size_t master_;
    std::size_t n_ = 0;
    std::vector<Node> nodes_;
    std::vector<Injected> faults_;
    EventQueue events_;
    double now_ = 0;
    std::map<std::pair<int, std::size_t>, Awareness> aware_;
    std::set<std::pair<std::size_t, std::size_t>> broken_reported_;  // (reporter, neighbour it lost)
    std::map<std::size_t, bool> saw_host_once_, saw_dnp_once_;
};

}  // namespace fabric::lofamo
