// Credit-based flow control, the default protocol: the sender holds one credit per
// free buffer slot of the receiver's virtual channel, spends one per flit sent, and
// gets it back `credit_delay` cycles after the receiver frees the slot.
#pragma once

#include <cstdint>
#include <string_view>

#include <fabric/concepts/flow_control.hpp>
#include <fabric/core/error.hpp>

namespace fabric {

struct Credit {
    static constexpr std::string_view name = "credit";

    /// Buffer slots (flits) per virtual channel at the receiving input port.
    std::uint32_t buffer_flits = 8;
    /// Cycles from freeing a slot to the sender seeing the credit.
    std::uint32_t credit_delay = 1;

    template <LinkType L>
    static constexpr bool drives = L::virtual_channels >= 1;

    constexpr void validate() const {
        detail::require(buffer_flits >= 1, "Credit flow control needs at least 1 buffer slot per virtual channel; got ",
                        buffer_flits);
    }
};

}  // namespace fabric
