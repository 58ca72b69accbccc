// The virtual channels PERCS routing policies need, by the kind of link: the
// policies count VCs by hop position (L0 < D0 < L1 < D1 < L2), so what a class
// needs depends on whether it is an L link (LL, LR) or a D link, keyed here by
// link type rather than by class position.
#pragma once

#include <cstddef>

#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/type.hpp>

#include <fabric/concepts/topology.hpp>
#include <fabric/link/percs.hpp>

namespace fabric::detail {

/// `l` virtual channels on L links (LL and LR), `d` on D links, per class of T.
template <class T>
constexpr auto percs_vcs(std::size_t l, std::size_t d) {
    namespace hana = boost::hana;
    return vcs_by_link_type<T>(hana::make_map(hana::make_pair(hana::type_c<PercsLL>, l),
                                              hana::make_pair(hana::type_c<PercsLR>, l),
                                              hana::make_pair(hana::type_c<PercsD>, d)));
}

}  // namespace fabric::detail
