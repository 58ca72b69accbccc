// expect: fabric: vcs_by_link_type needs a count for every link type of the topology
// PERCS has LL, LR and D links; a map that leaves out D is refused.
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/type.hpp>

#include <fabric/concepts/topology.hpp>
#include <fabric/link/percs.hpp>
#include <fabric/topology/percs.hpp>

namespace hana = boost::hana;

#ifdef FABRIC_MUST_NOT_COMPILE
constexpr auto needs = hana::make_map(hana::make_pair(hana::type_c<fabric::PercsLL>, 3),
                                      hana::make_pair(hana::type_c<fabric::PercsLR>, 3));
#else
constexpr auto needs = hana::make_map(hana::make_pair(hana::type_c<fabric::PercsLL>, 3),
                                      hana::make_pair(hana::type_c<fabric::PercsLR>, 3),
                                      hana::make_pair(hana::type_c<fabric::PercsD>, 2));
#endif
constexpr auto vcs = fabric::vcs_by_link_type<fabric::PercsTopology>(needs);
static_assert(vcs[0] == 3);
