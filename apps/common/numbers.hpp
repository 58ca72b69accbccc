// The one checked number reader of the tools: the whole text must be the number
// (no sign on an unsigned, no trailing characters, no overflow), and a real must be
// finite. Used for the parts of compound options (--packet S:L:P, --sweep, --grid)
// and, through validators run_tool attaches, for every numeric option.
#pragma once

#include <charconv>
#include <cmath>
#include <concepts>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/core/input_file.hpp>

namespace fabric_apps {

/// `text` as a T, or a config_error naming `what` and what is wrong.
template <class T>
T parse_number(std::string_view whole, std::string_view what) {
    const std::string cut = fabric::detail::shown(whole);  // what a message quotes
    const std::string_view text = whole;
    T value{};
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if constexpr (std::unsigned_integral<T>)
        fabric::detail::require(text.empty() || text.front() != '-', what, ": must not be negative; got '", cut, "'");
    if (!text.empty() && text.front() == '+') ++first;  // from_chars takes no plus sign
    const auto [end, ec] = std::from_chars(first, last, value);
    fabric::detail::require(ec != std::errc::result_out_of_range, what, ": '", cut, "' is out of range");
    fabric::detail::require(ec == std::errc{} && first != last, what, ": '", cut, "' is not ",
                            std::integral<T> ? "a whole number" : "a number");
    fabric::detail::require(end == last, what, ": '", cut, "' has characters after the number");
    if constexpr (std::floating_point<T>) fabric::detail::require(std::isfinite(value), what, ": must be finite; got '", cut, "'");
    return value;
}

/// "a:b:c" (or another separator) cut into its parts, each checked by parse_number.
template <class T>
std::vector<T> parse_numbers(std::string_view text, char separator, std::string_view what) {
    std::vector<T> out;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find(separator, start);
        out.push_back(parse_number<T>(text.substr(start, end == std::string_view::npos ? text.npos : end - start), what));
        if (end == std::string_view::npos) return out;
        start = end + 1;
    }
}

}  // namespace fabric_apps
