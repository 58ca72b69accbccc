// The one way the library's readers take a file a user names (a graph, a trace):
// the path is looked at before anything is read, and the file is read with a
// bound. A path that is not a regular file (a directory, a pipe, a device such as
// /dev/zero, a socket) is refused by what it is; so is a file larger than the
// limit, and a path the system cannot resolve (a missing file, a name too long, a
// loop of symbolic links). Every refusal is a config_error that names the file;
// nothing here throws anything else (the path operations that can throw are
// called with an error code). The tools pass their --input-limit; a program that
// reads larger files passes its own limit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include <fabric/core/error.hpp>

namespace fabric {

/// The most bytes a reader of the library takes from one file unless told otherwise (256 MiB).
inline constexpr std::uint64_t default_input_limit = std::uint64_t{256} << 20;

namespace detail {

/// `text` as it goes into a message: whole when short, else its first 60 and last 20
/// characters around the count, so that a megabyte of junk is not echoed back.
[[nodiscard]] inline std::string shown(std::string_view text, std::size_t most = 200) {
    if (text.size() <= most) return std::string(text);
    return std::string(text.substr(0, 60)) + "[... " + std::to_string(text.size() - 80) + " more characters ...]" +
           std::string(text.substr(text.size() - 20));
}

/// What a file that is not a regular one is, for a message.
[[nodiscard]] inline const char* kind_of(std::filesystem::file_type type) {
    using std::filesystem::file_type;
    switch (type) {
        case file_type::directory: return "a directory";
        case file_type::fifo: return "a pipe (FIFO)";
        case file_type::character: return "a character device";
        case file_type::block: return "a block device";
        case file_type::socket: return "a socket";
        default: return "not a regular file";
    }
}

}  // namespace detail

/// The whole text of the file at `path`: a regular file (a symbolic link to one is
/// followed) of at most `limit` bytes. `what` names it in messages ("graph file");
/// `raise` says how a user raises the limit. Throws config_error otherwise.
[[nodiscard]] inline std::string read_input_file(const std::string& path, std::string_view what,
                                                 std::uint64_t limit = default_input_limit,
                                                 std::string_view raise = "give the reader a larger limit") {
    const std::string name = detail::shown(path);
    detail::require(!path.empty(), what, ": give a file name");
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    detail::require(!ec, "cannot open ", what, " '", name, "': ", ec.message());
    detail::require(status.type() == std::filesystem::file_type::regular, what, " '", name, "' is ",
                    detail::kind_of(status.type()), ", not a file to read; give a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    detail::require(!ec, "cannot open ", what, " '", name, "': ", ec.message());
    auto refuse_size = [&](std::uint64_t bytes, bool at_least) {
        detail::require(false, what, " '", name, "' has ", at_least ? "more than " : "", bytes, " bytes, past the limit of ",
                        limit, " bytes for one input file; ", raise);
    };
    if (size > limit) refuse_size(size, false);
    std::ifstream in(path, std::ios::binary);
    detail::require(in.is_open(), "cannot open ", what, " '", name, "'");
    // Read to the limit and one byte more: a file that grows while it is read (or one,
    // such as those of /proc, whose size says 0) is held to the bound all the same.
    const std::uint64_t cap = limit == std::numeric_limits<std::uint64_t>::max() ? limit : limit + 1;
    std::string text;
    for (std::uint64_t room = std::min<std::uint64_t>(cap, size + 1 + 65536); room > 0;) {
        const std::size_t at = text.size();
        text.resize(at + static_cast<std::size_t>(room));
        in.read(text.data() + at, static_cast<std::streamsize>(room));
        text.resize(at + static_cast<std::size_t>(in.gcount()));
        if (text.size() > limit) refuse_size(limit, true);
        if (!in) break;
        room = std::min<std::uint64_t>(cap - text.size(), text.size() + 65536);
    }
    detail::require(!in.bad(), "reading ", what, " '", name, "' failed");
    return text;
}

}  // namespace fabric
