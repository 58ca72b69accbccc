// Diagnostics shared by every layer: run-time configuration errors and the
// deadlock report. Every message starts with "fabric:" and says what would be valid.
#pragma once

#include <charconv>
#include <initializer_list>
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

/// One part of a message, as the joiner below takes it: text, an integer (by its
/// sign), or a floating-point number (shortest form, float apart from double).
/// What every message() and require() of one set of part types shares, so that
/// each call site compiles to a few stores and one call, not a joiner of its own.
struct MessagePart {
    enum class Kind : unsigned char { text, signed_int, unsigned_int, single, floating };
    Kind kind;
    std::string_view text{};
    long long s = 0;
    unsigned long long u = 0;
    double d = 0;
};

template <class P>
concept plain_message_part = std::is_convertible_v<P, std::string_view> || std::is_integral_v<P> ||
                             std::is_same_v<P, float> || std::is_same_v<P, double>;

template <plain_message_part P>
constexpr MessagePart message_part(const P& part) {
    using K = MessagePart::Kind;
    if constexpr (std::is_convertible_v<P, std::string_view>) return {K::text, std::string_view(part)};
    else if constexpr (std::is_same_v<P, float>) return {K::single, {}, 0, 0, part};
    else if constexpr (std::is_same_v<P, double>) return {K::floating, {}, 0, 0, part};
    else if constexpr (std::is_signed_v<P>) return {K::signed_int, {}, part};
    else return {K::unsigned_int, {}, 0, part};
}

/// "fabric: " and the parts, joined (std::to_string's digits for an integer).
[[gnu::cold]] inline std::string join_message(std::initializer_list<MessagePart> parts) {
    std::string out = "fabric: ";
    for (const MessagePart& part : parts) {
        switch (part.kind) {
        case MessagePart::Kind::text: out += part.text; break;
        case MessagePart::Kind::signed_int: out += std::to_string(part.s); break;
        case MessagePart::Kind::unsigned_int: out += std::to_string(part.u); break;
        case MessagePart::Kind::single:
        case MessagePart::Kind::floating: {
            char buffer[32];
            const auto end = part.kind == MessagePart::Kind::single
                                 ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(part.d)).ptr
                                 : std::to_chars(buffer, buffer + sizeof buffer, part.d).ptr;
            out.append(buffer, end);
            break;
        }
        }
    }
    return out;
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_config_error(std::initializer_list<MessagePart> parts) {
    throw config_error(join_message(parts));
}

/// Builds a message that starts with "fabric: " from its parts.
template <class... Parts>
[[nodiscard]] std::string message(const Parts&... parts) {
    if constexpr ((plain_message_part<Parts> && ...)) {
        return join_message({message_part(parts)...});
    } else {
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
}

/// Throws config_error with the joined message when `ok` is false.
template <class... Parts>
constexpr void require(bool ok, const Parts&... parts) {
    if (!ok) [[unlikely]] {
        if constexpr ((plain_message_part<Parts> && ...)) throw_config_error({message_part(parts)...});
        else throw config_error(message(parts...));
    }
}

/// Throws `e` again with `where` ("file:line: ", "--option: ") put before its text, after "fabric: ".
[[noreturn, gnu::cold]] inline void rethrow_at(std::string_view where, const config_error& e) {
    std::string_view text = e.what();
    if (text.substr(0, 8) == "fabric: ") text.remove_prefix(8);
    throw config_error("fabric: " + std::string(where) + std::string(text));
}

}  // namespace detail
}  // namespace fabric
