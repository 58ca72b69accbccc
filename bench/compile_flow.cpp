// The flow kernel's twin of compile_cycle.cpp: the same torus and traffic through
// link_load, the reference a cycle-kernel program's compile time is measured against.
#include <fabric/fabric.hpp>

#include <cstdio>

int main() {
    using namespace fabric;
    const Fabric<Torus<2>, DorTieSplit<>> net{Torus<2>({8, 8})};
    std::printf("%.3f\n", link_load(net, UniformTraffic(64)).max_load());
}
