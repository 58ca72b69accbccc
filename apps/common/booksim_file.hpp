// BookSim2 configuration files, read as cycle_sim options (docs/booksim_files.md).
//
//   cycle_sim --booksim FILE [key=value ...] [options]
//
// reads FILE in BookSim's syntax (`key = value;`, `//` and `/* */` comments,
// `{a, b}` lists, bare words and "quoted strings"), applies the key=value
// overrides after it (as BookSim's own command line does), and translates every
// setting into the cycle_sim options that make BookSim's run, which cycle_sim
// then parses exactly as if they had been typed: every check of the options
// applies. A key cycle_sim cannot honour, or a value of one it cannot honour
// (BookSim's default included, when it differs from what cycle_sim can do), is
// refused with a `fabric:` message naming the key and where it was set. The keys
// and what each becomes are one table, booksim_keys.hpp.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fabric/core/error.hpp>

#include "files.hpp"

namespace fabric_apps::booksim {

/// One setting as written: its text (a list's items as well) and where.
struct Setting {
    std::string text;                // the value as written (a list with its braces)
    std::vector<std::string> items;  // a {a, b} list's items; empty for a single value
    std::string where;               // "FILE:LINE" or "command line"
};

/// The settings of a file and its overrides, by key; a later one replaces an earlier.
using Settings = std::map<std::string, Setting>;

namespace detail {

inline bool key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

inline std::string trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return std::string(s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1));
}

/// A value's items if it is a {a, b} list (nested braces kept whole), else none.
inline std::vector<std::string> list_items(const std::string& text, const std::string& at) {
    if (text.empty() || text.front() != '{') return {};
    fabric::detail::require(text.back() == '}', at, ": a list is {a, b, ...}; got '", fabric::detail::shown(text), "'");
    std::vector<std::string> items;
    int depth = 0;
    std::string item;
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
        const char c = text[i];
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (c == ',' && depth == 0) {
            items.push_back(trimmed(item));
            item.clear();
        } else {
            item += c;
        }
    }
    items.push_back(trimmed(item));
    for (const auto& it : items)
        fabric::detail::require(!it.empty(), at, ": an empty item in the list '", fabric::detail::shown(text), "'");
    return items;
}

}  // namespace detail

/// Reads BookSim configuration text into `into` (later keys replace earlier ones).
/// `source` names the text in messages; a syntax error is refused naming its line.
inline void parse(const std::string& text, const std::string& source, Settings& into) {
    std::size_t i = 0, line = 1;
    const auto at = [&](std::size_t l) { return source + ":" + std::to_string(l); };
    const auto skip = [&] {  // blanks and comments
        while (i < text.size()) {
            if (text[i] == '\n') {
                ++line, ++i;
            } else if (std::isspace(static_cast<unsigned char>(text[i]))) {
                ++i;
            } else if (text.compare(i, 2, "//") == 0) {
                while (i < text.size() && text[i] != '\n') ++i;
            } else if (text.compare(i, 2, "/*") == 0) {
                const std::size_t opened = line, end = text.find("*/", i + 2);
                fabric::detail::require(end != std::string::npos, at(opened), ": a /* comment is never closed");
                for (; i < end + 2; ++i) line += text[i] == '\n';
            } else {
                return;
            }
        }
    };
    for (skip(); i < text.size(); skip()) {
        const std::size_t key_line = line, start = i;
        while (i < text.size() && detail::key_char(text[i])) ++i;
        const std::string key = text.substr(start, i - start);
        fabric::detail::require(!key.empty() && !std::isdigit(static_cast<unsigned char>(key.front())), at(key_line),
                                ": expected a key (letters, digits and _) at '", text.substr(start, 20), "'");
        skip();
        fabric::detail::require(i < text.size() && text[i] == '=', at(key_line), ": expected '=' after '",
                                fabric::detail::shown(key), "'");
        ++i;
        skip();
        const std::size_t value_line = line;
        std::string value;
        if (i < text.size() && text[i] == '"') {  // a quoted string, without its quotes
            const std::size_t end = text.find('"', i + 1);
            fabric::detail::require(end != std::string::npos && text.find('\n', i) > end, at(value_line),
                                    ": a \" string is not closed on its line");
            value = text.substr(i + 1, end - i - 1);
            i = end + 1;
        } else {
            int depth = 0;
            const std::size_t from = i;
            for (; i < text.size() && (depth > 0 || (text[i] != ';' && text[i] != '\n' && text.compare(i, 2, "//") != 0)); ++i)
                depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
            value = detail::trimmed(text.substr(from, i - from));
            fabric::detail::require(depth == 0, at(value_line), ": a '{' list of '", fabric::detail::shown(key),
                                    "' is never closed");
            fabric::detail::require(!value.empty(), at(value_line), ": '", fabric::detail::shown(key), "' has no value");
        }
        skip();
        fabric::detail::require(i < text.size() && text[i] == ';', at(value_line), ": expected ';' after the value of '",
                                fabric::detail::shown(key), "'");
        ++i;
        into[key] = Setting{value, detail::list_items(value, at(value_line)), at(key_line)};
    }
}

/// Reads a BookSim configuration file into `into`: a regular file, within --input-limit (files.hpp).
inline void parse_file(const std::string& path, Settings& into) {
    parse(read_input(path, "--booksim", "--booksim file"), shown(path), into);
}

/// A command-line override key=value (BookSim's own syntax there: no ';').
inline void parse_override(const std::string& arg, Settings& into) {
    fabric::detail::require(arg.find('=') != std::string::npos, "--booksim: an override is key=value; got '", shown(arg),
                            "'");
    parse(arg + ";", "command line '" + shown(arg) + "'", into);
    into[detail::trimmed(arg.substr(0, arg.find('=')))].where = "command line";
}

/// One cycle_sim option of a translation: --name VALUE, or a flag.
struct Option {
    std::string name, value;
    bool flag = false;
};

struct Key;
const Key* find_key(const std::string& name);

/// The settings as the rows read them: given, else BookSim's default; what the
/// rows emit and what they refuse (every refusal is collected, then reported).
class Reading {
public:
    Reading(const Settings& s, std::string file) : s_(s), file_(std::move(file)) {}

    [[nodiscard]] bool given(const std::string& key) const { return s_.contains(key); }
    [[nodiscard]] std::string text(const std::string& key) const;
    [[nodiscard]] const std::vector<std::string>& items(const std::string& key) const {
        static const std::vector<std::string> none;
        return given(key) ? s_.at(key).items : none;
    }
    /// The key's value as a number; a value that is not one (or a list) is refused (0).
    double number(const std::string& key) {
        const std::string t = text(key);
        double v = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v)) {
            refuse(key, "a number is expected here");
            return 0;
        }
        return v;
    }
    /// The same for a whole number.
    long long whole(const std::string& key) {
        const double v = number(key);
        if (v != std::floor(v) || std::fabs(v) > 1e15) {
            refuse(key, "a whole number (of at most 15 digits) is expected here");
            return 0;
        }
        return static_cast<long long>(v);
    }
    template <class... Parts>
    void refuse(const std::string& key, const Parts&... reason) {
        const std::string where = given(key) ? s_.at(key).where + ": " + key + " = " + shown(text(key))
                                             : shown(file_) + ": " + key + " = " + text(key) + " (BookSim's default; "
                                               "the file does not set it)";
        std::string m = fabric::detail::message(where, ": ", reason...);
        if (std::find(refusals.begin(), refusals.end(), m) == refusals.end()) refusals.push_back(std::move(m));
    }
    void emit(std::string name, std::string value) { out.push_back({std::move(name), std::move(value), false}); }
    /// A file the configuration names (network_file): a relative path is taken from the
    /// configuration file's directory when the file is there, else from the working directory.
    /// (Looked at without throwing: a name too long or a loop of links is the reader's to refuse.)
    [[nodiscard]] std::string beside(const std::string& path) const {
        const std::filesystem::path p(path), dir = std::filesystem::path(file_).parent_path();
        std::error_code ec;
        if (p.is_relative() && !dir.empty() && std::filesystem::exists(std::filesystem::symlink_status(dir / p, ec)))
            return (dir / p).string();
        return path;
    }
    void flag(std::string name) { out.push_back({std::move(name), {}, true}); }

    std::vector<Option> out;
    std::vector<std::string> refusals;

private:
    const Settings& s_;
    std::string file_;
};

/// A number as cycle_sim reads it back exactly (shortest round-trip form).
inline std::string number_text(double v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

}  // namespace fabric_apps::booksim

#include "booksim_keys.hpp"

namespace fabric_apps::booksim {

/// `cycle_sim --booksim FILE [key=value ...]` in argv expanded in place into the
/// translated options, each left out where the command line gives that option
/// itself under any of its spellings (so options given override the file's):
/// `option_of(spelling)` names the option a spelling is ("--seed" is "--seeds").
/// `keep` holds the new strings; `file` is set to the BookSim file read.
template <class OptionOf>
void expand(int& argc, char**& argv, std::vector<std::string>& keep, std::vector<char*>& pointers,
            OptionOf&& option_of, std::string& file) {
    std::vector<std::string> args(argv, argv + argc);
    std::size_t at = 1;
    while (at < args.size() && args[at] != "--" && args[at] != "--booksim" && !args[at].starts_with("--booksim=")) ++at;
    if (at == args.size() || args[at] == "--") return;
    file = args[at].starts_with("--booksim=") ? args[at].substr(10) : "";
    std::size_t next = at + 1;
    if (!args[at].starts_with("--booksim=")) {
        fabric::detail::require(next < args.size(), "--booksim: give a BookSim configuration file");
        file = args[next++];
    }
    Settings settings;
    parse_file(file, settings);
    for (; next < args.size() && !args[next].starts_with("-"); ++next) parse_override(args[next], settings);
    const auto given = [&](const std::string& option) {
        const std::string name = option_of(option);
        for (std::size_t j = 1; j < args.size(); ++j) {
            if (j == at || !args[j].starts_with("--")) continue;
            if (args[j] == "--") break;
            if (option_of(args[j].substr(0, args[j].find('='))) == name) return true;
        }
        return false;
    };
    keep.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(at));
    for (const Option& o : translate(settings, file))
        if (!given(o.name)) {
            keep.push_back(o.name);
            if (!o.flag) keep.push_back(o.value);
        }
    keep.insert(keep.end(), args.begin() + static_cast<std::ptrdiff_t>(next), args.end());
    pointers.clear();
    for (std::string& s : keep) pointers.push_back(s.data());
    pointers.push_back(nullptr);
    argc = static_cast<int>(keep.size());
    argv = pointers.data();
}

}  // namespace fabric_apps::booksim
