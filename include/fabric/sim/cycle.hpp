// The flit-level cycle kernel: fabric::CycleSimulator<Fabric> and its parts, each
// in sim/cycle/ with one job:
//   config.hpp       CycleConfig, PipelineDelays, Switching, progress callback
//   result.hpp       CycleResult (the run counts into it), LatencySummary, DeadlockReport
//   links.hpp        channel wiring, latency and serialisation per link
//   event_wheel.hpp  the calendar of flit arrivals and flow-control feedback
//   packet.hpp       flits, packets, source routes (RouteStore)
//   slot_pool.hpp    pools of packets and messages indexed by slot
//   ring_queue.hpp   source queues
//   reassembly.hpp   messages put back together; packets overtaking per pair
//   allocators.hpp   separable round-robin VC and switch allocation
//   simulator.hpp    the router pipeline, output queues, failures, watchdog, runs
#pragma once

#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/simulator.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
