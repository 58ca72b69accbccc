// What each row of the BookSim2 key table (booksim_keys.hpp) does with its key:
// translate it into cycle_sim options, accept only BookSim's default, or read
// nothing. Included by booksim_keys.hpp, after the Settings and the Reading
// (booksim_file.hpp) the rows use.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fabric/core/error.hpp>

namespace fabric_apps::booksim {

namespace rows {

using Apply = void (*)(Reading&, const char* key, const char* fallback);

inline void no_effect(Reading&, const char*, const char*) {}

inline void only_default(Reading& r, const char* key, const char* fallback) {
    const std::string t = r.text(key), d = fallback;
    char* end = nullptr;
    const double a = std::strtod(t.c_str(), &end);
    const bool a_num = !t.empty() && *end == '\0';
    const double b = std::strtod(d.c_str(), &end);
    if (a_num && !d.empty() && *end == '\0' ? a != b : t != d)
        r.refuse(key, "cycle_sim models BookSim's ", d.empty() ? "empty value" : "default " + d,
                 " of this key only (docs/booksim_files.md)");
}

/// The cube's extents: k, n times.
inline std::string extents(long long k, long long n) {
    std::string s;
    for (long long d = 0; d < n; ++d) {
        if (d) s += ',';
        s += std::to_string(k);
    }
    return s;
}

inline void topology(Reading& r, const char* key, const char*) {
    const std::string t = r.text(key);
    const long long k = r.whole("k"), n = r.whole("n");
    if (k < 1) r.refuse("k", "the radix is at least 1");
    if (t == "torus" || t == "mesh") {
        if (n < 1 || n > 4) return r.refuse("n", "cycle_sim builds a ", t, " of 1 to 4 dimensions");
        r.emit("--topology", t);
        r.emit("--dims", extents(k, n));
    } else if (t == "dragonflynew") {
        // BookSim's dragonfly of k terminals a router: a = 2k routers a group, h = k global ports, a h + 1
        // groups; its local channels take 10 cycles and its global ones 100, credits as well (DRAGON_LATENCY
        // in src/networks/dragonfly.cpp): local and global link classes here, credits over the link.
        if (n != 1) return r.refuse("n", "BookSim's dragonflynew is built for n = 1");
        if (k < 1 || k > 4) return r.refuse("k", "cycle_sim's dragonfly takes 1 to 4 terminals a router (k)");
        r.emit("--topology", "dragonfly");
        r.emit("--a", std::to_string(2 * k));
        r.emit("--h", std::to_string(k));
        r.emit("--g", "0");
        r.emit("--p", std::to_string(k));
        r.emit("--class-latency", "10,100");
        r.flag("--credits-over-link");
    } else if (t == "fattree") {
        r.emit("--topology", "fattree");
        r.emit("--k", std::to_string(k));
        r.emit("--n", std::to_string(n));
    } else if (t == "flatfly") {
        // BookSim's flattened butterfly: k routers in each of n dimensions, c terminals a router: a HyperX.
        if (n < 1 || n > 4) return r.refuse("n", "cycle_sim builds a HyperX of 1 to 4 dimensions");
        if (r.text("use_noc_latency") != "0")
            r.refuse("use_noc_latency", "BookSim's flatfly then sets each channel's latency from the routers' places "
                     "on a chip (x, y, xr, yr); cycle_sim gives every link one latency: set use_noc_latency = 0");
        // x, y, xr, yr then only renumber the terminals, which uniform traffic (the one flatfly takes) does not see.
        r.emit("--topology", "hyperx");
        r.emit("--dims", extents(k, n));
        r.emit("--p", std::to_string(r.whole("c")));
    } else if (t == "anynet") {
        // The routers and terminals of network_file (docs/graph_topology.md reads BookSim's format).
        const std::string file = r.text("network_file");
        if (file.empty()) return r.refuse("network_file", "topology = anynet reads its network from this file: give it");
        r.emit("--topology", "graph");
        r.emit("--graph", r.beside(file));
    } else {
        r.refuse(key, "cycle_sim builds torus, mesh, fattree, flatfly, dragonflynew and anynet");
    }
}

inline void routing_function(Reading& r, const char* key, const char*) {
    struct Name {
        const char *topology, *function, *word;
    };
    static constexpr Name names[] = {{"torus", "dim_order", "dor"}, {"mesh", "dim_order", "dor"},
                                     {"mesh", "dor", "dor"},        {"fattree", "nca", "nca"},
                                     {"flatfly", "ran_min", "dor"}, {"anynet", "min", "shortest"},
                                     {"dragonflynew", "min", "min"}, {"dragonflynew", "ugal", "ugal-l"}};
    const std::string t = r.text("topology"), f = r.text(key);
    std::string known;
    for (const Name& n : names) {
        if (n.topology != t) continue;
        if (n.function == f) {
            r.emit("--routing", n.word);
            // dim_order_torus: a leg that will wrap takes the upper VC for its whole ring.
            if (t == "torus") r.emit("--dateline", "whole-ring");
            return;
        }
        if (!known.empty()) known += ", ";
        known += n.function;
    }
    if (!known.empty()) r.refuse(key, "on a ", t, " cycle_sim routes ", known);
}

inline void num_vcs(Reading& r, const char* key, const char*) {
    const std::string t = r.text("topology");
    const long long v = r.whole(key);
    if (t == "torus" || t == "mesh" || t == "flatfly") {
        // dim_order_torus splits the VCs in two at the dateline: one VC each side here. On a mesh or a flatfly
        // BookSim lets a packet take any VC at every hop: --vc-choice any, with the VCs cycle_sim builds there.
        if (t == "torus" ? v != 2 : v != 1 && v != 2)
            return r.refuse(key, t == "torus" ? "a torus here has 2 VCs (BookSim's dateline halves)"
                                              : "cycle_sim builds a mesh or a flatfly of 1 or 2 VCs");
        r.emit("--vcs", std::to_string(v));
        if (t != "torus" && v > 1) r.emit("--vc-choice", "any");
        r.emit("--injection-queues", std::to_string(v));  // BookSim's sources use every VC
    } else if (t == "dragonflynew") {
        // BookSim's min takes VC 0 before the global hop and 1 after it; its ugal 3 (src/networks/dragonfly.cpp).
        const bool min = r.text("routing_function") != "ugal";
        if (v != (min ? 2 : 3))
            return r.refuse(key, "BookSim's dragonflynew routes ", min ? "min on 2 VCs" : "ugal on 3 VCs",
                            ", as cycle_sim's dragonfly does");
        r.emit("--injection-queues", std::to_string(v));  // BookSim's sources use every VC
    } else if (t == "anynet") {
        // BookSim lets a packet take any VC at every hop; cycle_sim keeps a route on one, its layer
        // (routing/graph_shortest_path.hpp), so that no route can deadlock.
        if (v != 1 && v != 2 && v != 4)
            return r.refuse(key, "cycle_sim's graph has links of 2 or 4 VCs, its routes layered on 1 to 4: num_vcs = "
                            "1, 2 or 4 is the same number of VCs in use");
        r.emit("--vcs", std::to_string(v));
        r.emit("--injection-queues", std::to_string(v));
    } else if (t == "fattree") {
        // nca needs one VC; BookSim lets a packet take any of them at every hop (--vc-choice any).
        if (v != 1 && v != 4) return r.refuse(key, "cycle_sim builds a fat tree of 1 or 4 VCs");
        if (v == 4) {
            r.emit("--vcs", "4");
            r.emit("--vc-choice", "any");
        }
        r.emit("--injection-queues", std::to_string(v));
    }
}

/// BookSim holds a switch input and output from a packet's head to its tail: with packets of one flit, that is
/// no hold at all (the head is the tail), the same run as without.
inline void hold_switch_for_packet(Reading& r, const char* key, const char*) {
    const std::string t = r.text(key);
    if (t == "0") return;
    if (t != "1") return r.refuse(key, "0 or 1");
    if (!r.items("packet_size").empty() || r.whole("packet_size") != 1)
        r.refuse(key, "cycle_sim holds no switch for a packet, which is the same run only when every packet is one "
                 "flit (packet_size = 1): set hold_switch_for_packet = 0");
}

inline void vc_buf_size(Reading& r, const char* key, const char*) { r.emit("--vc-buf", r.text(key)); }

inline void flag_if_one(Reading& r, const char* key, const char* option) {
    const std::string t = r.text(key);
    if (t == "1") r.flag(option);
    else if (t != "0") r.refuse(key, "0 or 1");
}
inline void wait_for_tail_credit(Reading& r, const char* key, const char*) {
    flag_if_one(r, key, "--wait-for-tail-credit");
}
inline void speculative(Reading& r, const char* key, const char*) { flag_if_one(r, key, "--speculative"); }

inline void routing_delay(Reading& r, const char*, const char*) {
    std::string d;
    for (const char* stage : {"routing_delay", "vc_alloc_delay", "sw_alloc_delay", "st_final_delay"}) {
        if (!d.empty()) d += ',';
        d += std::to_string(r.whole(stage));
    }
    r.emit("--router-delay", d);
}

/// The latency of BookSim's channels between routers, credits' included: 1, but on a
/// torus with use_noc_latency = 1 (its default) 2, "longer due to wrap around"
/// (src/networks/kncube.cpp). A flatfly's is refused with the topology unless 1.
inline long long channel_latency(Reading& r) {
    const std::string noc = r.text("use_noc_latency");
    if (noc != "0" && noc != "1") r.refuse("use_noc_latency", "0 or 1");
    return r.text("topology") == "torus" && noc == "1" ? 2 : 1;
}
inline void use_noc_latency(Reading& r, const char*, const char*) {
    const long long latency = channel_latency(r);
    if (r.text("topology") == "dragonflynew") return;  // its links' latencies are --class-latency's
    r.emit("--link-latency", std::to_string(latency));
}
/// A credit: BookSim's router makes it when the flit leaves its buffer (switch
/// allocation, cycle t), writes it on the credit channel in that cycle, the sender
/// reads it the channel's latency L and one cycle later (a channel read in the
/// cycle after the write, as flits are) and holds it credit_delay cycles more: it
/// counts from t + L + 1 + credit_delay (traced with BookSim's watch on mesh88_lat:
/// docs/booksim_files.md, "The two contention gaps"). Here a credit counts from
/// t + --credit-delay. On a dragonflynew the credit crosses the link here too
/// (--credits-over-link): credit_delay + 1 on top of it.
inline void credit_delay(Reading& r, const char* key, const char*) {
    const long long c = r.whole(key);
    if (c < 0) return r.refuse(key, "a delay of 0 cycles or more");
    if (r.text("topology") == "dragonflynew") return r.emit("--credit-delay", std::to_string(c + 1));
    r.emit("--credit-delay", std::to_string(c + channel_latency(r) + 1));
}

inline const char* allocator_word(const std::string& name) {
    if (name == "islip") return "islip";
    if (name == "separable_input_first") return "separable";
    if (name == "separable_output_first") return "output-first";
    if (name == "wavefront") return "wavefront";
    return nullptr;
}
inline void sw_allocator(Reading& r, const char* key, const char*) {
    if (const char* w = allocator_word(r.text(key))) return r.emit("--allocator", w);
    r.refuse(key, "islip, separable_input_first, separable_output_first or wavefront");
}
/// Routes here name each hop's output VC, so a VC allocator has one request per input VC.
inline void vc_allocator(Reading& r, const char* key, const char*) {
    if (!allocator_word(r.text(key))) r.refuse(key, "islip, separable_input_first, separable_output_first or wavefront");
}

inline void traffic(Reading& r, const char* key, const char*) {
    const std::string t = r.text(key), topo = r.text("topology");
    if (topo == "flatfly" && t != "uniform")
        return r.refuse(key, "BookSim's flatfly numbers its terminals by their places on a chip, not as cycle_sim's "
                        "HyperX (terminal t on router t / c): only uniform traffic is the same");
    for (const char* ok : {"uniform", "transpose", "bitrev", "bitcomp", "shuffle", "randperm", "tornado"})
        if (t == ok) return r.emit("--pattern", t);
    if (t == "neighbor") return r.emit("--pattern", "neighbour");
    r.refuse(key, "cycle_sim has uniform, transpose, bitrev, bitcomp, shuffle, randperm, tornado and neighbor");
}

/// The mean packet size, flits (packet_size: one size, or two with packet_size_rate).
inline double packet_size(Reading& r, bool emit) {
    const auto& sizes = r.items("packet_size");
    if (sizes.empty()) {
        const long long n = r.whole("packet_size");
        if (emit) r.emit("--packet", std::to_string(n));
        return static_cast<double>(n);
    }
    const auto& rates = r.items("packet_size_rate");
    if (sizes.size() != 2 || rates.size() != 2) {
        if (emit) r.refuse("packet_size", "one size, or two with packet_size_rate = {a, b} (cycle_sim's S:L:P)");
        return 1;
    }
    const double s = std::atof(sizes[0].c_str()), l = std::atof(sizes[1].c_str());
    const double p = std::atof(rates[0].c_str()) / (std::atof(rates[0].c_str()) + std::atof(rates[1].c_str()));
    if (emit) r.emit("--packet", sizes[0] + ":" + sizes[1] + ":" + number_text(p));
    return p * s + (1 - p) * l;
}
inline void packet_size(Reading& r, const char*, const char*) { packet_size(r, true); }

/// injection_rate, in packets a cycle a terminal unless injection_rate_uses_flits = 1.
inline void injection_rate(Reading& r, const char* key, const char*) {
    if (!r.items(key).empty()) return r.refuse(key, "one rate (a list is per traffic class; classes = 1 here)");
    const std::string flits = r.text("injection_rate_uses_flits");
    if (flits != "0" && flits != "1") r.refuse("injection_rate_uses_flits", "0 or 1");
    const double rate = r.number(key);
    r.emit("--rate", number_text(flits == "1" ? rate : rate * packet_size(r, false)));
}

inline void injection_process(Reading& r, const char* key, const char*) {
    const std::string p = r.text(key);
    if (p == "on_off") return r.emit("--burst", number_text(r.number("burst_alpha")) + ":" +
                                                    number_text(r.number("burst_beta")));
    if (p != "bernoulli") r.refuse(key, "bernoulli or on_off");
}

inline void sim_type(Reading& r, const char* key, const char*) {
    if (r.text(key) != "latency")
        r.refuse(key, "cycle_sim's sampler judges latency and throughput together and drains the measured packets, "
                 "as BookSim's sim_type = latency; throughput and batch runs are not modelled");
}

inline void option(Reading& r, const char* key, const char* name) { r.emit(name, number_text(r.number(key))); }
inline void warmup_periods(Reading& r, const char* key, const char*) { option(r, key, "--warmup-periods"); }
inline void sample_period(Reading& r, const char* key, const char*) {
    // BookSim's latency runs take their window from the sample periods: a period of 0 is no
    // sampler at all, and cycle_sim's --sample-period 0 (a fixed window) is not a BookSim setting.
    const std::size_t refused = r.refusals.size();
    const double period = r.number(key);
    if (r.refusals.size() == refused && period < 1) return r.refuse(key, "a sample period is at least 1 cycle");
    option(r, key, "--sample-period");
}
inline void max_samples(Reading& r, const char* key, const char*) { option(r, key, "--max-samples"); }
/// BookSim: a negative threshold is none; cycle_sim: 0.
inline void latency_thres(Reading& r, const char* key, const char*) {
    r.emit("--latency-thres", number_text(std::max(0.0, r.number(key))));
}
/// One threshold serves latency and accepted rate here: BookSim's two must agree.
inline void threshold(Reading& r, const char* key, const char* accepted_key, const char* option) {
    const double t = r.number(key);
    if (t != r.number(accepted_key))
        r.refuse(accepted_key, "cycle_sim's sampler has one threshold for latency and accepted rate: set ", key,
                 " and ", accepted_key, " alike");
    r.emit(option, number_text(t));
}
inline void warmup_thres(Reading& r, const char* key, const char*) {
    threshold(r, key, "acc_warmup_thres", "--warmup-thres");
}
inline void stopping_thres(Reading& r, const char* key, const char*) {
    threshold(r, key, "acc_stopping_thres", "--stopping-thres");
}

inline void seed(Reading& r, const char* key, const char*) {
    if (r.text(key) == "time") return r.refuse(key, "give a number: a run here is repeatable from its seed");
    const long long s = r.whole(key);
    if (s < 0) return r.refuse(key, "a seed here is at least 0");
    r.emit("--seeds", std::to_string(s));
}

inline void watch_packets(Reading& r, const char* key, const char*) {
    if (!r.given(key)) return;
    std::string list;
    for (const auto& p : r.items(key).empty() ? std::vector<std::string>{r.text(key)} : r.items(key)) {
        if (!list.empty()) list += ',';
        list += p;
    }
    r.emit("--watch", list);
    if (!r.text("watch_out").empty()) r.emit("--watch-file", r.text("watch_out"));
}

}  // namespace rows

}  // namespace fabric_apps::booksim
