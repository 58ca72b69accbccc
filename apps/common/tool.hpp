// What every command-line tool of fabric shares (docs/tools.md is the reference):
// its settings are one value, a struct deriving from Common whose options are
// declared once (options.hpp); run_tool reads them, in layers, from the defaults,
// a preset (--preset NAME, tools with presets), a configuration file (--config
// FILE, config_file.hpp) and the command line, each through the same checks, and
// refuses an option given twice or one that belongs to another topology. Every
// tool has --help, --version, --config, --dump-config, --output FILE (- for
// standard output; output.hpp), --format, --work-limit and --memory-limit. The
// exit status is 0 done, 2 bad options, configuration or output (a fabric:
// message), the tool's own otherwise (3 a deadlock), 70 an error the library did
// not expect (a fault to report).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>

#include "config_file.hpp"
#include "dist.hpp"
#include "limits.hpp"
#include "numbers.hpp"
#include "options.hpp"
#include "output.hpp"
#include "provenance.hpp"

#ifndef FABRIC_VERSION
#error "fabric: a tool's main unit is compiled with FABRIC_VERSION (apps/CMakeLists.txt, fabric_app)"
#endif
#ifndef FABRIC_COMMIT
#define FABRIC_COMMIT ""  // (built outside a git checkout: the version alone says what made an output)
#endif

namespace fabric_apps {

/// Settings with presets: a `preset` field and `apply_preset(name, settings)`,
/// which sets the fields the preset names (and throws on an unknown name).
template <class S>
concept HasPresets = requires(S& s, const std::string& name) {
    { s.preset } -> std::convertible_to<std::string>;
    S::apply_preset(name, s);
};
/// Settings whose options belong to families (cycle_sim's topologies): family() names the run's.
template <class S>
concept HasFamilies = requires(const S& s) {
    { s.family() } -> std::convertible_to<std::string>;
};

/// The value of option `name` (--name VALUE or --name=VALUE) on the command line, or "".
inline std::string argument_of(int argc, char** argv, std::string_view name) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;
        if (arg == name && i + 1 < argc) return argv[i + 1];
        if (arg.starts_with(name) && arg.size() > name.size() && arg[name.size()] == '=')
            return std::string(arg.substr(name.size() + 1));
    }
    return {};
}

template <class S>
bool applies(const S& s, const Option<S>& o) {
    if constexpr (HasFamilies<S>)
        return o.families.empty() || std::find(o.families.begin(), o.families.end(), s.family()) != o.families.end();
    else return true;
}

/// Every option of S: its own, then those every tool has.
template <class S>
Options<S> all_options() {
    Options<S> o = S::options();
    o.push_back(option<S>(&S::output, "--output", "where the results go: a file, or - for standard output (the file "
                          "is written whole or not at all)", file()));
    o.push_back(option<S>(&S::work_limit, "--work-limit", "seconds of estimated run time past which a run is refused "
                          "before it starts", within(0.0, 1e12, true)));
    o.push_back(option<S>(&S::memory_limit, "--memory-limit", "MB a run may take: a larger one is refused before it "
                          "starts, with the figure it needs", at_least<std::uint64_t>(1)));
    return o;
}

/// Declares the options on `app`, each setting `s` through its own checks.
template <class S>
void bind(CLI::App& app, const Options<S>& options, S& s, std::set<std::string>& given) {
    for (const Option<S>& o : options) {
        std::string names = o.name;
        for (const auto& syn : o.synonyms) names += "," + syn;
        const Option<S>* p = &o;
        if (o.flag) {
            app.add_flag_function(names, [&, p](std::int64_t n) {
                set_option(options, *p, s, {n > 0 ? "true" : "false"}, p->name, given);
            }, o.help);
            continue;
        }
        CLI::Option* c = app.add_option(names, [&, p](const CLI::results_t& r) {
            set_option(options, *p, s, r, p->name, given);
            return true;
        }, o.help);
        c->type_name(o.type);
        const nlohmann::json now = o.get(s);
        c->default_str(now.is_string() ? now.get<std::string>() : now.is_array() ? now.dump() : now.dump());
        if (o.list) c->type_size(1)->expected(CLI::detail::expected_max_vector_size)->delimiter(',');
        else c->type_size(1)->expected(1);
    }
}

/// Runs tool `name`: options() declares its options on the settings' fields, body(settings,
/// output) does the work, writing its results to the output, and returns the exit status.
template <class S, class Body>
int run_tool(int argc, char** argv, const std::string& name, const std::string& description, Body&& body) {
    standard_streams_open();
    const std::string usage = "usage: " + name + " [options]; " + name + " --help lists them\n";
    int status = 2;
    try {
        const Options<S> options = all_options<S>();
        Options<S> spelled = options;  // the tool's own options and run_tool's, for refuse_repeats
        for (const char* extra : {"--config", "--dump-config", "--version", "--help"}) {
            Option<S> o;
            o.name = extra;
            spelled.push_back(o);
        }
        refuse_repeats(spelled, argc, argv);
        S s;  // (not s{}: GCC 12 warns, wrongly, of the aggregate base left uninitialised)
        std::set<std::string> in_file, typed;  // the options a configuration file and the command line set
        const std::string file = argument_of(argc, argv, "--config");
        const nlohmann::json config = file.empty() ? nlohmann::json::object() : read_config_file(file);
        if constexpr (HasPresets<S>) {
            std::string preset = argument_of(argc, argv, "--preset");
            if (preset.empty() && config.contains("preset") && config["preset"].is_string())
                preset = config["preset"].template get<std::string>();
            if (!preset.empty()) S::apply_preset(preset, s);
        }
        apply_config(options, s, config, file, in_file);
        CLI::App app{name + ": " + description + " Exit status: 0 done, 2 bad options, configuration or output."};
        bool dump = false, version = false;
        std::string config_file;
        app.add_option("--config", config_file, "take the settings from this JSON file (keys: the options' names, - "
                       "written _), each checked as the option is; options given as well override it")->type_name("FILE");
        app.add_flag("--dump-config", dump, "print the configuration this command line implies, as JSON, and stop");
        app.add_flag("--version", version, "print the tool's version and stop");
        bind(app, options, s, typed);
        try {
            app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
            status = app.exit(e);
            return close_stdout() ? status : 2;
        } catch (const CLI::ParseError& e) {
            std::fprintf(stderr, "fabric: %s\n%s", e.what(), usage.c_str());
            close_stdout();
            return 2;
        }
        if (version) {
            const std::string commit = FABRIC_COMMIT;
            std::printf("%s (fabric %s%s%s)\n", name.c_str(), FABRIC_VERSION, commit.empty() ? "" : ", commit ",
                        commit.c_str());
            return close_stdout() ? 0 : 2;
        }
        if constexpr (requires { s.resolve(); }) s.resolve();
        if constexpr (HasFamilies<S>) {
            S defaults;
            for (const auto& o : options) {
                // A file may hold another topology's option at its default (an older --dump-config
                // wrote every key): it changes nothing. Typed, or set to another value, it is refused.
                const bool changes = typed.contains(o.key()) || (in_file.contains(o.key()) && o.get(s) != o.get(defaults));
                if (!changes || applies(s, o)) continue;
                std::string to;
                for (std::size_t i = 0; i < o.families.size(); ++i)
                    to += (i ? (i + 1 == o.families.size() ? " and " : ", ") : "") + o.families[i];
                throw fabric::config_error(fabric::detail::message(o.name, ": an option of the ", to,
                                                                   ", not of a ", s.family(), "; leave it out"));
            }
        }
        work_limit_seconds() = s.work_limit;
        memory_limit_mb() = s.memory_limit;
        const nlohmann::json settings = dump_config(options, s, [&](const Option<S>& o) { return applies(s, o); });
        if (dump) {
            std::cout << settings.dump(1) << '\n';
            return close_stdout() ? 0 : 2;
        }
        record_provenance(name, FABRIC_VERSION, FABRIC_COMMIT, settings);
        // Rank 0 writes the results; the other ranks of an mpirun compute with it and write nothing.
        OutputFile out = root_rank() ? OutputFile(s.output, "--output") : OutputFile();
        status = body(static_cast<const S&>(s), out);
        out.commit();
    } catch (const fabric::config_error& e) {
        end_progress_line();  // a message starts its own line
        // Under mpirun every rank reads the same options and refuses them alike: rank 0 says so.
        if (root_rank()) std::fprintf(stderr, "%s\n%s", e.what(), usage.c_str());
        status = 2;
    } catch (const std::bad_alloc&) {
        end_progress_line();  // a message starts its own line
        std::fprintf(stderr, "fabric: out of memory: this configuration needs more memory than the machine gives; "
                             "make it smaller\n%s", usage.c_str());
        status = 2;
    } catch (const std::length_error& e) {
        end_progress_line();  // a message starts its own line
        std::fprintf(stderr, "fabric: a size is too large for this machine (%s); make the configuration smaller\n%s",
                     e.what(), usage.c_str());
        status = 2;
    } catch (const std::out_of_range& e) {
        end_progress_line();  // a message starts its own line
        std::fprintf(stderr, "fabric: a value is out of range (%s)\n%s", e.what(), usage.c_str());
        status = 2;
    } catch (const std::exception& e) {
        end_progress_line();  // a message starts its own line
        // Not a bad input the library recognised: a fault of ours. Status 70 (EX_SOFTWARE), which the fuzzer flags.
        std::fprintf(stderr, "fabric: internal error (please report it with the command line): %s\n", e.what());
        status = 70;
    }
    end_progress_line();  // (results written to a file leave it open until now)
    return close_stdout() ? status : 2;
}

}  // namespace fabric_apps
