// Chakra execution traces (MLCommons Chakra, the workloads of ASTRA-sim) in their
// JSON form, as workload graphs; opt-in: include this header and link nlohmann_json
// (Debian nlohmann-json3-dev), like experiment/json.hpp.
//
// A Chakra trace is one file a rank. Its JSON form is what Chakra's jsonizer writes:
// the GlobalMetadata object, then one object a Node (et_def.proto), one after the
// other, field names in protobuf's JSON spelling (ctrlDeps, durationMicros, int64Val;
// the proto's own names, ctrl_deps, duration_micros, int64_val, are read too), 64-bit
// numbers as strings or numbers, enums by name or number; a JSON array of such
// objects is read as well. read_chakra_json(path) reads path as rank 0 when its name
// does not end in `.<rank>.json`; `name.0.json` is read with name.1.json, name.2.json
// and so on, while they exist, as ranks 1, 2, ... (ASTRA-sim's `name.<rank>.et`).
//
// Nodes: COMP_NODE (and MEM_LOAD_NODE, MEM_STORE_NODE) is a compute of its
// duration_micros times `cycles_per_microsecond` cycles; COMM_SEND_NODE a send of
// comm_size bytes to rank comm_dst with tag comm_tag; COMM_RECV_NODE a recv from
// comm_src; METADATA_NODE a compute of 0 cycles (it passes its dependencies on).
// ctrl_deps and data_deps name nodes of the same rank the node waits for. Sends are
// matched to recvs and the graph built as workload/matching.hpp says. A COMM_COLL_NODE
// is a collective, expanded by fabric's own algorithms (ChakraOptions::expand;
// collective/expander.hpp): comm_type (Chakra's CollectiveCommType: ALL_REDUCE,
// REDUCE, ALL_GATHER, BROADCAST, ALL_TO_ALL, REDUCE_SCATTER and REDUCE_SCATTER_BLOCK,
// BARRIER; GATHER and SCATTER are refused), comm_size its size as nccl-tests counts
// it (an allreduce's whole vector), `root` a broadcast's or reduce's root rank (the
// first participant without it), `pg_name` its process group: the k-th collective
// of a group on each rank whose trace has one is one collective over those ranks
// (without pg_name, or with an empty one, one group). An `involved_dim` that leaves out a dimension
// (ASTRA-sim's hierarchical network) is refused. Every refusal names
// the file and line (the line where the node's object starts); files are read with a
// bound on their size.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <fabric/core/error.hpp>
#include <fabric/workload/graph.hpp>
#include <fabric/workload/matching.hpp>
#include <fabric/workload/text.hpp>

namespace fabric::workload {

struct ChakraOptions {
    double cycles_per_microsecond = 1000;  // a compute's duration_micros in cycles: 1,000 at a 1 ns cycle
    ops::CollectiveExpander expand;        // a COMM_COLL_NODE's algorithms (empty: collectives refused)
};

namespace chakra_detail {

/// The JSON objects of a text, each with the line it starts on (an array's elements with the array's).
inline std::vector<std::pair<nlohmann::json, std::size_t>> objects(const std::string& text, const std::string& source) {
    std::vector<std::pair<nlohmann::json, std::size_t>> out;
    std::istringstream in(text);
    std::size_t at = 0, line = 1;  // the position read up to, and its line
    auto advance = [&](std::size_t to) {
        for (; at < to && at < text.size(); ++at) line += text[at] == '\n';
    };
    for (;;) {
        in >> std::ws;
        if (in.peek() == std::char_traits<char>::eof()) break;
        advance(static_cast<std::size_t>(in.tellg()));
        const std::size_t start = line;
        nlohmann::json j;
        try {
            in >> j;  // one value; the stream stays after it
        } catch (const nlohmann::json::parse_error& e) {
            advance(at + (e.byte > 0 ? e.byte - 1 : 0));
            fabric::detail::require(false, source, ":", line, ": not JSON (", e.what(), ")");
        }
        if (j.is_array()) {
            for (auto& x : j) out.emplace_back(std::move(x), start);
        } else {
            out.emplace_back(std::move(j), start);
        }
        in.clear(in.rdstate() & ~std::ios::failbit);
    }
    return out;
}

/// A member by its protobuf JSON name or its proto name.
inline const nlohmann::json* member(const nlohmann::json& o, std::string_view json_name, std::string_view proto_name) {
    if (!o.is_object()) return nullptr;
    if (auto it = o.find(json_name); it != o.end()) return &*it;
    if (auto it = o.find(proto_name); it != o.end()) return &*it;
    return nullptr;
}

/// A whole number written as a JSON number or a string (protobuf's 64-bit form).
inline std::uint64_t whole(const nlohmann::json& v, const std::string& at, std::string_view what) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer()) {
        fabric::detail::require(v.get<std::int64_t>() >= 0, at, what, " must not be negative");
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    }
    if (v.is_string()) return whole_number(v.get<std::string>(), at, what, ~std::uint64_t{0});
    fabric::detail::require(false, at, what, " must be a whole number");
    return 0;
}

}  // namespace chakra_detail

/// The Chakra traces in `texts` (texts[r]: rank r's JSON, read from sources[r]) as one workload.
inline ExplicitGraph parse_chakra_json(const std::vector<std::string>& texts, const std::vector<std::string>& sources,
                                       const ChakraOptions& options = {}) {
    using Op = ops::Op;
    fabric::detail::require(!texts.empty() && texts.size() == sources.size(), "a Chakra workload needs one trace a rank");
    fabric::detail::require(std::isfinite(options.cycles_per_microsecond) && options.cycles_per_microsecond > 0,
                            "cycles_per_microsecond must be above 0");
    const auto num_ranks = static_cast<std::uint32_t>(texts.size());
    std::vector<ops::Rank> ranks(num_ranks);
    for (std::uint32_t r = 0; r < num_ranks; ++r) {
        const std::string& src = sources[r];
        ranks[r].source = src;
        std::unordered_map<std::uint64_t, std::size_t> index;  // a node's id -> its op
        std::vector<std::pair<std::vector<std::uint64_t>, std::size_t>> deps;  // per op: the ids it waits for
        for (const auto& [o, line] : chakra_detail::objects(texts[r], src)) {
            const std::string at = src + ":" + std::to_string(line) + ": ";
            fabric::detail::require(o.is_object(), at, "a Chakra trace holds objects (its metadata, then its nodes)");
            const nlohmann::json* type = chakra_detail::member(o, "type", "type");
            if (type == nullptr && (o.contains("version") || chakra_detail::member(o, "attr", "attr") != nullptr) &&
                !o.contains("id") && !o.contains("name"))
                continue;  // the GlobalMetadata object
            std::string kind = "INVALID_NODE";
            if (type != nullptr && type->is_string()) kind = type->get<std::string>();
            else if (type != nullptr && type->is_number_integer()) {
                static const char* names[] = {"INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE",
                                              "COMP_NODE",    "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE"};
                const auto t = type->get<std::int64_t>();
                kind = t >= 0 && t < 8 ? names[t] : "type " + std::to_string(t);
            }
            const nlohmann::json* idv = chakra_detail::member(o, "id", "id");
            const std::uint64_t id = idv ? chakra_detail::whole(*idv, at, "id") : 0;
            const std::string node = "node " + std::to_string(id) + ": ";
            std::unordered_map<std::string, const nlohmann::json*> attr;
            if (const nlohmann::json* a = chakra_detail::member(o, "attr", "attr"); a && a->is_array())
                for (const auto& x : *a)
                    if (const nlohmann::json* n = chakra_detail::member(x, "name", "name"); n && n->is_string()) {
                        // One value an attribute (protobuf's oneof), one entry a name: a second would be a
                        // guess at which one the trace means.
                        const std::string name = n->get<std::string>();
                        std::string first;  // its value's key
                        for (const auto& [k, v] : x.items())
                            if (k != "name" && k != "docString" && k != "doc_string") {
                                fabric::detail::require(first.empty(), at, node, "the attribute ", name,
                                                        " has two values (", first, ", ", k, ")");
                                first = k;
                                fabric::detail::require(attr.emplace(name, &v).second, at, node, "the attribute ",
                                                        name, " is given twice");
                            }
                        fabric::detail::require(!first.empty(), at, node, "the attribute ", name, " has no value");
                    }
            auto attribute = [&](const std::string& name, bool needed) -> std::optional<std::uint64_t> {
                const auto it = attr.find(name);
                if (it == attr.end()) {
                    fabric::detail::require(!needed, at, node, kind, " needs the attribute ", name);
                    return std::nullopt;
                }
                return chakra_detail::whole(*it->second, at, name);
            };
            Op op;
            op.rank = r;
            op.line = line;
            if (kind == "COMM_SEND_NODE" || kind == "COMM_RECV_NODE") {
                const bool send = kind == "COMM_SEND_NODE";
                op.kind = send ? Op::send : Op::recv;
                const std::uint64_t peer = *attribute(send ? "comm_dst" : "comm_src", true);
                fabric::detail::require(peer < num_ranks, at, node, "rank ", peer, " is past the ", num_ranks,
                                        " ranks of the workload (one trace a rank)");
                op.peer = static_cast<std::uint32_t>(peer);
                op.size = *attribute("comm_size", true);
                op.tag = static_cast<std::uint32_t>(attribute("comm_tag", false).value_or(0));
            } else if (kind == "COMP_NODE" || kind == "MEM_LOAD_NODE" || kind == "MEM_STORE_NODE" ||
                       kind == "METADATA_NODE") {
                op.kind = Op::calc;
                const nlohmann::json* d = chakra_detail::member(o, "durationMicros", "duration_micros");
                const double micros =
                    kind == "METADATA_NODE" || d == nullptr ? 0.0 : static_cast<double>(chakra_detail::whole(*d, at, "duration"));
                const double cycles = std::ceil(micros * options.cycles_per_microsecond);
                fabric::detail::require(cycles < 1e15, at, node, "a compute of ", cycles, " cycles is too long");
                op.size = static_cast<std::uint64_t>(cycles);
            } else if (kind == "COMM_COLL_NODE") {
                op.kind = Op::coll;
                static const char* types[] = {"allreduce", "reduce", "allgather", "GATHER", "SCATTER", "broadcast",
                                              "alltoall", "reduce-scatter", "reduce-scatter", "barrier"};
                const std::uint64_t comm = *attribute("comm_type", true);
                fabric::detail::require(comm < 10 && comm != 3 && comm != 4, at, node, "comm_type ", comm, " is not a "
                                        "collective fabric runs (0 ALL_REDUCE, 1 REDUCE, 2 ALL_GATHER, 5 BROADCAST, "
                                        "6 ALL_TO_ALL, 7 REDUCE_SCATTER, 8 REDUCE_SCATTER_BLOCK, 9 BARRIER)");
                op.collective = types[comm];
                op.size = comm == 9 ? 0 : *attribute("comm_size", true);
                const std::uint64_t root = attribute("root", false).value_or(~std::uint64_t{0});
                fabric::detail::require(root == ~std::uint64_t{0} || root < num_ranks, at, node, "root ", root,
                                        " is past the ", num_ranks, " ranks of the workload");
                op.peer = static_cast<std::uint32_t>(root);
                if (const auto it = attr.find("pg_name"); it != attr.end()) {
                    fabric::detail::require(it->second->is_string(), at, node, "pg_name must be a string");
                    op.group = it->second->get<std::string>();
                }
                if (const auto it = attr.find("involved_dim"); it != attr.end()) {
                    const nlohmann::json* v = chakra_detail::member(*it->second, "values", "values");
                    fabric::detail::require(v != nullptr && v->is_array(), at, node, "involved_dim must be a list of "
                                            "booleans");
                    for (const auto& x : *v)
                        fabric::detail::require(x.is_boolean(), at, node, "involved_dim must be a list of booleans");
                    for (const auto& x : *v)
                        fabric::detail::require(x.get<bool>(), at, node, "involved_dim leaves out a "
                                                "dimension of ASTRA-sim's hierarchical network; fabric runs a "
                                                "collective over every rank of its process group (pg_name)");
                }
            } else {
                fabric::detail::require(false, at, node, "fabric runs COMP, COMM_SEND, COMM_RECV, COMM_COLL, MEM and "
                                        "METADATA nodes; this one is ", kind);
            }
            const bool added = index.emplace(id, ranks[r].ops.size()).second;
            fabric::detail::require(added, at, node, "id ", id, " is given twice in this trace");
            std::vector<std::uint64_t> waits;
            for (const auto& [json_name, proto_name] : {std::pair<std::string_view, std::string_view>{"ctrlDeps", "ctrl_deps"},
                                                        {"dataDeps", "data_deps"}})
                if (const nlohmann::json* list = chakra_detail::member(o, json_name, proto_name)) {
                    fabric::detail::require(list->is_array(), at, node, proto_name, " must be a list of node ids");
                    for (const auto& x : *list) waits.push_back(chakra_detail::whole(x, at, proto_name));
                }
            deps.emplace_back(std::move(waits), line);
            ranks[r].ops.push_back(op);
        }
        for (std::size_t k = 0; k < deps.size(); ++k)
            for (const std::uint64_t id : deps[k].first) {
                const auto it = index.find(id);
                fabric::detail::require(it != index.end(), src, ":", deps[k].second, ": a dependency names node ", id,
                                        ", which this trace does not have");
                fabric::detail::require(it->second != k, src, ":", deps[k].second, ": a node cannot wait for itself");
                ranks[r].ops[k].requires_.emplace_back(it->second, deps[k].second);
            }
    }
    return ops::matched_graph(ranks, num_ranks, sources.front(), options.expand);
}

/// The Chakra workload whose rank-0 trace is `path` (with its siblings `name.<rank>.json`), each file read with a bound.
inline ExplicitGraph read_chakra_json(const std::string& path, const ChakraOptions& options = {},
                                      std::uint64_t limit = TextLines::default_limit) {
    std::vector<std::string> texts{read_text_file(path, limit)}, sources{path};
    const std::string zero = ".0.json";
    if (path.size() > zero.size() && path.compare(path.size() - zero.size(), zero.size(), zero) == 0) {
        const std::string stem = path.substr(0, path.size() - zero.size());
        for (std::uint32_t r = 1;; ++r) {
            const std::string next = stem + "." + std::to_string(r) + ".json";
            if (!std::filesystem::exists(next)) break;
            fabric::detail::require(r < (1U << 24), path, ": more than 2^24 rank files");
            texts.push_back(read_text_file(next, limit));
            sources.push_back(next);
        }
    }
    return parse_chakra_json(texts, sources, options);
}

}  // namespace fabric::workload
