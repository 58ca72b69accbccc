// The identity harness (bench/kernel_identity builds and runs it against a
// reference kernel and this one, and compares): each configuration's result,
// every field, printed as text.
//
//   kernel_identity [NAME...]   only the configurations named (default: all)
#include "group.hpp"

#include <algorithm>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::vector<std::string> only(argv + 1, argv + argc);
    const identity::Wanted wanted = [&](const std::string& name) {
        return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
    };
    identity::routers_group(wanted);
    identity::traffic_group(wanted);
    identity::families_group(wanted);
    identity::systems_group(wanted);
    return 0;
}
