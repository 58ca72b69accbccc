// Where a tool writes (--output FILE, and a tool's other files): opened before the
// run, so that a path that cannot be written is refused before any work; written
// whole or not at all. A regular file is written to a temporary file beside it and
// renamed over it once every write has succeeded (a failed run leaves no partial
// file); a device or pipe (/dev/stdout, /dev/null) is written in place; "-" is
// standard output. A failed write, flush or close is a config_error (status 2).
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fabric/core/error.hpp>

namespace fabric_apps {

/// Whether a progress line is open on stderr (progress.hpp, dist.hpp): ended before results are written.
inline bool& progress_line_open() {
    static bool open = false;
    return open;
}
inline void end_progress_line() {
    if (!progress_line_open()) return;
    std::fputc('\n', stderr);
    progress_line_open() = false;
}

/// Whether a failed write to standard output has been reported already (one message, not two).
inline bool& stdout_failure_reported() {
    static bool reported = false;
    return reported;
}

/// Whether standard output was closed when the tool started (standard_streams_open).
inline bool& stdout_was_closed() {
    static bool closed = false;
    return closed;
}

/// At start: a closed standard stream gets /dev/null, so that a file the tool opens
/// does not take its number and receive what was meant for the stream; a closed
/// standard output is remembered, and a result meant for it refused before the run.
inline void standard_streams_open() {
    for (const int fd : {0, 1, 2}) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        if (fd == 1) stdout_was_closed() = true;
        const int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (null >= 0 && null != fd) {
            dup2(null, fd);
            close(null);
        }
    }
}

class OutputFile {
public:
    /// No output (what a rank other than 0 holds under mpirun): writes go nowhere.
    OutputFile() : null_(std::make_unique<std::ostream>(nullptr)) {}

    /// Opens `path` ("-": standard output) now; `option` names it in messages.
    OutputFile(const std::string& path, const std::string& option) : path_(path), option_(option) {
        using fabric::detail::require;
        require(!path.empty(), option, ": give a file name, or - for standard output");
        if (path == "-") {
            require(!stdout_was_closed(), option, ": standard output is closed; give a file (", option, " FILE)");
            return;
        }
        struct stat st {};
        const bool exists = lstat(path.c_str(), &st) == 0;
        require(!exists || !S_ISDIR(st.st_mode), option, ": '", path, "' is a directory");
        if (exists && !S_ISREG(st.st_mode)) {  // a device, a pipe, or a link to one: written in place
            file_.open(path, std::ios::out | std::ios::binary);
            require(file_.is_open(), option, ": cannot write '", path, "': ", std::strerror(errno));
            return;
        }
        std::filesystem::path target(path);
        const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
        std::string hidden(1, '.');  // (built by appends: GCC 12 warns, wrongly, of "." + string)
        hidden.append(target.filename().string()).append(".XXXXXX");
        std::string tmp = (dir / hidden).string();
        const int fd = mkstemp(tmp.data());
        require(fd >= 0, option, ": cannot write '", path, "': ", std::strerror(errno));
        const mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);  // the mode a file created by the shell would have
        close(fd);
        temp_ = tmp;
        file_.open(temp_, std::ios::out | std::ios::binary | std::ios::trunc);
        if (!file_.is_open()) {
            const int err = errno;
            std::remove(temp_.c_str());
            throw fabric::config_error(
                fabric::detail::message(option, ": cannot write '", path, "': ", std::strerror(err)));
        }
    }
    OutputFile(OutputFile&&) = default;
    OutputFile& operator=(OutputFile&&) = default;
    ~OutputFile() {
        if (!temp_.empty()) std::remove(temp_.c_str());  // never committed: no partial file
    }

    [[nodiscard]] bool is_stdout() const { return path_ == "-"; }
    std::ostream& stream() {
        if (null_) return *null_;
        if (is_stdout()) {
            end_progress_line();
            return std::cout;
        }
        return file_;
    }
    /// printf into the output.
    [[gnu::format(printf, 2, 3)]] void printf(const char* format, ...) {
        va_list args, again;
        va_start(args, format);
        va_copy(again, args);
        const int n = std::vsnprintf(nullptr, 0, format, args);
        va_end(args);
        std::string text(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
        if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
        va_end(again);
        stream() << text;
    }

    /// Every write done: flushed and checked; a file closed and renamed into place.
    void commit() {
        using fabric::detail::require;
        if (null_ || committed_) return;
        committed_ = true;
        if (is_stdout()) {
            std::cout.flush();
            errno = 0;
            const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
            stdout_failure_reported() = !ok;  // (said here: close_stdout need not say it again)
            require(ok, option_, ": writing standard output failed", errno ? ": " : "", errno ? std::strerror(errno) : "");
            return;
        }
        errno = 0;
        file_.flush();
        const bool written = file_.good();
        const int err = errno;
        file_.close();
        require(written && !file_.fail(), option_, ": writing '", path_, "' failed",
                err ? ": " : "", err ? std::strerror(err) : "");
        if (temp_.empty()) return;
        std::error_code ec;
        std::filesystem::rename(temp_, path_, ec);
        require(!ec, option_, ": cannot write '", path_, "': ", ec.message());
        temp_.clear();
    }

private:
    std::string path_, option_, temp_;
    std::ofstream file_;
    std::unique_ptr<std::ostream> null_;
    bool committed_ = false;
};

/// At exit: standard output flushed and closed, its failure (a full disk, a closed
/// pipe) reported; true when all is well.
inline bool close_stdout() {
    std::cout.flush();
    errno = 0;
    const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
    const int err = errno;
    const bool closed = std::fclose(stdout) == 0;
    if (ok && closed) return true;
    if (stdout_failure_reported()) return false;
    std::fprintf(stderr, "fabric: writing standard output failed%s%s\n", err ? ": " : "", err ? std::strerror(err) : "");
    return false;
}

}  // namespace fabric_apps
