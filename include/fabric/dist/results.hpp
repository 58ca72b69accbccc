// The library's result types that sweeps hand between ranks, adapted for
// Boost.Hana so that dist/codec.hpp encodes them member by member: a point of a
// latency-load curve (experiment::LoadPoint) and a deadlock report. A field
// added to either must be added here too (tests/runtime/codec.cpp round-trips
// every field).
#pragma once

#include <boost/hana/adapt_struct.hpp>

#include <fabric/dist/codec.hpp>
#include <fabric/experiment/sweep.hpp>
#include <fabric/sim/cycle/result.hpp>

// Member by member, so that no padding byte travels: results encode to the same bytes every time.
BOOST_HANA_ADAPT_STRUCT(fabric::VirtualChannel, node, port, vc);
BOOST_HANA_ADAPT_STRUCT(fabric::DeadlockReport, cycle, idle_cycles, flits_buffered, waiting);
BOOST_HANA_ADAPT_STRUCT(fabric::experiment::LoadPoint, offered, accepted, latency, percentiles, latency_percentile,
                        hops, runs, saturated_runs, deadlocked_runs, deadlock);
