// The k-ary n-cubes of rank 4 (cube.hpp), in a translation unit of their own.
#include "cube.hpp"

template int fabric_apps::cycle_sim::simulate_cube<4>(const fabric_apps::RunSettings&, const fabric::NamedPattern&, fabric_apps::cycle_sim::Outputs&);
