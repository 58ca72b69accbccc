// A tool's configuration file (--config FILE): a JSON object whose keys are the
// options' names ('-' written '_'), each value read as the option's text would
// be, through the same parser and checks (options.hpp). Refused with a fabric:
// message: a directory or an unreadable file, text that is not JSON or has more
// after the object, a key given twice (or an option under two spellings), an
// unknown key, a value of the wrong JSON type, a number that does not fit.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>

#include "options.hpp"

namespace fabric_apps {

/// The JSON object in `file`, read whole.
inline nlohmann::json read_config_file(const std::string& file) {
    using fabric::detail::require;
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    require(!ec, "--config: cannot read '", file, "': ", ec.message());
    require(!std::filesystem::is_directory(status), "--config: '", file, "' is a directory, not a configuration file");
    std::ifstream in(file, std::ios::binary);
    require(in.is_open(), "--config: cannot read '", file, "': ", std::strerror(errno));
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    require(!in.bad(), "--config: reading '", file, "' failed: ", std::strerror(errno));
    // Keys of the top-level object, to refuse one given twice (nlohmann would keep the last silently).
    std::set<std::string> keys;
    auto each = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1) {
            const auto key = parsed.get<std::string>();
            require(keys.insert(key).second, file, ": key '", key, "' is given twice");
        }
        return true;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text, each);  // the whole text: anything after the object is an error
    } catch (const nlohmann::json::exception& e) {
        throw fabric::config_error(fabric::detail::message(file, ": not a JSON configuration: ", e.what()));
    }
    require(j.is_object(), file, ": a configuration is a JSON object of settings, {\"key\": value, ...}");
    return j;
}

/// What a file's value of option `o` says, as the option's text: one text, or a list's.
template <class S>
std::vector<std::string> config_texts(const Option<S>& o, const nlohmann::json& value, const std::string& what) {
    using fabric::detail::require;
    auto one = [&](const nlohmann::json& v) -> std::string {
        switch (o.json_type) {
            case nlohmann::json::value_t::boolean:
                require(v.is_boolean(), what, ": true or false; got ", v.dump());
                return v.get<bool>() ? "true" : "false";
            case nlohmann::json::value_t::string:
                require(v.is_string(), what, ": a string; got ", v.dump());
                return v.get<std::string>();
            default:
                require(v.is_number(), what, ": a number; got ", v.dump());
                return v.dump();
        }
    };
    if (!o.list) return {one(value)};
    require(value.is_array(), what, ": a list, [", o.json_type == nlohmann::json::value_t::string ? "\"a\", \"b\"" : "1, 2",
            "]; got ", value.dump());
    std::vector<std::string> texts;
    for (const auto& v : value) texts.push_back(one(v));
    return texts;
}

/// The keys of configuration `j` (read from `file`) applied to `s`, each through its option's checks.
template <class S>
void apply_config(const Options<S>& options, S& s, const nlohmann::json& j, const std::string& file,
                  std::set<std::string>& given) {
    std::set<std::string> seen;  // options, under any spelling
    for (const auto& [key, value] : j.items()) {
        const Option<S>* o = find_option(options, key);
        if (o == nullptr || key.starts_with("-")) {
            std::string valid;
            for (const auto& opt : options) valid += (valid.empty() ? "" : ", ") + opt.key();
            throw fabric::config_error(fabric::detail::message(file, ": unknown key '", key,
                                                               "'; valid: ", valid));
        }
        const std::string what = file + ": " + key;
        const std::string name = target_of(options, *o).name;
        fabric::detail::require(seen.insert(name).second, file, ": ", name.substr(2), " is given twice (as '", key,
                                "' and under another spelling)");
        set_option(options, *o, s, config_texts(*o, value, what), what, given);
    }
}

/// The settings as a configuration file: every option that applies (`applies(option)`), under its own key.
template <class S, class Applies>
nlohmann::json dump_config(const Options<S>& options, const S& s, Applies&& applies) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& o : options)
        if (o.alias_of.empty() && applies(o)) j[o.key()] = o.get(s);
    return j;
}

}  // namespace fabric_apps
