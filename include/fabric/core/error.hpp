// Diagnostics shared by every layer: run-time configuration errors and the
// deadlock report. Every message starts with "fabric:" and says what would be valid.
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace fabric {

/// Thrown once, at construction, when a run-time configuration breaks a rule.
class config_error : public std::invalid_argument {
public:
    explicit config_error(const std::string& what) : std::invalid_argument(what) {}
};

/// Thrown by a simulation that can make no progress (see sim/).
class deadlock_error : public std::runtime_error {
public:
    explicit deadlock_error(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {

/// Builds a message that starts with "fabric: " from its parts.
template <class... Parts>
[[nodiscard]] std::string message(const Parts&... parts) {
    std::string out = "fabric: ";
    auto append = [&out](const auto& part) {
        using P = std::remove_cvref_t<decltype(part)>;
        if constexpr (std::is_convertible_v<P, std::string_view>) {
            out += std::string_view(part);
        } else if constexpr (std::is_floating_point_v<P>) {
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, part).ptr;
            out.append(buffer, end);
        } else {
            out += std::to_string(part);
        }
    };
    (append(parts), ...);
    return out;
}

/// Throws config_error with the joined message when `ok` is false.
template <class... Parts>
constexpr void require(bool ok, const Parts&... parts) {
    if (!ok) throw config_error(message(parts...));
}

}  // namespace detail
}  // namespace fabric
