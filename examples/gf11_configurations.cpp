// GF11 configured by permutations (Kumar, "High bandwidth sustained for any
// definable interprocessor connectivity pattern"): 512 logical processors as a
// ring, a 2-D torus, the butterflies of an FFT and a binary tree, each a stored
// switch setting selected by its number; the time of each transfer; and a
// permutation an omega network cannot pass, through the Benes in one pass.
#include <fabric/routing/benes_looping.hpp>
#include <fabric/systems/gf11.hpp>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace {
using namespace fabric;

/// Conflicts of destination-tag routing through an omega network of 2^n ports
/// (n stages of perfect shuffle + 2x2 switch): two messages wanting one switch output.
std::size_t omega_conflicts(const std::vector<std::uint32_t>& perm) {
    const std::size_t n = perm.size();
    std::size_t bits = 0;
    while ((std::size_t{1} << bits) < n) ++bits;
    std::vector<std::uint32_t> at(n);
    std::iota(at.begin(), at.end(), 0U);  // position of each message
    std::size_t conflicts = 0;
    for (std::size_t stage = 0; stage < bits; ++stage) {
        std::vector<int> used(n, 0);
        for (std::size_t m = 0; m < n; ++m) {
            const std::uint32_t shuffled = static_cast<std::uint32_t>(((at[m] << 1) | (at[m] >> (bits - 1))) & (n - 1));
            const std::uint32_t bit = (perm[m] >> (bits - 1 - stage)) & 1U;  // destination tag, high bit first
            at[m] = (shuffled & ~1U) | bit;
            conflicts += used[at[m]]++ > 0;
        }
    }
    return conflicts;
}
}  // namespace

int main() {
    const Gf11 machine;
    const std::size_t p = 512;
    SettingsTable<ClosNetwork::Setting> table;
    struct Config {
        std::string name;
        std::vector<std::uint32_t> perm;
    };
    std::vector<Config> configs;
    std::vector<std::uint32_t> ring(p), east(p), south(p);
    for (std::uint32_t i = 0; i < p; ++i) {
        ring[i] = (i + 1) % p;
        east[i] = (i / 32) * 32 + (i % 32 + 1) % 32;  // 16 x 32 torus, +x
        south[i] = (i + 32) % p;                      // +y
    }
    configs.push_back({"ring i -> i+1", ring});
    configs.push_back({"2-D torus 16x32, +x", east});
    configs.push_back({"2-D torus 16x32, +y", south});
    for (std::uint32_t stage = 0; stage < 9; ++stage) {
        std::vector<std::uint32_t> fly(p);
        for (std::uint32_t i = 0; i < p; ++i) fly[i] = i ^ (1U << stage);  // FFT butterfly partner
        configs.push_back({"FFT butterfly, stage " + std::to_string(stage), fly});
    }
    // A binary tree (node i's children are 2i + 1 and 2i + 2): one exchange step,
    // every even-numbered parent swapping a word with its left child. The pairs
    // are disjoint, so the step is a permutation; other steps are alike.
    std::vector<std::uint32_t> up(p);
    std::iota(up.begin(), up.end(), 0U);
    for (std::uint32_t parent = 0; 2 * parent + 1 < p; parent += 2) {
        const std::uint32_t child = 2 * parent + 1;
        if (up[parent] == parent && up[child] == child) {
            up[parent] = child;
            up[child] = parent;
        }
    }
    configs.push_back({"tree: even parents <-> left children", up});

    const double word_ns = machine.timing().word_ns();
    std::printf("GF11: %zu logical processors on %zu working; a word through the network every %.0f ns "
                "(%.0f MB/s each), fixed delay %u cycles\n\n",
                p, machine.working().size(), word_ns, machine.timing().megabytes_per_second(),
                machine.timing().delay_cycles);
    std::printf("%-40s %8s %10s %12s\n", "configuration", "setting", "correct", "transfer");
    std::vector<std::uint32_t> values(p);
    std::iota(values.begin(), values.end(), 1000U);
    std::uint64_t cycle = 0;
    std::size_t wrong = 0;  // words delivered to the wrong processor, over all configurations
    for (std::uint32_t k = 0; k < configs.size(); ++k) {
        table.store(k, machine.configure(configs[k].perm));
        const auto got = machine.transfer(table.select(k), values);
        std::size_t ok = 0;
        for (std::size_t l = 0; l < p; ++l) ok += got[configs[k].perm[l]] == values[l];
        wrong += p - ok;
        const std::uint64_t arrives = machine.timing().arrival_cycle(cycle);
        std::printf("%-40s %8u %5zu/%-4zu %6.0f ns, in at cycle %llu\n", configs[k].name.c_str(), k, ok, p, word_ns,
                    static_cast<unsigned long long>(arrives));
        cycle += machine.timing().cycles_per_word();  // the next setting was selected during this transfer
    }
    std::printf("\n%zu of %zu settings stored; %zu words in %.1f us: a configuration change every %.0f ns\n",
                table.stored(), SettingsTable<ClosNetwork::Setting>::capacity, configs.size(),
                static_cast<double>(cycle) * machine.timing().cycle_ns / 1e3, word_ns);

    // Bit reversal on 8 ports blocks in an omega network but is one pass through a Benes.
    std::vector<std::uint32_t> reverse(8);
    for (std::uint32_t i = 0; i < 8; ++i) reverse[i] = ((i & 1U) << 2) | (i & 2U) | ((i >> 2) & 1U);
    const BenesNetwork benes(8);
    const auto s = route(benes, reverse);
    std::vector<std::uint32_t> in(8);
    std::iota(in.begin(), in.end(), 0U);
    const auto out = benes.carry(s, in);
    std::size_t ok = 0;
    for (std::uint32_t i = 0; i < 8; ++i) ok += out[reverse[i]] == i;
    std::printf("\nbit reversal on 8 ports: %zu switch conflicts in an omega network; the Benes delivers %zu of 8 in "
                "one pass\n",
                omega_conflicts(reverse), ok);
    return wrong == 0 && ok == 8 ? 0 : 1;
}
