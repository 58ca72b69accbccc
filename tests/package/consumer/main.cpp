// A downstream project: include the umbrella header and compute one textbook load.
#include <fabric/fabric.hpp>

#include <iostream>

int main() {
    const fabric::Torus<2> torus{{8, 8}};
    const fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>> net{torus};
    const auto loads = fabric::link_load(net, fabric::UniformTraffic(torus.node_count()));
    std::cout << "uniform max load " << loads.max_load() << "\n";
    return loads.max_load() == 1.0 ? 0 : 1;
}
