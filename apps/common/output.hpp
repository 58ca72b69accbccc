// Where a tool writes (--output FILE, and a tool's other files): looked at before
// the run, so that a path that cannot be written is refused before any work, and
// written whole or not at all, nothing touched before the run succeeds:
//
// - a regular file, or a new one, is written to a temporary file beside it and
//   renamed over it once every write has succeeded; a symbolic link is followed and
//   its target replaced (the link stays), with the target's permissions;
// - standard output ("-", /dev/stdout, /dev/fd/1) and any other descriptor the
//   process holds (/dev/fd/N) are written after the run, through the descriptor as
//   it is (a log opened for appending is appended to, never truncated); one that is
//   closed or open for reading only is refused before the run;
// - a device or a pipe (/dev/null, a FIFO) is written after the run; a FIFO no process
//   reads is refused before it (it would wait for a reader forever);
// - a directory, an output that is an input's file or another output's (after the
//   links are followed: files.hpp), and a path the system cannot resolve are refused.
//
// A failed write, flush or close is a config_error (status 2), never status 0 with
// the result lost. SIGINT, SIGTERM and SIGHUP remove the temporary files (files.hpp).
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fabric/core/error.hpp>

#include "files.hpp"

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

/// At start: a closed standard stream gets /dev/null, so that a file the tool opens
/// does not take its number and receive what was meant for the stream; which ones
/// were closed is remembered, and an output meant for one is refused before the run.
inline void standard_streams_open() {
    for (const int fd : {0, 1, 2}) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        detail_files::standard_closed(fd) = true;
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
    OutputFile() : memory_(std::make_unique<std::ostringstream>()) { mode_ = Mode::none; }

    /// Looks at `path` ("-": standard output) now, and makes a regular file's
    /// temporary file beside it; `option` names it in messages.
    OutputFile(const std::string& path, const std::string& option)
        : path_(path), option_(option), memory_(std::make_unique<std::ostringstream>()) {
        using fabric::detail::require;
        require(!path.empty(), option, ": give a file name, or - for standard output");
        const Target t = path == "-" ? Target{Target::Kind::descriptor, "/dev/stdout", 1} : resolve(path, option);
        switch (t.kind) {
            case Target::Kind::descriptor: open_descriptor(t.descriptor); return;
            case Target::Kind::directory:
                throw fabric::config_error(fabric::detail::message(option, ": '", shown(path), "' is a directory"));
            case Target::Kind::special:
                require(access(t.path.c_str(), W_OK) == 0, option, ": cannot write '", shown(path), "': ",
                        std::strerror(errno));
                mode_ = Mode::device;
                target_ = t.path;
                if (S_ISFIFO(t.mode)) hold_pipe();
                return;
            default: break;
        }
        FileList::instance().add(t, option, path, true);
        open_temporary(t);
    }
    OutputFile(OutputFile&& o) noexcept { *this = std::move(o); }
    OutputFile& operator=(OutputFile&& o) noexcept {
        if (this == &o) return *this;
        discard();
        path_ = std::move(o.path_);
        option_ = std::move(o.option_);
        target_ = std::move(o.target_);
        temp_ = std::exchange(o.temp_, std::string());
        slot_ = std::exchange(o.slot_, -1);
        pipe_ = std::exchange(o.pipe_, -1);
        descriptor_ = o.descriptor_;
        mode_ = std::exchange(o.mode_, Mode::none);
        committed_ = o.committed_;
        file_ = std::move(o.file_);
        memory_ = std::move(o.memory_);
        o.memory_ = std::make_unique<std::ostringstream>();
        return *this;
    }
    ~OutputFile() { discard(); }

    [[nodiscard]] bool is_stdout() const { return mode_ == Mode::descriptor && descriptor_ == 1; }
    std::ostream& stream() { return mode_ == Mode::file ? static_cast<std::ostream&>(*file_) : *memory_; }
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

    /// Every write done: a regular file closed and renamed into place, anything else
    /// written now; each step checked.
    void commit() {
        using fabric::detail::require;
        if (mode_ == Mode::none || committed_) return;
        committed_ = true;
        if (mode_ == Mode::descriptor) return write_descriptor();
        if (mode_ == Mode::device) {
            const int fd = pipe_ >= 0 ? std::exchange(pipe_, -1) : open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
            require(fd >= 0, option_, ": cannot write '", shown(path_), "': ", std::strerror(errno));
            const int err = write_all(fd, memory_->str());
            const bool closed = close(fd) == 0;
            require(err == 0 && closed, option_, ": writing '", shown(path_), "' failed: ",
                    std::strerror(err ? err : errno));
            return;
        }
        errno = 0;
        file_->flush();
        const bool written = file_->good();
        const int err = errno;
        file_->close();
        require(written && !file_->fail(), option_, ": writing '", shown(path_), "' failed", err ? ": " : "",
                err ? std::strerror(err) : "");
        std::error_code ec;
        std::filesystem::rename(temp_, target_, ec);
        require(!ec, option_, ": cannot write '", shown(path_), "': ", ec.message());
        forget_temporary(std::exchange(slot_, -1));
        temp_.clear();
    }

private:
    enum class Mode { none, descriptor, device, file };

    /// A pipe (FIFO) is opened now, without waiting: with no process reading it, it is refused before the
    /// run (written to, it would wait for one forever); held open, the reader waits for the results.
    void hold_pipe() {
        pipe_ = open(target_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        fabric::detail::require(pipe_ >= 0, option_, ": cannot write '", shown(path_), "': ",
                                errno == ENXIO ? "no process reads this pipe" : std::strerror(errno));
        fcntl(pipe_, F_SETFL, fcntl(pipe_, F_GETFL) & ~O_NONBLOCK);  // the results are written whole, blocking
    }

    void open_descriptor(int fd) {
        using fabric::detail::require;
        const bool standard = fd >= 0 && fd <= 2;
        const char* name = fd == 0 ? "standard input" : fd == 1 ? "standard output" : "standard error";
        if (standard)
            require(!detail_files::standard_closed(fd), option_, ": ", name, " is closed; give a file (", option_,
                    " FILE)");
        const int flags = fcntl(fd, F_GETFL);
        require(flags != -1, option_, ": '", shown(path_), "' names descriptor ", fd, ", which is not open");
        require((flags & O_ACCMODE) != O_RDONLY, option_, ": '", shown(path_), "' names ",
                standard ? std::string(name) : "descriptor " + std::to_string(fd), ", which is open for reading only");
        mode_ = Mode::descriptor;
        descriptor_ = fd;
    }

    void open_temporary(const Target& t) {
        using fabric::detail::require;
        const std::filesystem::path target(t.path);
        const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
        std::string hidden(1, '.');  // (built by appends: GCC 12 warns, wrongly, of "." + string)
        hidden.append(target.filename().string()).append(".XXXXXX");
        std::string tmp = (dir / hidden).string();
        const int fd = mkostemp(tmp.data(), O_CLOEXEC);
        require(fd >= 0, option_, ": cannot write '", shown(path_), "': ", std::strerror(errno));
        slot_ = list_temporary(tmp);
        temp_ = tmp;
        target_ = t.path;
        // The replaced file's permissions, or those a file created by the shell would have.
        mode_t mode = t.mode & 07777;
        if (t.kind != Target::Kind::regular) {
            const mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        fchmod(fd, mode);
        close(fd);
        mode_ = Mode::file;
        file_ = std::make_unique<std::ofstream>(temp_, std::ios::out | std::ios::binary | std::ios::trunc);
        if (!file_->is_open()) {
            const int err = errno;
            discard();
            throw fabric::config_error(
                fabric::detail::message(option_, ": cannot write '", shown(path_), "': ", std::strerror(err)));
        }
    }

    /// The memory written to the descriptor: standard output through std::cout (in
    /// order with anything else printed there), the others directly.
    void write_descriptor() {
        using fabric::detail::require;
        const std::string text = memory_->str();
        if (descriptor_ == 1) {
            end_progress_line();
            errno = 0;
            std::cout << text;
            std::cout.flush();
            const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
            stdout_failure_reported() = !ok;  // (said here: close_stdout need not say it again)
            require(ok, option_, ": writing standard output failed", errno ? ": " : "", errno ? std::strerror(errno) : "");
            return;
        }
        if (descriptor_ == 2) {
            end_progress_line();
            std::fflush(stderr);
        }
        const int err = write_all(descriptor_, text);
        require(err == 0, option_, ": writing '", shown(path_), "' failed: ", std::strerror(err));
    }

    /// write(2) until every byte is written: 0, or the error.
    static int write_all(int fd, const std::string& text) {
        for (std::size_t at = 0; at < text.size();) {
            const ssize_t n = write(fd, text.data() + at, text.size() - at);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return n < 0 ? errno : EIO;
            at += static_cast<std::size_t>(n);
        }
        return 0;
    }

    /// A temporary file never committed is removed: no partial file.
    void discard() {
        if (pipe_ >= 0) close(std::exchange(pipe_, -1));
        if (file_ && file_->is_open()) file_->close();
        if (!temp_.empty()) std::remove(temp_.c_str());
        forget_temporary(std::exchange(slot_, -1));
        temp_.clear();
    }

    std::string path_, option_, target_, temp_;
    int slot_ = -1, descriptor_ = -1, pipe_ = -1;
    Mode mode_ = Mode::none;
    bool committed_ = false;
    std::unique_ptr<std::ofstream> file_;
    std::unique_ptr<std::ostringstream> memory_;
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
