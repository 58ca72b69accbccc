// What the workload readers share: a text read with a bound on its size, walked
// line by line with the line's number (comments gone: `//` to the end of a line,
// and `/* ... */`, which may span lines), and whole numbers checked against a
// bound, every refusal naming the file and line.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fabric/core/error.hpp>

namespace fabric::workload {

/// The text of file `path`, refused if it is longer than `limit` bytes.
inline std::string read_text_file(const std::string& path, std::uint64_t limit) {
    std::ifstream in(path, std::ios::binary);
    fabric::detail::require(in.is_open(), "cannot open workload file '", path, "'");
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        fabric::detail::require(text.size() + static_cast<std::uint64_t>(in.gcount()) <= limit, path, ": the file is "
                                "longer than ", limit, " bytes, the most a workload reader takes; raise the limit");
        text.append(buf, static_cast<std::size_t>(in.gcount()));
    }
    return text;
}

/// A text's lines with their numbers (from 1), comments removed.
class TextLines {
public:
    static constexpr std::uint64_t default_limit = std::uint64_t{1} << 30;  // 1 GiB

    TextLines(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

    /// The next line (comments removed); false at the end. An unclosed /* is refused.
    bool next(std::string_view& line) {
        if (at_ >= text_.size()) {
            fabric::detail::require(!in_comment_, source_, ":", comment_line_, ": a '/*' comment is not closed");
            return false;
        }
        const std::size_t end = text_.find('\n', at_);
        std::string_view raw = text_.substr(at_, end == std::string_view::npos ? std::string_view::npos : end - at_);
        at_ = end == std::string_view::npos ? text_.size() : end + 1;
        ++line_;
        kept_.clear();
        std::size_t i = 0;
        while (i < raw.size()) {
            if (in_comment_) {
                const std::size_t close = raw.find("*/", i);
                if (close == std::string_view::npos) break;
                in_comment_ = false;
                i = close + 2;
                kept_ += ' ';
                continue;
            }
            if (raw.compare(i, 2, "//") == 0) break;
            if (raw.compare(i, 2, "/*") == 0) {
                in_comment_ = true;
                comment_line_ = line_;
                i += 2;
                continue;
            }
            kept_ += raw[i++];
        }
        line = kept_;
        return true;
    }
    [[nodiscard]] std::size_t line() const { return line_; }
    /// "file:line: " of the line last read.
    [[nodiscard]] std::string at() const { return source_ + ":" + std::to_string(line_) + ": "; }

private:
    std::string_view text_;
    std::string source_;
    std::size_t at_ = 0, line_ = 0, comment_line_ = 0;
    bool in_comment_ = false;
    std::string kept_;
};

/// `word` as a whole number below `below`, or a refusal at `at` naming `what`.
inline std::uint64_t whole_number(std::string_view word, const std::string& at, std::string_view what,
                                  std::uint64_t below) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    fabric::detail::require(!word.empty() && ec == std::errc{} && end == word.data() + word.size(), at, what,
                            " must be a whole number; got '", word, "'");
    fabric::detail::require(v < below, at, what, " must be below ", below, "; got ", v);
    return v;
}

}  // namespace fabric::workload
