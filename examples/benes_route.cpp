// Routes one random permutation through a Benes network and checks it.
//
//   benes_route --ports N [--form recursive|clos] [--radix r] [--seed S] [--json]
//
// recursive: N = 2^n ports of 2x2 switches; clos: r x r crossbars, N = r^2
// (GF11: --form clos --radix 24).
#include <fabric/core/random.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/topology/benes.hpp>

#include "common/cli.hpp"

#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace fabric;
    const fabric_examples::Cli cli(argc, argv, {"ports", "form", "radix", "seed"}, {"json"},
                                   "usage: benes_route --ports N [--form recursive|clos] [--radix r] [--seed S] [--json]\n");
    const std::string form = cli.text("form", "recursive");
    if (form != "recursive" && form != "clos") cli.fail("--form must be recursive or clos");
    try {
        const long long ports = cli.integer("ports");
        if (ports < 2) cli.fail("--ports must be at least 2");
        std::vector<std::uint32_t> perm(static_cast<std::size_t>(ports));
        std::iota(perm.begin(), perm.end(), 0U);
        Random(static_cast<std::uint64_t>(cli.integer("seed", 1))).shuffle(std::span<std::uint32_t>(perm));
        std::vector<std::uint32_t> in(perm.size());
        std::iota(in.begin(), in.end(), 0U);
        std::size_t stages = 0, switches = 0, conflicts = 0, delivered = 0;
        double seconds = 0;
        auto count = [&](const std::vector<std::uint32_t>& out) {
            for (std::size_t i = 0; i < perm.size(); ++i) delivered += out[perm[i]] == i;
        };
        if (form == "recursive") {
            const BenesNetwork net(perm.size());
            const auto start = std::chrono::steady_clock::now();
            const auto s = route(net, perm);
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            for (std::size_t k = 0; k < net.switches(); ++k) conflicts += s.out0[k] == s.out1[k];
            count(net.carry(s, in));
            stages = net.stages();
            switches = net.switches();
        } else {
            const auto r = static_cast<std::size_t>(cli.integer("radix", 24));
            const ClosNetwork net(r);
            if (net.ports() != perm.size()) cli.fail("a clos network of radix r has r^2 ports; use --ports " +
                                                     std::to_string(net.ports()));
            const auto start = std::chrono::steady_clock::now();
            const auto s = route(net, perm);
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            for (const auto& stage : s.take)
                for (std::size_t sw = 0; sw < r; ++sw) {
                    std::vector<int> fed(r, 0);
                    for (std::size_t o = 0; o < r; ++o) ++fed[stage[sw * r + o]];
                    for (const int f : fed) conflicts += f != 1;
                }
            count(net.carry(s, in));
            stages = net.stages();
            switches = net.switches();
        }
        if (cli.flag("json"))
            std::printf("{\"form\": \"%s\", \"ports\": %lld, \"stages\": %zu, \"switches\": %zu, \"conflicts\": %zu, "
                        "\"delivered\": %zu, \"route_seconds\": %.6f}\n",
                        form.c_str(), ports, stages, switches, conflicts, delivered, seconds);
        else
            std::printf("%s Benes, %lld ports: %zu stages, %zu switches; routed in %.6f s; %zu conflicts, %zu of %lld "
                        "delivered\n",
                        form.c_str(), ports, stages, switches, seconds, conflicts, delivered, ports);
        return conflicts == 0 && delivered == perm.size() ? 0 : 1;
    } catch (const config_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}
