// GF11 configured by permutations (Kumar, "High bandwidth sustained for any
// definable interprocessor connectivity pattern"): 512 logical processors as a
// ring, a 2-D torus, the butterflies of an FFT and a binary tree, each a stored
// switch setting selected by its number; the time of each transfer; and a
// permutation an omega network cannot pass, through the Benes in one pass.
#include <fabric/mapping/permutations.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/routing/omega.hpp>
#include <fabric/systems/gf11.hpp>

#include "no_options.hpp"

#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
    if (fabric_examples::refuse_options(argc, argv)) return 2;
    using namespace fabric;
    const Gf11 machine;
    const std::uint32_t p = 512;  // logical processors
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> configs{
        {"ring i -> i+1", permutations::ring_shift(p)},
        {"2-D torus 16x32, +x", permutations::torus_shift(16, 32, true)},
        {"2-D torus 16x32, +y", permutations::torus_shift(16, 32, false)}};
    for (std::uint32_t stage = 0; stage < 9; ++stage)
        configs.emplace_back("FFT butterfly, stage " + std::to_string(stage), permutations::butterfly(p, stage));
    // One exchange step of a binary tree (the other steps are alike).
    configs.emplace_back("tree: even parents <-> left children", permutations::tree_exchange(p));

    const auto& timing = machine.timing();
    std::printf("GF11: %u logical processors on %zu working; a word through the network every %.0f ns "
                "(%.0f MB/s each), fixed delay %u cycles\n\n%-40s %8s %10s %12s\n",
                p, machine.working().size(), timing.word_ns(), timing.megabytes_per_second(), timing.delay_cycles,
                "configuration", "setting", "correct", "transfer");
    SettingsTable<ClosNetwork::Setting> table;
    std::vector<std::uint32_t> values(p);
    std::iota(values.begin(), values.end(), 1000U);
    std::uint64_t cycle = 0;
    std::size_t wrong = 0;  // words delivered to the wrong processor, over all configurations
    for (std::uint32_t k = 0; k < configs.size(); ++k) {
        const auto& [name, perm] = configs[k];
        table.store(k, machine.configure(perm));
        const std::size_t ok = permutations::delivered(perm, values, machine.transfer(table.select(k), values));
        wrong += p - ok;
        std::printf("%-40s %8u %5zu/%-4u %6.0f ns, in at cycle %llu\n", name.c_str(), k, ok, p, timing.word_ns(),
                    static_cast<unsigned long long>(timing.arrival_cycle(cycle)));
        cycle += timing.cycles_per_word();  // the next setting was selected during this transfer
    }
    std::printf("\n%zu of %zu settings stored; %zu words in %.1f us: a configuration change every %.0f ns\n",
                table.stored(), table.capacity, configs.size(), static_cast<double>(cycle) * timing.cycle_ns / 1e3,
                timing.word_ns());

    // Bit reversal on 8 ports blocks in an omega network but is one pass through a Benes.
    const auto reverse = permutations::bit_reversal(8);
    const BenesNetwork benes(8);
    std::vector<std::uint32_t> in(8);
    std::iota(in.begin(), in.end(), 0U);
    const std::size_t ok = permutations::delivered(reverse, in, benes.carry(route(benes, reverse), in));
    std::printf("\nbit reversal on 8 ports: %zu switch conflicts in an omega network; the Benes delivers %zu of 8 in "
                "one pass\n", omega_conflicts(reverse), ok);
    return wrong == 0 && ok == 8 ? 0 : 1;
}
