// The laws every loaded cycle-kernel run below saturation obeys, checked in one
// place: every measured packet delivered, none to the wrong terminal or out of
// order within itself, and flits conserved (injected = ejected + in flight).
#pragma once

#include <doctest/doctest.h>

#include <fabric/sim/cycle/result.hpp>

inline void check_delivered_and_conserved(const fabric::CycleResult& r) {
    CHECK(r.drained);
    CHECK(r.measured_delivered == r.measured_packets);
    CHECK(r.misdelivered == 0);
    CHECK(r.out_of_order == 0);
    CHECK(r.flits_injected == r.flits_ejected + r.flits_in_flight);
}
