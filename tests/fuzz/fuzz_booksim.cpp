// libFuzzer target for the BookSim file reader (apps/common/booksim_file.hpp): any
// bytes are a BookSim configuration, parsed and translated into cycle_sim options,
// as `cycle_sim --booksim FILE` does. Laws whatever the bytes: a text the reader
// refuses throws config_error, naming where (a line of the file, or the file), and
// nothing else; a translation gives options that are all named (--name), each
// refused key named once; no message echoes a long value whole.
#include "../../apps/common/booksim_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_booksim: law broken: %s\n", what);
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fabric_apps::booksim::Settings settings;
    try {
        fabric_apps::booksim::parse(text, "fuzz.cfg", settings);
    } catch (const fabric::config_error& e) {
        const std::string m = e.what();
        law(m.rfind("fabric: fuzz.cfg", 0) == 0, "a syntax error names the file");
        law(m.size() < 1000, "a syntax error's message is short");
        return 0;
    }
    for (const auto& [key, s] : settings) law(s.where.rfind("fuzz.cfg:", 0) == 0, "every setting has its line");
    try {
        const auto options = fabric_apps::booksim::translate(settings, "fuzz.cfg");
        for (const auto& o : options) law(o.name.rfind("--", 0) == 0, "a translated option is named --name");
    } catch (const fabric::config_error& e) {
        const std::string m = e.what();
        law(m.rfind("fabric: ", 0) == 0, "a refusal starts fabric:");
        // One line a refused key: each line is cut short, whatever the value.
        std::size_t at = 0;
        while (at < m.size()) {
            const std::size_t end = std::min(m.find('\n', at), m.size());
            law(end - at < 2000, "a refused key's line is short");
            at = end + 1;
        }
    }
    return 0;
}
