// What every command-line tool of fabric shares: its settings are one value, a
// struct that nlohmann-json can read and write (NLOHMANN_DEFINE_TYPE_*), whose
// fields the tool binds to CLI11 options. Then
//   --help           lists every option with its default;
//   --config FILE    takes the settings from a JSON file (a key the settings do
//                    not have is an error); options given as well override it;
//   --dump-config    prints the settings this command line implies and stops;
//   --preset NAME    (tools whose settings have presets, HasPresets) starts from
//                    a named set of settings; a configuration file's keys and
//                    the options given override it;
//   --work-limit S   refuses, before it starts, a run estimated to take longer
//                    than S seconds (default a day), with the figure;
//   --memory-limit M the same for a run estimated to need more than M MB
//                    (default 4096);
// and the exit status is the tool's own, 0 for --help and --dump-config, 2 for
// bad options or a bad configuration (with a fabric: message), including numbers
// that are negative where they may not be, not finite, out of range or followed
// by junk, and configurations too large for the machine's memory; 70 for an
// error the library did not expect (a fault to report).
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>

#include "dist.hpp"
#include "numbers.hpp"

namespace fabric_apps {

/// The settings a configuration file gives; keys must be the settings' own.
template <class Settings>
Settings settings_from(const nlohmann::json& j, const std::string& file) {
    fabric::detail::require(j.is_object(), file, ": a configuration is a JSON object of settings");
    const nlohmann::json known = Settings{};
    for (const auto& [key, value] : j.items()) {
        std::string valid;
        for (const auto& [k, v] : known.items()) valid += (valid.empty() ? "" : ", ") + k;
        fabric::detail::require(known.contains(key), file, ": unknown key '", key, "'; valid: ", valid);
    }
    try {
        return j.get<Settings>();
    } catch (const nlohmann::json::exception& e) {
        throw fabric::config_error(fabric::detail::message("fabric: ", file, ": ", e.what()));
    }
}

/// Settings with presets: a `preset` field and `apply_preset(name, settings)`,
/// which sets the fields the preset names (and throws on an unknown name).
template <class Settings>
concept HasPresets = requires(Settings& s, const std::string& name) {
    { s.preset } -> std::convertible_to<std::string>;
    Settings::apply_preset(name, s);
};

/// The value of option `name` (--name VALUE or --name=VALUE) on the command line, or "".
inline std::string argument_of(int argc, char** argv, std::string_view name) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == name && i + 1 < argc) return argv[i + 1];
        if (arg.starts_with(name) && arg.size() > name.size() && arg[name.size()] == '=')
            return std::string(arg.substr(name.size() + 1));
    }
    return {};
}

/// The settings before the command line's options are applied, in layers: the
/// defaults; the preset (--preset NAME, else the configuration file's "preset");
/// the keys of --config FILE.
template <class Settings>
Settings base_settings(int argc, char** argv) {
    const std::string file = argument_of(argc, argv, "--config");
    nlohmann::json given = nlohmann::json::object();
    if (!file.empty()) {
        std::ifstream in(file);
        fabric::detail::require(in.good(), "--config: cannot read '", file, "'");
        try {
            in >> given;
        } catch (const nlohmann::json::parse_error& e) {
            throw fabric::config_error(fabric::detail::message("fabric: ", file, ": not JSON: ", e.what()));
        }
        (void)settings_from<Settings>(given, file);  // its keys and values, checked on their own
    }
    Settings s{};
    if constexpr (HasPresets<Settings>) {
        std::string preset = argument_of(argc, argv, "--preset");
        if (preset.empty() && given.contains("preset") && given["preset"].is_string())
            preset = given["preset"].template get<std::string>();
        if (!preset.empty()) Settings::apply_preset(preset, s);
    }
    if (file.empty()) return s;
    nlohmann::json layered = s;
    layered.update(given);
    return settings_from<Settings>(layered, file);
}

/// The longest run a tool starts, in seconds of estimated run time (--work-limit).
inline double& work_limit_seconds() {
    static double limit = 24 * 3600.0;
    return limit;
}

/// Refuses, before it starts, a run of `units` of work (node-cycles, cycles, ...)
/// that at about `per_second` of them (this tool on one core, a conservative
/// figure) would take longer than --work-limit.
inline void check_work(double units, std::string_view unit, double per_second) {
    const double seconds = units / per_second;
    fabric::detail::require(seconds <= work_limit_seconds(), "this run would take about ", seconds, " s (", units, " ",
                            unit, " at about ", per_second, " per second); --work-limit is ", work_limit_seconds(),
                            " s: raise it, or make the run smaller");
}

/// A numeric option's valid values: checked by parse_number as the option is read
/// and shown in --help after its type ("UINT:in [8, 1048576]", "FLOAT:in (0, 8.5]",
/// "UINT:>= 1"). Combinations (n_d dividing 32, a buffer holding a packet) are
/// checked by the library and named in its message.
template <class T>
CLI::Validator range_validator(T lo, T hi, bool open_below, const std::string& desc) {
    return CLI::Validator(
        [lo, hi, open_below, desc](std::string& text) -> std::string {
            try {
                const T v = parse_number<T>(text, "value");
                if (v < lo || v > hi || (open_below && v == lo)) return "'" + text + "' is not " + desc;
                return {};
            } catch (const fabric::config_error& e) {
                const std::string what = e.what(), prefix = "fabric: value: ";
                return what.starts_with(prefix) ? what.substr(prefix.size()) : what;
            }
        },
        desc, "within");
}

template <class T>
CLI::Validator within(T lo, T hi, bool open_below = false) {
    std::ostringstream d;
    d << (open_below ? "in (" : "in [") << lo << ", " << hi << "]";
    return range_validator(lo, hi, open_below, d.str());
}

/// The same with no upper bound but the type's: shown as ">= lo".
template <class T>
CLI::Validator at_least(T lo) {
    std::ostringstream d;
    d << ">= " << lo;
    return range_validator(lo, std::numeric_limits<T>::max(), false, d.str());
}

/// A seed: every value of its type is valid.
inline CLI::Validator any_seed() {
    return range_validator<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max(), false, "any 64-bit value");
}

/// A text option that takes one of the listed words; the list is shown in --help.
inline CLI::Validator one_of(std::vector<std::string> words) { return CLI::IsMember(std::move(words)); }

/// The most memory a tool's run may take, in MB (--memory-limit; cycle_sim binds its
/// own, which goes to the kernel's CycleConfig::memory_limit_mb).
inline std::uint64_t& memory_limit_mb() {
    static std::uint64_t limit = 4096;
    return limit;
}

/// Refuses, before it allocates, a run that would take about `bytes` of memory
/// (`what` says of which data) past --memory-limit, with the figure.
inline void check_memory(double bytes, std::string_view what) {
    const double mb = bytes / (1024.0 * 1024.0);
    fabric::detail::require(mb <= static_cast<double>(memory_limit_mb()), "this run would need about ", mb, " MB (",
                            what, "); --memory-limit is ", memory_limit_mb(), " MB: raise it, or make the run smaller");
}

/// Every numeric option read by parse_number first: CLI11 alone lets "-1" through
/// into an unsigned 64-bit option (as 2^64 - 1) and "inf" or "nan" into a real one.
inline void check_numbers(CLI::App& app) {
    for (CLI::Option* opt : app.get_options()) {
        const std::string type = opt->get_type_name();
        const std::string name = opt->get_name();
        auto check = [name](auto parse) {
            return CLI::Validator(
                [name, parse](std::string& text) {
                    try {
                        parse(text, name);
                        return std::string();
                    } catch (const fabric::config_error& e) {
                        // CLI11 names the option itself: keep what parse_number says after it.
                        const std::string what = e.what(), prefix = "fabric: " + name + ": ";
                        return what.starts_with(prefix) ? what.substr(prefix.size()) : what;
                    }
                },
                "", "number");
        };
        if (type == "UINT") opt->check(check([](const std::string& t, const std::string& n) { parse_number<std::uint64_t>(t, n); }));
        else if (type == "INT") opt->check(check([](const std::string& t, const std::string& n) { parse_number<std::int64_t>(t, n); }));
        else if (type == "FLOAT") opt->check(check([](const std::string& t, const std::string& n) { parse_number<double>(t, n); }));
    }
}

/// Runs tool `name`: bind(app, settings) declares its options on the settings'
/// fields, body(settings) does the work and returns the exit status.
template <class Settings, class Bind, class Body>
int run_tool(int argc, char** argv, const std::string& name, const std::string& description, Bind&& bind, Body&& body) {
    const std::string usage = "usage: " + name + " [options]; " + name + " --help lists them\n";
    try {
        Settings s = base_settings<Settings>(argc, argv);
        CLI::App app{name + ": " + description + " Exit status: 0 done, 2 bad options or configuration."};
        std::string config_file;
        bool dump = false;
        app.add_option("--config", config_file,
                       "take the settings from this JSON file (keys: the options' names, - as _); options given "
                       "as well override it");
        app.add_flag("--dump-config", dump, "print the configuration this command line implies, as JSON, and stop");
        app.add_option("--work-limit", work_limit_seconds(),
                       "seconds of estimated run time past which a run is refused before it starts")
            ->check(within(0.0, 1e12, true))
            ->capture_default_str();
        bind(app, s);
        if (app.get_option_no_throw("--memory-limit") == nullptr)
            app.add_option("--memory-limit", memory_limit_mb(),
                           "MB a run may take: a larger one is refused before it starts, with the figure it needs")
                ->check(at_least<std::uint64_t>(1))
                ->capture_default_str();
        check_numbers(app);
        try {
            app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
            return app.exit(e);
        } catch (const CLI::ParseError& e) {
            std::fprintf(stderr, "fabric: %s\n%s", e.what(), usage.c_str());
            return 2;
        }
        fabric::detail::require(work_limit_seconds() > 0, "--work-limit must be positive; got ", work_limit_seconds());
        if (dump) {
            std::cout << nlohmann::json(s).dump(1) << '\n';
            return 0;
        }
        return body(static_cast<const Settings&>(s));
    } catch (const fabric::config_error& e) {
        // Under mpirun every rank reads the same options and refuses them alike: rank 0 says so.
        if (root_rank()) std::fprintf(stderr, "%s\n%s", e.what(), usage.c_str());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "fabric: a number could not be read (%s)\n%s", e.what(), usage.c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "fabric: out of memory: this configuration needs more memory than the machine gives; "
                             "make it smaller\n%s", usage.c_str());
        return 2;
    } catch (const std::length_error& e) {
        std::fprintf(stderr, "fabric: a size is too large for this machine (%s); make the configuration smaller\n%s",
                     e.what(), usage.c_str());
        return 2;
    } catch (const std::out_of_range& e) {
        std::fprintf(stderr, "fabric: a value is out of range (%s)\n%s", e.what(), usage.c_str());
        return 2;
    } catch (const std::exception& e) {
        // Not a bad input the library recognised: a fault of ours. Status 70 (EX_SOFTWARE), which the fuzzer flags.
        std::fprintf(stderr, "fabric: internal error (please report it with the command line): %s\n", e.what());
        return 70;
    }
}

}  // namespace fabric_apps
