// LogGOPSim's GOAL schedules (Hoefler, Siebert and Lumsdaine, "Group Operation
// Assembly Language", 2009; the text that LogGOPSim's txt2bin reads) as workload
// graphs, so that schedules from LogGOPSim and Schedgen run as they are:
//
//   num_ranks 2
//   rank 0 {
//   l1: send 8b to 1 tag 0          // a message of 8 bytes to rank 1
//   l2: calc 100                    // 100 cycles of computation
//   l2 requires l1                  // l2 starts once l1 has completed
//   }
//   rank 1 {
//   l1: recv 8b from 0 tag 0
//   }
//
// Operations: `send Nb to R [tag T] [cpu C] [nic N]`, `recv Nb from R [tag T] [cpu C]
// [nic N]`, `calc N [cpu C]`, each optionally labelled (`label:`, a label per rank);
// `A requires B` (A starts once B has completed) and `A irequires B` (A starts once
// B may start); `//` and `/* */` comments. Times are cycles. `nic N` is the rail
// the message leaves or arrives by (workload/placement.hpp); fabric models one CPU
// a rank, so `cpu` must be 0.
//
// The graph: a send and the recv it matches are one message node (sender to
// receiver); recvs are matched to sends as MPI matches them, by source, tag and
// order: the k-th send from rank a to rank b with tag t is the k-th recv at b from a
// with tag t, in the order of the file (wildcards, `-1`, need run-time matching and
// are refused). The message waits for what its send requires. A recv's completion
// is its message's delivery plus the receive overhead (workload/endpoints.hpp); a
// recv that requires something becomes a compute node of 0 cycles at the receiver
// that waits for both its message and what it requires. A send completes when its
// last flit has left (Completion::sent; LogGOPSim completes an eager send at the
// end of its CPU overhead instead). `A irequires B` gives A what B waits for (B's
// start), where `requires` would wait for B's end. Every refusal names the file and
// line; the file is read with a bound on its size.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fabric/concepts/workload.hpp>
#include <fabric/core/error.hpp>
#include <fabric/workload/graph.hpp>
#include <fabric/workload/matching.hpp>
#include <fabric/workload/text.hpp>

namespace fabric::workload {

namespace goal_detail {

/// Splits a line (comments gone) into words, ':' and braces standing alone.
inline std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
        } else if (c == ':' || c == '{' || c == '}') {
            out.push_back(line.substr(i, 1));
            ++i;
        } else {
            std::size_t j = i;
            while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' && line[j] != ':' &&
                   line[j] != '{' && line[j] != '}')
                ++j;
            out.push_back(line.substr(i, j - i));
            i = j;
        }
    }
    return out;
}

inline bool is_label(std::string_view w) {
    if (w.empty() || !((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z'))) return false;
    return std::all_of(w.begin(), w.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

}  // namespace goal_detail

/// The GOAL schedule in `text`; `source` names it in refusals.
inline ExplicitGraph parse_goal(std::string_view text, const std::string& source) {
    using Op = ops::Op;
    std::vector<ops::Rank> ranks;
    std::uint64_t num_ranks = 0;
    bool have_num = false;
    std::int64_t current = -1;  // the rank whose block is open
    std::vector<std::uint8_t> seen;
    TextLines lines(text, source);
    std::string_view text_line;
    while (lines.next(text_line)) {
        const std::string at = lines.at();
        const auto w = goal_detail::words(text_line);
        if (w.empty()) continue;
        auto number = [&](std::size_t i, std::string_view what, std::uint64_t below) {
            fabric::detail::require(i < w.size(), at, "expected ", what, " after '", w[i - 1], "'");
            return whole_number(w[i], at, what, below);
        };
        if (current < 0) {
            if (w[0] == "num_ranks") {
                fabric::detail::require(!have_num, at, "num_ranks is given twice");
                fabric::detail::require(w.size() == 2, at, "expected 'num_ranks N'");
                num_ranks = number(1, "the number of ranks", std::uint64_t{1} << 24);
                fabric::detail::require(num_ranks >= 1, at, "a schedule needs at least one rank");
                have_num = true;
                ranks.resize(num_ranks);
                seen.assign(num_ranks, 0);
                continue;
            }
            fabric::detail::require(w[0] == "rank", at, "expected 'num_ranks N' or 'rank N {'; got '", w[0], "'");
            fabric::detail::require(have_num, at, "a rank before num_ranks; a schedule starts 'num_ranks N'");
            const std::uint64_t r = number(1, "a rank", num_ranks);
            fabric::detail::require(w.size() == 3 && w[2] == "{", at, "expected 'rank ", r, " {'");
            fabric::detail::require(!seen[r], at, "rank ", r, " is given twice");
            seen[r] = 1;
            current = static_cast<std::int64_t>(r);
            continue;
        }
        const auto r = static_cast<std::uint32_t>(current);
        ops::Rank& rank = ranks[r];
        if (w.size() == 1 && w[0] == "}") {
            current = -1;
            continue;
        }
        auto op_of = [&](std::string_view label) {
            const auto it = rank.labels.find(label);
            fabric::detail::require(it != rank.labels.end(), at, "label '", label, "' is not defined in rank ", r,
                                    " (a dependency names labels defined above it)");
            return it->second;
        };
        if (w.size() == 3 && (w[1] == "requires" || w[1] == "irequires")) {
            const std::size_t a = op_of(w[0]), b = op_of(w[2]);
            fabric::detail::require(a != b, at, "'", w[0], "' cannot wait for itself");
            (w[1] == "requires" ? rank.ops[a].requires_ : rank.ops[a].irequires_).emplace_back(b, lines.line());
            continue;
        }
        std::size_t i = 0;
        std::string_view label;
        if (w.size() >= 2 && w[1] == ":") {
            fabric::detail::require(goal_detail::is_label(w[0]), at, "'", w[0], "' is not a label (a letter, then "
                                    "letters, digits or '_')");
            label = w[0];
            i = 2;
        }
        fabric::detail::require(i < w.size(), at, "a label without an operation");
        Op op;
        op.rank = r;
        op.line = lines.line();
        const std::string_view verb = w[i];
        if (verb == "calc") {
            op.kind = Op::calc;
            op.size = number(i + 1, "the cycles of a calc", std::uint64_t{1} << 50);
            i += 2;
        } else if (verb == "send" || verb == "recv") {
            op.kind = verb == "send" ? Op::send : Op::recv;
            fabric::detail::require(i + 1 < w.size(), at, "expected a size in bytes after '", verb, "'");
            std::string_view size = w[i + 1];
            i += 2;
            if (!size.empty() && size.back() == 'b') {
                size.remove_suffix(1);
            } else {
                fabric::detail::require(i < w.size() && w[i] == "b", at, "a size is in bytes: '", size, "b'");
                ++i;
            }
            op.size = whole_number(size, at, "a size in bytes", std::uint64_t{1} << 50);
            const std::string_view dir = op.kind == Op::send ? "to" : "from";
            fabric::detail::require(i < w.size() && w[i] == dir, at, "expected '", dir, "' after the size");
            fabric::detail::require(i + 1 < w.size(), at, "expected a rank after '", dir, "'");
            fabric::detail::require(w[i + 1] != "-1", at, "a recv from any source (-1) needs run-time matching; "
                                    "fabric matches sends to recvs before the run: name the source");
            op.peer = static_cast<std::uint32_t>(number(i + 1, "a rank", num_ranks));
            i += 2;
        } else {
            fabric::detail::require(false, at, "expected send, recv, calc, or 'A requires B'; got '", verb, "'");
        }
        while (i < w.size()) {
            const std::string_view key = w[i];
            fabric::detail::require(key == "tag" || key == "cpu" || key == "nic", at, "expected tag, cpu or nic; "
                                    "got '", key, "'");
            fabric::detail::require(key != "tag" || op.kind != Op::calc, at, "a calc has no tag");
            fabric::detail::require(i + 1 < w.size(), at, "expected a number after '", key, "'");
            fabric::detail::require(!(key == "tag" && w[i + 1] == "-1"), at, "a recv of any tag (-1) needs run-time "
                                    "matching; fabric matches sends to recvs before the run: name the tag");
            const std::uint64_t v = number(i + 1, key, std::uint64_t{1} << 32);
            if (key == "tag") op.tag = static_cast<std::uint32_t>(v);
            else if (key == "nic") op.nic = static_cast<std::uint32_t>(v);
            else fabric::detail::require(v == 0, at, "fabric models one CPU a rank: cpu must be 0; got ", v);
            i += 2;
        }
        if (!label.empty()) {
            const bool added = rank.labels.emplace(std::string(label), rank.ops.size()).second;
            fabric::detail::require(added, at, "label '", label, "' is defined twice in rank ", r);
        }
        rank.ops.push_back(std::move(op));
    }
    fabric::detail::require(current < 0, source, ": rank ", current, "'s block is not closed ('}')");
    fabric::detail::require(have_num, source, ": no 'num_ranks N'; a GOAL schedule starts with it");

    return matched_graph(ranks, static_cast<std::uint32_t>(num_ranks), source);
}

/// The GOAL schedule in file `path`, read with a bound (TextLines::default_limit bytes).
inline ExplicitGraph read_goal(const std::string& path, std::uint64_t limit = TextLines::default_limit) {
    return parse_goal(read_text_file(path, limit), path);
}

}  // namespace fabric::workload
