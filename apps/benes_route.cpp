// Routes one random permutation through a Benes network and checks it.
// recursive: N = 2^n ports of 2x2 switches; clos: r x r crossbars, N = r^2
// (GF11: --form clos --radix 24 --ports 576). Options and configuration files:
// apps/common/tool.hpp.
#include <fabric/core/random.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/topology/benes.hpp>

#include "common/tool.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

namespace {
using namespace fabric;

struct Settings : fabric_apps::Common {
    std::uint64_t ports = 1024;
    std::string form = "recursive";  // recursive | clos
    std::uint32_t radix = 24;        // clos: r x r crossbars, r^2 ports
    std::uint64_t seed = 1;          // of the random permutation

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::ports, "--ports", "ports N (recursive: a power of 2; clos: radix^2)",
                      within<std::uint64_t>(2, std::uint64_t{1} << 32)),
            option<S>(&S::form, "--form", "recursive (2x2 switches) or clos (r x r crossbars)", one_of({"recursive", "clos"})),
            option<S>(&S::radix, "--radix", "crossbar radix r", within<std::uint32_t>(2, 4096)).with("--form", "clos"),
            seed_option<S>(&S::seed, "seed of the permutation"),
        };
        for (auto& f : format_options<S>({"text", "json"}, {"json"})) o.push_back(std::move(f));
        return o;
    }
};

int route_one(const Settings& set, fabric_apps::OutputFile& out) {
    detail::require(set.form == "recursive" || set.form == "clos", "--form must be recursive or clos; got '", set.form, "'");
    detail::require(set.ports >= 2, "--ports must be at least 2");
    const double n = static_cast<double>(set.ports);
    // Memory measured: about 64 bytes a port (permutation, data, both settings of every switch and the looping
    // algorithm's work), at 2^20 and 2^22 ports alike; the instructions a switch setting with callgrind.
    fabric_apps::check(fabric_apps::Cost()
                           .add("switch settings (N log2 N)", n * std::log2(n), 75)
                           .need("permutation, switch settings and routing state, about 72 bytes a port", 72 * n));
    std::vector<std::uint32_t> perm(set.ports);
    std::iota(perm.begin(), perm.end(), 0U);
    Random(set.seed).shuffle(std::span<std::uint32_t>(perm));
    std::vector<std::uint32_t> in(perm.size());
    std::iota(in.begin(), in.end(), 0U);
    std::size_t stages = 0, switches = 0, conflicts = 0, delivered = 0;
    double seconds = 0;
    auto count = [&](const std::vector<std::uint32_t>& carried) {
        for (std::size_t i = 0; i < perm.size(); ++i) delivered += carried[perm[i]] == i;
    };
    if (set.form == "recursive") {
        const BenesNetwork net(perm.size());
        const auto start = std::chrono::steady_clock::now();
        const auto s = route(net, perm);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (std::size_t k = 0; k < net.switches(); ++k) conflicts += s.out0[k] == s.out1[k];
        count(net.carry(s, in));
        stages = net.stages();
        switches = net.switches();
    } else {
        const std::size_t r = set.radix;
        const ClosNetwork net(r);
        detail::require(net.ports() == perm.size(), "a clos network of radix r has r^2 ports; use --ports ", net.ports());
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
    if (set.format == "json")
        fabric_apps::write_json(out.stream(), nlohmann::json{{"form", set.form}, {"ports", set.ports}, {"stages", stages}, {"switches", switches},
                                    {"conflicts", conflicts}, {"delivered", delivered}, {"route_seconds", seconds}});
    else
        out.printf("%s Benes, %llu ports: %zu stages, %zu switches; routed in %.6f s; %zu conflicts, %zu of %llu "
                    "delivered\n", set.form.c_str(), static_cast<unsigned long long>(set.ports), stages, switches,
                    seconds, conflicts, delivered, static_cast<unsigned long long>(set.ports));
    return conflicts == 0 && delivered == perm.size() ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "benes_route",
        "routes one random permutation through a Benes network (looping algorithm) and checks every switch and "
        "every delivery (status 1 if one fails).",
        route_one);
}
