// A downstream project with the mpi component: a list of link-load runs through
// the sweep runner (serial here, since no launcher started it).
#include <fabric/dist/sweep.hpp>
#include <fabric/fabric.hpp>

#include <iostream>

int main(int argc, char** argv) {
    const fabric::dist::Session session(argc, argv);
    const auto peaks = fabric::dist::run_list(session, 3, [](std::size_t i) {
        const fabric::Torus<2> torus{{4 * static_cast<long long>(i + 1), 8}};
        const fabric::Fabric<fabric::Torus<2>, fabric::DorTieSplit<>> net{torus};
        return fabric::link_load(net, fabric::UniformTraffic(torus.node_count())).max_load();
    });
    std::cout << "peaks " << peaks[0] << ' ' << peaks[1] << ' ' << peaks[2] << "\n";
    return peaks.size() == 3 && peaks[1] == 1.0 ? 0 : 1;
}
