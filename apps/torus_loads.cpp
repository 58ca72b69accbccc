// Channel loads of k-ary n-cubes under uniform traffic with dimension-order
// routing, from the flow-level kernel, beside the textbook values of Dally and
// Towles (every node sends one unit spread evenly over all k^n nodes):
//   torus, tie split evenly      every channel k/8
//   torus, tie always positive   + channels k/8 + 1/4, - channels k/8 - 1/4
//   mesh                         bisection channels k/4
//
//   torus_loads [--format text|csv|json]   (the tools' options: docs/tools.md)
//   torus_loads --channels 8,8 [--mesh] [--tie positive] [--format csv|json]
//                 every channel's load of one k-ary n-cube (n <= 4), for the heat
//                 maps of tools/plot
#include <fabric/experiment/json.hpp>
#include <fabric/fabric.hpp>

#include "common/tool.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

struct Row {
    std::string network;
    std::string routing;
    std::string channels;
    double textbook;
    double measured;
};

template <std::size_t R, fabric::Boundary B, class Routing>
fabric::LinkLoads uniform_loads(long long k) {
    using T = fabric::KAryNCube<R, fabric::BasicLink<2>, fabric::DynamicExtents, B>;
    const T topo(std::vector<long long>(R, k));
    const fabric::Fabric<T, Routing> net{topo};
    return fabric::link_load(net, fabric::UniformTraffic(topo.node_count()));
}

/// Largest load on channels of one direction (+ when plus, - otherwise).
double max_in_direction(const fabric::LinkLoads& loads, bool plus) {
    double m = 0;
    const auto per = loads.per_channel();
    for (std::size_t c = 0; c < per.size(); ++c)
        if (((c % loads.ports_per_node()) % 2 == 0) == plus && per[c] > m) m = per[c];
    return m;
}

/// Whether link_load takes the symmetric path for uniform traffic on this cube under this routing
/// (sim/link_load.hpp): the torus under dimension order does; the mesh states no symmetry and is walked
/// pair by pair.
template <std::size_t R, fabric::Boundary B, class Routing>
constexpr bool by_symmetry = fabric::detail::symmetry_undeclared<
    fabric::Fabric<fabric::KAryNCube<R, fabric::BasicLink<2>, fabric::DynamicExtents, B>, Routing>,
    fabric::UniformTraffic>().empty();

/// What link_load of uniform traffic on the cube of `radices` costs, added to `cost` before it starts,
/// counted from what each path does. By symmetry (sim/link_load_symmetric.hpp): the flows of one source
/// (a node each), then in each dimension the legs of one ring to every position, k^2 / 4 hops for k
/// nodes, about 410 instructions a hop (callgrind: rings of 4,096 and 8,192), then every channel filled
/// from its orbit. Pair by pair: every pair's route, about 140 instructions a pair and 13 a hop of its
/// mean route (k / 4 a torus dimension, (k^2 - 1) / (3k) a mesh one; callgrind: 16x16 to 64x64 meshes).
/// `written`: each channel's record written, about 6,200 instructions as csv and 13,500 as json (callgrind:
/// 16x16 to 64x64x4), and its memory, about 100 bytes as csv and 1,000 as json (peak resident: 256x256 csv
/// 31 MB, 128x128 json 72 MB).
template <std::size_t R, fabric::Boundary B, class Routing>
void add_cube_cost(fabric_apps::Cost& cost, const std::vector<long long>& radices, const std::string& name,
                   const char* written = nullptr) {
    constexpr bool torus = B == fabric::Boundary::wrap;
    double nodes = 1, hops = 0, legs = 0, channels = 0;
    for (const long long k : radices) nodes *= static_cast<double>(k);
    for (const long long r : radices) {
        const double k = static_cast<double>(r);
        hops += torus ? (r % 2 == 0 ? k / 4 : (k * k - 1) / (4 * k)) : (k * k - 1) / (3 * k);
        legs += k * k / 4;
        channels += r < 2 ? 0 : torus ? 2 * nodes : 2 * (k - 1) * nodes / k;
    }
    if constexpr (by_symmetry<R, B, Routing>) {
        cost.add(name + ": flows of one source", nodes, 30);
        cost.add(name + ": ring legs (k^2 / 4 hops a dimension)", legs, 410);
        cost.add(name + ": channels filled", channels, 50);
    } else {
        cost.add(name + ": router pairs walked", nodes * nodes, 140);
        cost.add(name + ": route hops", nodes * nodes * hops, 13);
    }
    if (written) {
        const bool json = std::string(written) == "json";
        cost.add(name + ": channels written", channels, json ? 13500 : 6200);
        cost.need("each channel's record" + std::string(json ? " and JSON" : ""), channels * (json ? 1000 : 100));
    }
    cost.need("the loads of every channel", 8 * nodes * 2 * static_cast<double>(R));
}

template <std::size_t R>
void add_rows(std::vector<Row>& rows, long long k) {
    using fabric::Boundary;
    const std::string shape = std::to_string(k) + "-ary " + std::to_string(R) + "-cube";
    const double kd = static_cast<double>(k);
    rows.push_back({shape + " torus", "DOR, tie split", "all", kd / 8,
                    uniform_loads<R, Boundary::wrap, fabric::DorTieSplit<>>(k).max_load()});
    const auto positive = uniform_loads<R, Boundary::wrap, fabric::DorTiePositive<>>(k);
    rows.push_back({shape + " torus", "DOR, tie +", "+ channels", kd / 8 + 0.25, max_in_direction(positive, true)});
    rows.push_back({shape + " torus", "DOR, tie +", "- channels", kd / 8 - 0.25, max_in_direction(positive, false)});
    rows.push_back({shape + " mesh", "DOR", "bisection", kd / 4,
                    uniform_loads<R, Boundary::open, fabric::DorTieSplit<>>(k).max_load()});
}

/// The cubes of the table, in its order: f(rank, radix) each.
template <class F>
void for_each_table_cube(F&& f) {
    f(std::integral_constant<std::size_t, 1>{}, 8);
    f(std::integral_constant<std::size_t, 2>{}, 8);
    f(std::integral_constant<std::size_t, 3>{}, 8);
    f(std::integral_constant<std::size_t, 2>{}, 16);
    f(std::integral_constant<std::size_t, 4>{}, 4);
}

struct Settings : fabric_apps::Common {
    std::vector<long long> channels;  // radices of one k-ary n-cube: its per-channel loads
    bool mesh = false;
    std::string tie = "split";  // split | positive

    static fabric_apps::Options<Settings> options() {
        using namespace fabric_apps;
        using S = Settings;
        Options<S> o{
            option<S>(&S::channels, "--channels", "radices of one k-ary n-cube (n <= 4), e.g. 8,8: every channel's load "
                      "under uniform traffic, as csv or json", within<long long>(1, 1LL << 30)),
            flag<S>(&S::mesh, "--mesh", "a mesh rather than a torus").with("--channels"),
            option<S>(&S::tie, "--tie", "a tie (k even) split evenly or always + (a torus: without --mesh)",
                      one_of({"split", "positive"})).with("--channels").without("--mesh"),
        };
        // "table", the older name of the text table, is still read.
        for (auto& f : format_options<S>({"text", "csv", "json"}, {}, {{"table", "text"}})) o.push_back(std::move(f));
        return o;
    }
};

template <std::size_t R, fabric::Boundary B, class Routing>
void print_channels(const Settings& s, std::ostream& out) {
    using T = fabric::KAryNCube<R, fabric::BasicLink<2>, fabric::DynamicExtents, B>;
    fabric_apps::Cost cost = fabric_apps::tool_start();
    add_cube_cost<R, B, Routing>(cost, s.channels, "loads", s.format.c_str());
    fabric_apps::check(cost);
    const T topo(s.channels);
    const fabric::Fabric<T, Routing> net{topo};
    const auto records =
        fabric::experiment::channel_load_records(topo, fabric::link_load(net, fabric::UniformTraffic(topo.node_count())));
    if (s.format == "json")
        fabric_apps::write_json(out, fabric::experiment::to_json(std::span<const fabric::experiment::ChannelLoadRecord>(records)));
    else {
        fabric_apps::write_csv_provenance(out);
        fabric::experiment::write_csv(out, records);
    }
}

template <std::size_t R>
void channels_of(const Settings& s, std::ostream& out) {
    using fabric::Boundary;
    if (s.mesh) print_channels<R, Boundary::open, fabric::DorTieSplit<>>(s, out);
    else if (s.tie == "positive") print_channels<R, Boundary::wrap, fabric::DorTiePositive<>>(s, out);
    else print_channels<R, Boundary::wrap, fabric::DorTieSplit<>>(s, out);
}

int channels(const Settings& s, std::ostream& out) {
    fabric::detail::require(s.channels.size() >= 1 && s.channels.size() <= 4,
                            "--channels takes 1 to 4 radices, e.g. 8,8; got ", s.channels.size());
    fabric::detail::require(s.format != "text", "--channels writes csv or json: add --format csv or --format json");
    switch (s.channels.size()) {
        case 1: channels_of<1>(s, out); break;
        case 2: channels_of<2>(s, out); break;
        case 3: channels_of<3>(s, out); break;
        default: channels_of<4>(s, out); break;
    }
    return 0;
}

int loads(const Settings& s, fabric_apps::OutputFile& out) {
    if (!s.channels.empty()) return channels(s, out.stream());
    enum class Format { table, csv, json };
    const Format format = s.format == "csv" ? Format::csv : s.format == "json" ? Format::json : Format::table;  // text: the table
    // The table's cubes, each a torus with ties split, with ties positive, and a mesh (add_rows): their
    // cost, then their rows.
    fabric_apps::Cost cost = fabric_apps::tool_start();
    for_each_table_cube([&]<std::size_t R>(std::integral_constant<std::size_t, R>, long long k) {
        using fabric::Boundary;
        const std::vector<long long> radices(R, k);
        const std::string shape = std::to_string(k) + "-ary " + std::to_string(R) + "-cube";
        add_cube_cost<R, Boundary::wrap, fabric::DorTieSplit<>>(cost, radices, shape + " torus, ties split");
        add_cube_cost<R, Boundary::wrap, fabric::DorTiePositive<>>(cost, radices, shape + " torus, ties +");
        add_cube_cost<R, Boundary::open, fabric::DorTieSplit<>>(cost, radices, shape + " mesh");
    });
    fabric_apps::check(cost);
    std::vector<Row> rows;
    for_each_table_cube([&]<std::size_t R>(std::integral_constant<std::size_t, R>, long long k) { add_rows<R>(rows, k); });

    bool all_match = true;
    for (const Row& r : rows) all_match = all_match && std::abs(r.textbook - r.measured) < 1e-9;

    switch (format) {
        case Format::table:
            out.printf("Uniform traffic, dimension-order routing: busiest channel load (units per node)\n\n");
            out.printf("%-22s %-16s %-12s %10s %10s\n", "network", "routing", "channels", "textbook", "kernel");
            for (const Row& r : rows)
                out.printf("%-22s %-16s %-12s %10.4f %10.4f\n", r.network.c_str(), r.routing.c_str(),
                            r.channels.c_str(), r.textbook, r.measured);
            out.printf("\n%s\n", all_match ? "every load matches the textbook value" : "MISMATCH");
            break;
        case Format::csv:
            fabric_apps::write_csv_provenance(out.stream());
            out.printf("network,routing,channels,textbook,kernel\n");
            for (const Row& r : rows)
                out.printf("%s,%s,%s,%.6f,%.6f\n", r.network.c_str(), r.routing.c_str(), r.channels.c_str(),
                            r.textbook, r.measured);
            break;
        case Format::json: {
            nlohmann::json j{{"rows", nlohmann::json::array()}, {"all_match", all_match}};
            for (const Row& r : rows)
                j["rows"].push_back({{"network", r.network}, {"routing", r.routing}, {"channels", r.channels},
                                     {"textbook", r.textbook}, {"kernel", r.measured}});
            fabric_apps::write_json(out.stream(), j);
            break;
        }
    }
    return all_match ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    return fabric_apps::run_tool<Settings>(
        argc, argv, "torus_loads",
        "busiest-channel loads of tori and meshes under uniform traffic and dimension-order routing, from the "
        "flow-level kernel, beside the textbook values (status 1 if one differs).",
        loads);
}
