// What made an output, so that a file kept for months can say it: the tool, the
// library's version (and the git commit when built from a checkout), and the
// complete settings of the run, the file --dump-config writes, seeds included.
// run_tool (tool.hpp) records them before a tool's body runs; every JSON a tool
// writes carries them as its "provenance" object, and every CSV starts with them
// as '#' lines (which tools/plot, and readers given comment='#', skip).
#pragma once

#include <ostream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace fabric_apps {

/// This process's provenance: {"tool", "fabric", "commit" (built from git only), "settings"}; null before run_tool sets it.
inline nlohmann::json& provenance() {
    static nlohmann::json p;
    return p;
}

/// Records the provenance of the outputs to come.
inline void record_provenance(const std::string& tool, const std::string& version, const std::string& commit,
                              nlohmann::json settings) {
    nlohmann::json p{{"tool", tool}, {"fabric", version}};
    if (!commit.empty()) p["commit"] = commit;
    p["settings"] = std::move(settings);
    provenance() = std::move(p);
}

/// A tool's JSON result with its provenance ("provenance", last), written with `indent` (-1: one line).
inline void write_json(std::ostream& out, nlohmann::json j, int indent = 1) {
    if (j.is_object() && !provenance().is_null()) j["provenance"] = provenance();
    out << j.dump(indent) << '\n';
}

/// The '#' lines a CSV starts with: what made it, then its settings as one line of JSON.
inline void write_csv_provenance(std::ostream& out) {
    const nlohmann::json& p = provenance();
    if (p.is_null()) return;
    out << "# " << p["tool"].get<std::string>() << " (fabric " << p["fabric"].get<std::string>();
    if (p.contains("commit")) out << ", commit " << p["commit"].get<std::string>();
    out << ")\n# settings: " << p["settings"].dump() << '\n';
}

}  // namespace fabric_apps
