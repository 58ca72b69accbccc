// The files a tool reads and writes, as one list: what a path leads to once its
// symbolic links are followed (a regular file, a missing one, a directory, a
// device or pipe, or one of the process's own descriptors such as /dev/stdout),
// every input read with the bound of --input-limit, and the refusal of an output
// that names an input or another output. The temporary files outputs are written
// to are listed here too, so that SIGINT, SIGTERM and SIGHUP remove them before
// the tool exits (130, 143, 129). docs/tools.md states the rules.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fabric/core/error.hpp>
#include <fabric/core/input_file.hpp>

namespace fabric_apps {

using fabric::detail::shown;

/// The most bytes a tool reads from one input file (--input-limit, in MB).
inline std::uint64_t& input_limit_mb() {
    static std::uint64_t limit = 256;
    return limit;
}
inline std::uint64_t input_limit_bytes() {
    const std::uint64_t mb = input_limit_mb();
    return mb >= (std::uint64_t{1} << 44) ? ~std::uint64_t{0} : mb << 20;
}
inline constexpr std::string_view raise_input_limit = "--input-limit MB raises it";

/// Where a path leads once its symbolic links are followed.
struct Target {
    enum class Kind { missing, regular, directory, descriptor, special };
    Kind kind = Kind::missing;
    std::string path;    // the path the links lead to (the descriptor's name for a descriptor)
    int descriptor = -1;  // Kind::descriptor: the descriptor it names
    dev_t device = 0;
    ino_t inode = 0;
    mode_t mode = 0;
};

namespace detail_files {

/// The descriptor a path names by itself (/dev/stdout, /dev/fd/N, /proc/self/fd/N), if any.
inline std::optional<int> descriptor_named(const std::string& path) {
    const std::string p = std::filesystem::path(path).lexically_normal().string();
    if (p == "/dev/stdin") return 0;
    if (p == "/dev/stdout") return 1;
    if (p == "/dev/stderr") return 2;
    const std::string self = "/proc/" + std::to_string(getpid()) + "/fd/";
    for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
                                          std::string_view("/proc/thread-self/fd/"), std::string_view(self)}) {
        if (!p.starts_with(prefix) || p.size() == prefix.size() || p.size() - prefix.size() > 9) continue;
        int fd = 0;
        bool digits = true;
        for (const char c : std::string_view(p).substr(prefix.size())) {
            digits = digits && c >= '0' && c <= '9';
            fd = fd * 10 + (c - '0');
        }
        if (digits) return fd;
    }
    return std::nullopt;
}

/// What the open descriptors 0, 1 and 2 were when the tool started (closed ones get /dev/null).
inline bool& standard_closed(int fd) {
    static bool closed[3] = {false, false, false};
    return closed[fd];
}

}  // namespace detail_files

/// Follows `path`'s symbolic links (at most 40) to what it leads to; `option` names
/// it in messages. A path the system cannot resolve is refused (config_error).
inline Target resolve(const std::string& path, std::string_view option) {
    using fabric::detail::require;
    require(!path.empty(), option, ": give a file name");
    std::string p = path;
    for (int links = 0;; ++links) {
        if (const auto fd = detail_files::descriptor_named(p)) {
            Target t{Target::Kind::descriptor, p, *fd};
            struct stat st {};
            if (fstat(*fd, &st) == 0) t.device = st.st_dev, t.inode = st.st_ino, t.mode = st.st_mode;
            return t;
        }
        struct stat st {};
        if (lstat(p.c_str(), &st) != 0) {
            const int err = errno;
            require(err == ENOENT, option, ": cannot use '", shown(path), "': ", std::strerror(err));
            return {Target::Kind::missing, p};
        }
        if (S_ISLNK(st.st_mode)) {
            require(links < 40, option, ": cannot use '", shown(path), "': ", std::strerror(ELOOP));
            std::error_code ec;
            const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
            require(!ec, option, ": cannot use '", shown(path), "': ", ec.message());
            p = to.is_absolute() ? to.string() : (std::filesystem::path(p).parent_path() / to).string();
            continue;
        }
        Target t{S_ISREG(st.st_mode) ? Target::Kind::regular
                 : S_ISDIR(st.st_mode) ? Target::Kind::directory : Target::Kind::special, p};
        t.device = st.st_dev;
        t.inode = st.st_ino;
        t.mode = st.st_mode;
        return t;
    }
}

/// The files read and written so far, to refuse an output that names one of them.
struct FileList {
    struct Entry {
        std::string option, path, canonical;
        dev_t device = 0;
        ino_t inode = 0;
        bool exists = false, output = false;
    };
    std::vector<Entry> entries;

    static FileList& instance() {
        static FileList list;
        return list;
    }

    /// Adds a file (an input, or an output that is a regular or a new file), refusing
    /// an output that is one of the files listed, or an input that is a listed output.
    void add(const Target& t, std::string_view option, std::string_view given, bool output) {
        if (t.kind != Target::Kind::regular && t.kind != Target::Kind::missing) return;
        Entry e{std::string(option), std::string(given), {}, t.device, t.inode, t.kind == Target::Kind::regular, output};
        std::error_code ec;
        const std::filesystem::path canonical = std::filesystem::weakly_canonical(t.path, ec);
        e.canonical = ec ? std::filesystem::absolute(t.path, ec).lexically_normal().string() : canonical.string();
        for (const Entry& other : entries) {
            if (!output && !other.output) continue;  // two inputs may be one file
            const bool same = e.exists && other.exists ? e.device == other.device && e.inode == other.inode
                                                       : e.canonical == other.canonical;
            fabric::detail::require(!same, e.option, ": '", shown(e.path), "' is the file ", other.option, " ",
                                    other.output ? "writes" : "reads", other.path == e.path ? "" : " ('" + shown(other.path) + "')",
                                    "; give ", output ? "this output" : "the output", " another file");
        }
        entries.push_back(std::move(e));
    }
};

/// Registers `path` as an input of `option`, refused when it is an output's file.
inline void note_input(const std::string& path, std::string_view option) {
    if (path.empty()) return;
    FileList::instance().add(resolve(path, option), option, path, false);
}

/// The text of input file `path` (`what` names it: "--config file"), read with the
/// bound of --input-limit and registered as an input.
inline std::string read_input(const std::string& path, std::string_view option, std::string_view what) {
    note_input(path, option);
    return fabric::read_input_file(path, what, input_limit_bytes(), raise_input_limit);
}

// Temporary files, removed on SIGINT, SIGTERM and SIGHUP: a fixed table a signal
// handler can walk (only async-signal-safe calls in it).
namespace detail_files {
inline constexpr int max_temporaries = 32;
inline char temporary_path[max_temporaries][4096];
inline volatile std::sig_atomic_t temporary_used[max_temporaries];

inline void remove_temporaries_and_exit(int sig) {
    for (int i = 0; i < max_temporaries; ++i)
        if (temporary_used[i]) unlink(temporary_path[i]);
    _exit(128 + sig);
}
}  // namespace detail_files

/// From now on, SIGINT, SIGTERM and SIGHUP remove the temporary files and exit 128 +
/// the signal. A signal the tool was started with ignored stays ignored (nohup's
/// SIGHUP, SIGINT in a shell's background job).
inline void remove_temporaries_on_signals() {
    struct sigaction action {};
    action.sa_handler = detail_files::remove_temporaries_and_exit;
    sigemptyset(&action.sa_mask);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, sig);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction now {};
        if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler == SIG_IGN) continue;
        sigaction(sig, &action, nullptr);
    }
}

/// Lists a temporary file (removed on a signal); its slot, for forget_temporary.
inline int list_temporary(const std::string& path) {
    using namespace detail_files;
    fabric::detail::require(path.size() < sizeof temporary_path[0], "a temporary file's name is too long: '",
                            shown(path), "'");
    for (int i = 0; i < max_temporaries; ++i) {
        if (temporary_used[i]) continue;
        std::memcpy(temporary_path[i], path.c_str(), path.size() + 1);
        temporary_used[i] = 1;
        return i;
    }
    throw fabric::config_error(fabric::detail::message("more than ", max_temporaries, " output files at once"));
}
inline void forget_temporary(int slot) {
    if (slot >= 0 && slot < detail_files::max_temporaries) detail_files::temporary_used[slot] = 0;
}

}  // namespace fabric_apps
