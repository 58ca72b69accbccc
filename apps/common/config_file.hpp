// A tool's configuration file (--config FILE): a JSON object whose keys are the
// options' names ('-' written '_'), each value read as the option's text would
// be, through the same parser and checks (options.hpp). Refused with a fabric:
// message: a directory or an unreadable file, text that is not JSON or has more
// after the object, a key given twice (or an option under two spellings), an
// unknown key, a value of the wrong JSON type, a number that does not fit. A
// path a file gives (an option of a file, input or output) is taken from the
// file's own directory, as BookSim takes its network_file.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>

#include "files.hpp"
#include "options.hpp"

namespace fabric_apps {

/// The JSON object in `text`, read from `source` (named in messages): refused unless
/// it is one object, each top-level key given once, with nothing after it.
inline nlohmann::json parse_config_text(const std::string& text, const std::string& source) {
    using fabric::detail::require;
    const std::string name = shown(source);
    // Keys of the top-level object, to refuse one given twice (nlohmann would keep the last silently).
    std::set<std::string> keys;
    auto each = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1) {
            const auto key = parsed.get<std::string>();
            require(keys.insert(key).second, name, ": key '", shown(key), "' is given twice");
        }
        return true;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text, each);  // the whole text: anything after the object is an error
    } catch (const nlohmann::json::exception& e) {
        throw fabric::config_error(fabric::detail::message(name, ": not a JSON configuration: ", shown(e.what())));
    }
    require(j.is_object(), name, ": a configuration is a JSON object of settings, {\"key\": value, ...}");
    return j;
}

/// The JSON object in `file`, read whole (a regular file, within --input-limit: files.hpp).
inline nlohmann::json read_config_file(const std::string& file) {
    return parse_config_text(read_input(file, "--config", "--config file"), file);
}

/// What a file's value of option `o` says, as the option's text: one text, or a list's.
template <class S>
std::vector<std::string> config_texts(const Option<S>& o, const nlohmann::json& value, const std::string& what) {
    using fabric::detail::require;
    auto one = [&](const nlohmann::json& v) -> std::string {
        switch (o.json_type) {
            case nlohmann::json::value_t::boolean:
                require(v.is_boolean(), what, ": true or false; got ", shown(v.dump()));
                return v.get<bool>() ? "true" : "false";
            case nlohmann::json::value_t::string:
                require(v.is_string(), what, ": a string; got ", shown(v.dump()));
                return v.get<std::string>();
            default:
                require(v.is_number(), what, ": a number; got ", shown(v.dump()));
                return v.dump();
        }
    };
    if (!o.list) return {one(value)};
    require(value.is_array(), what, ": a list, [", o.json_type == nlohmann::json::value_t::string ? "\"a\", \"b\"" : "1, 2",
            "]; got ", shown(value.dump()));
    std::vector<std::string> texts;
    for (const auto& v : value) texts.push_back(one(v));
    return texts;
}

/// A path a configuration file gives, taken from the file's directory when relative
/// ("-", standard output, and "" as they are).
inline std::string beside_config(const std::string& path, const std::string& file) {
    const std::filesystem::path p(path), dir = std::filesystem::path(file).parent_path();
    if (path.empty() || path == "-" || p.is_absolute() || dir.empty()) return path;
    return (dir / p).string();
}

/// A path as --dump-config writes it: absolute, so that the file runs from any directory.
inline std::string absolute_path(const std::string& path) {
    if (path.empty() || path == "-") return path;
    std::error_code ec;
    const std::filesystem::path a = std::filesystem::absolute(path, ec);
    return ec ? path : a.lexically_normal().string();
}

/// The keys of configuration `j` (read from `file`) applied to `s`, each through its option's checks.
template <class S>
void apply_config(const Options<S>& options, S& s, const nlohmann::json& j, const std::string& file,
                  std::set<std::string>& given) {
    std::set<std::string> seen;  // options, under any spelling
    const std::string name = shown(file);
    for (const auto& [key, value] : j.items()) {
        const Option<S>* o = find_option(options, key);
        if (o == nullptr || key.starts_with("-")) {
            std::string valid;
            for (const auto& opt : options) valid += (valid.empty() ? "" : ", ") + opt.key();
            throw fabric::config_error(fabric::detail::message(name, ": unknown key '", shown(key),
                                                               "'; valid: ", valid));
        }
        const std::string what = name + ": " + key;
        const std::string option = target_of(options, *o).name;
        fabric::detail::require(seen.insert(option).second, name, ": ", option.substr(2), " is given twice (as '", key,
                                "' and under another spelling)");
        std::vector<std::string> texts = config_texts(*o, value, what);
        if (o->role != FileRole::none)
            for (std::string& t : texts) t = beside_config(t, file);
        set_option(options, *o, s, texts, what, given);
    }
}

/// The settings as a configuration file: every option that applies (`applies(option)`),
/// under its own key; a file's path made absolute.
template <class S, class Applies>
nlohmann::json dump_config(const Options<S>& options, const S& s, Applies&& applies) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& o : options) {
        if (!o.alias_of.empty() || !applies(o)) continue;
        nlohmann::json v = o.get(s);
        if (o.role != FileRole::none && v.is_string()) v = absolute_path(v.template get<std::string>());
        j[o.key()] = std::move(v);
    }
    return j;
}

}  // namespace fabric_apps
