// A small command-line reader shared by the examples: "--name value" options and
// "--flag" switches, each declared up front so that a typo is an error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabric_examples {

class Cli {
public:
    Cli(int argc, char** argv, std::set<std::string> options, std::set<std::string> flags, std::string usage)
        : usage_(std::move(usage)) {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg.rfind("--", 0) != 0) fail("unexpected argument '" + arg + "'");
            const std::string name = arg.substr(2);
            if (flags.count(name)) {
                flags_.insert(name);
            } else if (options.count(name)) {
                if (i + 1 >= argc) fail("option --" + name + " needs a value");
                values_[name] = argv[++i];
            } else {
                fail("unknown option --" + name);
            }
        }
    }

    [[nodiscard]] bool empty() const { return values_.empty() && flags_.empty(); }
    [[nodiscard]] bool flag(const std::string& name) const { return flags_.count(name) > 0; }
    [[nodiscard]] bool has(const std::string& name) const { return values_.count(name) > 0; }

    [[nodiscard]] std::string text(const std::string& name, const std::string& fallback = {}) const {
        const auto it = values_.find(name);
        if (it != values_.end()) return it->second;
        if (fallback.empty()) fail("missing option --" + name);
        return fallback;
    }

    [[nodiscard]] long long integer(const std::string& name, long long fallback) const {
        if (!has(name)) return fallback;
        return parse_integer(name, values_.at(name));
    }
    [[nodiscard]] long long integer(const std::string& name) const { return parse_integer(name, text(name)); }

    [[nodiscard]] double number(const std::string& name, double fallback) const {
        if (!has(name)) return fallback;
        try {
            std::size_t used = 0;
            const double v = std::stod(values_.at(name), &used);
            if (used == values_.at(name).size()) return v;
        } catch (const std::exception&) {
        }
        fail("--" + name + " needs a number; got '" + values_.at(name) + "'");
    }

    /// "a,b,c" or "axbxc" as integers.
    [[nodiscard]] std::vector<long long> list(const std::string& name, char separator = ',') const {
        std::vector<long long> out;
        std::string item;
        for (const char c : text(name) + separator) {
            if (c == separator) {
                out.push_back(parse_integer(name, item));
                item.clear();
            } else {
                item += c;
            }
        }
        return out;
    }

    [[noreturn]] void fail(const std::string& why) const {
        std::fprintf(stderr, "error: %s\n%s", why.c_str(), usage_.c_str());
        std::exit(2);
    }

private:
    long long parse_integer(const std::string& name, const std::string& v) const {
        try {
            std::size_t used = 0;
            const long long x = std::stoll(v, &used);
            if (used == v.size()) return x;
        } catch (const std::exception&) {
        }
        fail("--" + name + " needs an integer; got '" + v + "'");
    }

    std::string usage_;
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

}  // namespace fabric_examples
