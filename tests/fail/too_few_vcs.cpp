// expect: fabric: the routing policy needs more virtual channels than the topology's links have
// The dateline needs two virtual channels; the QCDOC SCU link has one.
#include <fabric/composition.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/link/qcdoc_scu.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<6, fabric::QcdocScu>, fabric::DorTieSplit<fabric::Dateline>>;
#else
using Net = fabric::Fabric<fabric::Torus<6, fabric::ApenetLink>, fabric::DorTieSplit<fabric::Dateline>>;
#endif
static_assert(sizeof(Net) > 0);
