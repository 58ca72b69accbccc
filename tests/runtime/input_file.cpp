// The bounded reader of the files a user names (core/input_file.hpp): a regular file
// read whole within its limit; a directory, a pipe, a device, a socket refused by
// what it is; a path the system cannot resolve (missing, a name too long, a loop of
// links) refused as a config_error, never another exception; the limit held while
// reading, for a file whose size says less than it holds.
#include <doctest/doctest.h>

#include <fabric/core/input_file.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace unit_input_file {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;

namespace {

/// A fresh directory of this test's own, removed at the end.
struct Scratch {
    std::filesystem::path dir;
    Scratch() {
        dir = std::filesystem::temp_directory_path() / ("fabric_input_file_" + std::to_string(getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    [[nodiscard]] std::string file(const std::string& name, const std::string& text) const {
        const auto p = dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

std::string refusal(const std::string& path, std::uint64_t limit = default_input_limit) {
    try {
        (void)read_input_file(path, "test file", limit, "raise it");
    } catch (const config_error& e) {
        return e.what();
    }
    return "(read)";
}

}  // namespace

TEST_CASE("a regular file is read whole, up to its limit and not a byte past it") {
    const Scratch s;
    const std::string ten = s.file("ten", "0123456789");
    CHECK(read_input_file(ten, "test file", 10) == "0123456789");
    CHECK(refusal(ten, 9) == "fabric: test file '" + ten + "' has 10 bytes, past the limit of 9 bytes for one "
                             "input file; raise it");
    CHECK(read_input_file(s.file("empty", ""), "test file") == "");
    // Through a symbolic link: the file it names.
    std::filesystem::create_symlink(ten, s.dir / "link");
    CHECK(read_input_file((s.dir / "link").string(), "test file") == "0123456789");
}

TEST_CASE("what is not a regular file is refused by what it is, before a byte is read") {
    const Scratch s;
    CHECK(refusal(s.dir.string()) == "fabric: test file '" + s.dir.string() + "' is a directory, not a file to read; "
                                     "give a regular file");
    CHECK(refusal("/dev/zero") == "fabric: test file '/dev/zero' is a character device, not a file to read; give a "
                                  "regular file");
    const std::string fifo = (s.dir / "fifo").string();
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);  // read, it would wait for a writer forever
    CHECK(refusal(fifo) == "fabric: test file '" + fifo + "' is a pipe (FIFO), not a file to read; give a regular file");
}

TEST_CASE("a path the system cannot resolve is a config_error, never a filesystem_error") {
    const Scratch s;
    const std::string missing = (s.dir / "missing").string();
    CHECK(refusal(missing) == "fabric: cannot open test file '" + missing + "': No such file or directory");
    std::filesystem::create_symlink(s.dir / "b", s.dir / "a");
    std::filesystem::create_symlink(s.dir / "a", s.dir / "b");
    CHECK(refusal((s.dir / "a").string()).find("Too many levels of symbolic links") != std::string::npos);
    // A name of 5,000 characters: refused, and not echoed whole.
    const std::string long_name = (s.dir / std::string(5000, 'a')).string();
    const std::string m = refusal(long_name);
    CHECK(m.find("File name too long") != std::string::npos);
    CHECK(m.size() < 400);
    CHECK(refusal("") == "fabric: test file: give a file name");
}

TEST_CASE("a file whose size says less than it holds is still read to the limit only") {
    // /proc files say 0 bytes; /proc/self/maps holds far more than 16.
    CHECK(refusal("/proc/self/maps", 16) == "fabric: test file '/proc/self/maps' has more than 16 bytes, past the limit "
                                            "of 16 bytes for one input file; raise it");
    CHECK(read_input_file("/proc/self/maps", "test file").size() > 16);
}

TEST_CASE("a long value goes into a message cut, with its length") {
    CHECK(detail::shown("short") == "short");
    const std::string cut = detail::shown(std::string(1000, 'x') + "end");
    CHECK(cut.size() < 150);
    CHECK(cut.find("[... 923 more characters ...]") == 60);
    CHECK(cut.ends_with("end"));
}

}  // namespace unit_input_file
