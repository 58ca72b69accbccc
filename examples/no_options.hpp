// The examples read like the papers and take no options: any argument is refused
// (status 2, a fabric: message) rather than silently ignored.
#pragma once

#include <cstdio>

namespace fabric_examples {

/// True (after the message) when the command line gives any argument.
inline bool refuse_options(int argc, char** argv) {
    if (argc <= 1) return false;
    std::fprintf(stderr, "fabric: %s takes no options (got '%s'); the programs in apps/ are the configurable tools\n",
                 argv[0], argv[1]);
    return true;
}

}  // namespace fabric_examples
