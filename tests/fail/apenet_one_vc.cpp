// expect: fabric: the channel-dependency graph of this routing on this topology has a cycle
// APEnet+ with one receive FIFO per link instead of two: dimension order without a
// dateline on the static 4x2x2 QUonG torus can deadlock (its 4-rings), and the
// composition refuses it. With two, and the dateline, it is accepted.
#include <fabric/composition.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/link/apenet.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/topology/torus.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
using Net = fabric::Fabric<fabric::Torus<3, fabric::ApenetLinkT<1>, fabric::StaticExtents<4, 2, 2>>,
                           fabric::DorTieSplit<fabric::NoDateline>, fabric::ApenetCredit>;
#else
using Net = fabric::Fabric<fabric::Torus<3, fabric::ApenetLinkT<2>, fabric::StaticExtents<4, 2, 2>>,
                           fabric::DorTieSplit<fabric::Dateline>, fabric::ApenetCredit>;
#endif
static_assert(sizeof(Net) > 0);
