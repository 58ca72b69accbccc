// dist/sweep.hpp under mpirun (CTest runs this at 1, 2, 3 and 4 ranks): lists
// dealt over the ranks give on rank 0 exactly, byte for byte, what the serial
// loop gives: a latency-load curve that ends at saturation, cycle runs of very
// different lengths with their latency histograms, a run that deadlocks with its
// report; a stop rule ends the list where the serial loop ends it; a failing run
// stops the list on every rank with its error.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <fabric/composition.hpp>
#include <fabric/dist/results.hpp>
#include <fabric/dist/sweep.hpp>
#include <fabric/experiment/sweep.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/sim/cycle.hpp>
#include <fabric/topology/torus.hpp>

#include <boost/hana/define_struct.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace fabric;

namespace {
int rank_of_world() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/// Every field, as the bytes that would cross ranks.
template <class R>
std::vector<std::byte> bytes_of(const std::vector<R>& results) {
    dist::ByteWriter w;
    dist::encode(w, results);
    return w.take();
}

using Net = Fabric<Torus<2>, DorTieSplit<Dateline>>;

CycleConfig short_runs() {
    CycleConfig cfg;
    cfg.warmup = 300;
    cfg.measure = 1000;
    return cfg;
}

struct RunSummary {
    BOOST_HANA_DEFINE_STRUCT(RunSummary, (double, accepted), (double, latency), (std::vector<std::uint64_t>, histogram),
                             (std::uint64_t, cycles), (std::uint64_t, flits_ejected), (bool, saturated));
};
}  // namespace

TEST_CASE("a latency-load curve dealt over the ranks is the serial sweep, ending at the same saturated point") {
    const Net net{Torus<2>({4, 4})};
    const UniformTraffic uniform(16);
    const auto rates = experiment::loads(0.1, 1.0, 0.15);
    experiment::SweepSettings settings;
    settings.seeds = {1, 2};
    CycleSimulator serial_sim(net, short_runs());
    const auto serial = experiment::sweep(serial_sim, uniform, rates, PacketSizes::fixed(4), settings);
    const auto dealt = dist::run_list(
        MPI_COMM_WORLD, rates.size(),
        [&](std::size_t i) {
            CycleSimulator sim(net, short_runs());
            return experiment::measure_load(sim, uniform, rates[i], PacketSizes::fixed(4), settings);
        },
        [](const experiment::LoadPoint& p) { return p.saturated(); });
    if (rank_of_world() != 0) {
        CHECK(dealt.empty());
        return;
    }
    REQUIRE(serial.back().saturated());  // the curve does end early, so the stop rule is exercised
    REQUIRE(serial.size() < rates.size());
    CHECK(dealt.size() == serial.size());
    CHECK(bytes_of(dealt) == bytes_of(serial));
}

TEST_CASE("cycle runs of very different lengths, with their latency histograms, in list order") {
    const Net small{Torus<2>({4, 4})}, large{Torus<2>({8, 8})};
    auto job = [&](std::size_t i) {
        CycleConfig cfg = short_runs();
        cfg.seed = 10 + i;
        const CycleResult r = i % 3 == 0 ? simulate_cycles(large, UniformTraffic(64), 0.05 * double(i % 5 + 1), PacketSizes::fixed(2), cfg)
                                         : simulate_cycles(small, UniformTraffic(16), 0.1, PacketSizes::fixed(1), cfg);
        return RunSummary{r.accepted, r.latency.mean, r.latency.histogram, r.cycles, r.flits_ejected, r.saturated};
    };
    const auto dealt = dist::run_list(MPI_COMM_WORLD, 11, job);
    if (rank_of_world() != 0) return;
    const auto serial = dist::serial_list(11, job);
    REQUIRE(dealt.size() == 11);
    CHECK(bytes_of(dealt) == bytes_of(serial));
    CHECK(dealt[3].histogram.size() > 0);
}

TEST_CASE("a run that deadlocks travels with its report") {
    using OneVc = Torus<2, BasicLink<1>>;
    const Fabric<OneVc, DorTieSplit<NoDateline>> locked{OneVc({8, 8}), allow_deadlock};
    auto job = [&](std::size_t i) {
        CycleConfig cfg = short_runs();
        cfg.watchdog = 1000;
        CycleSimulator sim(locked, cfg);
        experiment::SweepSettings settings;
        settings.seeds = {3};
        return experiment::measure_load(sim, UniformTraffic(64), i == 1 ? 0.8 : 0.05, PacketSizes::fixed(8), settings);
    };
    const auto dealt = dist::run_list(MPI_COMM_WORLD, 3, job);
    if (rank_of_world() != 0) return;
    REQUIRE(dealt.size() == 3);
    REQUIRE(dealt[1].deadlock);
    CHECK(dealt[1].deadlock->describe().find("fabric: deadlock at cycle") == 0);
    CHECK_FALSE(dealt[0].deadlock);
    CHECK(bytes_of(dealt) == bytes_of(dist::serial_list(3, job)));
}

TEST_CASE("a stop rule ends the list at its first stop in list order, whichever rank meets it first") {
    // Runs take 0, 2 or 4 ms, so a later stop (index 20) can be met before an earlier one (11).
    auto job = [](std::size_t i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2 * ((30 - i) % 3)));
        return static_cast<std::uint32_t>(i * i);
    };
    auto stop = [](std::uint32_t v) { return v == 11 * 11 || v == 20 * 20; };
    std::size_t last_finished = 0, calls = 0;
    const auto dealt = dist::run_list(MPI_COMM_WORLD, 30, job, stop, [&](std::size_t finished, std::size_t total) {
        CHECK(total == 30);
        last_finished = finished;
        ++calls;
    });
    if (rank_of_world() != 0) {
        CHECK(calls == 0);
        return;
    }
    CHECK(dealt == dist::serial_list(30, job, stop));
    CHECK(dealt.size() == 12);
    CHECK(calls >= 1);
    CHECK(last_finished >= 12);  // every run made, past the stop too, is counted
}

TEST_CASE("a run that throws stops the list on every rank, which all throw the earliest failed run's error") {
    auto job = [](std::size_t i) -> int {
        if (i == 5 || i == 9) throw config_error(detail::message("no run at ", i));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return static_cast<int>(i);
    };
    // A refusal (config_error) is thrown on every rank as the refusal the serial list makes:
    // the same type and message, so that every rank of a tool ends with status 2 and that message.
    CHECK_THROWS_AS(dist::run_list(MPI_COMM_WORLD, 40, job), config_error);
    CHECK_THROWS_AS(dist::serial_list(40, job), config_error);
    try {
        dist::run_list(MPI_COMM_WORLD, 40, job);
    } catch (const config_error& e) {
        // Index 5, or 9 if it was dealt, and failed, before 5 lowered the limit.
        const std::string what = e.what();
        CHECK((what == "fabric: no run at 5" || what == "fabric: no run at 9"));
    }
    // Any other error is a fault: a runtime_error naming the run and the rank.
    auto faulty = [](std::size_t i) -> int {
        if (i == 3) throw std::logic_error("fabric: broken at 3");
        return 0;
    };
    CHECK_THROWS_WITH_AS(dist::run_list(MPI_COMM_WORLD, 6, faulty),
                         doctest::Contains("fabric: run 3 of the list failed on rank"), std::runtime_error);
    CHECK_THROWS_WITH_AS(dist::run_list(MPI_COMM_WORLD, 6, faulty), doctest::Contains(": broken at 3"),
                         std::runtime_error);
    // Whatever it throws: an int reaches every rank as a fabric: error too.
    auto odd = [](std::size_t i) -> int {
        if (i == 2) throw 7;
        return 0;
    };
    CHECK_THROWS_WITH_AS(dist::run_list(MPI_COMM_WORLD, 6, odd),
                         doctest::Contains("run 2 of the list failed on rank"), std::runtime_error);
    CHECK_THROWS_WITH_AS(dist::run_list(MPI_COMM_WORLD, 6, odd),
                         doctest::Contains(": an exception not derived from std::exception"), std::runtime_error);
    // The list after it runs as usual (the window was freed on every rank).
    const auto after = dist::run_list(MPI_COMM_WORLD, 4, [](std::size_t i) { return static_cast<int>(i) + 1; });
    if (rank_of_world() == 0) CHECK(after == std::vector<int>{1, 2, 3, 4});
}

int main(int argc, char** argv) {
    const dist::Session session(argc, argv, true);
    doctest::Context context(argc, argv);
    if (!session.root()) context.setOption("minimal", true);  // other ranks speak only of failures
    return context.run();
}
