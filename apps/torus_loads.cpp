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
    // Uniform traffic routes every pair: nodes^2 routes of at most sum(k)/3 + 1 hops
    // on average (k/4 a torus dimension, k/3 a mesh one); about 7.5e8 hops a second
    // measured on a 64x64 torus.
    double nodes = 1, hops = 1;
    for (const long long k : s.channels) {
        nodes *= static_cast<double>(k);
        hops += static_cast<double>(k) / 3;
    }
    fabric_apps::check(fabric_apps::Cost().add("route hops", nodes * nodes * hops, 3.75));
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
    std::vector<Row> rows;
    add_rows<1>(rows, 8);
    add_rows<2>(rows, 8);
    add_rows<3>(rows, 8);
    add_rows<2>(rows, 16);
    add_rows<4>(rows, 4);

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
