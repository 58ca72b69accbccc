// libFuzzer target for the JSON configuration reader (apps/common/config_file.hpp):
// any bytes are a configuration file, parsed and applied to settings with an option
// of every kind (numbers of each type and range, words with an older spelling, text,
// a file read and one written, a flag, lists, an alias, a synonym), through the
// option checks every tool's --config goes through. Laws whatever the bytes: a
// refusal is a config_error naming the file, with no long value echoed whole, and
// nothing else; settings read hold values within their options' ranges and words;
// the settings dumped back (--dump-config) read again to the same settings.
#include "../../apps/common/config_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {
void law(bool holds, const char* what) {
    if (holds) return;
    std::fprintf(stderr, "fuzz_config: law broken: %s\n", what);
    std::abort();
}

struct Settings : fabric_apps::Common {
    std::uint32_t count = 4;
    std::int32_t offset = 0;
    double rate = 0.5;
    std::uint64_t seed = 1;
    std::string mode = "fast";
    std::string text;
    std::string input;
    std::string output_file;
    bool quick = false;
    std::vector<long long> dims{8, 8};
    std::vector<double> loads;

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::count, "--count", "a count", within<std::uint32_t>(1, 1000)),
            option<S>(&S::offset, "--offset", "an offset", within<std::int32_t>(-5, 5)),
            option<S>(&S::rate, "--rate", "a rate", within(0.0, 1.0, true)),
            seed_option<S>(&S::seed, "a seed").also("--seeds"),
            option<S>(&S::mode, "--mode", "a word", Words{{"fast", "slow"}, {{"quick", "fast"}}}),
            option<S>(&S::text, "--text", "text", Text{}),
            option<S>(&S::input, "--input", "a file read", input_file()),
            option<S>(&S::output_file, "--file", "a file written", file()),
            flag<S>(&S::quick, "--quick", "a flag").with("--mode", "fast"),
            option<S>(&S::dims, "--dims", "a list", within<long long>(1, 1LL << 30)),
            option<S>(&S::loads, "--loads", "a list of reals", within(0.0, 2.0)),
            alias<S>("--slow", "--mode", "slow"),
        };
        return o;
    }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabric_apps;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Options<Settings> options = Settings::options();
    Settings s;
    std::set<std::string> given;
    try {
        const nlohmann::json j = parse_config_text(text, "dir/fuzz.json");
        apply_config(options, s, j, "dir/fuzz.json", given);
    } catch (const fabric::config_error& e) {
        const std::string m = e.what();
        law(m.rfind("fabric: dir/fuzz.json", 0) == 0, "a refusal names the file");
        law(m.size() < 4000 + 60 * options.size(), "a refusal echoes no long value whole");
        return 0;
    }
    law(s.count >= 1 && s.count <= 1000 && s.offset >= -5 && s.offset <= 5 && s.rate > 0 && s.rate <= 1,
        "numbers within their ranges");
    law(s.mode == "fast" || s.mode == "slow", "a word is one of its words");
    for (const long long d : s.dims) law(d >= 1 && d <= (1LL << 30), "a list's numbers within their range");
    // A path the file gives is taken from its directory.
    law(s.input.empty() || s.input.rfind("dir/", 0) == 0 || s.input.front() == '/' || s.input == "-",
        "a relative path is the file's directory's");
    // Dumped and read again: the same settings.
    const nlohmann::json dumped = dump_config(options, s, [](const Option<Settings>&) { return true; });
    Settings again;
    std::set<std::string> given_again;
    try {
        apply_config(options, again, dumped, "/again.json", given_again);
    } catch (const fabric::config_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        law(false, "a dumped configuration reads again");
    }
    law(dump_config(options, again, [](const Option<Settings>&) { return true; }) == dumped,
        "a dumped configuration reads again to the same settings");
    return 0;
}
