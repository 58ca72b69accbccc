// A tool's options, declared once: each is a field of the tool's settings, a name,
// a line of help and a kind (a number and its valid values, one of some words,
// text, a flag, or a list of one of these). From that one list come the CLI11
// options and their --help, the keys of a configuration file (the name without
// "--", '-' written '_'), which are read through the same parser and checks as the
// options, and the file --dump-config writes. A plain list of member pointers,
// not a compile-time (Boost.Hana) reflection: a tool's options are read once, and
// run-time functions keep the tools' compile time down.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>
#include <fabric/core/input_file.hpp>

#include "numbers.hpp"

namespace fabric_apps {

/// A number with its valid values, shown in --help after its type ("UINT:in [1, 16]",
/// "FLOAT:in (0, 8.5]", "UINT:>= 1", "UINT:any 64-bit value") and checked as read.
template <class T>
struct Number {
    using value_type = T;
    T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
    bool open_below = false;
    std::string shown;
    bool open_above = false;

    [[nodiscard]] std::string type() const {
        return std::string(std::is_floating_point_v<T> ? "FLOAT" : std::is_signed_v<T> ? "INT" : "UINT") + ":" + shown;
    }
    [[nodiscard]] T parse(std::string_view text, std::string_view what) const {
        const T v = parse_number<T>(text, what);
        fabric::detail::require(v >= lo && v <= hi && !(open_below && v == lo) && !(open_above && v == hi), what, ": '",
                                fabric::detail::shown(text), "' is not ", shown);
        return v;
    }
    static constexpr auto json_type = nlohmann::json::value_t::number_float;  // any JSON number
};

template <class T>
Number<T> within(T lo, T hi, bool open_below = false, bool open_above = false) {
    std::ostringstream d;
    d << (open_below ? "in (" : "in [") << lo << ", " << hi << (open_above ? ")" : "]");
    return {lo, hi, open_below, d.str(), open_above};
}
template <class T>
Number<T> at_least(T lo) {
    std::ostringstream d;
    d << ">= " << lo;
    return {lo, std::numeric_limits<T>::max(), false, d.str()};
}
/// A seed: every value of its type is valid.
inline Number<std::uint64_t> any_seed() { return {0, std::numeric_limits<std::uint64_t>::max(), false, "any 64-bit value"}; }

/// What a Text option names: nothing, a file the tool reads, or one it writes.
enum class FileRole : std::uint8_t { none, input, output };

/// Text that must be valid UTF-8 (a configuration file is JSON, which holds nothing else).
inline std::string utf8(std::string_view text, std::string_view what) {
    try {
        (void)nlohmann::json(std::string(text)).dump();
    } catch (const nlohmann::json::exception&) {
        throw fabric::config_error(fabric::detail::message(what, ": the text is not UTF-8"));
    }
    return std::string(text);
}

/// Free text (a pattern, a file, S:L:P): read by the tool, which checks it and names the option.
struct Text {
    using value_type = std::string;
    std::string shown = "TEXT";
    FileRole role = FileRole::none;
    [[nodiscard]] std::string type() const { return shown; }
    [[nodiscard]] std::string parse(std::string_view text, std::string_view what) const { return utf8(text, what); }
    static constexpr auto json_type = nlohmann::json::value_t::string;
};
/// A file the tool writes (apps/common/output.hpp); - is standard output.
inline Text file() { return {"FILE", FileRole::output}; }
/// A file the tool reads (apps/common/files.hpp: a regular file, within --input-limit).
inline Text input_file() { return {"FILE", FileRole::input}; }

/// One of a list of words; `synonyms` are older spellings of some ("table" for "text"), read as those.
struct Words {
    using value_type = std::string;
    std::vector<std::string> words;
    std::vector<std::pair<std::string, std::string>> synonyms{};
    [[nodiscard]] std::string type() const {
        std::string t = "TEXT:{";
        for (std::size_t i = 0; i < words.size(); ++i) t += (i ? "," : "") + words[i];
        return t + "}";
    }
    [[nodiscard]] std::string parse(std::string_view text, std::string_view what) const {
        for (const auto& w : words)
            if (text == w) return w;
        for (const auto& [old, now] : synonyms)
            if (text == old) return now;
        std::string list;
        for (std::size_t i = 0; i < words.size(); ++i)
            list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
        throw fabric::config_error(
            fabric::detail::message(what, ": ", list, "; got '", fabric::detail::shown(utf8(text, what)), "'"));
    }
    static constexpr auto json_type = nlohmann::json::value_t::string;
};
inline Words one_of(std::vector<std::string> words) { return {std::move(words)}; }

/// A flag: on when given.
struct Flag {
    using value_type = bool;
    [[nodiscard]] std::string type() const { return {}; }
    [[nodiscard]] bool parse(std::string_view text, std::string_view what) const {
        fabric::detail::require(text == "true" || text == "false", what, ": true or false; got '",
                                fabric::detail::shown(text), "'");
        return text == "true";
    }
    static constexpr auto json_type = nlohmann::json::value_t::boolean;
};

/// A configuration file's key for option `name`: "--vc-buf" is "vc_buf".
inline std::string key_of(std::string_view name) {
    std::string k(name.substr(name.starts_with("--") ? 2 : 0));
    for (char& c : k)
        if (c == '-') c = '_';
    return k;
}

/// When an option has an effect, as its help says it and run_tool enforces it: with
/// any one of `with`, and with none of `without`, each an option at another value
/// than its default (or at the value named). An option given where its condition does
/// not hold would change nothing: it is refused, naming the condition.
struct Condition {
    using Named = std::pair<std::string, std::string>;  // (option, value; "": any value but the default)
    std::vector<Named> with, without;

    [[nodiscard]] bool empty() const { return with.empty() && without.empty(); }
    /// As the help and the refusal say it: "with --a, --b or --c 2, without --d or --e x".
    [[nodiscard]] std::string text() const {
        auto list = [](const std::vector<Named>& items) {
            std::string t;
            for (std::size_t i = 0; i < items.size(); ++i)
                t += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i].first +
                     (items[i].second.empty() ? "" : " " + items[i].second);
            return t;
        };
        std::string t = with.empty() ? "" : "with " + list(with);
        if (!without.empty()) t += (t.empty() ? "without " : ", without ") + list(without);
        return t;
    }
};

/// One option of settings S.
template <class S>
struct Option {
    std::string name;                   // "--vc-buf"
    std::string help;
    std::vector<std::string> synonyms;  // other spellings with the same meaning ("--terminals" for "--p")
    std::string type;                   // for --help; empty for a flag
    bool flag = false, list = false;
    nlohmann::json::value_t json_type = nlohmann::json::value_t::null;  // what a file gives for one value
    std::vector<std::string> families;  // the topologies it belongs to (empty: every run)
    Condition condition;                // when it has an effect (empty: always)
    FileRole role = FileRole::none;     // a file the tool reads or writes
    std::string alias_of, alias_value;  // a spelling kept for old command lines: this flag is `alias_of alias_value`
    /// Reads the option's text (one value, or a list's values), checked, into the settings; `what` names it.
    std::function<void(S&, const std::vector<std::string>&, const std::string& what)> set;
    std::function<nlohmann::json(const S&)> get;

    [[nodiscard]] std::string key() const { return key_of(name); }
    /// Another spelling of the same option.
    Option& also(std::string synonym) {
        synonyms.push_back(std::move(synonym));
        return *this;
    }
    /// The topologies (of settings that have families) this option belongs to.
    Option& only_for(std::vector<std::string> names) {
        families = std::move(names);
        return *this;
    }
    /// Has an effect only with option `other` (at any value but its default, or at `value`);
    /// several with()s: with any of them.
    Option& with(std::string other, std::string value = {}) {
        condition.with.emplace_back(std::move(other), std::move(value));
        return *this;
    }
    /// Has an effect only without option `other` (at its default; or at any other value than `value`).
    Option& without(std::string other, std::string value = {}) {
        condition.without.emplace_back(std::move(other), std::move(value));
        return *this;
    }
    /// The help --help shows: where the option applies ("on a torus or mesh", its
    /// condition), then what it does; both from the rules run_tool enforces.
    [[nodiscard]] std::string full_help() const {
        std::string where;
        if (!families.empty()) {
            where = "on a ";
            for (std::size_t i = 0; i < families.size(); ++i)
                where += (i == 0 ? "" : i + 1 == families.size() ? " or " : ", ") + families[i];
        }
        if (!condition.empty()) where += (where.empty() ? "" : ", ") + condition.text();
        return where.empty() ? help : where + ": " + help;
    }
};

template <class S>
using Options = std::vector<Option<S>>;

/// The settings' field that `path` (member pointers, outermost first) leads to.
template <class... M>
auto at(M... path) {
    return [=](auto& s) -> auto& { return (s.*....*path); };
}

/// An option over the field `field` reaches (a member pointer, or at(...)): a value
/// of the kind, or (a std::vector field) a comma-separated list of them.
template <class S, class Field, class Kind>
Option<S> option(Field field, std::string name, std::string help, Kind kind) {
    auto ref = [field](auto& s) -> auto& {
        if constexpr (std::is_member_object_pointer_v<Field>) return s.*field;
        else return field(s);
    };
    using T = std::remove_cvref_t<decltype(ref(std::declval<S&>()))>;
    using V = typename Kind::value_type;
    constexpr bool is_list = !std::is_same_v<T, V>;
    if constexpr (is_list) static_assert(std::is_same_v<T, std::vector<V>>, "an option's field holds its kind's value or a list of them");
    Option<S> o;
    o.name = std::move(name);
    o.help = std::move(help);
    o.type = kind.type();
    o.flag = std::is_same_v<Kind, Flag>;
    o.list = is_list;
    o.json_type = Kind::json_type;
    if constexpr (std::is_same_v<Kind, Text>) o.role = kind.role;
    o.set = [ref, kind](S& s, const std::vector<std::string>& texts, const std::string& what) {
        if constexpr (is_list) {
            T values;
            for (const auto& t : texts) values.push_back(kind.parse(t, what));
            ref(s) = std::move(values);
        } else {
            fabric::detail::require(texts.size() == 1, what, ": one value; got ", texts.size());
            ref(s) = kind.parse(texts.front(), what);
        }
    };
    o.get = [ref](const S& s) { return nlohmann::json(ref(s)); };
    return o;
}

template <class S, class Field>
Option<S> flag(Field field, std::string name, std::string help) {
    return option<S>(field, std::move(name), std::move(help), Flag{});
}

/// A spelling kept for old command lines and configuration files: the flag `name` is `target value`
/// (--json for --format json); a configuration file's "name": true reads the same.
template <class S>
Option<S> alias(std::string name, std::string target, std::string value) {
    Option<S> o;
    o.help = "the same as " + target + " " + value + " (an older spelling)";
    o.name = std::move(name);
    o.flag = true;
    o.json_type = nlohmann::json::value_t::boolean;
    o.alias_of = std::move(target);
    o.alias_value = std::move(value);
    return o;
}

/// The option (or alias) spelt `name` ("--vc-buf", or a key "vc_buf"), or null.
template <class S>
const Option<S>* find_option(const Options<S>& options, std::string_view name) {
    for (const auto& o : options) {
        if (o.name == name || o.key() == name) return &o;
        for (const auto& s : o.synonyms)
            if (s == name || key_of(s) == name) return &o;
    }
    return nullptr;
}

/// The option an alias stands for (itself, when not an alias).
template <class S>
const Option<S>& target_of(const Options<S>& options, const Option<S>& o) {
    if (o.alias_of.empty()) return o;
    const Option<S>* t = find_option(options, o.alias_of);
    fabric::detail::require(t != nullptr, o.name, ": an alias of ", o.alias_of, ", which the tool does not have");
    return *t;
}

/// Sets option `o` (or what an alias stands for) from texts; records the option as given.
template <class S>
void set_option(const Options<S>& options, const Option<S>& o, S& s, const std::vector<std::string>& texts,
                const std::string& what, std::set<std::string>& given) {
    const Option<S>& t = target_of(options, o);
    if (!o.alias_of.empty()) {
        if (o.flag && texts.size() == 1 && texts.front() == "false") return;  // "json": false asks for nothing
        t.set(s, {o.alias_value}, what);
    } else {
        t.set(s, texts, what);
    }
    given.insert(t.key());
}

/// Refuses an option given twice on the command line (under any of its spellings,
/// aliases included): a second value would silently replace or extend the first.
template <class S>
void refuse_repeats(const Options<S>& options, int argc, char** argv) {
    std::vector<std::pair<std::string, std::string>> seen;  // (option, spelling)
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;
        if (!arg.starts_with("--")) continue;
        const std::string spelling(arg.substr(0, arg.find('=')));
        const Option<S>* o = find_option(options, spelling);
        if (o == nullptr) continue;  // CLI11 names an unknown option
        const std::string name = target_of(options, *o).name;
        for (const auto& [n, first] : seen)
            fabric::detail::require(n != name, name, ": given twice", first == spelling ? "" : " (as " + first + " and as " + spelling + ")",
                                    "; give each option once (a list takes commas: --dims 8,8)");
        seen.emplace_back(name, spelling);
    }
}

/// The settings every tool has.
struct Common {
    double work_limit = 24 * 3600.0;
    std::uint64_t memory_limit = 4096;
    std::uint64_t input_limit = 256;  // MB one input file may hold
    std::string output = "-";
    std::string format = "text";
};

/// --format with the words a tool writes (the first its default), and the older
/// spellings that are kept (--json, --csv: the same as --format json, csv).
template <class S>
Options<S> format_options(std::vector<std::string> formats, std::vector<std::string> old_flags = {},
                          std::vector<std::pair<std::string, std::string>> synonyms = {}) {
    std::string help = "what the results are written as:";
    for (std::size_t i = 0; i < formats.size(); ++i) help += (i ? (i + 1 == formats.size() ? " or " : ", ") : " ") + formats[i];
    Options<S> o{option<S>(&S::format, "--format", help, Words{std::move(formats), std::move(synonyms)})};
    for (const auto& f : old_flags) o.push_back(alias<S>("--" + f, "--format", f));
    return o;
}

/// A tool's random seed.
template <class S, class Field>
Option<S> seed_option(Field field, std::string help) {
    return option<S>(field, "--seed", std::move(help), any_seed());
}

}  // namespace fabric_apps
