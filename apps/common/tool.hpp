// What every command-line tool of fabric shares (docs/tools.md is the reference):
// its settings are one value, a struct deriving from Common whose options are
// declared once (options.hpp); run_tool reads them, in layers, from the defaults,
// a preset (--preset NAME, tools with presets), a configuration file (--config
// FILE, config_file.hpp) and the command line, each through the same checks, and
// refuses an option given twice or one that belongs to another topology. Every
// tool has --help, --version, --config, --dump-config, --output FILE (- for
// standard output; output.hpp), --format, --work-limit, --memory-limit and
// --input-limit. The exit status is 0 done, 2 bad options, configuration, input or
// output (a fabric: message), the tool's own otherwise (3 a deadlock), 70 an error
// the library did not expect (a fault to report). main() runs in guarded(): no
// exception escapes a tool, and under mpirun its ranks end alike (dist.hpp).
#pragma once

#include <algorithm>
#include <concepts>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
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
#include "files.hpp"
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
    o.push_back(option<S>(&S::input_limit, "--input-limit", "MB an input file may hold (a configuration, a graph, a "
                          "trace, a BookSim file): a larger one is refused before it is read",
                          at_least<std::uint64_t>(1)));
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
            }, o.full_help());
            continue;
        }
        CLI::Option* c = app.add_option(names, [&, p](const CLI::results_t& r) {
            set_option(options, *p, s, r, p->name, given);
            return true;
        }, o.full_help());
        c->type_name(o.type);
        const nlohmann::json now = o.get(s);
        c->default_str(now.is_string() ? now.get<std::string>() : now.is_array() ? now.dump() : now.dump());
        if (o.list) c->type_size(1)->expected(CLI::detail::expected_max_vector_size)->delimiter(',');
        else c->type_size(1)->expected(1);
    }
}

/// Refuses an option that changes nothing in the combination given: one of another
/// topology (the families of settings that have them), or one whose condition does
/// not hold (Option::with, without). An option counts as given when typed, or when a
/// configuration file sets it to another value than the defaults (and the preset)
/// would: an older --dump-config wrote every key, each at the value in force.
template <class S>
void refuse_without_effect(const Options<S>& options, const S& s, const std::set<std::string>& typed,
                           const std::set<std::string>& in_file) {
    S baseline;
    if constexpr (HasPresets<S>) {
        if (s.preset != baseline.preset) S::apply_preset(s.preset, baseline);
    }
    auto given = [&](const Option<S>& o) {
        return typed.contains(o.key()) || (in_file.contains(o.key()) && o.get(s) != o.get(baseline));
    };
    // Whether option `name` is at another value than the baseline's (`value` empty) or at `value`.
    auto at = [&](const std::string& name, const std::string& value) {
        const Option<S>* o = find_option(options, name);
        fabric::detail::require(o != nullptr, "a condition names ", name, ", which the tool does not have");
        const nlohmann::json v = o->get(s);
        if (value.empty()) return v != o->get(baseline);
        return (v.is_string() ? v.template get<std::string>() : v.dump()) == value;
    };
    for (const Option<S>& o : options) {
        if (!given(o)) continue;
        if constexpr (HasFamilies<S>) {
            if (!applies(s, o)) {
                std::string to;
                for (std::size_t i = 0; i < o.families.size(); ++i)
                    to += (i ? (i + 1 == o.families.size() ? " and " : ", ") : "") + o.families[i];
                throw fabric::config_error(fabric::detail::message(o.name, ": an option of the ", to, ", not of a ",
                                                                   s.family(), "; leave it out"));
            }
        }
        const Condition& c = o.condition;
        bool holds = c.with.empty();
        for (const auto& [name, value] : c.with) holds = holds || at(name, value);
        for (const auto& [name, value] : c.without) holds = holds && !at(name, value);
        fabric::detail::require(holds, o.name, ": only ", c.text(), "; it has no effect here: leave it out");
    }
}

/// A message as a tool prints it: every value it quotes ('...') longer than 200
/// characters cut to its ends and its length (files.hpp, shown), and the whole held to
/// 8,000 characters, so that a megabyte given as an option is not echoed back whole,
/// whichever layer wrote the message.
inline std::string cut_long_values(const std::string& message) {
    std::string out;
    for (std::size_t at = 0; at < message.size();) {
        const std::size_t open = message.find('\'', at);
        const std::size_t close = open == std::string::npos ? open : message.find('\'', open + 1);
        if (close == std::string::npos) {
            out += message.substr(at);
            break;
        }
        out += message.substr(at, open + 1 - at);
        out += shown(std::string_view(message).substr(open + 1, close - open - 1));
        out += '\'';
        at = close + 1;
    }
    return shown(out, 8000);
}

/// The verdict of the exception being handled: a `fabric:` message and status 2 for
/// what the input got wrong (a refused configuration, a path the system cannot
/// use, a run too large for the machine), 70 for an error fabric did not expect.
inline Verdict verdict_of_current_exception(const std::string& usage) {
    try {
        throw;
    } catch (const fabric::config_error& e) {
        return {true, 2, cut_long_values(e.what()) + "\n" + usage};
    } catch (const std::filesystem::filesystem_error& e) {  // a path no check looked at: the input's
        return {true, 2, "fabric: " + cut_long_values(e.what()) + "\n" + usage};
    } catch (const std::bad_alloc&) {
        return {true, 2, "fabric: out of memory: this configuration needs more memory than the machine gives; make "
                         "it smaller\n" + usage};
    } catch (const std::length_error& e) {
        return {true, 2, "fabric: a size is too large for this machine (" + std::string(e.what()) +
                             "); make the configuration smaller\n" + usage};
    } catch (const std::out_of_range& e) {
        return {true, 2, "fabric: a value is out of range (" + std::string(e.what()) + ")\n" + usage};
    } catch (const std::exception& e) {
        // Not a bad input the library recognised: a fault of ours. Status 70 (EX_SOFTWARE), which the fuzzer flags.
        return {true, 70, "fabric: internal error (please report it with the command line and the files it names): " +
                              cut_long_values(e.what()) + "\n"};
    } catch (...) {
        return {true, 70, "fabric: internal error (please report it with the command line and the files it names): "
                          "an exception of an unknown type\n"};
    }
}

/// A run's estimate as --estimate prints it: seconds and instructions, memory, and each part.
inline nlohmann::json estimate_json(const Cost& cost) {
    nlohmann::json work = nlohmann::json::array(), memory = nlohmann::json::array();
    for (const Cost::Work& w : cost.work)
        work.push_back({{"what", w.what}, {"units", w.units}, {"instructions", w.units * w.per_unit}});
    for (const Cost::Memory& m : cost.memory) memory.push_back({{"what", m.what}, {"mb", m.bytes / (1024.0 * 1024.0)}});
    return {{"seconds", cost.seconds()},
            {"instructions", cost.instructions()},
            {"instructions_per_second", reference_instructions_per_second},
            {"memory_mb", cost.bytes() / (1024.0 * 1024.0)},
            {"work", work},
            {"memory", memory}};
}

/// main()'s guard, the one every tool runs in: `work()` returns the exit status; any
/// exception becomes a `fabric:` message and status 2 (input) or 70 (internal). Under
/// mpirun the ranks settle on one verdict (dist.hpp): every rank ends with the same
/// status, and rank 0 prints the message once.
template <class Work>
int guarded(const std::string& usage, Work&& work) {
    Verdict v;
    try {
        v.status = work();
    } catch (const EstimateOnly& e) {  // --estimate: the estimate in place of the run
        if (root_rank()) std::cout << estimate_json(e.cost).dump(1) << '\n';
        v.status = 0;
    } catch (const AgreedFailure& e) {  // the ranks agreed at a checkpoint: settled already
        v = e.verdict;
        if (root_rank()) {
            end_progress_line();  // a message starts its own line
            std::fputs(v.message.c_str(), stderr);
        }
        return close_stdout() ? v.status : 2;
    } catch (...) {
        v = verdict_of_current_exception(usage);
    }
    v = settle(v);
    if (v.failed && root_rank()) {
        end_progress_line();  // a message starts its own line
        std::fputs(v.message.c_str(), stderr);
    }
    end_progress_line();  // (results written to a file leave it open until now)
    return close_stdout() ? v.status : 2;
}

/// No change to the command line (run_tool's `prepare`).
struct KeepArguments {
    template <class OptionOf>
    void operator()(int&, char**&, OptionOf&&) const {}
};

/// Runs tool `name`: options() declares its options on the settings' fields, body(settings,
/// output) does the work, writing its results to the output, and returns the exit status.
/// prepare(argc, argv, option_of) may rewrite the command line first (cycle_sim's --booksim),
/// option_of(spelling) naming the option a spelling is.
template <class S, class Body, class Prepare = KeepArguments>
int run_tool(int argc, char** argv, const std::string& name, const std::string& description, Body&& body,
             Prepare&& prepare = {}) {
    standard_streams_open();
    std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a failed write (status 2), not a silent death
    remove_temporaries_on_signals();
    const std::string usage = "usage: " + name + " [options]; " + name + " --help lists them\n";
    return guarded(usage, [&]() -> int {
        const Options<S> options = all_options<S>();
        Options<S> spelled = options;  // the tool's own options and run_tool's, for refuse_repeats
        for (const char* extra : {"--config", "--dump-config", "--estimate", "--version", "--help"}) {
            Option<S> o;
            o.name = extra;
            spelled.push_back(o);
        }
        prepare(argc, argv, [&](std::string_view spelling) {
            const Option<S>* o = find_option(spelled, spelling);
            return o ? target_of(spelled, *o).name : std::string(spelling);
        });
        refuse_repeats(spelled, argc, argv);
        S s;  // (not s{}: GCC 12 warns, wrongly, of the aggregate base left uninitialised)
        std::set<std::string> in_file, typed;  // the options a configuration file and the command line set
        // The input limit first: the configuration file is read with it.
        if (const std::string limit = argument_of(argc, argv, "--input-limit"); !limit.empty()) {
            S read;
            find_option(options, "--input-limit")->set(read, {limit}, "--input-limit");
            input_limit_mb() = read.input_limit;
        }
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
                       "written _), each checked as the option is; options given as well override it; a path it "
                       "gives is taken from its directory")->type_name("FILE");
        app.add_flag("--dump-config", dump, "print the configuration this command line implies, as JSON, and stop");
        app.add_flag("--estimate", estimate_only(), "print the run's estimated time and memory (JSON: each part, in "
                     "instructions of the reference machine), as the limits check them, and stop before it starts");
        app.add_flag("--version", version, "print the tool's version and stop");
        bind(app, options, s, typed);
        try {
            app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
            return root_rank() ? app.exit(e) : 0;  // under mpirun, printed once
        } catch (const CLI::ParseError& e) {
            throw fabric::config_error(fabric::detail::message(e.what()));
        }
        if (version) {
            const std::string commit = FABRIC_COMMIT;
            if (root_rank())
                std::printf("%s (fabric %s%s%s)\n", name.c_str(), FABRIC_VERSION, commit.empty() ? "" : ", commit ",
                            commit.c_str());
            return 0;
        }
        if constexpr (requires { s.resolve(); }) s.resolve();
        refuse_without_effect(options, s, typed, in_file);
        work_limit_seconds() = s.work_limit;
        memory_limit_mb() = s.memory_limit;
        input_limit_mb() = s.input_limit;
        const nlohmann::json settings = dump_config(options, s, [&](const Option<S>& o) { return applies(s, o); });
        if (dump) {
            if (root_rank()) std::cout << settings.dump(1) << '\n';  // under mpirun, printed once
            return 0;
        }
        // The files the settings name: an input looked at (and listed, so that no output
        // overwrites it) before any output is opened.
        note_input(file, "--config");
        for (const Option<S>& o : options)
            if (o.role == FileRole::input && applies(s, o))
                if (const nlohmann::json v = o.get(s); v.is_string()) note_input(v.template get<std::string>(), o.name);
        record_provenance(name, FABRIC_VERSION, FABRIC_COMMIT, settings);
        // Rank 0 writes the results; the other ranks of an mpirun compute with it and write nothing.
        OutputFile out = root_rank() ? OutputFile(s.output, "--output") : OutputFile();
        checkpoint();  // every rank learns of rank 0's refusal of the output, before any waits on another
        const int status = body(static_cast<const S&>(s), out);
        out.commit();
        return status;
    });
}

}  // namespace fabric_apps
