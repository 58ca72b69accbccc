// The one table of BookSim2 keys cycle_sim knows (booksim_file.hpp reads the
// files): every key of BookSim2's src/booksim_config.cpp (commit 28f43299), its
// default there, and what it becomes. Three kinds of row:
//   - a translation: the cycle_sim options that make BookSim's run (its default
//     is translated too, so a setting cycle_sim would default otherwise is BookSim's);
//   - only_default: cycle_sim models BookSim's default and nothing else, so any
//     other value is refused;
//   - no_effect: BookSim itself does not read the key in any run cycle_sim makes
//     (another router, sim_type or topology), or another row reads it.
// A key not in the table is refused. docs/booksim_files.md explains each row.
// Included by booksim_file.hpp, after the Settings and the Reading it uses.
#pragma once

#include "booksim_rows.hpp"

namespace fabric_apps::booksim {

struct Key {
    const char* name;
    const char* fallback;  // BookSim2's default
    rows::Apply apply;
};

// clang-format off
inline constexpr Key keys[] = {
    // topology (k, n, c, x, y, xr and yr are read with it)
    {"topology", "torus", rows::topology}, {"k", "8", rows::no_effect}, {"n", "2", rows::no_effect},
    {"c", "1", rows::no_effect}, {"x", "8", rows::no_effect}, {"y", "8", rows::no_effect},
    {"xr", "1", rows::no_effect}, {"yr", "1", rows::no_effect}, {"use_noc_latency", "1", rows::use_noc_latency},
    {"routing_function", "none", rows::routing_function}, {"num_vcs", "16", rows::num_vcs},
    {"subnets", "1", rows::only_default}, {"channel_file", "", rows::only_default},
    {"link_failures", "0", rows::only_default}, {"fail_seed", "0", rows::only_default},
    {"in_ports", "5", rows::no_effect}, {"out_ports", "5", rows::no_effect},  // topology = single only
    {"network_file", "", rows::no_effect},  // read with topology = anynet
    // the router
    {"router", "iq", rows::only_default}, {"vc_buf_size", "8", rows::vc_buf_size},
    {"buf_size", "-1", rows::only_default}, {"buffer_policy", "private", rows::only_default},
    {"private_bufs", "-1", rows::only_default}, {"private_buf_size", "1", rows::only_default},
    {"private_buf_start_vc", "-1", rows::only_default}, {"private_buf_end_vc", "-1", rows::only_default},
    {"max_held_slots", "-1", rows::only_default}, {"feedback_aging_scale", "1", rows::only_default},
    {"feedback_offset", "0", rows::only_default},
    {"wait_for_tail_credit", "0", rows::wait_for_tail_credit}, {"vc_busy_when_full", "0", rows::only_default},
    {"vc_prioritize_empty", "0", rows::only_default}, {"vc_priority_donation", "0", rows::only_default},
    {"vc_shuffle_requests", "0", rows::only_default}, {"hold_switch_for_packet", "0", rows::hold_switch_for_packet},
    {"speculative", "0", rows::speculative}, {"spec_check_elig", "1", rows::only_default},
    {"spec_check_cred", "1", rows::only_default}, {"spec_mask_by_reqs", "0", rows::only_default},
    {"spec_sw_allocator", "prio", rows::only_default},
    {"input_speedup", "1", rows::only_default}, {"output_speedup", "1", rows::only_default},
    {"internal_speedup", "1.0", rows::only_default}, {"output_buffer_size", "-1", rows::only_default},
    {"noq", "0", rows::only_default}, {"output_delay", "0", rows::only_default},
    {"routing_delay", "1", rows::routing_delay}, {"vc_alloc_delay", "1", rows::no_effect},
    {"sw_alloc_delay", "1", rows::no_effect}, {"st_prepare_delay", "0", rows::only_default},
    {"st_final_delay", "1", rows::no_effect}, {"credit_delay", "0", rows::credit_delay},
    {"vct", "0", rows::no_effect},  // read by BookSim's event-driven router only
    {"vc_allocator", "islip", rows::vc_allocator}, {"sw_allocator", "islip", rows::sw_allocator},
    {"arb_type", "round_robin", rows::only_default}, {"alloc_iters", "1", rows::only_default},
    // traffic
    {"classes", "1", rows::only_default}, {"class_priority", "0", rows::only_default},
    {"priority", "none", rows::only_default}, {"traffic", "uniform", rows::traffic},
    {"perm_seed", "0", rows::only_default}, {"injection_rate", "0.1", rows::injection_rate},
    {"injection_rate_uses_flits", "0", rows::no_effect}, {"packet_size", "1", rows::packet_size},
    {"packet_size_rate", "1", rows::no_effect}, {"injection_process", "bernoulli", rows::injection_process},
    {"burst_alpha", "0.5", rows::no_effect}, {"burst_beta", "0.5", rows::no_effect},
    {"burst_r1", "-1.0", rows::only_default},
    // request-reply traffic and batch runs: BookSim reads these only with use_read_write = 1 or sim_type = batch
    {"use_read_write", "0", rows::only_default}, {"write_fraction", "0.5", rows::no_effect},
    {"batch_size", "1000", rows::no_effect}, {"batch_count", "1", rows::no_effect},
    {"max_outstanding_requests", "0", rows::no_effect},
    {"read_request_begin_vc", "0", rows::no_effect}, {"read_request_end_vc", "5", rows::no_effect},
    {"write_request_begin_vc", "2", rows::no_effect}, {"write_request_end_vc", "7", rows::no_effect},
    {"read_reply_begin_vc", "8", rows::no_effect}, {"read_reply_end_vc", "13", rows::no_effect},
    {"write_reply_begin_vc", "10", rows::no_effect}, {"write_reply_end_vc", "15", rows::no_effect},
    {"read_request_subnet", "0", rows::no_effect}, {"read_reply_subnet", "0", rows::no_effect},
    {"write_request_subnet", "0", rows::no_effect}, {"write_reply_subnet", "0", rows::no_effect},
    {"read_request_size", "1", rows::no_effect}, {"write_request_size", "1", rows::no_effect},
    {"read_reply_size", "1", rows::no_effect}, {"write_reply_size", "1", rows::no_effect},
    // the run
    {"sim_type", "latency", rows::sim_type}, {"warmup_periods", "3", rows::warmup_periods},
    {"sample_period", "1000", rows::sample_period}, {"max_samples", "10", rows::max_samples},
    {"measure_stats", "1", rows::only_default}, {"pair_stats", "0", rows::only_default},
    {"latency_thres", "500.0", rows::latency_thres}, {"warmup_thres", "0.05", rows::warmup_thres},
    {"acc_warmup_thres", "0.05", rows::no_effect}, {"stopping_thres", "0.05", rows::stopping_thres},
    {"acc_stopping_thres", "0.05", rows::no_effect}, {"sim_count", "1", rows::only_default},
    {"include_queuing", "1", rows::only_default}, {"seed", "0", rows::seed},
    {"print_activity", "0", rows::only_default}, {"print_csv_results", "0", rows::only_default},
    {"deadlock_warn_timeout", "256", rows::no_effect},  // BookSim warns; cycle_sim's --watchdog finds the cycle
    {"viewer_trace", "0", rows::only_default}, {"watch_file", "", rows::only_default},
    {"watch_flits", "", rows::only_default}, {"watch_packets", "", rows::watch_packets},
    {"watch_transactions", "", rows::only_default}, {"watch_out", "", rows::no_effect},
    {"stats_out", "", rows::only_default}, {"sent_packets_out", "", rows::only_default},
    // the power model
    {"sim_power", "0", rows::only_default}, {"power_output_file", "pwr_tmp", rows::no_effect},
    {"tech_file", "", rows::no_effect}, {"channel_width", "128", rows::no_effect},
    {"channel_sweep", "0", rows::no_effect},
};
// clang-format on

inline const Key* find_key(const std::string& name) {
    for (const Key& k : keys)
        if (name == k.name) return &k;
    return nullptr;
}

inline std::string Reading::text(const std::string& key) const {
    if (given(key)) return s_.at(key).text;
    const Key* k = find_key(key);
    return k ? k->fallback : "";
}

/// The cycle_sim options that make the run `settings` (of `file`) describe, after
/// BookSim's input-queued router (--preset booksim-iq); every setting cycle_sim
/// cannot honour is refused, all of them in one config_error.
inline std::vector<Option> translate(const Settings& settings, const std::string& file) {
    Reading r(settings, file);
    for (const auto& [key, s] : settings)
        if (!find_key(key))
            r.refusals.push_back(fabric::detail::message(s.where, ": ", shown(key), ": not a key of BookSim2 "
                                 "(src/booksim_config.cpp) that cycle_sim knows; docs/booksim_files.md lists them"));
    r.emit("--preset", "booksim-iq");
    for (const Key& k : keys) k.apply(r, k.name, k.fallback);
    if (!r.refusals.empty()) {
        std::string all;
        for (const auto& m : r.refusals) {
            if (!all.empty()) all += '\n';
            all += m;
        }
        throw fabric::config_error(all);
    }
    return r.out;
}

}  // namespace fabric_apps::booksim
