// dist/codec.hpp: every kind of value the sweep runner hands between ranks comes
// back as it went, the library's adapted results field by field, and bytes that
// end early or claim more than they hold are refused with a fabric: message.
#include <doctest/doctest.h>

#include <fabric/dist/codec.hpp>
#include <fabric/dist/results.hpp>

#include <boost/hana/define_struct.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace unit_codec {  // the unit's own names: tests/CMakeLists.txt builds units in batches

using namespace fabric;
using namespace fabric::dist;

namespace {
template <class T>
T round_trip(const T& v) {
    ByteWriter w;
    encode(w, v);
    ByteReader r(w.bytes());
    T back{};
    decode(r, back);
    CHECK(r.done());
    return back;
}

struct Row {
    BOOST_HANA_DEFINE_STRUCT(Row, (std::string, name), (std::vector<double>, values), (std::optional<std::uint32_t>, best));
};
}  // namespace

TEST_CASE("codec: numbers, strings, vectors, optionals and Hana structs come back as they went") {
    CHECK(round_trip(std::uint64_t{0x0123456789abcdefULL}) == 0x0123456789abcdefULL);
    CHECK(round_trip(-2.5) == -2.5);
    CHECK(round_trip(std::string("a,b\n")) == "a,b\n");
    CHECK(round_trip(std::string()).empty());
    CHECK(round_trip(std::vector<int>{3, 1, 2}) == std::vector<int>{3, 1, 2});
    CHECK(round_trip(std::vector<std::string>{"x", "", "yz"}) == std::vector<std::string>{"x", "", "yz"});
    CHECK(round_trip(std::optional<int>{}) == std::nullopt);
    CHECK(round_trip(std::optional<int>{7}) == 7);
    const Row row{"torus", {0.25, 0.5}, 4U};
    const Row back = round_trip(row);
    CHECK(back.name == "torus");
    CHECK(back.values == row.values);
    CHECK(back.best == 4U);
    const auto rows = round_trip(std::vector<Row>{row, Row{"mesh", {}, std::nullopt}});
    REQUIRE(rows.size() == 2);
    CHECK(rows[1].name == "mesh");
    CHECK(!rows[1].best);
}

TEST_CASE("codec: a LoadPoint with a deadlock report keeps every field") {
    experiment::LoadPoint p;
    p.offered = 0.35;
    p.accepted = {0.34, 0.01, 3};
    p.latency = {41.5, 2.25, 3};
    p.percentiles = {0.5, 0.99};
    p.latency_percentile = {{40, 1, 3}, {97, 4, 3}};
    p.hops = {4.1, 0.05, 3};
    p.runs = 3;
    p.saturated_runs = 1;
    p.deadlocked_runs = 1;
    p.deadlock = DeadlockReport{1200, 500, 17, {VirtualChannel{NodeId{3}, PortId{1}, 0}, {NodeId{4}, PortId{2}, 1}}};
    const auto q = round_trip(p);
    CHECK(q.offered == p.offered);
    CHECK(q.accepted.mean == p.accepted.mean);
    CHECK(q.accepted.half_width == p.accepted.half_width);
    CHECK(q.accepted.samples == 3);
    CHECK(q.latency.mean == p.latency.mean);
    CHECK(q.percentiles == p.percentiles);
    REQUIRE(q.latency_percentile.size() == 2);
    CHECK(q.latency_percentile[1].mean == 97);
    CHECK(q.hops.mean == p.hops.mean);
    CHECK(q.runs == 3);
    CHECK(q.saturated_runs == 1);
    CHECK(q.deadlocked_runs == 1);
    REQUIRE(q.deadlock);
    CHECK(q.deadlock->cycle == 1200);
    CHECK(q.deadlock->idle_cycles == 500);
    CHECK(q.deadlock->flits_buffered == 17);
    CHECK(q.deadlock->waiting == p.deadlock->waiting);
    CHECK(q.deadlock->describe() == p.deadlock->describe());
}

TEST_CASE("codec: bytes that end early, or a length past the bytes, are refused") {
    ByteWriter w;
    encode(w, std::vector<std::uint32_t>{1, 2, 3});
    std::vector<std::byte> cut = w.bytes();
    cut.pop_back();
    ByteReader r(cut);
    std::vector<std::uint32_t> v;
    CHECK_THROWS_WITH_AS(decode(r, v), doctest::Contains("fabric: a result's vector says 3 elements"), config_error);
    ByteWriter s;
    encode(s, std::uint64_t{1000});  // a string of 1000 characters, with none following
    ByteReader rs(s.bytes());
    std::string text;
    CHECK_THROWS_WITH_AS(decode(rs, text), doctest::Contains("fabric: a result's string says 1000"), config_error);
    ByteReader empty(std::span<const std::byte>{});
    double x = 0;
    CHECK_THROWS_WITH_AS(decode(empty, x), doctest::Contains("fabric: a result's bytes end early"), config_error);
}

}  // namespace unit_codec
